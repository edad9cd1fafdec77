/**
 * Local servers (`npm start`, `npm run dev`) run each function invocation in a fresh worker,
 * so an embedded store inside the functions would be rebuilt and re-read on every request.
 * When no Redis is configured, the long-lived server process owns the one embedded store
 * and lends it to the functions over the Upstash REST protocol production uses.
 */
import { randomBytes } from "node:crypto";
import { relative, resolve } from "node:path";
import { env as currentEnv, parseEnv, type RawEnv } from "../../../src/lib/env.ts";
import { createStore, storeOptionsFromEnv } from "./index.ts";
import { startRestServer, type UpstashRestServer } from "./rest-server.ts";
import { EmbeddedBackend } from "./transports/embedded.ts";

/**
 * The embedded store's file for a long-lived local server: persisted under TREELINE_DATA_DIR
 * (default .data) unless TREELINE_EMBEDDED_PERSIST says otherwise; memory only by default
 * under a test runner (NODE_ENV=test or VITEST).
 */
export function embeddedFileFromEnv(source?: RawEnv): string | undefined {
  const env = source ? parseEnv(source) : currentEnv();
  const underTest = env.NODE_ENV === "test" || Boolean(env.VITEST);
  const persist = env.TREELINE_EMBEDDED_PERSIST ?? !underTest;
  return persist ? resolve(env.TREELINE_DATA_DIR, "store.json") : undefined;
}

/** Starts the shared store unless Upstash or Redis is configured; sets the env the functions read. */
export async function shareEmbeddedStore(env: NodeJS.ProcessEnv = process.env): Promise<UpstashRestServer | undefined> {
  if ((env.UPSTASH_REDIS_REST_URL && env.UPSTASH_REDIS_REST_TOKEN) || env.REDIS_URL) return undefined;
  const options = storeOptionsFromEnv(env);
  if (options.transport !== "embedded") return undefined;
  const file = embeddedFileFromEnv(env);
  const token = randomBytes(24).toString("hex");
  const rest = await startRestServer({ backend: new EmbeddedBackend({ file }), token });
  const store = createStore({
    transport: "upstash",
    url: rest.url,
    token,
    prefix: options.prefix,
    seedFile: options.seedFile,
  });
  await store.ready();
  env.UPSTASH_REDIS_REST_URL = rest.url;
  env.UPSTASH_REDIS_REST_TOKEN = token;
  env.TREELINE_SHARED_EMBEDDED = "1";
  const where = file ? `persisted to ${relative(process.cwd(), resolve(file))}` : "in memory";
  console.log(`[store] embedded store (${where}) shared with the functions over local REST at ${rest.url}`);
  return rest;
}
