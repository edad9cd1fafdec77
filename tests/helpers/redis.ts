/**
 * Real-Redis plumbing for integration tests. Under CI the real-Redis suites are mandatory:
 * an unreachable server fails the run instead of silently skipping it.
 */
import { randomBytes } from "node:crypto";
import { Redis as IORedis } from "ioredis";

export const DEFAULT_TEST_REDIS_URL = "redis://127.0.0.1:6379";

const isCI = () => /^(1|true)$/i.test(process.env.CI ?? "");

async function answers(url: string): Promise<boolean> {
  const client = new IORedis(url, {
    lazyConnect: true,
    connectTimeout: 1_000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on("error", () => {});
  try {
    await client.connect();
    return (await client.ping()) === "PONG";
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/**
 * The Redis to test against: REDIS_URL, else the local default if it answers. Null means
 * "skip" and only happens outside CI.
 */
export async function resolveTestRedisUrl(): Promise<string | null> {
  const url = process.env.REDIS_URL || DEFAULT_TEST_REDIS_URL;
  if (await answers(url)) return url;
  if (isCI() || process.env.REDIS_URL) {
    throw new Error(
      `Redis at ${url} does not answer. The real-Redis contract suite is mandatory ` +
        `${isCI() ? "under CI" : "when REDIS_URL is set"}; start redis-server or fix REDIS_URL.`,
    );
  }
  console.warn(`[tests] no Redis at ${url}; real-Redis suites are skipped (they are mandatory under CI=true)`);
  return null;
}

/** A key prefix no other test file or run shares, under REDIS_KEY_PREFIX when CI sets one. */
export function uniquePrefix(label: string): string {
  const base = process.env.REDIS_KEY_PREFIX || "treeline:";
  return `${base}test:${label}:${randomBytes(4).toString("hex")}:`;
}

/** Deletes every key under prefix (test clean-up only: SCAN is fine here, never on a request path). */
export async function deleteKeysWithPrefix(url: string, prefix: string): Promise<number> {
  if (!prefix || prefix.length < 4) throw new Error(`refusing to delete by a short prefix ${JSON.stringify(prefix)}`);
  const client = new IORedis(url);
  let deleted = 0;
  try {
    let cursor = "0";
    do {
      const [next, keys] = await client.scan(
        cursor,
        "MATCH",
        `${prefix.replace(/[*?[\]\\]/g, "\\$&")}*`,
        "COUNT",
        1000,
      );
      cursor = next;
      if (keys.length) deleted += await client.unlink(...keys);
    } while (cursor !== "0");
  } finally {
    client.disconnect();
  }
  return deleted;
}
