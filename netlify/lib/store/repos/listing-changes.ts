/**
 * The history of every listing: one JSON string per change (who, when, the fields before and
 * after), indexed by time per business and for all of them (the operator's view). A business
 * keeps its newest CHANGES_KEPT changes.
 *
 * The operator's credentials queue follows the changes to a business's credentials: a change
 * that leaves one to check enters the queue, one that settles them leaves it, in the same
 * transaction as the change itself.
 */
import type { Redis } from "@upstash/redis";
import type { ListingChange } from "../../../../src/lib/owner-records.ts";
import { asJson, asNumber, asString } from "../decode.ts";
import type { Keys } from "../keys.ts";

/** Changes kept per business; the oldest go first. */
export const CHANGES_KEPT = 200;

export interface RecordChangeOptions {
  /**
   * What the change does to the operator's credentials queue: "waiting" puts the business in
   * it (keeping the time it first waited), "settled" takes it out; omitted leaves it alone.
   */
  credentials?: "waiting" | "settled";
}

export interface ListingChangesRepository {
  /** Stores a change (and its effect on the credentials queue) at once, then trims the business's history. */
  record(change: ListingChange, options?: RecordChangeOptions): Promise<void>;
  get(id: string): Promise<ListingChange | null>;
  /** Newest first: one business's changes, or every business's (businessId omitted). */
  list(options?: { businessId?: string; offset?: number; limit?: number }): Promise<{
    items: ListingChange[];
    total: number;
  }>;
}

export function listingChangesRepository(redis: Redis, keys: Keys): ListingChangesRepository {
  /** Keeps the newest CHANGES_KEPT of a business. */
  async function trim(businessId: string) {
    const old = (await redis.zrange<unknown[]>(keys.businessChanges(businessId), 0, -(CHANGES_KEPT + 1))).map(
      (v) => asString(v) ?? "",
    );
    if (old.length === 0) return;
    const tx = redis.multi();
    tx.zrem(keys.businessChanges(businessId), ...old);
    tx.zrem(keys.changes, ...old);
    tx.del(...old.map(keys.change));
    await tx.exec();
  }

  return {
    async record(change, options = {}) {
      const at = Date.parse(change.at);
      const tx = redis.multi();
      tx.set(keys.change(change.id), JSON.stringify(change));
      tx.zadd(keys.businessChanges(change.businessId), { score: at, member: change.id });
      tx.zadd(keys.changes, { score: at, member: change.id });
      if (options.credentials === "waiting")
        tx.zadd(keys.credentialsPending, { nx: true }, { score: at, member: change.businessId });
      else if (options.credentials === "settled") tx.zrem(keys.credentialsPending, change.businessId);
      tx.zcard(keys.businessChanges(change.businessId));
      const replies = await tx.exec<unknown[]>();
      // Trimming reads the oldest only once the history is over its length.
      if (asNumber(replies.at(-1)) > CHANGES_KEPT) await trim(change.businessId);
    },

    get: async (id) => asJson<ListingChange>(await redis.get(keys.change(id))),

    async list(options = {}) {
      const key = options.businessId ? keys.businessChanges(options.businessId) : keys.changes;
      const offset = Math.max(0, Math.floor(options.offset ?? 0));
      const limit = Math.max(1, Math.floor(options.limit ?? 20));
      const p = redis.pipeline();
      p.zrange(key, offset, offset + limit - 1, { rev: true });
      p.zcard(key);
      const [ids, total] = await p.exec<[unknown[], number]>();
      if (ids.length === 0) return { items: [], total: asNumber(total) };
      const docs = await redis.mget<unknown[]>(...ids.map((v) => keys.change(asString(v) ?? "")));
      return {
        items: docs.map((d) => asJson<ListingChange>(d)).filter((c): c is ListingChange => c !== null),
        total: asNumber(total),
      };
    },
  };
}
