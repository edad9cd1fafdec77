/**
 * Owner sessions (netlify/lib/owners/session.ts) on the embedded store: the cookie's
 * attributes, a signature that fails with any change, expiry, signing out, and losing
 * ownership ending every session at once.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createStore, type Store } from "../../../netlify/lib/store/index.ts";
import {
  SESSION_TTL_MS,
  addOwner,
  createOwnerSession,
  endOwnerSession,
  isOwner,
  listOwners,
  readOwnerSession,
  removeOwner,
} from "../../../netlify/lib/owners/session.ts";
import { parseEnv } from "../../../src/lib/env.ts";

const NOW = Date.parse("2026-11-28T12:00:00Z");
const env = parseEnv({
  SITE_URL: "https://treeline.test",
  LINK_SIGNING_SECRET: "session-test-secret-0123456789abcdefgh",
});
const owner = { businessId: "biz-1", email: "Jo@Oak.test" };
const withCookie = (cookie: string) => new Request("https://treeline.test/owner", { headers: { cookie } });
const valueOf = (setCookie: string) => setCookie.split(";")[0]!;

describe("owner sessions", () => {
  let store: Store;
  beforeEach(async () => {
    store = createStore({ transport: "embedded", prefix: "s:" });
    await addOwner(store, "biz-1", owner.email, "email", NOW);
  });
  afterEach(() => store.close());

  it("owners are kept lower-cased, with their first proof", async () => {
    await addOwner(store, "biz-1", "jo@oak.test", "operator", NOW + 1);
    expect(await listOwners(store, "biz-1")).toEqual([
      { email: "jo@oak.test", via: "email", since: new Date(NOW).toISOString() },
    ]);
    expect(await isOwner(store, "biz-1", " JO@oak.TEST ")).toBe(true);
  });

  it("sets an HttpOnly, SameSite=Lax, Secure cookie on /owner only, for the session's life", async () => {
    const { setCookie, session } = await createOwnerSession(store, env, owner, NOW);
    expect(setCookie).toMatch(
      new RegExp(
        `^tl_owner=[A-Za-z0-9_-]{32}\\.[A-Za-z0-9_-]{22}; Path=/owner; HttpOnly; SameSite=Lax; Max-Age=${SESSION_TTL_MS / 1000}; Secure$`,
      ),
    );
    expect(session).toMatchObject({ businessId: "biz-1", email: "jo@oak.test", expiresAt: NOW + SESSION_TTL_MS });
    const local = await createOwnerSession(store, parseEnv({ SITE_URL: "http://127.0.0.1:8888" }), owner, NOW);
    expect(local.setCookie).not.toContain("Secure");
  });

  it("reads the session back from its cookie, among others", async () => {
    const { setCookie, session } = await createOwnerSession(store, env, owner, NOW);
    const read = await readOwnerSession(withCookie(`a=1; ${valueOf(setCookie)}; b=2`), store, env, NOW + 1000);
    expect(read).toEqual(session);
  });

  it("refuses a cookie whose id or signature changed by one character, or signed with another key", async () => {
    const { setCookie } = await createOwnerSession(store, env, owner, NOW);
    const value = valueOf(setCookie);
    const flip = (s: string, at: number) => s.slice(0, at) + (s[at] === "A" ? "B" : "A") + s.slice(at + 1);
    const dot = value.indexOf(".");
    expect(await readOwnerSession(withCookie(flip(value, 12)), store, env, NOW)).toBeNull();
    expect(await readOwnerSession(withCookie(flip(value, dot + 3)), store, env, NOW)).toBeNull();
    const other = parseEnv({
      SITE_URL: "https://treeline.test",
      LINK_SIGNING_SECRET: "another-secret-0123456789abcdefghijkl",
    });
    expect(await readOwnerSession(withCookie(value), store, other, NOW)).toBeNull();
    expect(await readOwnerSession(withCookie("tl_owner=garbage"), store, env, NOW)).toBeNull();
    expect(await readOwnerSession(withCookie(value), store, env, NOW)).not.toBeNull();
  });

  it("ends at its expiry", async () => {
    const { setCookie } = await createOwnerSession(store, env, owner, NOW);
    expect(await readOwnerSession(withCookie(valueOf(setCookie)), store, env, NOW + SESSION_TTL_MS - 1)).not.toBeNull();
    expect(await readOwnerSession(withCookie(valueOf(setCookie)), store, env, NOW + SESSION_TTL_MS)).toBeNull();
  });

  it("signing out deletes the session and clears the cookie", async () => {
    const { setCookie } = await createOwnerSession(store, env, owner, NOW);
    const req = withCookie(valueOf(setCookie));
    const cleared = await endOwnerSession(req, store, env);
    expect(cleared).toBe("tl_owner=; Path=/owner; HttpOnly; SameSite=Lax; Max-Age=0; Secure");
    expect(await readOwnerSession(req, store, env, NOW)).toBeNull();
  });

  it("removing the owner ends every session they have, at once", async () => {
    const a = await createOwnerSession(store, env, owner, NOW);
    const b = await createOwnerSession(store, env, owner, NOW);
    expect(await removeOwner(store, "biz-1", "JO@oak.test")).toBe(true);
    expect(await readOwnerSession(withCookie(valueOf(a.setCookie)), store, env, NOW)).toBeNull();
    expect(await readOwnerSession(withCookie(valueOf(b.setCookie)), store, env, NOW)).toBeNull();
  });
});
