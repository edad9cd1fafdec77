/**
 * npm run seed [-- path/to/businesses.json]
 * Loads the directory seed into whichever store the environment selects (see
 * netlify/lib/store/README.md). Safe to re-run: nothing is duplicated.
 */
import { resolve } from "node:path";
import { createStore, storeOptionsFromEnv } from "../netlify/lib/store/index.ts";
import { DEFAULT_SEED_FILE, readSeedFile, seedDirectory } from "../netlify/lib/store/seed.ts";
import { DIRECTORY_TAG, purgeQuietly } from "../netlify/lib/directory.ts";
import { env } from "../src/lib/env.ts";

const config = env();
const file = resolve(process.argv[2] ?? config.TREELINE_SEED_FILE ?? DEFAULT_SEED_FILE);
const options = storeOptionsFromEnv();
// The explicit seed below replaces any seed-on-first-use.
const store = createStore({ ...options, seedFile: undefined, log: true });

try {
  if (!(await store.ping())) throw new Error(`${store.description} does not answer`);
  const items = readSeedFile(file);
  const started = performance.now();
  const report = await store.batch(() => seedDirectory(store, items));
  await store.meta.seeded(file);
  // Directory pages are cached at Netlify's CDN until purged (docs/directory-pages.md); every
  // one carries the directory tag. Outside Netlify this needs SITE_ID and a token.
  const token = config.NETLIFY_PURGE_API_TOKEN ?? config.NETLIFY_AUTH_TOKEN;
  if (config.SITE_ID && token) {
    const { purgeCache } = await import("@netlify/functions");
    await purgeQuietly((tags) => purgeCache({ tags, siteID: config.SITE_ID, token }), [DIRECTORY_TAG]);
  } else if (store.kind !== "embedded") {
    console.log(
      "[seed] no SITE_ID + NETLIFY_AUTH_TOKEN: cached directory pages refresh within an hour or at the next deploy",
    );
  }
  console.log(
    `[seed] ${report.businesses} businesses, ${report.reviewsAdded} reviews added, ${report.reviewsKept} already present ` +
      `(${Math.round(performance.now() - started)} ms) into ${store.description}`,
  );
} catch (error) {
  console.error(`[seed] failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await store.close();
}
