/**
 * Sign-in links and SMS codes on the embedded store (the same Lua runs on Redis and Upstash;
 * tests/integration/functions/owner-claims.test.ts runs them on a real Redis): a link works
 * once, not after its time, not with a character changed, and only its hash is stored; a code
 * allows CODE_MAX_TRIES wrong tries, then is gone; failures lock a client address out.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createStore, type Store } from "../../../netlify/lib/store/index.ts";
import { keyspace } from "../../../netlify/lib/store/keys.ts";
import {
  issueCode,
  issueSignInLink,
  ownerLockedOutFor,
  peekCode,
  peekSignInLink,
  recordOwnerFailure,
  takeSignInLink,
  tryCode,
} from "../../../netlify/lib/owners/tokens.ts";
import {
  CODE_MAX_TRIES,
  CODE_TTL_MS,
  OWNER_MAX_FAILURES,
  SIGN_IN_LINK_TTL_MS,
  APPROVED_LINK_TTL_MS,
} from "../../../src/lib/owners/limits.ts";
import { maskEmail, maskPhone } from "../../../src/lib/owners/masks.ts";

const NOW = Date.parse("2026-11-28T12:00:00Z");
const grant = { businessId: "biz-1", email: "jo@oak.test", via: "email", claimId: "cl_aaaaaaaaaaaaaaaaaaaa" } as const;

describe("owner sign-in tokens", () => {
  let store: Store;
  beforeEach(() => {
    store = createStore({ transport: "embedded", prefix: "t:" });
  });
  afterEach(() => store.close());

  it("makes 43-character links and stores only the token's hash", async () => {
    const { token, path } = await issueSignInLink(store, grant, NOW);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(path).toBe(`/owner/sign-in/${token}`);
    const keys = await store.redis.keys("t:owner:link:*");
    expect(keys).toHaveLength(1);
    expect(keys[0]).not.toContain(token);
    expect(JSON.stringify(await store.redis.get(keys[0]!))).not.toContain(token);
    const ttl = await store.redis.pttl(keys[0]!);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(SIGN_IN_LINK_TTL_MS);
  });

  it("an approval's link lives its own, longer lifetime, and still works once", async () => {
    const { token } = await issueSignInLink(store, grant, NOW, APPROVED_LINK_TTL_MS);
    const late = NOW + APPROVED_LINK_TTL_MS - 60_000;
    expect(await takeSignInLink(store, token, late)).toMatchObject({ ok: true });
    expect(await takeSignInLink(store, token, late)).toEqual({ ok: false, reason: "invalid" });
    const { token: expired } = await issueSignInLink(store, grant, NOW, APPROVED_LINK_TTL_MS);
    expect(await takeSignInLink(store, expired, NOW + APPROVED_LINK_TTL_MS + 1)).toMatchObject({ ok: false });
  });

  it("a link works once; peeking does not use it up", async () => {
    const { token } = await issueSignInLink(store, grant, NOW);
    expect(await peekSignInLink(store, token, NOW)).toMatchObject({ ok: true, grant });
    expect(await takeSignInLink(store, token, NOW)).toMatchObject({
      ok: true,
      grant: { ...grant, expiresAt: NOW + SIGN_IN_LINK_TTL_MS },
    });
    expect(await takeSignInLink(store, token, NOW)).toEqual({ ok: false, reason: "invalid" });
    expect(await peekSignInLink(store, token, NOW)).toEqual({ ok: false, reason: "invalid" });
  });

  it("two takes at once: exactly one gets the grant", async () => {
    const { token } = await issueSignInLink(store, grant, NOW);
    const results = await Promise.all([takeSignInLink(store, token, NOW), takeSignInLink(store, token, NOW)]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
  });

  it("refuses a link with one character changed, or of the wrong shape", async () => {
    const { token } = await issueSignInLink(store, grant, NOW);
    const changed = token.slice(0, 10) + (token[10] === "a" ? "b" : "a") + token.slice(11);
    expect(await takeSignInLink(store, changed, NOW)).toEqual({ ok: false, reason: "invalid" });
    expect(await takeSignInLink(store, token.slice(1), NOW)).toEqual({ ok: false, reason: "invalid" });
    expect(await takeSignInLink(store, `${token}x`, NOW)).toEqual({ ok: false, reason: "invalid" });
    // The real one still works.
    expect((await takeSignInLink(store, token, NOW)).ok).toBe(true);
  });

  it("refuses a link after its time, even while its key lingers", async () => {
    const { token } = await issueSignInLink(store, grant, NOW);
    expect(await takeSignInLink(store, token, NOW + SIGN_IN_LINK_TTL_MS)).toEqual({ ok: false, reason: "expired" });
    const other = await issueSignInLink(store, grant, NOW);
    expect((await takeSignInLink(store, other.token, NOW + SIGN_IN_LINK_TTL_MS - 1)).ok).toBe(true);
  });

  it("a code: six digits; right once; the code is deleted on success", async () => {
    const { id, code } = await issueCode(store, { ...grant, via: "sms" }, NOW);
    expect(code).toMatch(/^\d{6}$/);
    expect(await peekCode(store, id, NOW)).toMatchObject({ businessId: "biz-1", via: "sms" });
    expect(await tryCode(store, id, code, NOW)).toMatchObject({ ok: true, grant: { via: "sms" } });
    expect(await peekCode(store, id, NOW)).toBeNull();
    expect(await tryCode(store, id, code, NOW)).toEqual({ ok: false, reason: "gone" });
  });

  it(`a code allows ${CODE_MAX_TRIES - 1} wrong tries with the count left; the ${CODE_MAX_TRIES}th deletes it`, async () => {
    const { id, code } = await issueCode(store, grant, NOW);
    const wrong = code === "123456" ? "654321" : "123456";
    for (let left = CODE_MAX_TRIES - 1; left > 0; left--) {
      expect(await tryCode(store, id, wrong, NOW)).toEqual({ ok: false, reason: "wrong", triesLeft: left });
    }
    expect(await tryCode(store, id, wrong, NOW)).toEqual({ ok: false, reason: "gone" });
    expect(await tryCode(store, id, code, NOW)).toEqual({ ok: false, reason: "gone" });
    expect(await store.redis.exists(keyspace("t:").ownerCode(id))).toBe(0);
  });

  it("a right code after its time is refused", async () => {
    const { id, code } = await issueCode(store, grant, NOW);
    expect(await peekCode(store, id, NOW + CODE_TTL_MS)).toBeNull();
    expect(await tryCode(store, id, code, NOW + CODE_TTL_MS)).toEqual({ ok: false, reason: "gone" });
  });

  it("locks a client address out after OWNER_MAX_FAILURES failures, and only that address", async () => {
    for (let i = 0; i < OWNER_MAX_FAILURES - 1; i++) await recordOwnerFailure(store, "198.51.100.1");
    expect(await ownerLockedOutFor(store, "198.51.100.1")).toBe(0);
    await recordOwnerFailure(store, "198.51.100.1");
    expect(await ownerLockedOutFor(store, "198.51.100.1")).toBeGreaterThan(0);
    expect(await ownerLockedOutFor(store, "198.51.100.2")).toBe(0);
    // The address is hashed in the key.
    expect((await store.redis.keys("t:owner:fail:*")).join()).not.toContain("198.51.100.1");
    // A request without an address is never counted (one shared bucket would lock everyone out).
    await recordOwnerFailure(store, null);
    expect(await ownerLockedOutFor(store, null)).toBe(0);
  });
});

describe("masks of the contact on file", () => {
  it("shows the first letter and the domain of an e-mail, the last four digits of a phone", () => {
    expect(maskEmail("jane@example.com")).toBe("j•••@example.com");
    expect(maskEmail("nonsense")).toBe("•••");
    expect(maskPhone("(512) 555-0142")).toBe("(•••) •••-0142");
    expect(maskPhone("+1 512 555 0142")).toBe("(•••) •••-0142");
    expect(maskPhone("12")).toBe("•••");
  });
});
