/**
 * Claims: someone asking to run a listed business's page ("claim"), or to list one that is
 * not in the directory ("add"). Each is one JSON string (keys.claim) in the every-claim zset
 * (keys.claims); the ones waiting for the operator are also in keys.claimsPending.
 *
 * A claim proved by the contact on file is stored too ("sent", then "proved" once its link or
 * code is used): the operator sees every way into every listing.
 */
import { randomBytes } from "node:crypto";
import type { Claim } from "../../../src/lib/owners/claims.ts";

export type { Claim };
import { asJson, asNumber, asString } from "../store/decode.ts";
import { keyspace } from "../store/keys.ts";
import { SETTLE_CLAIM } from "../store/scripts.ts";
import type { Store } from "../store/index.ts";

const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";
/** "cl_" and 20 random base32 characters (100 bits). */
export function newClaimId(): string {
  return `cl_${[...randomBytes(20)].map((b) => ALPHABET[b & 31]).join("")}`;
}

/** Stores a new claim (pending ones join the operator's queue). */
export async function createClaim(store: Store, claim: Claim): Promise<Claim> {
  const keys = keyspace(store.prefix);
  const at = Date.parse(claim.createdAt);
  const tx = store.redis.multi();
  tx.set(keys.claim(claim.id), JSON.stringify(claim));
  tx.zadd(keys.claims, { score: at, member: claim.id });
  if (claim.status === "pending") tx.zadd(keys.claimsPending, { score: at, member: claim.id });
  await tx.exec();
  return claim;
}

export async function getClaim(store: Store, id: string): Promise<Claim | null> {
  return asJson<Claim>(await store.redis.get(keyspace(store.prefix).claim(id)));
}

/** Newest first; `pending` lists the operator's queue only. */
export async function listClaims(
  store: Store,
  options: { status: "pending" | "all"; offset?: number; limit?: number },
): Promise<{ items: Claim[]; total: number }> {
  const keys = keyspace(store.prefix);
  const set = options.status === "pending" ? keys.claimsPending : keys.claims;
  const offset = Math.max(0, options.offset ?? 0);
  const limit = Math.max(1, Math.min(200, options.limit ?? 50));
  const p = store.redis.pipeline();
  p.zrange(set, offset, offset + limit - 1, { rev: true });
  p.zcard(set);
  const [ids, total] = await p.exec<[unknown[], number]>();
  const list = ids.map((v) => asString(v) ?? "").filter(Boolean);
  if (list.length === 0) return { items: [], total: asNumber(total) };
  const docs = await store.redis.mget<unknown[]>(...list.map(keys.claim));
  return { items: docs.map((d) => asJson<Claim>(d)).filter((c): c is Claim => !!c), total: asNumber(total) };
}

/**
 * Moves a claim on from `before` (as read) to `after`: false when it changed meanwhile
 * (someone decided first), so two decisions never both run.
 */
export async function settleClaim(store: Store, before: Claim, after: Claim): Promise<boolean> {
  const keys = keyspace(store.prefix);
  const reply = await store.redis.eval(
    SETTLE_CLAIM,
    [keys.claim(before.id), keys.claimsPending],
    [JSON.stringify(before), JSON.stringify(after), before.id, after.status === "pending" ? "0" : "1"],
  );
  return asString(reply) === "ok";
}
