/**
 * The store of a long-lived local server (`npm start`, `npm run dev`) when no Redis is
 * configured: one embedded store, persisted under TREELINE_DATA_DIR, owned by the server
 * process and lent to every copy of the store code it runs (see lendEmbeddedBackend), so the
 * functions and the on-demand pages read and write the same data. Function code never names
 * the data file itself: Netlify's bundler would trace the folder into every bundle.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { env as currentEnv, parseEnv, type RawEnv } from "../../../src/lib/env.ts";
import { createStore, lendEmbeddedBackend, storeOptionsFromEnv } from "./index.ts";
import { keyspace } from "./keys.ts";
import { EmbeddedBackend } from "./transports/embedded.ts";

/**
 * The embedded store's file for a long-lived local server: persisted under TREELINE_DATA_DIR
 * (default .data) unless TREELINE_EMBEDDED_PERSIST says otherwise; memory only by default
 * under a test runner (NODE_ENV=test or VITEST). `source`: a raw environment to read instead.
 */
export function embeddedFileFromEnv(source?: RawEnv): string | undefined {
  const env = source ? parseEnv(source) : currentEnv();
  const underTest = env.NODE_ENV === "test" || Boolean(env.VITEST);
  const persist = env.TREELINE_EMBEDDED_PERSIST ?? !underTest;
  return persist ? resolve(env.TREELINE_DATA_DIR, "store.json") : undefined;
}

export interface LocalStore {
  /** One line for the server's log: which store, where. */
  readonly description: string;
  close(): Promise<void>;
}

/**
 * Opens (and seeds, when empty and seeding is on) the server's embedded store and lends it,
 * unless Upstash or Redis is configured (then each copy of the store code connects itself).
 * Throws DataFileInUseError when another server holds the data folder.
 */
export async function openLocalStore(source?: RawEnv): Promise<LocalStore> {
  const options = storeOptionsFromEnv(source);
  if (options.transport !== "embedded") {
    const store = createStore(options);
    return { description: store.description, close: () => store.close() };
  }
  const file = embeddedFileFromEnv(source);
  const backend = new EmbeddedBackend({ file });
  // The backend holds the folder now, so no other server is seeding in it.
  if (file) removeSeedingLeftovers(dirname(file));
  lendEmbeddedBackend(backend);
  const store = createStore(options);
  try {
    const seedFile = options.seedFile;
    // The same test ready() makes (no business yet), asked without triggering its seeding.
    if (seedFile && (await store.redis.zcard(keyspace(store.prefix).all)) === 0) {
      await seedInChild(backend, store.prefix, seedFile, file);
    }
    await store.ready();
  } catch (error) {
    lendEmbeddedBackend(undefined);
    await backend.close();
    throw error;
  }
  const where = file ? `persisted to ${relative(process.cwd(), resolve(file))}` : "in memory";
  return {
    description: `embedded store (${where})`,
    async close() {
      lendEmbeddedBackend(undefined);
      await backend.close();
    },
  };
}

const SEEDING_PREFIX = ".seeding-";

/** Seeding folders a server killed mid-seed left beside the data file. */
function removeSeedingLeftovers(dir: string): void {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    if (name.startsWith(SEEDING_PREFIX)) rmSync(join(dir, name), { recursive: true, force: true });
  }
}

/**
 * Seeds in a child process (seed-process.ts) into a file of its own, then adds that data to
 * the server's store: the seeding's garbage dies with the child instead of staying in the
 * server's heap for good (about 250 MB of resident memory for the sample directory).
 */
async function seedInChild(backend: EmbeddedBackend, prefix: string, seedFile: string, file?: string): Promise<void> {
  // Next to the data file when there is one (same disk), else a temp folder.
  const dir = mkdtempSync(join(file ? dirname(file) : tmpdir(), SEEDING_PREFIX));
  try {
    const out = join(dir, "store.json");
    const script = fileURLToPath(new URL("./seed-process.ts", import.meta.url));
    const child = spawn(process.execPath, ["--import", "tsx", script, out, prefix, seedFile], { stdio: "inherit" });
    const code = await new Promise<number | null>((done, fail) => {
      child.once("error", fail);
      child.once("exit", done);
    });
    if (code !== 0) throw new Error(`seeding the store from ${seedFile} failed (exit code ${code})`);
    await backend.adopt(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
