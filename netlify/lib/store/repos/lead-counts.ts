/** How many leads there are of each type and in all (the admin's tab badges): one pipeline of ZCARDs. */
import type { Redis } from "@upstash/redis";
import { LEAD_TYPES, type LeadType } from "../../../../src/lib/lead-types.ts";
import { asNumber } from "../decode.ts";
import type { Keys } from "../keys.ts";

export type LeadCounts = Record<LeadType | "all", number>;

export function leadCounter(redis: Redis, keys: Keys) {
  return async (): Promise<LeadCounts> => {
    const p = redis.pipeline();
    for (const type of LEAD_TYPES) p.zcard(keys.leadsByType(type));
    p.zcard(keys.leadsAll);
    const counts = await p.exec<unknown[]>();
    return Object.fromEntries([...LEAD_TYPES, "all"].map((t, i) => [t, asNumber(counts[i])])) as LeadCounts;
  };
}
