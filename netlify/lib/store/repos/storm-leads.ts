/**
 * The requests that arrived inside each storm event (issue 36): a zset per event of lead ids
 * by arrival (ms), for /admin's storm board (requests per hour, and where each stands) and
 * the storm benchmark. Written right after the lead itself; the lead's own `storm` field is
 * the truth, this is its index.
 */
import type { Redis } from "@upstash/redis";
import { asString, pairs } from "../decode.ts";
import type { Keys } from "../keys.ts";

export interface StormLeadsRepository {
  /** Notes that `leadId` arrived inside storm `stormId` at `at` (ms); a repeat changes nothing. */
  add(stormId: string, leadId: string, at: number): Promise<void>;
  /** The event's lead ids with their arrival (ms), newest first, at most `limit`. */
  list(stormId: string, limit?: number): Promise<{ leadId: string; at: number }[]>;
  /** How many requests arrived inside the event. */
  count(stormId: string): Promise<number>;
}

export function stormLeadsRepository(redis: Redis, keys: Keys): StormLeadsRepository {
  return {
    async add(stormId, leadId, at) {
      await redis.zadd(keys.stormLeads(stormId), { nx: true }, { score: at, member: leadId });
    },
    async list(stormId, limit = 2000) {
      const flat = await redis.zrange<unknown[]>(keys.stormLeads(stormId), 0, limit - 1, {
        rev: true,
        withScores: true,
      });
      return pairs(flat).map(([leadId, at]) => ({ leadId: asString(leadId) ?? "", at }));
    },
    async count(stormId) {
      return redis.zcard(keys.stormLeads(stormId));
    },
  };
}
