/**
 * The response-figures part of the repository contract (businesses.recordOutcome and the
 * figures on every read), run by contract.ts on every transport: a miss counts, each lead counts
 * once per business, the window is bounded, and the store's figures are the ones
 * src/lib/response-time.ts computes from the same outcomes.
 */
import { describe, expect, it } from "vitest";
import { keyspace } from "../../../netlify/lib/store/keys.ts";
import type { Store } from "../../../netlify/lib/store/index.ts";
import {
  MIN_RESPONSE_OFFERS,
  RESPONSE_WINDOW,
  medianMinutes,
  responseFigures,
  type OfferOutcome,
} from "../../../src/lib/response-time.ts";
import type { BusinessInput } from "../../../src/lib/schemas/business.ts";
import type { StoreHarness } from "./contract.types.ts";

function business(n: number, over: Partial<BusinessInput> = {}): BusinessInput {
  return {
    id: `rt-${n}`,
    name: `Quick Answer Trees ${n}`,
    slug: `quick-answer-trees-${n}`,
    description: "Answers fast.",
    city: "Austin",
    zipCode: "78701",
    address: `${n} Elm St`,
    isFeatured: true,
    services: ["Tree Trimming"],
    specialties: [],
    serviceAreas: [],
    businessHours: {},
    yearsInBusiness: 3,
    location: { lat: 30.27, lng: -97.74 },
    ...over,
  };
}

const answered = (minutes: number, inTime = true): OfferOutcome => ({ answered: true, minutes, inTime });
const MISSED: OfferOutcome = { answered: false };

/** Records each outcome for its own lead (ld-{from + i}), oldest first; the last result. */
async function record(store: Store, id: string, outcomes: OfferOutcome[], from = 0) {
  let last: Awaited<ReturnType<Store["businesses"]["recordOutcome"]>> = null;
  for (const [i, o] of outcomes.entries()) last = await store.businesses.recordOutcome(id, `ld-${from + i}`, o);
  return last;
}

const kept = (store: Store, id: string) => store.redis.llen(keyspace(store.prefix).responses(id));
const newestFirst = (outcomes: OfferOutcome[]) => [...outcomes].reverse();

