/**
 * What `npm run seed [-- --sample] [path/to/businesses.json]` does (scripts/seed.ts runs it):
 * loads the directory seed into the store the environment selects. The seed is the sample
 * directory, a demo, so a server store (Redis, Upstash: a deployed site's) gets it only when
 * asked with `--sample`; without it the command refuses, exits non-zero and says how to load
 * real businesses (`npm run import`, docs/import.md). The embedded store (the default local
 * install) is seeded as before. Safe to re-run: nothing is duplicated.
 */
import { resolve } from "node:path";
import { DIRECTORY_TAG, purgeQuietly } from "../netlify/lib/directory.ts";
import { createStore, storeOptionsFromEnv, type Store, type StoreKind } from "../netlify/lib/store/index.ts";
import { DEFAULT_SEED_FILE, readSeedFile, seedDirectory } from "../netlify/lib/store/seed.ts";
import { env, type Env } from "../src/lib/env.ts";

/** The flag that loads the sample directory into a server store anyway. */
export const SAMPLE_FLAG = "--sample";
/** How real businesses get in (the import's command and its documentation). */
export const IMPORT_COMMAND = "npm run import -- businesses.csv";
export const IMPORT_DOC = "docs/import.md";

export interface SeedArgs {
  /** `--sample` was given. */
  sample: boolean;
  /** A seed file named on the command line. */
  file?: string;
}

/** Reads the command line (after `npm run seed --`); an unknown option is an error. */
export function parseSeedArgs(argv: readonly string[]): SeedArgs | { error: string } {
  const args: SeedArgs = { sample: false };
  for (const arg of argv) {
    if (arg === SAMPLE_FLAG) args.sample = true;
    else if (arg.startsWith("-")) return { error: `unknown option ${arg} (usage: npm run seed -- [--sample] [file])` };
    else if (args.file) return { error: `one seed file at most (got ${args.file} and ${arg})` };
    else args.file = arg;
  }
  return args;
}

/**
 * Why seeding must not go ahead, or null when it may: sample data goes into a server store
 * (Redis, Upstash) only with `--sample`.
 */
export function seedRefusal(kind: StoreKind, description: string, args: SeedArgs): string | null {
  if (kind === "embedded" || args.sample) return null;
  return [
    `refused: the seed is the sample directory (made-up businesses and reviews, a demo), and ${description} is a live store.`,
    `To list real businesses, import them: ${IMPORT_COMMAND} (a dry run; add --apply to write), see ${IMPORT_DOC}.`,
    `To load the demo into this store anyway: npm run seed -- ${SAMPLE_FLAG}`,
  ].join("\n");
}

export interface SeedDeps {
  config?: Env;
  /** The store to seed (default: the one the environment selects, without its seed-on-first-use). */
  store?: Store;
  log?: (line: string) => void;
  error?: (line: string) => void;
  /** The CDN purge after seeding a deployed site (default: Netlify's, when SITE_ID and a token are set). */
  purge?: (tags: string[]) => Promise<void>;
}

/** Runs the seed command; resolves to the process's exit code. */
export async function runSeed(argv: readonly string[], deps: SeedDeps = {}): Promise<number> {
  const log = deps.log ?? ((line) => console.log(line));
  const error = deps.error ?? ((line) => console.error(line));
  const args = parseSeedArgs(argv);
  if ("error" in args) {
    error(`[seed] ${args.error}`);
    return 2;
  }
  const config = deps.config ?? env();
  const file = resolve(args.file ?? config.TREELINE_SEED_FILE ?? DEFAULT_SEED_FILE);
  // The explicit seed below replaces any seed-on-first-use.
  const store = deps.store ?? createStore({ ...storeOptionsFromEnv(), seedFile: undefined, log: true });
  try {
    const refused = seedRefusal(store.kind, store.description, args);
    if (refused) {
      for (const line of refused.split("\n")) error(`[seed] ${line}`);
      return 1;
    }
    if (!(await store.ping())) throw new Error(`${store.description} does not answer`);
    const items = readSeedFile(file);
    const started = performance.now();
    const report = await store.batch(() => seedDirectory(store, items));
    await store.meta.seeded(file, new Date(), report.samples > 0);
    // Directory pages are cached at Netlify's CDN until purged (docs/directory-pages.md); every
    // one carries the directory tag. Outside Netlify this needs SITE_ID and a token.
    const token = config.NETLIFY_PURGE_API_TOKEN ?? config.NETLIFY_AUTH_TOKEN;
    const purge =
      deps.purge ??
      (config.SITE_ID && token
        ? async (tags: string[]) => {
            const { purgeCache } = await import("@netlify/functions");
            await purgeCache({ tags, siteID: config.SITE_ID, token });
          }
        : undefined);
    if (purge) await purgeQuietly(purge, [DIRECTORY_TAG]);
    else if (store.kind !== "embedded") {
      log(
        "[seed] no SITE_ID + NETLIFY_AUTH_TOKEN: cached directory pages refresh within an hour or at the next deploy",
      );
    }
    log(
      `[seed] ${report.businesses} businesses, ${report.reviewsAdded} reviews added, ${report.reviewsKept} already present ` +
        `(${Math.round(performance.now() - started)} ms) into ${store.description}` +
        (report.samples > 0 ? `; ${report.samples} are sample listings, labeled as such on every page` : ""),
    );
    return 0;
  } catch (e) {
    error(`[seed] failed: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  } finally {
    if (!deps.store) await store.close();
  }
}
