/**
 * The operator's credentials queue, read side: businesses whose license or insurance waits
 * for a check, by when it was stated. Changes enter and leave it (listing-changes.ts), in the
 * transaction that records them.
 */
import type { Redis } from "@upstash/redis";
import { asNumber, pairs } from "../decode.ts";
import type { Keys } from "../keys.ts";

export interface CredentialChecksRepository {
  /** The longest-waiting `limit` (business id, waiting since ms) and how many wait in all. */
  waiting(limit: number): Promise<{ entries: [string, number][]; total: number }>;
  /** When a business started waiting (ms), or null when it is not in the queue. */
  waitingSince(businessId: string): Promise<number | null>;
}

export function credentialChecksRepository(redis: Redis, keys: Keys): CredentialChecksRepository {
  return {
    async waiting(limit) {
      const p = redis.pipeline();
      p.zrange(keys.credentialsPending, 0, Math.max(1, Math.floor(limit)) - 1, { withScores: true });
      p.zcard(keys.credentialsPending);
      const [entries, total] = await p.exec<[unknown[], number]>();
      return { entries: pairs(entries), total: asNumber(total) };
    },

    async waitingSince(businessId) {
      const score = await redis.zscore(keys.credentialsPending, businessId);
      return score === null || score === undefined ? null : asNumber(score);
    },
  };
}
