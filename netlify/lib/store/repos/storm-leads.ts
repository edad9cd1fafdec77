/**
 * The requests that arrived inside each storm event: a zset per event of lead ids
 * by arrival (ms), for /admin's storm board (requests per hour, and where each stands) and
 * the storm benchmark. Written right after the lead itself; the lead's own `storm` field is
 * the truth, this is its index.
 */
import type { Redis } from "@upstash/redis";
import type { LeadStatus } from "../../../../src/lib/schemas/lead.ts";
import { asJson, asString, pairs } from "../decode.ts";
import type { Keys } from "../keys.ts";

export interface StormLeadsRepository {
  /** Notes that `leadId` arrived inside storm `stormId` at `at` (ms); a repeat changes nothing. */
  add(stormId: string, leadId: string, at: number): Promise<void>;
  /** The event's lead ids with their arrival (ms), newest first, at most `limit`. */
  list(stormId: string, limit?: number): Promise<{ leadId: string; at: number }[]>;
  /** How many requests arrived inside the event. */
  count(stormId: string): Promise<number>;
  /** The event's newest `limit` leads with their arrival and status (MGET, STATUS_CHUNK at a time). */
  statuses(stormId: string, limit?: number): Promise<{ leadId: string; at: number; status: LeadStatus }[]>;
}

/** Leads read per MGET: big enough to be few round trips, small enough for Upstash's request cap. */
const STATUS_CHUNK = 250;

export function stormLeadsRepository(redis: Redis, keys: Keys): StormLeadsRepository {
  const list: StormLeadsRepository["list"] = async (stormId, limit = 2000) => {
    const flat = await redis.zrange<unknown[]>(keys.stormLeads(stormId), 0, limit - 1, {
      rev: true,
      withScores: true,
    });
    return pairs(flat).map(([leadId, at]) => ({ leadId: asString(leadId) ?? "", at }));
  };
  return {
    async add(stormId, leadId, at) {
      await redis.zadd(keys.stormLeads(stormId), { nx: true }, { score: at, member: leadId });
    },
    list,
    async count(stormId) {
      return redis.zcard(keys.stormLeads(stormId));
    },
    async statuses(stormId, limit = 2000) {
      const entries = await list(stormId, limit);
      const out: { leadId: string; at: number; status: LeadStatus }[] = [];
      for (let i = 0; i < entries.length; i += STATUS_CHUNK) {
        const chunk = entries.slice(i, i + STATUS_CHUNK);
        const values = await redis.mget<unknown[]>(...chunk.map((e) => keys.lead(e.leadId)));
        chunk.forEach((e, j) => {
          const status = asJson<{ status?: LeadStatus }>(values[j])?.status;
          // A lead that is gone (deleted by hand) is left out.
          if (status) out.push({ ...e, status });
        });
      }
      return out;
    },
  };
}
