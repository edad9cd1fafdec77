/**
 * The owners' part of the repository contract, run by contract.ts on every transport
 * (embedded, real Redis, Upstash REST): who owns a listing, owners' sessions, and the one-time
 * sign-in links and SMS codes (taken once even by two takers at the same moment, gone when
 * they expire). Each also reads data written in the key layout the store has always used.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { keyspace } from "../../../netlify/lib/store/keys.ts";
import type { OwnerSession, SignInGrant } from "../../../src/lib/owner-records.ts";
import type { StoreHarness } from "./contract.types.ts";

const NOW = Date.parse("2026-11-28T12:00:00Z");
const HOUR = 3_600_000;
const grant: SignInGrant = {
  businessId: "biz-1",
  email: "jo@oak.test",
  via: "email",
  claimId: "cl_aaaaaaaaaaaaaaaaaaaa",
  expiresAt: NOW + HOUR,
};
const sha256 = (v: string) => createHash("sha256").update(v, "utf8").digest("hex");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Long enough for every transport to see a key expire that was given SHORT_TTL_MS. */
const SHORT_TTL_MS = 60;
const PAST_SHORT_TTL_MS = 250;

function session(id: string, over: Partial<OwnerSession> = {}): OwnerSession {
  return {
    id,
    businessId: "biz-1",
    email: "jo@oak.test",
    createdAt: new Date(NOW).toISOString(),
    expiresAt: NOW + HOUR,
    ...over,
  };
}

