/**
 * npm run seed [-- path/to/businesses.json]
 * Loads the directory seed into whichever store the environment selects (see
 * netlify/lib/store/README.md). Safe to re-run: nothing is duplicated.
 */
import { resolve } from "node:path";
import { createStore, storeOptionsFromEnv } from "../netlify/lib/store/index.ts";
import { DEFAULT_SEED_FILE, readSeedFile, seedDirectory } from "../netlify/lib/store/seed.ts";

const file = resolve(process.argv[2] ?? process.env.TREELINE_SEED_FILE ?? DEFAULT_SEED_FILE);
const options = storeOptionsFromEnv();
// The explicit seed below replaces any seed-on-first-use.
const store = createStore({ ...options, seedFile: undefined, log: true });

try {
  if (!(await store.ping())) throw new Error(`${store.description} does not answer`);
  const items = readSeedFile(file);
  const started = performance.now();
  const report = await store.batch(() => seedDirectory(store, items));
  await store.redis.hset(`${store.prefix}meta`, { seededAt: new Date().toISOString(), seededFrom: file });
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
