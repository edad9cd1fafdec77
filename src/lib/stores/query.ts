/**
 * The islands' read cache (@nanostores/query), set up once with these rules: no automatic
 * retries, no refetch on an interval, on window focus or on reconnect, and data that is
 * never treated as stale while it is cached. A key's entry lives 5 minutes from its fetch,
 * then the next visit to that key fetches again. Concurrent reads of one key share a
 * request.
 *
 * A failed read is not kept: Back to a state that failed asks the server again instead of
 * showing the old error (an explicit Retry does the same through `invalidate`).
 */
import { nanoquery } from "@nanostores/query";

const LIFETIME_MS = 5 * 60_000;

const cache = new Map<string, { data?: unknown; error?: unknown; created?: number; expires?: number }>();

export const [createFetcherStore] = nanoquery({
  cache,
  dedupeTime: LIFETIME_MS,
  cacheLifetime: LIFETIME_MS,
  revalidateOnFocus: false,
  revalidateOnReconnect: false,
  // Called right after a failure is cached: forget it and schedule nothing.
  onErrorRetry: ({ key }) => {
    cache.delete(key);
  },
});

/**
 * Caches data the page already holds (the server rendered it) as if `key` had just been
 * fetched. Not `mutateCache`: that only rewrites keys already in the cache.
 */
export function primeCache(key: string, data: unknown): void {
  const now = Date.now();
  cache.set(key, { data, created: now, expires: now + LIFETIME_MS });
}
