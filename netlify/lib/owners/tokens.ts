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
 * while, as the admin's token check does. Codes are also capped per business and per phone
 * number a day, and wrong codes against one business pause its code sign-in, however many
 * addresses guess.
 */
import { randomBytes, randomInt } from "node:crypto";
import {
  CODE_BUSINESS_LOCKOUT_SECONDS,
  CODE_DIGITS,
  CODE_FAILURES_PER_BUSINESS,
  CODE_MAX_TRIES,
  CODE_TTL_MS,
  CODES_PER_BUSINESS_PER_DAY,
  CODES_PER_PHONE_PER_DAY,
  OWNER_LOCKOUT_SECONDS,
  OWNER_MAX_FAILURES,
  SIGN_IN_LINK_TTL_MS,
} from "../../../src/lib/owners/limits.ts";
import type { SignInGrant } from "../../../src/lib/owner-records.ts";
import { lockout } from "../lockout.ts";
import { e164 } from "../notify/channels.ts";
import type { Store } from "../store/index.ts";

export type { SignInGrant };

export const SIGN_IN_PATH = "/owner/sign-in";
/** A token as it appears in a link: 32 bytes, base64url. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** A code's id in /owner/code/{id}: 24 bytes, base64url. */
export const CODE_ID_PATTERN = /^[A-Za-z0-9_-]{32}$/;

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
  await store.ownerSignIns.issueLink(token, { ...grant, expiresAt: now + ttlMs }, ttlMs);
  return { token, path: `${SIGN_IN_PATH}/${token}` };
}

export type LinkResult = { ok: true; grant: SignInGrant } | { ok: false; reason: "invalid" | "expired" };

function judge(grant: SignInGrant | null, now: number): LinkResult {
  if (!grant) return { ok: false, reason: "invalid" };
  return grant.expiresAt <= now ? { ok: false, reason: "expired" } : { ok: true, grant };
}

/** What a link grants, without using it up (the GET page with its "Sign in" button). */
export async function peekSignInLink(store: Store, token: string, now: number): Promise<LinkResult> {
  if (!TOKEN_PATTERN.test(token)) return { ok: false, reason: "invalid" };
  return judge(await store.ownerSignIns.peekLink(token), now);
}

/** Uses a link up: only the first caller gets its grant. */
export async function takeSignInLink(store: Store, token: string, now: number): Promise<LinkResult> {
  if (!TOKEN_PATTERN.test(token)) return { ok: false, reason: "invalid" };
  return judge(await store.ownerSignIns.takeLink(token), now);
}

// ---------------------------------------------------------------------------------------
// SMS codes

/** A new code for `grant`; returns the id (for the code page's address) and the code (for the SMS). */
export async function issueCode(
  store: Store,
  grant: Omit<SignInGrant, "expiresAt">,
  now: number,
): Promise<{ id: string; code: string }> {
  const id = randomBytes(24).toString("base64url");
  const code = String(randomInt(0, 10 ** CODE_DIGITS)).padStart(CODE_DIGITS, "0");
  await store.ownerSignIns.issueCode(id, code, { ...grant, expiresAt: now + CODE_TTL_MS }, CODE_TTL_MS);
  return { id, code };
}

/** What a code grants while it can still be tried (the code page shows its form), else null. */
export async function peekCode(store: Store, id: string, now: number): Promise<SignInGrant | null> {
  if (!CODE_ID_PATTERN.test(id)) return null;
  const grant = await store.ownerSignIns.peekCode(id);
  return grant && grant.expiresAt > now ? grant : null;
}

export type CodeResult =
  { ok: true; grant: SignInGrant } | { ok: false; reason: "wrong"; triesLeft: number } | { ok: false; reason: "gone" };

/** One try of a code: right (the code is used up), wrong (tries left), or gone (expired, used, tried out). */
export async function tryCode(store: Store, id: string, code: string, now: number): Promise<CodeResult> {
  if (!CODE_ID_PATTERN.test(id)) return { ok: false, reason: "gone" };
  const tried = await store.ownerSignIns.tryCode(id, code, CODE_MAX_TRIES);
  if (tried.ok) return tried.grant.expiresAt > now ? { ok: true, grant: tried.grant } : { ok: false, reason: "gone" };
  return tried.triesLeft > 0
    ? { ok: false, reason: "wrong", triesLeft: tried.triesLeft }
    : { ok: false, reason: "gone" };
}

// ---------------------------------------------------------------------------------------
// Failed sign-ins per client address

const ownerLockout = lockout({
  scope: "owner",
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

// ---------------------------------------------------------------------------------------
// Codes per business and per phone number

const codeLockout = lockout({
  scope: "owner-code",
  max: CODE_FAILURES_PER_BUSINESS,
  seconds: CODE_BUSINESS_LOCKOUT_SECONDS,
});

/** Seconds until codes for this business may be tried (and sent) again, or 0. */
export const codesPausedFor = (store: Store, businessId: string): Promise<number> =>
  codeLockout.lockedOutFor(store, businessId);

/** Counts a wrong (or tried-out) code against its business, whoever tried it. */
export const recordCodeFailure = (store: Store, businessId: string): Promise<void> =>
  codeLockout.recordFailure(store, businessId);

/**
 * Counts one code texted to a business's phone today, under both daily caps; false (nothing
 * counted) when either is reached. The number is compared as dialed (+15125550142), so one
 * phone written two ways on two listings is one phone.
 */
export function countCodeSend(store: Store, businessId: string, phone: string, now: number): Promise<boolean> {
  const number = e164(phone) ?? phone.replace(/\D/g, "");
  return store.rateLimits.underDailyCaps(
    [
      { name: "owner-code-business", id: businessId, max: CODES_PER_BUSINESS_PER_DAY },
      { name: "owner-code-phone", id: number, max: CODES_PER_PHONE_PER_DAY },
    ],
    now,
  );
}
