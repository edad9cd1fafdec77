/**
 * Reported leads and calendar feed keys, part of the repository contract run by contract.ts on
 * every transport (embedded, real Redis, Upstash REST): a business's report of a lead is kept
 * once and counted by reason and by form; a reported lead leaves the business's response
 * figures (its kept outcome taken out, none recorded later); a calendar feed key is drawn once,
 * then only replaced.
 */
import { describe, expect, it } from "vitest";
import { keyspace } from "../../../netlify/lib/store/keys.ts";
import type { LeadReport } from "../../../src/lib/schemas/lead-report.ts";
import type { BusinessInput } from "../../../src/lib/schemas/business.ts";
import type { StoreHarness } from "./contract.types.ts";

const business = (id: string): BusinessInput => ({
  id,
  name: `Reported Trees ${id}`,
  slug: `reported-trees-${id}`,
  description: "Trees.",
  city: "Austin",
  zipCode: "78701",
  address: "1 Elm St",
  isFeatured: false,
  services: ["Tree Trimming"],
  specialties: [],
  serviceAreas: [],
  businessHours: {},
  yearsInBusiness: 3,
});

const report = (n: number, over: Partial<LeadReport> = {}): LeadReport => ({
  leadId: `ld_${String(n).padStart(19, "0")}`,
  reference: `TL-AAAA-${String(n).padStart(2, "0")}`,
  businessId: "rp-1",
  businessName: "Reported Trees rp-1",
  reason: "spam",
  form: "quote",
  sourcePage: "/services/tree-removal",
  at: new Date(Date.UTC(2026, 10, 28, 12, n)).toISOString(),
  ...over,
});

export function reportsCalendarsContract(h: StoreHarness) {
  describe("lead reports and calendar feeds", () => {
    it("keeps each business's report of a lead once, counted by reason and by form, newest first", async () => {
      const store = await h.fresh("reports");
      expect(await store.leadReports.summary()).toEqual({ total: 0, byReason: {}, byForm: {}, recent: [] });
      expect(await store.leadReports.add(report(1))).toBe(true);
      expect(await store.leadReports.add(report(2, { reason: "wrong-area", form: "find-pros" }))).toBe(true);
      // Another business reporting the same lead is its own report.
      expect(
        await store.leadReports.add(
          report(2, { businessId: "rp-2", reason: "duplicate", form: "find-pros", at: report(3).at }),
        ),
      ).toBe(true);
      // The same business again (another reason): the first stands.
      expect(await store.leadReports.add(report(1, { reason: "duplicate" }))).toBe(false);
      const summary = await store.leadReports.summary();
      expect(summary.total).toBe(3);
      expect(summary.byReason).toEqual({ spam: 1, "wrong-area": 1, duplicate: 1 });
      expect(summary.byForm).toEqual({ quote: 1, "find-pros": 2 });
      expect(summary.recent.map((r) => [r.leadId.slice(-1), r.businessId, r.reason])).toEqual([
        ["2", "rp-2", "duplicate"],
        ["2", "rp-1", "wrong-area"],
        ["1", "rp-1", "spam"],
      ]);
      expect(summary.recent[2]).toEqual(report(1));
      expect((await store.leadReports.summary(1)).recent).toHaveLength(1);
      await expect(store.leadReports.add({ ...report(3), reason: "nonsense" as "spam" })).rejects.toThrow();
    });

    it("a reported lead leaves the business's figures: its outcome taken out, none recorded later", async () => {
      const store = await h.fresh("reports-figures");
      expect(await store.businesses.excludeOutcome("nope", "ld-1")).toBeNull();
      await store.businesses.upsert(business("rp-1"));
      await store.businesses.recordOutcome("rp-1", "ld-1", { answered: true, minutes: 10, inTime: true });
      await store.businesses.recordOutcome("rp-1", "ld-2", { answered: true, minutes: 30, inTime: true });
      await store.businesses.recordOutcome("rp-1", "ld-3", { answered: false });
      expect(await store.businesses.get("rp-1")).toMatchObject({ responseOffers: 3, responseCount: 2 });

      const out = await store.businesses.excludeOutcome("rp-1", "ld-1");
      expect(out).toMatchObject({ recorded: true, before: { responseOffers: 3 }, after: { responseOffers: 2 } });
      expect(await store.businesses.get("rp-1")).toMatchObject({ responseOffers: 2, responseCount: 1 });
      // The stored figures ("median count in-time offers answers") are over what is left.
      expect(String(await store.redis.hget(keyspace(store.prefix).business("rp-1"), "rt"))).toBe("30 1 1 2 1");
      const list = await store.redis.lrange(keyspace(store.prefix).responses("rp-1"), 0, -1);
      expect(list.map(String).some((v) => v.startsWith("ld-1|"))).toBe(false);
      // Again: nothing changes. A miss taken out leaves the answer count as it was.
      expect(await store.businesses.excludeOutcome("rp-1", "ld-1")).toMatchObject({ recorded: false });
      await store.businesses.excludeOutcome("rp-1", "ld-3");
      expect(await store.businesses.get("rp-1")).toMatchObject({ responseOffers: 1, responseCount: 1 });
      // Reported before any outcome: a later one is not recorded.
      await store.businesses.excludeOutcome("rp-1", "ld-4");
      expect(
        await store.businesses.recordOutcome("rp-1", "ld-4", { answered: true, minutes: 5, inTime: true }),
      ).toMatchObject({ recorded: false });
      expect(await store.businesses.get("rp-1")).toMatchObject({ responseOffers: 1, responseCount: 1 });
    });

    it("draws a business's calendar feed key once, then only replaces it", async () => {
      const store = await h.fresh("calendar-feeds");
      expect(await store.calendarFeeds.current("rp-1")).toBeNull();
      const first = "A".repeat(24);
      expect(await store.calendarFeeds.ensure("rp-1", first)).toBe(first);
      // A second draw (another request at once) gets the first key.
      expect(await store.calendarFeeds.ensure("rp-1", "B".repeat(24))).toBe(first);
      expect(await store.calendarFeeds.current("rp-1")).toBe(first);
      expect(await store.calendarFeeds.replace("rp-1", "C".repeat(24))).toBe("C".repeat(24));
      expect(await store.calendarFeeds.current("rp-1")).toBe("C".repeat(24));
      // Each business has its own.
      expect(await store.calendarFeeds.current("rp-2")).toBeNull();
      await expect(store.calendarFeeds.replace("rp-1", "short")).rejects.toThrow(RangeError);
      // A damaged value reads as none, and the next draw replaces it.
      await store.redis.set(keyspace(store.prefix).calendarFeed("rp-3"), "not a key!");
      expect(await store.calendarFeeds.current("rp-3")).toBeNull();
      expect(await store.calendarFeeds.ensure("rp-3", "D".repeat(24))).toBe("D".repeat(24));
    });
  });
}
