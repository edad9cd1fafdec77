/**
 * Failed sign-ins counted per client address (the operator's token, owners' links and codes),
 * and wrong codes per business: a counter per scope and address (or business) whose window
 * starts at the first failure. The address is hashed in the key: it is nobody's business in a
 * key listing.
 */
import { createHash } from "node:crypto";
import type { Redis } from "@upstash/redis";
import { asNumber } from "../decode.ts";
import type { Keys } from "../keys.ts";

/**
 * Whose sign-ins: the operator's (/admin) or owners' (/owner), per client address; or the
 * codes tried against one business ("owner-code", keyed by the business's id), from anywhere.
 */
export type LockoutScope = "admin" | "owner" | "owner-code";

export interface LockoutsRepository {
  /** Seconds until `client` may try again once it has `max` failures in its window (at most `seconds`), or 0. */
  lockedOutFor(scope: LockoutScope, client: string, max: number, seconds: number): Promise<number>;
  /** Counts a failure; the first one opens a window of `seconds` that later ones do not extend. */
  recordFailure(scope: LockoutScope, client: string, seconds: number): Promise<void>;
}

export function lockoutsRepository(redis: Redis, keys: Keys): LockoutsRepository {
  const keyOf = (scope: LockoutScope, client: string) => {
    const hashed = createHash("sha256").update(client, "utf8").digest("hex").slice(0, 32);
    if (scope === "admin") return keys.adminFailures(hashed);
    return scope === "owner" ? keys.ownerFailures(hashed) : keys.ownerCodeFailures(hashed);
  };

  return {
    async lockedOutFor(scope, client, max, seconds) {
      const key = keyOf(scope, client);
      const p = redis.pipeline();
      p.get(key);
      p.ttl(key);
      const [count, ttl] = await p.exec<[unknown, number]>();
      return asNumber(count) >= max ? Math.max(1, asNumber(ttl, seconds)) : 0;
    },

    async recordFailure(scope, client, seconds) {
      const key = keyOf(scope, client);
      // One transaction: a counter can never be left without its expiry, which would lock the
      // address out for good.
      await redis.multi().set(key, 0, { nx: true, ex: seconds }).incr(key).exec();
    },
  };
}
