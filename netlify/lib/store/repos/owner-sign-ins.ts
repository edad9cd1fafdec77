/**
 * The two one-time proofs an owner signs in with (owners/tokens.ts draws them):
 *
 * - A link's token: only its sha256 is stored, with the grant, until the link expires. Taking
 *   it reads and deletes in one script, so it works once even when posted twice at once.
 * - An SMS code: a hash of its id and digits, the grant and a try counter, in a hash that
 *   expires with the code. Every try is checked and counted in one script; the right code is
 *   taken (deleted) there, and the last allowed wrong try deletes it.
 *
 * Neither a token nor a code is ever stored as it is.
 */
import { createHash } from "node:crypto";
import type { Redis } from "@upstash/redis";
import { isSignInGrant, type SignInGrant } from "../../../../src/lib/owner-records.ts";
import { asJson, asNumber, asString } from "../decode.ts";
import type { Keys } from "../keys.ts";
import { TAKE_ONCE, TRY_CODE } from "../lua.ts";

export type CodeTry = { ok: true; grant: SignInGrant } | { ok: false; triesLeft: number };

export interface OwnerSignInsRepository {
  /** Stores what a link's token grants until `ttlMs` from now. */
  issueLink(token: string, grant: SignInGrant, ttlMs: number): Promise<void>;
  /** What a link grants, without using it up; null when there is none (or it is unreadable). */
  peekLink(token: string): Promise<SignInGrant | null>;
  /** Uses a link up: only the first caller gets its grant. */
  takeLink(token: string): Promise<SignInGrant | null>;
  /** Stores a code (by id) with its grant, no tries yet, until `ttlMs` from now. */
  issueCode(id: string, code: string, grant: SignInGrant, ttlMs: number): Promise<void>;
  /** What a code grants while it can still be tried, else null. */
  peekCode(id: string): Promise<SignInGrant | null>;
  /**
   * One try: the right code is taken (its grant returned, the code gone); a wrong one counts,
   * with the tries left (0: the code is gone, as it is when it expired, was used or never was).
   */
  tryCode(id: string, code: string, maxTries: number): Promise<CodeTry>;
}

const sha256 = (value: string) => createHash("sha256").update(value, "utf8").digest("hex");
const codeHash = (id: string, code: string) => sha256(`owner-code\n${id}\n${code}`);
const grantOf = (raw: unknown) => {
  const grant = asJson<SignInGrant>(raw);
  return isSignInGrant(grant) ? grant : null;
};
const ms = (ttlMs: number) => Math.max(1, Math.round(ttlMs));

export function ownerSignInsRepository(redis: Redis, keys: Keys): OwnerSignInsRepository {
  const linkKey = (token: string) => keys.ownerLink(sha256(token));
  const takeOnce = redis.createScript<unknown>(TAKE_ONCE);
  const tryOnce = redis.createScript<unknown>(TRY_CODE);

  return {
    async issueLink(token, grant, ttlMs) {
      await redis.set(linkKey(token), JSON.stringify(grant), { px: ms(ttlMs) });
    },

    peekLink: async (token) => grantOf(await redis.get(linkKey(token))),
    takeLink: async (token) => grantOf(await takeOnce.exec([linkKey(token)], [])),

    async issueCode(id, code, grant, ttlMs) {
      const key = keys.ownerCode(id);
      // One transaction: a code is never stored without its expiry.
      await redis
        .multi()
        .hset(key, { hash: codeHash(id, code), grant: JSON.stringify(grant), tries: 0 })
        .pexpire(key, ms(ttlMs))
        .exec();
    },

    peekCode: async (id) => grantOf(await redis.hget(keys.ownerCode(id), "grant")),

    async tryCode(id, code, maxTries) {
      const reply = await tryOnce.exec([keys.ownerCode(id)], [codeHash(id, code), String(maxTries)]);
      const [status, value] = Array.isArray(reply) ? reply : [];
      if (asString(status) === "ok") {
        const grant = grantOf(value);
        return grant ? { ok: true, grant } : { ok: false, triesLeft: 0 };
      }
      return { ok: false, triesLeft: asString(status) === "wrong" ? asNumber(value) : 0 };
    },
  };
}
