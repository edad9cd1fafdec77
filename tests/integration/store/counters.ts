/**
 * The counters' part of the repository contract, run by contract.ts on every transport:
 * failed sign-ins per address (lockouts), request limits, the assistant's daily token budget
 * (never overspent by concurrent reservations), and the store's own facts (one link key, even
 * when two instances draw it at once).
 */
import { describe, expect, it } from "vitest";
import { keyspace } from "../../../netlify/lib/store/keys.ts";
import { BUDGET_TTL_SECONDS, budgetClient, budgetDay } from "../../../netlify/lib/store/repos/chat-budget.ts";
import type { StoreHarness } from "./contract.types.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const NOW = Date.parse("2026-11-28T12:00:00Z");

export function countersContract(h: StoreHarness) {
  describe("lockouts", () => {
    it("locks an address out at the most failures, for what is left of its window, per scope", async () => {
      const store = await h.fresh("lockouts");
      for (let i = 0; i < 2; i++) await store.lockouts.recordFailure("owner", "203.0.113.9", 900);
      expect(await store.lockouts.lockedOutFor("owner", "203.0.113.9", 3, 900)).toBe(0);
      await store.lockouts.recordFailure("owner", "203.0.113.9", 900);
      const wait = await store.lockouts.lockedOutFor("owner", "203.0.113.9", 3, 900);
      expect(wait).toBeGreaterThan(890);
      expect(wait).toBeLessThanOrEqual(900);
      expect(await store.lockouts.lockedOutFor("admin", "203.0.113.9", 3, 900)).toBe(0);
      expect(await store.lockouts.lockedOutFor("owner", "203.0.113.10", 3, 900)).toBe(0);
    });

    it("keeps the address out of its key, and counts concurrent failures exactly", async () => {
      const store = await h.fresh("lockouts-race");
      await Promise.all(Array.from({ length: 8 }, () => store.lockouts.recordFailure("admin", "198.51.100.7", 900)));
      expect(await store.lockouts.lockedOutFor("admin", "198.51.100.7", 8, 900)).toBeGreaterThan(0);
      expect(await store.lockouts.lockedOutFor("admin", "198.51.100.7", 9, 900)).toBe(0);
      const keys = await store.redis.keys(`${store.prefix}admin:fail:*`);
      expect(keys).toHaveLength(1);
      expect(keys[0]).not.toContain("198.51.100.7");
    });

    it("counts wrong codes per business on a scope of its own, keyed by the business hashed", async () => {
      const store = await h.fresh("lockouts-business");
      for (let i = 0; i < 3; i++) await store.lockouts.recordFailure("owner-code", "biz-1", 86_400);
      expect(await store.lockouts.lockedOutFor("owner-code", "biz-1", 3, 86_400)).toBeGreaterThan(86_000);
      expect(await store.lockouts.lockedOutFor("owner-code", "biz-2", 3, 86_400)).toBe(0);
      expect(await store.lockouts.lockedOutFor("owner", "biz-1", 3, 86_400)).toBe(0);
      const keys = await store.redis.keys(`${store.prefix}owner:codefail:*`);
      expect(keys).toHaveLength(1);
      expect(keys[0]).not.toContain("biz-1");
    });

    it("lets the address in again once the window from its first failure has passed", async () => {
      const store = await h.fresh("lockouts-expiry");
      await store.lockouts.recordFailure("owner", "192.0.2.1", 1);
      await store.lockouts.recordFailure("owner", "192.0.2.1", 1);
      expect(await store.lockouts.lockedOutFor("owner", "192.0.2.1", 2, 1)).toBe(1);
      await sleep(1_300);
      expect(await store.lockouts.lockedOutFor("owner", "192.0.2.1", 2, 1)).toBe(0);
    });
  });

  describe("rate limits", () => {
    it("allows the allowance per identifier in a sliding minute, then says when to come back", async () => {
      const store = await h.fresh("rate-minute");
      const before = Date.now();
      const results = [];
      for (let i = 0; i < 4; i++) results.push(await store.rateLimits.perMinute("lead:203.0.113.1", 3));
      expect(results.map((r) => r.success)).toEqual([true, true, true, false]);
      expect(results[3]!.reset).toBeGreaterThan(before);
      expect(results[3]!.reset).toBeLessThanOrEqual(Date.now() + 60_000);
      expect((await store.rateLimits.perMinute("lead:203.0.113.2", 3)).success).toBe(true);
      // Another allowance is a limiter of its own.
      expect((await store.rateLimits.perMinute("chat:203.0.113.1", 10)).success).toBe(true);
      expect(await store.redis.keys(`${keyspace(store.prefix).rateLimits}:*`)).not.toHaveLength(0);
    });

    it("counts review posts per business per clock hour, concurrent ones exactly", async () => {
      const store = await h.fresh("rate-hour");
      const hour = 3_600_000;
      const counts = await Promise.all(Array.from({ length: 5 }, () => store.rateLimits.reviewsThisHour("biz-1", NOW)));
      expect(counts.sort()).toEqual([1, 2, 3, 4, 5]);
      expect(await store.rateLimits.reviewsThisHour("biz-2", NOW)).toBe(1);
      expect(await store.rateLimits.reviewsThisHour("biz-1", NOW + hour)).toBe(1);
      const key = keyspace(store.prefix).reviewRate("biz-1", Math.floor(NOW / hour));
      const ttl = await store.redis.ttl(key);
      expect(ttl).toBeGreaterThan(3_600);
      expect(ttl).toBeLessThanOrEqual(3_700);
    });
  });

  describe("daily caps", () => {
    const caps = [
      { name: "code-business", id: "biz-1", max: 2 },
      { name: "code-phone", id: "+15125550142", max: 3 },
    ];

    it("counts under every cap or none, per UTC day, with what is capped hashed in the key", async () => {
      const store = await h.fresh("daily-caps");
      expect(await store.rateLimits.underDailyCaps(caps, NOW)).toBe(true);
      expect(await store.rateLimits.underDailyCaps(caps, NOW)).toBe(true);
      // The business's cap is reached: refused, and the phone's count does not move.
      expect(await store.rateLimits.underDailyCaps(caps, NOW)).toBe(false);
      const other = [{ ...caps[0]!, id: "biz-2" }, caps[1]!];
      expect(await store.rateLimits.underDailyCaps(other, NOW)).toBe(true);
      expect(await store.rateLimits.underDailyCaps(other, NOW)).toBe(false);
      // The next UTC day starts afresh.
      expect(await store.rateLimits.underDailyCaps(caps, NOW + 86_400_000)).toBe(true);
      expect(await store.rateLimits.underDailyCaps([], NOW)).toBe(true);
      const keys = await store.redis.keys(`${keyspace(store.prefix).rateLimits}:day:*`);
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.join()).not.toContain("5550142");
      expect(keys.join()).not.toContain("biz-1");
      const ttl = await store.redis.ttl(keys[0]!);
      expect(ttl).toBeGreaterThan(86_400);
      expect(ttl).toBeLessThanOrEqual(2 * 86_400);
    });

    it("never lets concurrent counts pass a cap together", async () => {
      const store = await h.fresh("daily-caps-race");
      const results = await Promise.all(Array.from({ length: 8 }, () => store.rateLimits.underDailyCaps(caps, NOW)));
      expect(results.filter(Boolean)).toHaveLength(2);
    });
  });

  describe("chat budget", () => {
    it("reserves under both lines, hands back what does not fit, and corrects to what was used", async () => {
      const store = await h.fresh("budget");
      const lines = { total: 1_000, client: { id: "203.0.113.5", limit: 300 } };
      expect(await store.chatBudget.reserve(200, NOW, lines)).toBe(true);
      // Over the client's line: refused, and nothing kept.
      expect(await store.chatBudget.reserve(200, NOW, lines)).toBe(false);
      expect(await store.chatBudget.used(NOW)).toBe(200);
      // Another client still fits under the day's line.
      expect(
        await store.chatBudget.reserve(250, NOW, { total: 1_000, client: { id: "203.0.113.6", limit: 300 } }),
      ).toBe(true);
      expect(await store.chatBudget.used(NOW)).toBe(450);
      await store.chatBudget.adjust(-150, NOW, "203.0.113.5");
      expect(await store.chatBudget.used(NOW)).toBe(300);
      expect(await store.chatBudget.reserve(250, NOW, lines)).toBe(true);
      const keys = keyspace(store.prefix);
      const day = budgetDay(NOW);
      expect(Number(await store.redis.get(keys.chatClientBudget(day, budgetClient("203.0.113.5"))))).toBe(300);
      const ttl = await store.redis.ttl(keys.chatBudget(day));
      expect(ttl).toBeGreaterThan(BUDGET_TTL_SECONDS - 60);
      expect(ttl).toBeLessThanOrEqual(BUDGET_TTL_SECONDS);
      // Each day counts on its own.
      expect(await store.chatBudget.used(NOW + 86_400_000)).toBe(0);
    });

    it("is never overspent by concurrent reservations", async () => {
      const store = await h.fresh("budget-race");
      const results = await Promise.all(
        Array.from({ length: 12 }, () => store.chatBudget.reserve(100, NOW, { total: 450 })),
      );
      expect(results.filter(Boolean)).toHaveLength(4);
      expect(await store.chatBudget.used(NOW)).toBe(400);
    });
  });

  describe("meta", () => {
    it("keeps one link key, the first drawn, even when several are drawn at once", async () => {
      const store = await h.fresh("meta-secret");
      const candidates = Array.from({ length: 6 }, (_, i) => `candidate-${i}-${"x".repeat(40)}`);
      const kept = await Promise.all(candidates.map((c) => store.meta.linkSecret(c)));
      expect(new Set(kept).size).toBe(1);
      expect(candidates).toContain(kept[0]);
      expect(await store.meta.linkSecret("later-candidate")).toBe(kept[0]);
      expect(await store.redis.hget(keyspace(store.prefix).meta, "linkSecret")).toBe(kept[0]);
    });

    it("notes a seeding, and whether it was sample data", async () => {
      const store = await h.fresh("meta-seeded");
      expect(await store.meta.seeding()).toBeNull();
      await store.meta.seeded("content/directory/businesses.json", new Date(NOW), true);
      expect(await store.redis.hgetall(keyspace(store.prefix).meta)).toEqual({
        seededAt: new Date(NOW).toISOString(),
        seededFrom: "content/directory/businesses.json",
        sampleData: "yes",
      });
      expect(await store.meta.seeding()).toEqual({
        at: new Date(NOW).toISOString(),
        from: "content/directory/businesses.json",
        sample: true,
      });
      await store.meta.seeded("other.json", new Date(NOW));
      expect((await store.meta.seeding())?.sample).toBe(false);
    });
  });
}
