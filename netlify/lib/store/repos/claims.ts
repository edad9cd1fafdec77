/**
 * Claims: someone asking to run a listed business's page ("claim"), or to list one that is
 * not in the directory ("add"). Each is one JSON string in the every-claim zset; the ones
 * waiting for the operator are also in the pending zset, the operator's queue.
 *
 * A decision is a compare-and-set in one script (the claim is rewritten only if it is still
 * what the decider read, and leaves the queue in the same step), so two never both run.
 */
import type { Redis } from "@upstash/redis";
import type { Claim } from "../../../../src/lib/owners/claims.ts";
import { asJson, asNumber, asString } from "../decode.ts";
import type { Keys } from "../keys.ts";
import { SETTLE_CLAIM } from "../lua.ts";

export interface ClaimPage {
  /** Newest first. */
  items: Claim[];
  /** Claims in the list asked for. */
  total: number;
  /** Claims waiting for the operator (the same as total for the pending list). */
  pending: number;
}

export interface ClaimsRepository {
  /** Stores a new claim (a pending one joins the operator's queue). */
  create(claim: Claim): Promise<Claim>;
  get(id: string): Promise<Claim | null>;
  /** Newest first; `pending` lists the operator's queue only. */
  list(options: { status: "pending" | "all"; offset?: number; limit?: number }): Promise<ClaimPage>;
  /**
   * Moves a claim on from `before` (as read) to `after`; false when it changed meanwhile
   * (someone decided first). It leaves the queue unless `after` is still pending.
   */
  settle(before: Claim, after: Claim): Promise<boolean>;
}

export function claimsRepository(redis: Redis, keys: Keys): ClaimsRepository {
  const settleScript = redis.createScript<unknown>(SETTLE_CLAIM);

  return {
    async create(claim) {
      const at = Date.parse(claim.createdAt);
      const tx = redis.multi();
      tx.set(keys.claim(claim.id), JSON.stringify(claim));
      tx.zadd(keys.claims, { score: at, member: claim.id });
      if (claim.status === "pending") tx.zadd(keys.claimsPending, { score: at, member: claim.id });
      await tx.exec();
      return claim;
    },

    get: async (id) => asJson<Claim>(await redis.get(keys.claim(id))),

    async list(options) {
      const set = options.status === "pending" ? keys.claimsPending : keys.claims;
      const offset = Math.max(0, Math.floor(options.offset ?? 0));
      const limit = Math.max(1, Math.min(200, Math.floor(options.limit ?? 50)));
      const p = redis.pipeline();
      p.zrange(set, offset, offset + limit - 1, { rev: true });
      p.zcard(set);
      p.zcard(keys.claimsPending);
      const [ids, total, pending] = await p.exec<[unknown[], number, number]>();
      const list = ids.map((v) => asString(v) ?? "").filter(Boolean);
      const counts = { total: asNumber(total), pending: asNumber(pending) };
      if (list.length === 0) return { items: [], ...counts };
      const docs = await redis.mget<unknown[]>(...list.map(keys.claim));
      return { items: docs.map((d) => asJson<Claim>(d)).filter((c): c is Claim => !!c), ...counts };
    },

    async settle(before, after) {
      const reply = await settleScript.exec(
        [keys.claim(before.id), keys.claimsPending],
        [JSON.stringify(before), JSON.stringify(after), before.id, after.status === "pending" ? "0" : "1"],
      );
      return asString(reply) === "ok";
    },
  };
}
