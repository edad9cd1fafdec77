/**
 * The operator's bearer token. One shared secret (ADMIN_TOKEN) rather than accounts: there
 * is one operator, and the token never leaves their browser tab (sessionStorage) and this
 * check. Failed attempts are counted per client address and lock it out for a while, so the
 * token cannot be guessed at request speed.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { ADMIN_DISABLED, ADMIN_RATE_LIMITED, ADMIN_UNAUTHORIZED } from "../../../src/lib/admin.ts";
import { jsonError, type Env } from "../http.ts";
import { lockout } from "../lockout.ts";
import type { Store } from "../store/index.ts";

/** Shorter tokens are refused: the admin stays disabled rather than guessable. */
export const MIN_TOKEN_LENGTH = 16;
/** Failed sign-ins per client address within the lockout window. */
export const MAX_FAILURES = 10;
export const LOCKOUT_SECONDS = 15 * 60;
/** The 403 for a request that carries no client address (a misconfigured proxy or server). */
export const ADMIN_NO_CLIENT = "The admin needs to know your connection's address; this server did not pass it on.";

/** Headers on every admin answer, on top of http.ts's no-store: never in a shared cache, never indexed. */
export const ADMIN_HEADERS: Readonly<Record<string, string>> = {
  "netlify-cdn-cache-control": "no-store",
  "x-robots-tag": "noindex, nofollow",
};

/** The configured token, or why the admin is off. */
export function adminToken(env: Pick<Env, "ADMIN_TOKEN">): { token: string } | { disabled: string } {
  const token = env.ADMIN_TOKEN ?? "";
  if (!token) return { disabled: ADMIN_DISABLED };
  if (token.length < MIN_TOKEN_LENGTH)
    return { disabled: `${ADMIN_DISABLED} (at least ${MIN_TOKEN_LENGTH} characters)` };
  return { token };
}

const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();

/** Constant time whatever the lengths: both sides are hashed to 32 bytes first. */
export function tokensMatch(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** The bearer token of a request, or null. */
export function bearerToken(req: Request): string | null {
  const match = /^Bearer[ \t]+([\x21-\x7e]+)[ \t]*$/i.exec(req.headers.get("authorization") ?? "");
  return match?.[1] ?? null;
}

const adminLockout = lockout({
  scope: "admin",
  max: MAX_FAILURES,
  seconds: LOCKOUT_SECONDS,
});

/** Seconds until a locked-out client may try again, or 0. */
export const lockedOutFor = adminLockout.lockedOutFor;
export const recordFailure = adminLockout.recordFailure;

export type AuthResult = { ok: true } | { ok: false; response: Response };

/**
 * 503 while disabled, 429 while locked out, 401 for a missing or wrong token (a wrong one
 * counts as a failure). A store that cannot count failures fails closed: no admin then.
 * Without a client address (see clientIp) nothing can be counted against anyone, so such a
 * request is refused before its token is even compared: a shared bucket would let one
 * guesser lock the operator out, and no bucket would let it guess freely.
 */
export async function authorize(req: Request, store: Store, client: string | null, env: Env): Promise<AuthResult> {
  const configured = adminToken(env);
  if ("disabled" in configured)
    return { ok: false, response: jsonError(503, configured.disabled, { disabled: true }, ADMIN_HEADERS) };
  if (client === null) return { ok: false, response: jsonError(403, ADMIN_NO_CLIENT, {}, ADMIN_HEADERS) };
  const wait = await lockedOutFor(store, client);
  if (wait > 0)
    return {
      ok: false,
      response: jsonError(429, ADMIN_RATE_LIMITED, {}, { ...ADMIN_HEADERS, "retry-after": String(wait) }),
    };
  const given = bearerToken(req);
  if (given !== null && tokensMatch(given, configured.token)) return { ok: true };
  if (given !== null) await recordFailure(store, client);
  return {
    ok: false,
    response: jsonError(
      401,
      ADMIN_UNAUTHORIZED,
      {},
      { ...ADMIN_HEADERS, "www-authenticate": 'Bearer realm="treeline-admin"' },
    ),
  };
}