export function ownersContract(h: StoreHarness) {
  describe("owners", () => {
    it("adds, lists (longest-standing first), checks and removes owners, by lower-cased e-mail", async () => {
      const store = await h.fresh("owners");
      expect(await store.owners.list("biz-1")).toEqual([]);
      await store.owners.add("biz-1", { email: " Jo@Oak.TEST ", via: "email", since: "2026-02-01T00:00:00.000Z" });
      await store.owners.add("biz-1", { email: "amy@oak.test", via: "operator", since: "2026-01-01T00:00:00.000Z" });
      // An owner already there keeps their first proof and date.
      await store.owners.add("biz-1", { email: "jo@oak.test", via: "sms", since: "2026-03-01T00:00:00.000Z" });
      expect(await store.owners.list("biz-1")).toEqual([
        { email: "amy@oak.test", via: "operator", since: "2026-01-01T00:00:00.000Z" },
        { email: "jo@oak.test", via: "email", since: "2026-02-01T00:00:00.000Z" },
      ]);
      expect(await store.owners.has("biz-1", "JO@oak.test")).toBe(true);
      expect(await store.owners.has("biz-2", "jo@oak.test")).toBe(false);
      expect(await store.owners.remove("biz-1", "Jo@Oak.test")).toBe(true);
      expect(await store.owners.remove("biz-1", "jo@oak.test")).toBe(false);
      expect(await store.owners.has("biz-1", "jo@oak.test")).toBe(false);
      expect((await store.owners.list("biz-1")).map((o) => o.email)).toEqual(["amy@oak.test"]);
    });

    it("indexes each owner e-mail's businesses and the owned businesses, in step with add and remove", async () => {
      const store = await h.fresh("owners-index");
      await store.owners.add("biz-1", { email: "Jo@Oak.test", via: "email", since: "2026-02-01T00:00:00.000Z" });
      await store.owners.add("biz-2", { email: "jo@oak.test", via: "operator", since: "2026-02-02T00:00:00.000Z" });
      await store.owners.add("biz-2", { email: "amy@oak.test", via: "operator", since: "2026-02-03T00:00:00.000Z" });
      expect(await store.owners.businessesOf("JO@oak.test")).toEqual(["biz-1", "biz-2"]);
      expect(await store.owners.owned()).toEqual(["biz-1", "biz-2"]);
      await store.owners.remove("biz-1", "jo@oak.test");
      await store.owners.remove("biz-2", "jo@oak.test");
      expect(await store.owners.businessesOf("jo@oak.test")).toEqual([]);
      // biz-2 still has an owner; biz-1 has none left.
      expect(await store.owners.owned()).toEqual(["biz-2"]);
      // The backfill's index: an owner added before the indexes (the hash only) is found after it.
      await store.redis.hset(keyspace(store.prefix).owners("biz-3"), {
        "old@oak.test": JSON.stringify({ email: "old@oak.test", via: "sms", since: "2025-05-05T00:00:00.000Z" }),
      });
      expect(await store.owners.businessesOf("old@oak.test")).toEqual([]);
      await store.owners.index("biz-3", "Old@Oak.test");
      await store.owners.index("biz-3", "old@oak.test");
      expect(await store.owners.businessesOf("old@oak.test")).toEqual(["biz-3"]);
      expect(await store.owners.owned()).toEqual(["biz-2", "biz-3"]);
    });

    it("reads owners stored in the hash layout (e-mail -> JSON) and skips unreadable entries", async () => {
      const store = await h.fresh("owners-layout");
      const key = keyspace(store.prefix).owners("biz-9");
      await store.redis.hset(key, {
        "old@oak.test": JSON.stringify({ email: "old@oak.test", via: "sms", since: "2025-05-05T00:00:00.000Z" }),
        "broken@oak.test": "not json",
      });
      expect(await store.owners.list("biz-9")).toEqual([
        { email: "old@oak.test", via: "sms", since: "2025-05-05T00:00:00.000Z" },
      ]);
      expect(await store.owners.has("biz-9", "old@oak.test")).toBe(true);
    });
  });

  describe("owner sessions", () => {
    it("stores a session until it ends, under owner:sess:{id}", async () => {
      const store = await h.fresh("sessions");
      const s = session("s".repeat(32));
      await store.ownerSessions.create(s, HOUR);
      expect(await store.ownerSessions.get(s.id)).toEqual(s);
      expect(await store.ownerSessions.get("t".repeat(32))).toBeNull();
      const ttl = await store.redis.pttl(keyspace(store.prefix).ownerSession(s.id));
      expect(ttl).toBeGreaterThan(HOUR - 60_000);
      expect(ttl).toBeLessThanOrEqual(HOUR);
      await store.ownerSessions.end(s.id);
      expect(await store.ownerSessions.get(s.id)).toBeNull();
    });

    it("forgets a session once its time is up", async () => {
      const store = await h.fresh("sessions-expiry");
      await store.ownerSessions.create(session("e".repeat(32)), SHORT_TTL_MS);
      await store.ownerSessions.create(session("k".repeat(32)), HOUR);
      await sleep(PAST_SHORT_TTL_MS);
      expect(await store.ownerSessions.get("e".repeat(32))).toBeNull();
      expect(await store.ownerSessions.get("k".repeat(32))).not.toBeNull();
    });

    it("never answers with a session stored under another id", async () => {
      const store = await h.fresh("sessions-id");
      await store.redis.set(
        keyspace(store.prefix).ownerSession("a".repeat(32)),
        JSON.stringify(session("b".repeat(32))),
      );
      expect(await store.ownerSessions.get("a".repeat(32))).toBeNull();
    });
  });

  describe("owner sign-in links", () => {
    it("stores only the token's hash; peeking leaves the link, taking uses it up", async () => {
      const store = await h.fresh("links");
      const token = "A".repeat(43);
      await store.ownerSignIns.issueLink(token, grant, HOUR);
      const key = keyspace(store.prefix).ownerLink(sha256(token));
      expect(JSON.stringify(await store.redis.get(key))).not.toContain(token);
      expect(await store.redis.pttl(key)).toBeGreaterThan(HOUR - 60_000);
      expect(await store.ownerSignIns.peekLink(token)).toEqual(grant);
      expect(await store.ownerSignIns.peekLink(token)).toEqual(grant);
      expect(await store.ownerSignIns.takeLink(token)).toEqual(grant);
      expect(await store.ownerSignIns.takeLink(token)).toBeNull();
      expect(await store.ownerSignIns.peekLink(token)).toBeNull();
      expect(await store.redis.exists(key)).toBe(0);
    });

    it("is taken once by two takers at the same moment", async () => {
      const store = await h.fresh("links-race");
      const tokens = ["B".repeat(43), "C".repeat(43), "D".repeat(43)];
      for (const t of tokens) await store.ownerSignIns.issueLink(t, grant, HOUR);
      for (const t of tokens) {
        const results = await Promise.all([store.ownerSignIns.takeLink(t), store.ownerSignIns.takeLink(t)]);
        expect(results.filter((r) => r !== null)).toEqual([grant]);
      }
    });

    it("is gone once it expires, and an unreadable grant grants nothing", async () => {
      const store = await h.fresh("links-expiry");
      await store.ownerSignIns.issueLink("E".repeat(43), grant, SHORT_TTL_MS);
      await sleep(PAST_SHORT_TTL_MS);
      expect(await store.ownerSignIns.peekLink("E".repeat(43))).toBeNull();
      expect(await store.ownerSignIns.takeLink("E".repeat(43))).toBeNull();
      await store.redis.set(keyspace(store.prefix).ownerLink(sha256("F".repeat(43))), JSON.stringify({ via: "x" }));
      expect(await store.ownerSignIns.takeLink("F".repeat(43))).toBeNull();
    });
  });

  describe("owner sign-in codes", () => {
    const MAX = 5;

    it("counts wrong tries and is gone at the last; the right one is taken once", async () => {
      const store = await h.fresh("codes");
      await store.ownerSignIns.issueCode("c1", "123456", grant, HOUR);
      expect(await store.ownerSignIns.peekCode("c1")).toEqual(grant);
      for (let left = MAX - 1; left > 0; left--)
        expect(await store.ownerSignIns.tryCode("c1", "000000", MAX)).toEqual({ ok: false, triesLeft: left });
      expect(await store.ownerSignIns.tryCode("c1", "000000", MAX)).toEqual({ ok: false, triesLeft: 0 });
      expect(await store.ownerSignIns.tryCode("c1", "123456", MAX)).toEqual({ ok: false, triesLeft: 0 });
      expect(await store.ownerSignIns.peekCode("c1")).toBeNull();

      await store.ownerSignIns.issueCode("c2", "654321", grant, HOUR);
      expect(await store.ownerSignIns.tryCode("c2", "000000", MAX)).toEqual({ ok: false, triesLeft: MAX - 1 });
      expect(await store.ownerSignIns.tryCode("c2", "654321", MAX)).toEqual({ ok: true, grant });
      expect(await store.ownerSignIns.tryCode("c2", "654321", MAX)).toEqual({ ok: false, triesLeft: 0 });
    });

    it("stores the code as a hash with its expiry, never the digits", async () => {
      const store = await h.fresh("codes-layout");
      await store.ownerSignIns.issueCode("c3", "987123", grant, HOUR);
      const key = keyspace(store.prefix).ownerCode("c3");
      const stored = await store.redis.hgetall<Record<string, unknown>>(key);
      expect(Object.keys(stored ?? {}).sort()).toEqual(["grant", "hash", "tries"]);
      expect(JSON.stringify(stored)).not.toContain("987123");
      expect(await store.redis.pttl(key)).toBeGreaterThan(HOUR - 60_000);
    });

    it("gives the right code to one of two concurrent tries, and counts concurrent wrong ones exactly", async () => {
      const store = await h.fresh("codes-race");
      await store.ownerSignIns.issueCode("c4", "111111", grant, HOUR);
      const right = await Promise.all([
        store.ownerSignIns.tryCode("c4", "111111", MAX),
        store.ownerSignIns.tryCode("c4", "111111", MAX),
      ]);
      expect(right.filter((r) => r.ok)).toHaveLength(1);

      await store.ownerSignIns.issueCode("c5", "222222", grant, HOUR);
      const wrong = await Promise.all(
        Array.from({ length: MAX + 2 }, () => store.ownerSignIns.tryCode("c5", "999999", MAX)),
      );
      const left = wrong.map((r) => (r.ok ? -1 : r.triesLeft)).sort((a, b) => b - a);
      expect(left).toEqual([4, 3, 2, 1, 0, 0, 0]);
      expect(await store.ownerSignIns.tryCode("c5", "222222", MAX)).toEqual({ ok: false, triesLeft: 0 });
    });

    it("is gone once it expires", async () => {
      const store = await h.fresh("codes-expiry");
      await store.ownerSignIns.issueCode("c6", "333333", grant, SHORT_TTL_MS);
      await sleep(PAST_SHORT_TTL_MS);
      expect(await store.ownerSignIns.peekCode("c6")).toBeNull();
      expect(await store.ownerSignIns.tryCode("c6", "333333", MAX)).toEqual({ ok: false, triesLeft: 0 });
    });
  });
}
