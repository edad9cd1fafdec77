/** The @upstash/redis client over the transport a store's options name. */
import { Redis } from "@upstash/redis";
import type { CreateStoreOptions } from "./store.types.ts";
import { LazyBackend, lentEmbeddedBackend } from "./transports/lazy.ts";
import { BackendRequester } from "./transports/requester.ts";
import type { EmbeddedBackend } from "./transports/embedded.ts";
import type { IORedisBackend } from "./transports/redis.ts";

/**
 * How long a command may take before the request gives up with the store-failure answer
 * (503): a hung server (frozen, or a network that drops packets) must not hold a visitor.
 */
export const STORE_TIMEOUT_MS = 2_500;

export interface Client {
  redis: Redis;
  /** The backend behind `redis`; none for Upstash over REST. */
  lazy?: LazyBackend;
  /** Human-readable target, credentials removed. */
  description: string;
}

function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString().replace(/\/$/, "");
  } catch {
    return "(unparseable url)";
  }
}

export function openClient(options: CreateStoreOptions): Client {
  switch (options.transport) {
    case "upstash":
      return {
        redis: new Redis({
          url: options.url,
          token: options.token,
          // One deadline per command across its retries; a refused connection retries briefly.
          signal: () => AbortSignal.timeout(STORE_TIMEOUT_MS),
          retry: { retries: 2, backoff: (attempt) => 100 * 2 ** attempt },
        }),
        description: `Upstash Redis over REST at ${redactUrl(options.url)}`,
      };
    case "redis": {
      const url = options.url;
      const lazy = new LazyBackend("server", async () => {
        const { IORedisBackend } = await import("./transports/redis.ts");
        return new IORedisBackend(url, { timeoutMs: STORE_TIMEOUT_MS }) as IORedisBackend;
      });
      return { redis: new Redis(new BackendRequester(lazy)), lazy, description: `Redis at ${redactUrl(url)}` };
    }
    case "embedded": {
      const file = options.file;
      const lent = file ? undefined : lentEmbeddedBackend();
      const lazy = new LazyBackend("local", async () => {
        if (lent) return lent;
        const { EmbeddedBackend } = await import("./transports/embedded.ts");
        return new EmbeddedBackend({ file }) as EmbeddedBackend;
      });
      const redis = new Redis(new BackendRequester(lazy));
      const where = lent ? lent.file : file;
      const description = `${lent ? "this server's " : ""}embedded store ${where ? `persisted to ${where}` : "in memory"}`;
      if (lent) lazy.borrowed = true;
      return { redis, lazy, description };
    }
  }
}
