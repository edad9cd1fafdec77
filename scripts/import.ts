/**
 * npm run import -- file.csv [--apply]
 * Imports real businesses from a CSV file (docs/import.md) into whichever store the
 * environment selects (Upstash, Redis, or the embedded store in TREELINE_DATA_DIR, which
 * `npm start` must not hold meanwhile). A dry run by default: it prints every rejected row
 * and what would change; --apply writes it and refreshes the directory's cached pages.
 * Exit code 1 when the file cannot be read or the store fails; rejected rows do not fail it.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { DIRECTORY_TAG, type Purge } from "../netlify/lib/directory.ts";
import { runImport } from "../netlify/lib/import/run.ts";
import { formatReport } from "../netlify/lib/import/report.ts";
import { DataFileInUseError } from "../netlify/lib/store/transports/data-file-guard.ts";
import { createStore, storeOptionsFromEnv } from "../netlify/lib/store/index.ts";
import { embeddedFileFromEnv } from "../netlify/lib/store/local.ts";
import { env } from "../src/lib/env.ts";

const USAGE = "usage: npm run import -- file.csv [--apply]";
const { values, positionals } = parseArgs({ allowPositionals: true, options: { apply: { type: "boolean" } } });
const config = env();

/** Netlify's purge API when the site and a token are known; otherwise say when pages refresh. */
function purgeFor(kind: string): Purge {
  const token = config.NETLIFY_PURGE_API_TOKEN ?? config.NETLIFY_AUTH_TOKEN;
  const siteID = config.SITE_ID;
  if (siteID && token)
    return async (tags) => {
      const { purgeCache } = await import("@netlify/functions");
      await purgeCache({ tags, siteID, token });
    };
  return async () => {
    if (kind !== "embedded")
      console.log(
        `[import] no SITE_ID + NETLIFY_AUTH_TOKEN: cached directory pages (tag "${DIRECTORY_TAG}") refresh within an hour or at the next deploy`,
      );
  };
}

if (positionals.length !== 1) {
  console.error(USAGE);
  process.exit(2);
}
const file = resolve(positionals[0]!);
const options = storeOptionsFromEnv();
const store = createStore(
  options.transport === "embedded"
    ? { transport: "embedded", prefix: options.prefix, file: embeddedFileFromEnv() }
    : { ...options, seedFile: undefined },
);

try {
  const csv = readFileSync(file, "utf8");
  // The embedded store's folder belongs to one process: a running server keeps it.
  if (store.kind === "embedded") await store.ready();
  // A first connection on a busy machine may miss the 2 s ping: three tries before giving up.
  let answers = false;
  for (let i = 0; i < 3 && !answers; i++) answers = await store.ping();
  if (!answers) throw new Error(`${store.description} does not answer`);
  const apply = values.apply === true;
  console.log(`[import] ${apply ? "applying" : "dry run of"} ${file} against ${store.description}`);
  const result = await runImport(store, csv, apply ? { apply, purge: purgeFor(store.kind) } : { apply });
  if (!result.ok) {
    console.error(`[import] ${result.error}`);
    process.exitCode = 1;
  } else {
    for (const line of formatReport(result.plan, result.summary, result.applied)) console.log(line);
    if (result.applied?.failed.length) process.exitCode = 1;
  }
} catch (error) {
  console.error(
    error instanceof DataFileInUseError
      ? `[import] ${error.message}: stop the server (npm start) and run the import again, or upload the file in /admin > Import`
      : `[import] failed: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exitCode = 1;
} finally {
  await store.close().catch(() => {});
}
