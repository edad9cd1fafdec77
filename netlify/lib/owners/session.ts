/**
 * Who may run a business's listing, and the owner's signed-in session.
 *
 * Owners: a hash per business (e-mail -> how they proved it). A claim proved by the e-mail or
 * phone on file, or one the operator approved, adds its e-mail here; the operator can remove it.
 *
 * Session: a random id kept in the store with its expiry (so signing out, or losing ownership,
 * ends it at once), sent as `tl_owner={id}.{hmac}`: HttpOnly (no script reads it), SameSite=Lax
 * (another site's post carries no cookie), Secure on https, and Path=/owner, so the browser
 * never sends it with a public page and no cached copy can ever vary on it.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Env } from "../../../src/lib/env.ts";
import { normalEmail, type Owner, type OwnerSession, type OwnerVia } from "../../../src/lib/owner-records.ts";
import type { Store } from "../store/index.ts";
import { linkSecret } from "../delivery/signing.ts";

export { normalEmail, type Owner, type OwnerSession, type OwnerVia };

export const OWNER_COOKIE = "tl_owner";
/** The path every owner page lives under: the cookie goes nowhere else. */
export const OWNER_PATH = "/owner";
/** A session lasts a working week; signing in again is one e-mail away. */
export const SESSION_TTL_MS = 7 * 24 * 60 * 60_000;

const sign = (secret: string, id: string) =>
  createHmac("sha256", secret).update(`owner-session\n${id}`).digest("base64url").slice(0, 22);

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

// ---------------------------------------------------------------------------------------
// Owners

export async function addOwner(store: Store, businessId: string, email: string, via: OwnerVia, now: number) {
  await store.owners.add(businessId, { email: normalEmail(email), via, since: new Date(now).toISOString() });
}

export const removeOwner = (store: Store, businessId: string, email: string): Promise<boolean> =>
  store.owners.remove(businessId, email);

export const listOwners = (store: Store, businessId: string): Promise<Owner[]> => store.owners.list(businessId);

export const isOwner = (store: Store, businessId: string, email: string): Promise<boolean> =>
  store.owners.has(businessId, email);

// ---------------------------------------------------------------------------------------
// Sessions

/** Secure on https (a local http server would never get the cookie back otherwise). */
function cookieAttributes(env: Pick<Env, "siteUrl">, maxAgeSeconds: number): string {
  const secure = env.siteUrl.startsWith("https:") ? "; Secure" : "";
  return `Path=${OWNER_PATH}; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`;
}

/** Starts a session for an owner of `businessId`; returns it and the Set-Cookie header's value. */
export async function createOwnerSession(
  store: Store,
  env: Env,
  owner: { businessId: string; email: string },
  now: number,
): Promise<{ session: OwnerSession; setCookie: string }> {
  const id = randomBytes(24).toString("base64url");
  const session: OwnerSession = {
    id,
    businessId: owner.businessId,
    email: normalEmail(owner.email),
    createdAt: new Date(now).toISOString(),
    expiresAt: now + SESSION_TTL_MS,
  };
  await store.ownerSessions.create(session, SESSION_TTL_MS);
  const secret = await linkSecret(store, env);
  return {
    session,
    setCookie: `${OWNER_COOKIE}=${id}.${sign(secret, id)}; ${cookieAttributes(env, SESSION_TTL_MS / 1000)}`,
  };
}

/** The session id a request's cookie names, if its signature holds (no store call). */
async function cookieSessionId(req: Request, store: Store, env: Env): Promise<string | null> {
  const header = req.headers.get("cookie") ?? "";
  const match = new RegExp(`(?:^|;\\s*)${OWNER_COOKIE}=([A-Za-z0-9_-]{32})\\.([A-Za-z0-9_-]{22})(?:;|$)`).exec(header);
  if (!match) return null;
  const [, id = "", sig = ""] = match;
  return same(sig, sign(await linkSecret(store, env), id)) ? id : null;
}

/**
 * The signed-in owner, or null: a valid signature, a live session, and the e-mail still an
 * owner of the business (the operator removing an owner ends their sessions).
 */
export async function readOwnerSession(
  req: Request,
  store: Store,
  env: Env,
  now: number,
): Promise<OwnerSession | null> {
  const id = await cookieSessionId(req, store, env);
  if (!id) return null;
  const session = await store.ownerSessions.get(id);
  if (!session || session.expiresAt <= now) return null;
  if (!(await isOwner(store, session.businessId, session.email))) return null;
  return session;
}

/** Ends the request's session (if any); returns the Set-Cookie value that clears the cookie. */
export async function endOwnerSession(req: Request, store: Store, env: Env): Promise<string> {
  const id = await cookieSessionId(req, store, env);
  if (id) await store.ownerSessions.end(id);
  return `${OWNER_COOKIE}=; ${cookieAttributes(env, 0)}`;
}
