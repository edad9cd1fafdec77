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
import { asJson } from "../store/decode.ts";
import { keyspace } from "../store/keys.ts";
import type { Store } from "../store/index.ts";
import { linkSecret } from "../delivery/signing.ts";

export const OWNER_COOKIE = "tl_owner";
/** The path every owner page lives under: the cookie goes nowhere else. */
export const OWNER_PATH = "/owner";
/** A session lasts a working week; signing in again is one e-mail away. */
export const SESSION_TTL_MS = 7 * 24 * 60 * 60_000;

/** How an owner proved the business is theirs. */
export type OwnerVia = "email" | "sms" | "operator";

export interface Owner {
  /** Lower-cased e-mail: the owner's identity. */
  email: string;
  via: OwnerVia;
  /** When they became an owner (ISO). */
  since: string;
}

export interface OwnerSession {
  id: string;
  businessId: string;
  email: string;
  /** ISO. */
  createdAt: string;
  /** ms. */
  expiresAt: number;
}

export const normalEmail = (email: string) => email.trim().toLowerCase();

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
  const owner: Owner = { email: normalEmail(email), via, since: new Date(now).toISOString() };
  // An existing owner keeps their first proof and date.
  await store.redis.hsetnx(keyspace(store.prefix).owners(businessId), owner.email, JSON.stringify(owner));
}

export async function removeOwner(store: Store, businessId: string, email: string): Promise<boolean> {
  return (await store.redis.hdel(keyspace(store.prefix).owners(businessId), normalEmail(email))) > 0;
}

export async function listOwners(store: Store, businessId: string): Promise<Owner[]> {
  const all = (await store.redis.hgetall<Record<string, unknown>>(keyspace(store.prefix).owners(businessId))) ?? {};
  return Object.values(all)
    .map((v) => asJson<Owner>(v))
    .filter((o): o is Owner => !!o && typeof o.email === "string")
    .sort((a, b) => a.since.localeCompare(b.since));
}

export async function isOwner(store: Store, businessId: string, email: string): Promise<boolean> {
  return (await store.redis.hexists(keyspace(store.prefix).owners(businessId), normalEmail(email))) === 1;
}

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
  await store.redis.set(keyspace(store.prefix).ownerSession(id), JSON.stringify(session), { px: SESSION_TTL_MS });
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
  const session = asJson<OwnerSession>(await store.redis.get(keyspace(store.prefix).ownerSession(id)));
  if (!session || session.id !== id || session.expiresAt <= now) return null;
  if (!(await isOwner(store, session.businessId, session.email))) return null;
  return session;
}

/** Ends the request's session (if any); returns the Set-Cookie value that clears the cookie. */
export async function endOwnerSession(req: Request, store: Store, env: Env): Promise<string> {
  const id = await cookieSessionId(req, store, env);
  if (id) await store.redis.del(keyspace(store.prefix).ownerSession(id));
  return `${OWNER_COOKIE}=; ${cookieAttributes(env, 0)}`;
}
