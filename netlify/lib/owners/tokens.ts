/**
 * The two ways an owner proves who they are before a session starts (docs/owners.md):
 *
 * - A sign-in link `/owner/sign-in/{token}`: 32 random bytes; the store keeps only the token's
 *   sha256, with what it grants, for SIGN_IN_LINK_TTL_MS. Taking it reads and deletes in one
 *   script, so it works once even when posted twice at the same moment.
 * - An SMS code: CODE_DIGITS random digits, kept as a hash under a random id for CODE_TTL_MS;
 *   every wrong try is counted in the same script that checks it, and the last allowed one
 *   deletes the code.
 *
 * Failed sign-ins per client address are counted (the address hashed) and lock it out for a
 * while, as the admin's token check does.
 */
import { createHash, randomBytes, randomInt } from "node:crypto";
import {
  CODE_DIGITS,
  CODE_MAX_TRIES,
  CODE_TTL_MS,
  OWNER_LOCKOUT_SECONDS,
  OWNER_MAX_FAILURES,
  SIGN_IN_LINK_TTL_MS,
} from "../../../src/lib/owners/limits.ts";
import { asJson, asNumber, asString } from "../store/decode.ts";
import { keyspace } from "../store/keys.ts";
import { lockout } from "../lockout.ts";
import { TAKE_ONCE, TRY_CODE } from "../store/scripts.ts";
import type { Store } from "../store/index.ts";
import type { OwnerVia } from "./session.ts";

export const SIGN_IN_PATH = "/owner/sign-in";
/** A token as it appears in a link: 32 bytes, base64url. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** A code's id in /owner/code/{id}: 24 bytes, base64url. */
export const CODE_ID_PATTERN = /^[A-Za-z0-9_-]{32}$/;

/** What a link or code lets its holder do: become (or stay) an owner of one business and sign in. */
export interface SignInGrant {
  businessId: string;
  /** The owner's e-mail (lower-cased). */
  email: string;
  via: OwnerVia;
  /** The claim it answers (also the message log's id for it). */
  claimId: string;
  /** ms; checked as well as the key's TTL, so a clock a test drives is honoured. */
  expiresAt: number;
  /**
   * Signs in only someone who is still an owner (a link to an owner's own address, or after the
   * operator's approval): removing them in the meantime makes the link worthless.
   */
  ownerOnly?: boolean;
}

const sha256 = (value: string) => createHash("sha256").update(value, "utf8").digest("hex");

function isGrant(value: unknown): value is SignInGrant {
  const g = value as Partial<SignInGrant> | null;
  return (
    !!g &&
    typeof g.businessId === "string" &&
    typeof g.email === "string" &&
    typeof g.claimId === "string" &&
    typeof g.expiresAt === "number" &&
    (g.via === "email" || g.via === "sms" || g.via === "operator")
  );
}

// ---------------------------------------------------------------------------------------
// Links

/** Stores a new single-use link; returns its token and path (the token itself is never stored). */
export async function issueSignInLink(
  store: Store,
  grant: Omit<SignInGrant, "expiresAt">,
  now: number,
  ttlMs: number = SIGN_IN_LINK_TTL_MS,
): Promise<{ token: string; path: string }> {
  const token = randomBytes(32).toString("base64url");
  const full: SignInGrant = { ...grant, expiresAt: now + ttlMs };
  await store.redis.set(keyspace(store.prefix).ownerLink(sha256(token)), JSON.stringify(full), { px: ttlMs });
  return { token, path: `${SIGN_IN_PATH}/${token}` };
}

export type LinkResult = { ok: true; grant: SignInGrant } | { ok: false; reason: "invalid" | "expired" };

function judge(raw: unknown, now: number): LinkResult {
  const grant = asJson<SignInGrant>(raw);
  if (!isGrant(grant)) return { ok: false, reason: "invalid" };
  return grant.expiresAt <= now ? { ok: false, reason: "expired" } : { ok: true, grant };
}

