/**
 * Businesses' capacity statements (src/lib/capacity.ts): one JSON string per business, and a
 * zset of the businesses that stated one (score: when), so /admin's storm board reads who is
 * taking work without scanning the directory. Routing reads a candidate list's statements in
 * one round trip (getMany).
 */
import type { Redis } from "@upstash/redis";
import { Capacity } from "../../../../src/lib/capacity.ts";
import { asJson, asString } from "../decode.ts";
import type { Keys } from "../keys.ts";

export interface CapacityRepository {
  /** Stores the business's statement (replacing any earlier one); null takes it back. */
  set(businessId: string, capacity: Capacity | null): Promise<void>;
  /** The business's statement, or null (none, or a damaged record). */
  get(businessId: string): Promise<Capacity | null>;
  /** Statements of many businesses in one pipeline; those without one are left out. */
  getMany(ids: readonly string[]): Promise<Map<string, Capacity>>;
  /** Every business with a statement, newest statement first, at most `limit`. */
  stated(limit?: number): Promise<{ businessId: string; capacity: Capacity }[]>;
}

const read = (raw: unknown): Capacity | null => {
  const parsed = Capacity.safeParse(asJson(raw));
  return parsed.success ? parsed.data : null;
};

export function capacityRepository(redis: Redis, keys: Keys): CapacityRepository {
  const getMany = async (ids: readonly string[]) => {
    const out = new Map<string, Capacity>();
    if (ids.length === 0) return out;
    const values = await redis.mget<unknown[]>(...ids.map((id) => keys.capacity(id)));
    ids.forEach((id, i) => {
      const c = read(values[i]);
      if (c) out.set(id, c);
    });
    return out;
  };
  return {
    async set(businessId, capacity) {
      // One transaction: the record and the index never disagree.
      if (capacity === null) {
        await redis.multi().del(keys.capacity(businessId)).zrem(keys.capacityStated, businessId).exec();
        return;
      }
      const value = Capacity.parse(capacity);
      await redis
        .multi()
        .set(keys.capacity(businessId), JSON.stringify(value))
        .zadd(keys.capacityStated, { score: Date.parse(value.setAt) || 0, member: businessId })
        .exec();
    },
    async get(businessId) {
      return read(await redis.get(keys.capacity(businessId)));
    },
    getMany,
    async stated(limit = 1000) {
      const ids = (await redis.zrange<unknown[]>(keys.capacityStated, 0, limit - 1, { rev: true }))
        .map(asString)
        .filter((id): id is string => !!id);
      const found = await getMany(ids);
      return ids.flatMap((id) => (found.has(id) ? [{ businessId: id, capacity: found.get(id)! }] : []));
    },
  };
}
