/**
 * The response-time part of the repository contract (businesses.recordResponse and the
 * figure on every read), run by contract.ts on every transport.
 */
import { describe, expect, it } from "vitest";
import { keyspace } from "../../../netlify/lib/store/keys.ts";
import type { Store } from "../../../netlify/lib/store/index.ts";
import { medianMinutes } from "../../../src/lib/response-time.ts";
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

async function record(store: Store, id: string, samples: number[]) {
  let last: Awaited<ReturnType<Store["businesses"]["recordResponse"]>> = null;
  for (const m of samples) last = await store.businesses.recordResponse(id, m);
  return last;
}

const sampleCount = (store: Store, id: string) => store.redis.llen(keyspace(store.prefix).responses(id));

export function responseTimeContract(h: StoreHarness) {
  describe("businesses: response times", () => {
    it("an unknown business records nothing; a bad sample is refused", async () => {
      const store = await h.fresh("rt-unknown");
      expect(await store.businesses.recordResponse("nope", 10)).toBeNull();
      expect(await sampleCount(store, "nope")).toBe(0);
      await store.businesses.upsert(business(1));
      await expect(store.businesses.recordResponse("rt-1", -1)).rejects.toThrow(RangeError);
      await expect(store.businesses.recordResponse("rt-1", Number.NaN)).rejects.toThrow(RangeError);
      expect(await sampleCount(store, "rt-1")).toBe(0);
    });

    it("counts answers but shows no figure before the third; then the median, on every read", async () => {
      const store = await h.fresh("rt-reads");
      const saved = await store.businesses.upsert(business(1));
      expect(saved).not.toHaveProperty("responseMinutes");
      expect(saved).not.toHaveProperty("responseCount");
      expect(await record(store, "rt-1", [200, 10])).toEqual({ responseCount: 2 });
      const two = await store.businesses.get("rt-1");
      expect(two?.responseCount).toBe(2);
      expect(two).not.toHaveProperty("responseMinutes");

      expect(await store.businesses.recordResponse("rt-1", 45.4)).toEqual({ responseMinutes: 45, responseCount: 3 });
      const figure = { responseMinutes: 45, responseCount: 3 };
      expect(await store.businesses.get("rt-1")).toMatchObject(figure);
      expect(await store.businesses.getBySlug(saved.slug)).toMatchObject(figure);
      expect(await store.businesses.getMany(["rt-1"])).toMatchObject([figure]);
      expect((await store.businesses.getBySlugWithReviews(saved.slug, { reviews: 5 }))?.business).toMatchObject(figure);
      expect((await store.businesses.list()).data).toMatchObject([figure]);
      expect((await store.businesses.list({ search: "quick" })).data).toMatchObject([figure]);
      expect(await store.businesses.featured()).toMatchObject([figure]);
      const near = await store.businesses.list({ near: { lat: 30.27, lng: -97.74 }, radius: 10 });
      expect(near.data).toMatchObject([figure]);

      // An even number of samples: the mean of the middle two, half minutes kept.
      expect(await store.businesses.recordResponse("rt-1", 100)).toEqual({
        responseMinutes: medianMinutes([200, 10, 45, 100]),
        responseCount: 4,
      });
      expect((await store.businesses.get("rt-1"))?.responseMinutes).toBe(72.5);
    });

    it("keeps the latest 50 samples and takes their median; the count is every answer", async () => {
      const store = await h.fresh("rt-limit");
      await store.businesses.upsert(business(1));
      // 10 slow answers, then 50 quick ones: the slow ones fall out.
      const samples = [...Array.from({ length: 10 }, () => 5000), ...Array.from({ length: 50 }, (_, i) => i)];
      const last = await record(store, "rt-1", samples);
      expect(last).toEqual({ responseMinutes: medianMinutes(samples.slice(-50)), responseCount: 60 });
      expect(await sampleCount(store, "rt-1")).toBe(50);
    });

    it("20 answers at once keep 20 samples and a count of 20", async () => {
      const store = await h.fresh("rt-race");
      await store.businesses.upsert(business(1));
      const samples = Array.from({ length: 20 }, (_, i) => (i * 37) % 240);
      const at = new Date("2026-03-02T16:00:00Z");
      await Promise.all(samples.map((m) => store.businesses.recordResponse("rt-1", m, at)));
      expect(await sampleCount(store, "rt-1")).toBe(20);
      expect(await store.businesses.get("rt-1")).toMatchObject({
        responseMinutes: medianMinutes(samples),
        responseCount: 20,
      });
      const stored = await store.redis.lrange(keyspace(store.prefix).responses("rt-1"), 0, -1);
      expect(stored.map(String).every((s) => s.endsWith(`:${at.getTime()}`))).toBe(true);
    });

    it("a re-seed (upsert) neither takes nor wipes the figure, and the samples stay", async () => {
      const store = await h.fresh("rt-reseed");
      await store.businesses.upsert(business(1));
      await record(store, "rt-1", [30, 60, 90]);
      const input = { ...business(1, { name: "Renamed Trees" }), responseMinutes: 1, responseCount: 99 };
      const again = await store.businesses.upsert(input as BusinessInput);
      expect(again).toMatchObject({ name: "Renamed Trees", responseMinutes: 60, responseCount: 3 });
      expect(await sampleCount(store, "rt-1")).toBe(3);
      expect(await store.businesses.recordResponse("rt-1", 0)).toEqual({ responseMinutes: 45, responseCount: 4 });
      // The figure is not part of the stored profile.
      const doc = await store.redis.hget(keyspace(store.prefix).business("rt-1"), "doc");
      expect(JSON.stringify(doc)).not.toContain("response");
    });
  });
}