/** What a link grants, without using it up (the GET page with its "Sign in" button). */
export async function peekSignInLink(store: Store, token: string, now: number): Promise<LinkResult> {
  if (!TOKEN_PATTERN.test(token)) return { ok: false, reason: "invalid" };
  return judge(await store.redis.get(keyspace(store.prefix).ownerLink(sha256(token))), now);
}

/** Uses a link up: only the first caller gets its grant. */
export async function takeSignInLink(store: Store, token: string, now: number): Promise<LinkResult> {
  if (!TOKEN_PATTERN.test(token)) return { ok: false, reason: "invalid" };
  const raw = await store.redis.eval(TAKE_ONCE, [keyspace(store.prefix).ownerLink(sha256(token))], []);
  return judge(raw, now);
}

// ---------------------------------------------------------------------------------------
// SMS codes

const codeHash = (id: string, code: string) => sha256(`owner-code\n${id}\n${code}`);

/** A new code for `grant`; returns the id (for the code page's address) and the code (for the SMS). */
export async function issueCode(
  store: Store,
  grant: Omit<SignInGrant, "expiresAt">,
  now: number,
): Promise<{ id: string; code: string }> {
  const id = randomBytes(24).toString("base64url");
  const code = String(randomInt(0, 10 ** CODE_DIGITS)).padStart(CODE_DIGITS, "0");
  const key = keyspace(store.prefix).ownerCode(id);
  const full: SignInGrant = { ...grant, expiresAt: now + CODE_TTL_MS };
  await store.redis
    .multi()
    .hset(key, { hash: codeHash(id, code), grant: JSON.stringify(full), tries: 0 })
    .pexpire(key, CODE_TTL_MS)
    .exec();
  return { id, code };
}

/** What a code grants while it can still be tried (the code page shows its form), else null. */
export async function peekCode(store: Store, id: string, now: number): Promise<SignInGrant | null> {
  if (!CODE_ID_PATTERN.test(id)) return null;
  const grant = asJson<SignInGrant>(await store.redis.hget(keyspace(store.prefix).ownerCode(id), "grant"));
  return isGrant(grant) && grant.expiresAt > now ? grant : null;
}

export type CodeResult =
  { ok: true; grant: SignInGrant } | { ok: false; reason: "wrong"; triesLeft: number } | { ok: false; reason: "gone" };

/** One try of a code: right (the code is used up), wrong (tries left), or gone (expired, used, tried out). */
export async function tryCode(store: Store, id: string, code: string, now: number): Promise<CodeResult> {
  if (!CODE_ID_PATTERN.test(id)) return { ok: false, reason: "gone" };
  const reply = await store.redis.eval(
    TRY_CODE,
    [keyspace(store.prefix).ownerCode(id)],
    [codeHash(id, code), String(CODE_MAX_TRIES)],
  );
  const [status, value] = Array.isArray(reply) ? reply : [];
  if (asString(status) === "ok") {
    const grant = asJson<SignInGrant>(value);
    if (isGrant(grant) && grant.expiresAt > now) return { ok: true, grant };
    return { ok: false, reason: "gone" };
  }
  if (asString(status) === "wrong") return { ok: false, reason: "wrong", triesLeft: asNumber(value) };
  return { ok: false, reason: "gone" };
}

// ---------------------------------------------------------------------------------------
// Failed sign-ins per client address

const ownerLockout = lockout({
  key: (keys, client) => keys.ownerFailures(client),
  max: OWNER_MAX_FAILURES,
  seconds: OWNER_LOCKOUT_SECONDS,
});

/** Seconds until a locked-out client may try again, or 0. A request without an address is not counted. */
export async function ownerLockedOutFor(store: Store, client: string | null): Promise<number> {
  return client === null ? 0 : ownerLockout.lockedOutFor(store, client);
}

export async function recordOwnerFailure(store: Store, client: string | null): Promise<void> {
  if (client !== null) await ownerLockout.recordFailure(store, client);
}
