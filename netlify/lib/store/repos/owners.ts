/**
 * Who may run a business's listing: a hash per business, lower-cased e-mail -> how they proved
 * it and since when. A claim proved by the contact on file, or approved by the operator, adds
 * its e-mail; the operator can remove it (which ends that owner's sessions: they check here).
 * Two indexes kept in the same step, for a returning owner's sign-in (/owner): each owner
 * e-mail's businesses, and every business that has an owner. Owners added before them are
 * indexed once by `scripts/backfill-owner-index.ts`.
 */
import type { Redis } from "@upstash/redis";
import { normalEmail, type Owner } from "../../../../src/lib/owner-records.ts";
import { asJson } from "../decode.ts";
import type { Keys } from "../keys.ts";

export interface OwnersRepository {
  /** Adds an owner; one already there keeps their first proof and date. */
  add(businessId: string, owner: Owner): Promise<void>;
  /** False when the e-mail was not an owner. */
  remove(businessId: string, email: string): Promise<boolean>;
  /** Every owner, longest-standing first. */
  list(businessId: string): Promise<Owner[]>;
  has(businessId: string, email: string): Promise<boolean>;
  /** The businesses `email` is an owner of (by the index; check `has` before trusting one). */
  businessesOf(email: string): Promise<string[]>;
  /** Every business with an owner (by the index). */
  owned(): Promise<string[]>;
  /** Puts an existing owner into the indexes (the backfill); idempotent. */
  index(businessId: string, email: string): Promise<void>;
}

export function ownersRepository(redis: Redis, keys: Keys): OwnersRepository {
  return {
    async add(businessId, owner) {
      const email = normalEmail(owner.email);
      const tx = redis.multi();
      tx.hsetnx(keys.owners(businessId), email, JSON.stringify({ ...owner, email }));
      tx.sadd(keys.ownerBusinesses(email), businessId);
      tx.sadd(keys.ownedBusinesses, businessId);
      await tx.exec();
    },

    async remove(businessId, email) {
      const normal = normalEmail(email);
      const tx = redis.multi();
      tx.hdel(keys.owners(businessId), normal);
      tx.srem(keys.ownerBusinesses(normal), businessId);
      tx.hlen(keys.owners(businessId));
      const [removed, , left] = await tx.exec<[number, number, number]>();
      if (Number(left) === 0) await redis.srem(keys.ownedBusinesses, businessId);
      return Number(removed) > 0;
    },

    async businessesOf(email) {
      return ((await redis.smembers(keys.ownerBusinesses(normalEmail(email)))) ?? []).map(String).sort();
    },

    async owned() {
      return ((await redis.smembers(keys.ownedBusinesses)) ?? []).map(String).sort();
    },

    async index(businessId, email) {
      const tx = redis.multi();
      tx.sadd(keys.ownerBusinesses(normalEmail(email)), businessId);
      tx.sadd(keys.ownedBusinesses, businessId);
      await tx.exec();
    },

    async list(businessId) {
      const all = (await redis.hgetall<Record<string, unknown>>(keys.owners(businessId))) ?? {};
      return Object.values(all)
        .map((v) => asJson<Owner>(v))
        .filter((o): o is Owner => !!o && typeof o.email === "string")
        .sort((a, b) => a.since.localeCompare(b.since));
    },

    async has(businessId, email) {
      return (await redis.hexists(keys.owners(businessId), normalEmail(email))) === 1;
    },
  };
}
