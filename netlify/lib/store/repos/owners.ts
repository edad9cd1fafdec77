/**
 * Who may run a business's listing: a hash per business, lower-cased e-mail -> how they proved
 * it and since when. A claim proved by the contact on file, or approved by the operator, adds
 * its e-mail; the operator can remove it (which ends that owner's sessions: they check here).
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
}

export function ownersRepository(redis: Redis, keys: Keys): OwnersRepository {
  return {
    async add(businessId, owner) {
      const email = normalEmail(owner.email);
      await redis.hsetnx(keys.owners(businessId), email, JSON.stringify({ ...owner, email }));
    },

    async remove(businessId, email) {
      return (await redis.hdel(keys.owners(businessId), normalEmail(email))) > 0;
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