export function responseTimeContract(h: StoreHarness) {
  describe("businesses: response figures", () => {
    it("an unknown business records nothing; a bad outcome is refused", async () => {
      const store = await h.fresh("rt-unknown");
      expect(await store.businesses.recordOutcome("nope", "ld-1", answered(10))).toBeNull();
      expect(await kept(store, "nope")).toBe(0);
      await store.businesses.upsert(business(1));
      await expect(store.businesses.recordOutcome("rt-1", "ld-1", answered(-1))).rejects.toThrow(RangeError);
      await expect(store.businesses.recordOutcome("rt-1", "ld-1", answered(Number.NaN))).rejects.toThrow(RangeError);
      await expect(store.businesses.recordOutcome("rt-1", "ld|1", MISSED)).rejects.toThrow(RangeError);
      await expect(store.businesses.recordOutcome("rt-1", "", MISSED)).rejects.toThrow(RangeError);
      await expect(store.businesses.recordOutcome("rt-1", "ld-1", MISSED, new Date(Number.NaN))).rejects.toThrow(
        RangeError,
      );
      expect(await kept(store, "rt-1")).toBe(0);
    });

    it("1 answered and 9 expired offers: a 10% response rate, on every read", async () => {
      const store = await h.fresh("rt-rate");
      const saved = await store.businesses.upsert(business(1));
      await record(store, "rt-1", [answered(20), ...Array.from({ length: 9 }, () => MISSED)]);
      const figure = { responseRate: 10, responseOffers: 10, responseCount: 1 };
      const read = await store.businesses.get("rt-1");
      expect(read).toMatchObject(figure);
      // One answer is too few for a time: the rate shows alone.
      expect(read).not.toHaveProperty("responseMinutes");
      expect(await store.businesses.getBySlug(saved.slug)).toMatchObject(figure);
      expect(await store.businesses.getMany(["rt-1"])).toMatchObject([figure]);
      expect((await store.businesses.getBySlugWithReviews(saved.slug, { reviews: 5 }))?.business).toMatchObject(figure);
      expect((await store.businesses.list()).data).toMatchObject([figure]);
      expect((await store.businesses.list({ search: "quick" })).data).toMatchObject([figure]);
      expect(await store.businesses.featured()).toMatchObject([figure]);
      const near = await store.businesses.list({ near: { lat: 30.27, lng: -97.74 }, radius: 10 });
      expect(near.data).toMatchObject([figure]);
    });

    it("shows nothing before the minimum; then the rate, and the time once there are enough answers", async () => {
      const store = await h.fresh("rt-minimum");
      const saved = await store.businesses.upsert(business(1));
      expect(saved).not.toHaveProperty("responseRate");
      expect(saved).not.toHaveProperty("responseCount");
      const early = [answered(200), answered(10), MISSED, answered(45.4)];
      expect(early.length).toBe(MIN_RESPONSE_OFFERS - 1);
      const four = await record(store, "rt-1", early);
      expect(four).toEqual({
        recorded: true,
        before: { responseOffers: 3, responseCount: 2 },
        after: { responseOffers: 4, responseCount: 3 },
      });
      expect(await store.businesses.get("rt-1")).not.toHaveProperty("responseRate");
      expect(await store.businesses.get("rt-1")).not.toHaveProperty("responseMinutes");

      // The fifth outcome: 4 of 5 answered in time, median of 200, 10, 45 and 100.
      const five = await store.businesses.recordOutcome("rt-1", "ld-4", answered(100));
      const after = { responseRate: 80, responseMinutes: 72.5, responseOffers: 5, responseCount: 4 };
      expect(five).toEqual({ recorded: true, before: { responseOffers: 4, responseCount: 3 }, after });
      expect(after.responseMinutes).toBe(medianMinutes([200, 10, 45, 100]));
      expect(await store.businesses.get("rt-1")).toMatchObject(after);
    });

    it("a late answer counts for the time but not the rate; the count is every answer", async () => {
      const store = await h.fresh("rt-late");
      await store.businesses.upsert(business(1));
      const outcomes = [answered(30), answered(300, false), answered(60), MISSED, answered(90, false)];
      await record(store, "rt-1", outcomes);
      expect(await store.businesses.get("rt-1")).toMatchObject({
        ...responseFigures(newestFirst(outcomes)),
        responseRate: 40,
        responseMinutes: 75,
        responseCount: 4,
      });
    });

    it("records each lead once per business, whatever comes second", async () => {
      const store = await h.fresh("rt-once");
      await store.businesses.upsert(business(1));
      await store.businesses.upsert(business(2));
      await record(
        store,
        "rt-1",
        Array.from({ length: 5 }, () => answered(15)),
      );
      const before = await store.businesses.get("rt-1");
      // The clock's step repeated, or an answer recorded after its expiry: nothing changes.
      const again = await store.businesses.recordOutcome("rt-1", "ld-0", MISSED);
      expect(again).toEqual({ recorded: false, before: again!.after, after: again!.after });
      expect(again!.after).toMatchObject({ responseRate: 100, responseOffers: 5, responseCount: 5 });
      expect(await store.businesses.recordOutcome("rt-1", "ld-4", answered(15))).toMatchObject({ recorded: false });
      expect(await store.businesses.get("rt-1")).toEqual(before);
      expect(await kept(store, "rt-1")).toBe(5);
      // The same lead for another business is that business's own outcome.
      expect(await store.businesses.recordOutcome("rt-2", "ld-0", MISSED)).toMatchObject({ recorded: true });
    });

    it(`keeps the latest ${RESPONSE_WINDOW} outcomes and computes the figures from them`, async () => {
      const store = await h.fresh("rt-window");
      await store.businesses.upsert(business(1));
      // 10 quick answers, then a mix: the quick ones fall out of the window.
      const outcomes = [
        ...Array.from({ length: 10 }, () => answered(1)),
        ...Array.from({ length: RESPONSE_WINDOW }, (_, i) => (i % 4 === 0 ? MISSED : answered(100 + i, i % 7 !== 0))),
      ];
      const last = await record(store, "rt-1", outcomes);
      const expected = responseFigures(newestFirst(outcomes));
      expect(expected.responseOffers).toBe(RESPONSE_WINDOW);
      expect(last?.after).toEqual({
        ...expected,
        responseCount: outcomes.filter((o) => o.answered).length,
      });
      expect(await kept(store, "rt-1")).toBe(RESPONSE_WINDOW);
    });

    it("20 outcomes at once keep 20; one lead recorded 5 times at once keeps one", async () => {
      const store = await h.fresh("rt-race");
      await store.businesses.upsert(business(1));
      const outcomes = Array.from({ length: 20 }, (_, i) => (i % 5 === 0 ? MISSED : answered((i * 37) % 240)));
      const at = new Date("2026-03-02T16:00:00Z");
      await Promise.all(outcomes.map((o, i) => store.businesses.recordOutcome("rt-1", `ld-${i}`, o, at)));
      expect(await kept(store, "rt-1")).toBe(20);
      expect(await store.businesses.get("rt-1")).toMatchObject({
        responseRate: 80,
        responseMinutes: medianMinutes(outcomes.flatMap((o) => (o.answered ? [o.minutes] : []))),
        responseOffers: 20,
        responseCount: 16,
      });
      const stored = await store.redis.lrange(keyspace(store.prefix).responses("rt-1"), 0, -1);
      expect(stored.map(String).every((s) => s.endsWith(`|${at.getTime()}`))).toBe(true);

      const results = await Promise.all(
        Array.from({ length: 5 }, () => store.businesses.recordOutcome("rt-1", "ld-same", MISSED, at)),
      );
      expect(results.filter((r) => r?.recorded)).toHaveLength(1);
      expect(await kept(store, "rt-1")).toBe(21);
    });

    it("a re-seed (upsert) neither takes nor wipes the figures, and the outcomes stay", async () => {
      const store = await h.fresh("rt-reseed");
      await store.businesses.upsert(business(1));
      await record(store, "rt-1", [answered(30), answered(60), answered(90), MISSED, MISSED]);
      const input = {
        ...business(1, { name: "Renamed Trees" }),
        responseMinutes: 1,
        responseCount: 99,
        responseRate: 100,
        responseOffers: 99,
      };
      const again = await store.businesses.upsert(input as BusinessInput);
      const figure = { responseRate: 60, responseMinutes: 60, responseOffers: 5, responseCount: 3 };
      expect(again).toMatchObject({ name: "Renamed Trees", ...figure });
      expect(await kept(store, "rt-1")).toBe(5);
      expect((await store.businesses.recordOutcome("rt-1", "ld-9", answered(0)))?.after).toEqual({
        responseRate: 67,
        responseMinutes: 45,
        responseOffers: 6,
        responseCount: 4,
      });
      // The figures are not part of the stored profile.
      const doc = await store.redis.hget(keyspace(store.prefix).business("rt-1"), "doc");
      expect(JSON.stringify(doc)).not.toContain("response");
    });

    it("answers kept before outcomes were (no lead, no deadline) give way to outcomes; the count stays", async () => {
      const store = await h.fresh("rt-older");
      await store.businesses.upsert(business(1));
      const k = keyspace(store.prefix);
      // What the store held when only answers were kept: "minutes:at" samples and "median count".
      await store.redis.lpush(k.responses("rt-1"), "30:1767225600000", "45:1767225600000", "60:1767225600000");
      await store.redis.hset(k.business("rt-1"), { rt: "45 3" });
      expect(await store.businesses.get("rt-1")).toEqual(expect.objectContaining({ responseCount: 3 }));
      expect(await store.businesses.get("rt-1")).not.toHaveProperty("responseRate");
      expect((await store.businesses.recordOutcome("rt-1", "ld-1", MISSED))?.after).toEqual({
        responseOffers: 1,
        responseCount: 3,
      });
      expect(await kept(store, "rt-1")).toBe(1);
    });
  });
}
