/** Which store the environment asks for, as createStore's options. */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { env as currentEnv, parseEnv, type RawEnv } from "../../../src/lib/env.ts";
import { DEFAULT_SEED_FILE } from "./seed.ts";
import type { CreateStoreOptions } from "./store.types.ts";

/**
 * The store the configuration (src/lib/env.ts) picks; `source` is a raw environment to read
 * instead (tests, and the local server's openLocalStore).
 * - The embedded store is memory-only in a function; see embeddedFileFromEnv for the local server.
 * - Seeding on first use (when there are no businesses) is on for the embedded store and off
 *   for the servers; TREELINE_AUTO_SEED=1/0 overrides either way.
 */
export function storeOptionsFromEnv(source?: RawEnv): CreateStoreOptions {
  const env = source ? parseEnv(source) : currentEnv();
  const prefix = env.REDIS_KEY_PREFIX;
  const seed = (byDefault: boolean) => {
    const wanted = env.TREELINE_AUTO_SEED ?? byDefault;
    const file = resolve(env.TREELINE_SEED_FILE ?? DEFAULT_SEED_FILE);
    return wanted && existsSync(file) ? file : undefined;
  };
  if (env.UPSTASH_REDIS_REST_URL && env.UPSTASH_REDIS_REST_TOKEN) {
    return {
      transport: "upstash",
      url: env.UPSTASH_REDIS_REST_URL,
      token: env.UPSTASH_REDIS_REST_TOKEN,
      prefix,
      seedFile: seed(false),
    };
  }
  if (env.REDIS_URL) return { transport: "redis", url: env.REDIS_URL, prefix, seedFile: seed(false) };
  // Memory only here, or the local server's own persisted store when it lends one (local.ts):
  // any data-file path in code the functions import gets traced into their bundles.
  return { transport: "embedded", prefix, seedFile: seed(true) };
}
