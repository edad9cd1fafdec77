/**
 * The repository contract, run against every transport (embedded, real Redis, Upstash REST).
 * Each test gets a fresh store under its own key prefix.
 */
import { existsSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { Ratelimit } from "@upstash/ratelimit";
import {
  NotFoundError,
  ConflictError,
  IdempotencyConflictError,
  type Store,
} from "../../../netlify/lib/store/index.ts";
import { readSeedFile, seedDirectory, DEFAULT_SEED_FILE } from "../../../netlify/lib/store/seed.ts";
import { MIN_PREFIX, words } from "../../../netlify/lib/store/text.ts";
import { CITIES } from "../../../src/lib/options.ts";
import type { BusinessInput } from "../../../src/lib/schemas/business.ts";
import type { SeedBusiness } from "../../../src/lib/schemas/seed.ts";
import { leadFacetsContract } from "./lead-facets.ts";
import { responseTimeContract } from "./response-times.ts";
import { reviewRepliesContract } from "./review-replies.ts";
import { ownersContract } from "./owners.ts";
import { listingsContract } from "./listings.ts";
import { countersContract } from "./counters.ts";
import { ownerOutboxContract } from "./owner-outbox.ts";
import { flashesContract } from "./flashes.ts";
import { runsContract } from "./runs.ts";
import { webhooksContract } from "./webhooks.ts";
import { reportsCalendarsContract } from "./reports-calendars.ts";
import { capacityContract } from "./capacity.ts";
import { stormsContract } from "./storms.ts";
import type { StoreHarness } from "./contract.types.ts";

type Fixture = BusinessInput & { rating: string; reviewCount: number; isFeatured: boolean };

const HOURS = { monday: "7:00 AM - 6:00 PM", saturday: "8:00 AM - 12:00 PM", sunday: "" };

function business(n: number, over: Partial<Fixture> = {}): Fixture {
  const id = `t-${String(n).padStart(3, "0")}`;
  return {
    id,
    name: `Test Tree Company ${n}`,
    slug: `test-tree-company-${n}`,
    description: "General tree care.",
    city: "Austin",
    state: "TX",
    zipCode: "78701",
    address: `${n} Main St`,
    phone: "(512) 555-0100",
    isFeatured: false,
    rating: "0.0",
    reviewCount: 0,
    services: ["Tree Trimming"],
    specialties: [],
    serviceAreas: ["Downtown"],
    images: [],
    businessHours: HOURS,
    yearsInBusiness: 5,
    ...over,
  };
}

/** A small directory with distinct words, cities, featured flags and ratings. */
const DIRECTORY: Fixture[] = [
  business(1, {
    name: "Oakline Tree Care",
    city: "Austin",
    isFeatured: true,
    rating: "4.8",
    reviewCount: 12,
    description: "Heritage oak pruning and oak wilt treatment.",
    services: ["Tree Trimming", "Tree Pruning"],
    specialties: ["Oak wilt prevention"],
  }),
  business(2, {
    name: "Bayou Stump Pros",
    city: "Houston",
    rating: "4.9",
    reviewCount: 30,
    description: "Fast stump grinding and root removal.",
    services: ["Stump Grinding"],
  }),
  business(3, {
    name: "Lone Star Tree Removal",
    city: "Dallas",
    isFeatured: true,
    rating: "4.6",
    reviewCount: 8,
    description: "Crane-assisted removals and 24/7 storm response.",
    services: ["Tree Removal", "Emergency Service"],
  }),
  business(4, {
    name: "Alamo Arborists",
    city: "San Antonio",
    rating: "5.0",
    reviewCount: 3,
    description: "Certified arborists for pecan and live oak care.",
    services: ["Tree Health Assessment", "Cabling & Bracing"],
    specialties: ["Heritage pecans"],
  }),
  business(5, {
    name: "Hill Country Clearing",
    city: "Austin",
    rating: "4.2",
    reviewCount: 5,
    description: "Cedar clearing and brush removal.",
    services: ["Lot Clearing", "Storm Cleanup"],
  }),
  business(6, {
    name: "Gulf Coast Tree Service",
    city: "Houston",
    isFeatured: true,
    rating: "4.8",
    reviewCount: 20,
    description: "Hurricane cleanup, day or night.",
    services: ["Tree Removal", "Storm Cleanup", "Emergency Service"],
  }),
  business(7, {
    name: "Trinity Stump & Tree",
    city: "Dallas",
    rating: "4.9",
    reviewCount: 30,
    description: "Stump grinding, trimming and hauling.",
    services: ["Stump Grinding", "Tree Trimming"],
  }),
  business(8, {
    name: "Mission Pruning Co.",
    city: "San Antonio",
    isFeatured: true,
    rating: "4.4",
    reviewCount: 9,
    description: "Careful pruning of young trees.",
    services: ["Tree Pruning"],
    specialties: ["Crape myrtle pruning"],
  }),
  business(9, {
    name: "Pecan Street Arbor",
    city: "Austin",
    rating: "0.0",
    reviewCount: 0,
    description: "New in town: café-style customer service, résumé on request.",
    services: ["Tree Trimming"],
  }),
  business(10, {
    name: "Brazos Emergency Tree",
    city: "Houston",
    rating: "3.5",
    reviewCount: 2,
    description: "Emergency removals after storms.",
    services: ["Emergency Service", "Tree Removal"],
  }),
];

const tenths = (b: Fixture) => Math.round(Number(b.rating) * 10);
function modelOrder(list: Fixture[]): Fixture[] {
  return [...list].sort(
    (a, b) =>
      Number(b.isFeatured) - Number(a.isFeatured) ||
      tenths(b) - tenths(a) ||
      Math.min(b.reviewCount, 9999) - Math.min(a.reviewCount, 9999) ||
      (a.id < b.id ? 1 : -1),
  );
}

/** Reference search: every query word must equal (short) or start (long) a word of the text. */
function modelMatches(b: Fixture, search: string): boolean {
  const texts = words([b.name, b.description, ...(b.services ?? []), ...(b.specialties ?? []), b.city].join(" "));
  return words(search)
    .slice(0, 5)
    .every((q) => texts.some((w) => (q.length < MIN_PREFIX ? w === q : w.slice(0, 15).startsWith(q.slice(0, 15)))));
}

function model(query: { search?: string; city?: string; featured?: boolean }): Fixture[] {
  const city = query.city ? CITIES.find((c) => c.value === query.city || c.label === query.city)?.label : undefined;
  return modelOrder(
    DIRECTORY.filter(
      (b) =>
        (!city || b.city === city) &&
        (!query.featured || b.isFeatured) &&
        (!query.search || modelMatches(b, query.search)),
    ),
  );
}

async function withDirectory(store: Store) {
  for (const b of DIRECTORY) await store.businesses.upsert(b);
}

const ids = (list: { id: string }[]) => list.map((b) => b.id);

export function defineStoreContract(name: string, harness: () => Promise<StoreHarness | null>) {
  describe(`store contract: ${name}`, async () => {
    const h = await harness();
    if (!h) {
      it.skip("transport not available", () => {});
      return;
    }
    afterAll(() => h.teardown());

    responseTimeContract(h);
    leadFacetsContract(h);
    reviewRepliesContract(h);
    ownersContract(h);
    listingsContract(h);
    countersContract(h);
    ownerOutboxContract(h);
    flashesContract(h);
    runsContract(h);
    webhooksContract(h);
    reportsCalendarsContract(h);
    capacityContract(h);
    stormsContract(h);

    describe("store", () => {
      it("answers ping", async () => {
        const store = await h.fresh("ping");
        expect(await store.ping()).toBe(true);
      });

      it("speaks the Upstash client's dialect: pipelines, MULTI, numbers, HGETALL", async () => {
        const store = await h.fresh("dialect");
        const k = (s: string) => `${store.prefix}${s}`;
        await store.redis.hset(k("h"), { a: "1", b: "x", c: "007" });
        expect(await store.redis.hgetall(k("h"))).toEqual({ a: 1, b: "x", c: "007" });
        expect(await store.redis.multi().incr(k("n")).incr(k("n")).exec()).toEqual([1, 2]);
        const p = store.redis.pipeline();
        p.zadd(k("z"), { score: 1.5, member: "m" });
        p.zscore(k("z"), "m");
        p.get(k("missing"));
        expect(await p.exec()).toEqual([1, 1.5, null]);
        await store.redis.set(k("s"), "v", { nx: true, ex: 60 });
        expect(await store.redis.set(k("s"), "w", { nx: true, ex: 60 })).toBeNull();
        expect(await store.redis.get(k("s"))).toBe("v");
      });

      it("runs scripts by EVAL and EVALSHA, including Upstash's allow-key-locking shebang", async () => {
        const store = await h.fresh("lua");
        const plain = store.redis.createScript<string>("return ARGV[1]");
        expect(await plain.exec([], ["one"])).toBe("one");
        expect(await plain.exec([], ["two"])).toBe("two");
        const flagged = `#!lua flags=allow-key-locking\nredis.call('SET', KEYS[1], ARGV[1])\nreturn redis.call('GET', KEYS[1])`;
        const key = `${store.prefix}lua`;
        expect(await store.redis.eval(flagged, [key], ["x"])).toBe("x");
        const sha = await store.redis.scriptLoad(flagged);
        expect(await store.redis.evalsha(sha, [key], ["y"])).toBe("y");
      });

      it("runs @upstash/ratelimit", async () => {
        const store = await h.fresh("ratelimit");
        for (const limiter of [
          Ratelimit.slidingWindow(3, "30 s"),
          Ratelimit.fixedWindow(3, "30 s"),
          Ratelimit.tokenBucket(1, "30 s", 3),
        ]) {
          const rl = new Ratelimit({
            redis: store.redis,
            limiter,
            prefix: `${store.prefix}rl:${Math.random()}`,
            analytics: false,
          });
          const results = [];
          for (let i = 0; i < 4; i++) results.push((await rl.limit("visitor")).success);
          expect(results).toEqual([true, true, true, false]);
        }
      });
    });

    describe("leads", () => {
      it("counts leads per type and in all", async () => {
        const store = await h.fresh("lead-counts");
        expect(await store.leads.counts()).toEqual({
          quote: 0,
          audit: 0,
          assessment: 0,
          "find-pros": 0,
          booking: 0,
          all: 0,
        });
        await Promise.all([
          store.leads.create("quote", { n: 1 }, { sourcePage: "/" }),
          store.leads.create("quote", { n: 2 }, { sourcePage: "/" }),
          store.leads.create("booking", { n: 3 }, { sourcePage: "/" }),
        ]);
        expect(await store.leads.counts()).toEqual({
          quote: 2,
          audit: 0,
          assessment: 0,
          "find-pros": 0,
          booking: 1,
          all: 3,
        });
      });

      it("stores an envelope with id, createdAt, sourcePage and status new", async () => {
        const store = await h.fresh("lead-create");
        const { lead, duplicate } = await store.leads.create(
          "quote",
          { name: "Ann", serviceType: "tree-removal" },
          { sourcePage: "/services/tree-removal" },
        );
        expect(duplicate).toBe(false);
        expect(lead).toMatchObject({
          type: "quote",
          status: "new",
          sourcePage: "/services/tree-removal",
          data: { name: "Ann" },
        });
        expect(new Date(lead.createdAt).toISOString()).toBe(lead.createdAt);
        expect(await store.leads.get(lead.id)).toEqual(lead);
        expect(await store.leads.get("ld_doesnotexist0000000")).toBeNull();
        expect(await store.leads.get("nonsense")).toBeNull();
      });

      it("lists newest first per type, with a cursor", async () => {
        const store = await h.fresh("lead-list");
        const made: string[] = [];
        for (let i = 0; i < 7; i++) {
          made.push((await store.leads.create("audit", { i }, { sourcePage: "/business-growth" })).lead.id);
          await new Promise((r) => setTimeout(r, 2));
        }
        await store.leads.create("booking", { other: true }, { sourcePage: "/directory/x" });
        const seen: string[] = [];
        let cursor: string | null = null;
        let pages = 0;
        do {
          const page = await store.leads.list("audit", { cursor, limit: 3 });
          seen.push(...page.items.map((l) => l.id));
          cursor = page.nextCursor;
          pages++;
        } while (cursor);
        expect(pages).toBe(3);
        expect(seen).toEqual([...made].reverse());
        expect((await store.leads.list("booking")).items).toHaveLength(1);
        expect((await store.leads.list(undefined, { limit: 100 })).items).toHaveLength(8);
        await expect(store.leads.list("audit", { cursor: "(bad" })).rejects.toThrow(RangeError);
      });

      it("returns the first lead for a repeated idempotency key with the same content", async () => {
        const store = await h.fresh("lead-idem");
        const first = await store.leads.create(
          "quote",
          { n: 1, s: "a" },
          { sourcePage: "/", idempotencyKey: "key-123" },
        );
        // Key order is not content.
        const again = await store.leads.create(
          "quote",
          { s: "a", n: 1 },
          { sourcePage: "/other", idempotencyKey: "key-123" },
        );
        expect(again.duplicate).toBe(true);
        expect(again.lead).toEqual(first.lead);
        const other = await store.leads.create("quote", { n: 3 }, { sourcePage: "/", idempotencyKey: "key-456" });
        expect(other.duplicate).toBe(false);
        expect((await store.leads.list("quote")).items.map((l) => l.data)).toEqual([{ n: 3 }, { n: 1, s: "a" }]);
      });

      it("refuses an idempotency key reused for different content, storing nothing", async () => {
        const store = await h.fresh("lead-idem-conflict");
        const first = await store.leads.create("quote", { n: 1 }, { sourcePage: "/", idempotencyKey: "key-123" });
        await expect(
          store.leads.create("quote", { n: 2 }, { sourcePage: "/", idempotencyKey: "key-123" }),
        ).rejects.toBeInstanceOf(IdempotencyConflictError);
        // An explicit fingerprint decides instead of the data.
        await expect(
          store.leads.create("quote", { n: 1 }, { sourcePage: "/", idempotencyKey: "key-123", fingerprint: "other" }),
        ).rejects.toBeInstanceOf(IdempotencyConflictError);
        expect((await store.leads.list("quote")).items.map((l) => l.id)).toEqual([first.lead.id]);
      });

      it("rejects unknown lead types", async () => {
        const store = await h.fresh("lead-type");
        await expect(store.leads.create("spam" as never, {}, { sourcePage: "/" })).rejects.toThrow();
      });
    });

    describe("businesses", () => {
      it("lists ids and slugs in directory order, a page at a time (the import, the sitemaps)", async () => {
        const store = await h.fresh("biz-slugs");
        await withDirectory(store);
        const order = modelOrder(DIRECTORY).map((b) => b.slug);
        expect(await store.businesses.slugs(0, 100)).toEqual(order);
        expect(await store.businesses.slugs(3, 4)).toEqual(order.slice(3, 7));
        expect(await store.businesses.slugs(DIRECTORY.length, 4)).toEqual([]);
        const ids = modelOrder(DIRECTORY).map((b) => b.id);
        expect(await store.businesses.ids(0, 100)).toEqual(ids);
        expect(await store.businesses.ids(3, 4)).toEqual(ids.slice(3, 7));
        expect(await store.businesses.ids(DIRECTORY.length, 4)).toEqual([]);
      });

      it("upserts and reads by id and slug", async () => {
        const store = await h.fresh("biz-crud");
        const saved = await store.businesses.upsert(DIRECTORY[0]!);
        expect(saved).toMatchObject({
          id: "t-001",
          name: "Oakline Tree Care",
          rating: "4.8",
          reviewCount: 12,
          isFeatured: true,
        });
        expect(await store.businesses.get("t-001")).toEqual(saved);
        expect(await store.businesses.getBySlug(saved.slug)).toEqual(saved);
        expect(await store.businesses.get("nope")).toBeNull();
        expect(await store.businesses.getMany(["nope", "t-001"])).toEqual([saved]);
        expect(await store.businesses.getMany([])).toEqual([]);
        expect(await store.businesses.getBySlug("nope")).toBeNull();
        expect(await store.businesses.count()).toBe(1);
      });

      it("derives rating 0.0 and count 0 without reviews, and keeps the aggregate on later upserts", async () => {
        const store = await h.fresh("biz-agg");
        const { rating: _r, reviewCount: _c, ...bare } = business(20);
        expect(await store.businesses.upsert(bare)).toMatchObject({ rating: "0.0", reviewCount: 0 });
        await store.reviews.add("t-020", { customerName: "A", rating: 4 });
        const again = await store.businesses.upsert({ ...bare, rating: "1.0", reviewCount: 99, name: "Renamed" });
        expect(again).toMatchObject({ name: "Renamed", rating: "4.0", reviewCount: 1 });
      });

      it("moves the slug and refuses a slug owned by another business", async () => {
        const store = await h.fresh("biz-slug");
        await store.businesses.upsert(business(1));
        await store.businesses.upsert(business(2));
        await store.businesses.upsert(business(1, { slug: "moved-here" }));
        expect(await store.businesses.getBySlug("test-tree-company-1")).toBeNull();
        expect((await store.businesses.getBySlug("moved-here"))?.id).toBe("t-001");
        await expect(store.businesses.upsert(business(1, { slug: "test-tree-company-2" }))).rejects.toBeInstanceOf(
          ConflictError,
        );
      });

      it("rejects invalid businesses", async () => {
        const store = await h.fresh("biz-invalid");
        await expect(store.businesses.upsert(business(1, { city: "" }))).rejects.toThrow();
        await expect(store.businesses.upsert(business(1, { slug: "Not A Slug" }))).rejects.toThrow();
      });

      it("lists featured first, then by rating, with total and pages of 12 by default", async () => {
        const store = await h.fresh("biz-order");
        await withDirectory(store);
        for (let n = 11; n <= 25; n++) await store.businesses.upsert(business(n, { rating: "3.0", reviewCount: 1 }));
        const all = await store.businesses.list();
        expect(all.total).toBe(25);
        expect(all.data).toHaveLength(12);
        const expected = modelOrder([
          ...DIRECTORY,
          ...Array.from({ length: 15 }, (_, i) => business(i + 11, { rating: "3.0", reviewCount: 1 })),
        ]);
        expect(ids(all.data)).toEqual(ids(expected.slice(0, 12)));
        const page3 = await store.businesses.list({ offset: 24 });
        expect(ids(page3.data)).toEqual(ids(expected.slice(24)));
        expect(ids(await store.businesses.featured())).toEqual(ids(expected.filter((b) => b.isFeatured)));
      });

      it("filters by city (value or label), featured and search, matching a reference model", async () => {
        const store = await h.fresh("biz-model");
        await withDirectory(store);
        const cases: { search?: string; city?: string; featured?: boolean }[] = [
          {},
          { city: "austin" },
          { city: "San Antonio" },
          { city: "houston", featured: true },
          { featured: true },
          { search: "oak" },
          { search: "OAK Wilt" },
          { search: "stump grinding" },
          { search: "stum" },
          { search: "tree", city: "dallas" },
          { search: "emergency removal" },
          { search: "emerg remo", featured: true },
          { search: "cafe resume" },
          { search: "houston" },
          { search: "san antonio" },
          { search: "24/7" },
          { search: "cabling & bracing" },
          { search: "zzz" },
          { search: "oak zzz" },
          { search: "the and of" },
        ];
        for (const query of cases) {
          const expected = model(query);
          const got = await store.businesses.list({ ...query, limit: 48 });
          expect({ query, ids: ids(got.data), total: got.total }).toEqual({
            query,
            ids: ids(expected),
            total: expected.length,
          });
        }
        expect(await store.businesses.list({ city: "Paris" })).toEqual({ data: [], total: 0 });
        expect((await store.businesses.list({ city: "all" })).total).toBe(DIRECTORY.length);
      });

      it("pages any query consistently (property)", async () => {
        const store = await h.fresh("biz-pages");
        await withDirectory(store);
        const vocabulary = [
          "oak",
          "tree",
          "stump",
          "storm",
          "remov",
          "pecan",
          "emergency",
          "care",
          "arbor",
          "gulf",
          "trim",
          "x",
        ];
        await fc.assert(
          fc.asyncProperty(
            fc.record({
              search: fc.option(
                fc.array(fc.constantFrom(...vocabulary), { minLength: 1, maxLength: 3 }).map((w) => w.join(" ")),
                { nil: undefined },
              ),
              city: fc.option(fc.constantFrom(...CITIES.map((c) => c.value)), { nil: undefined }),
              featured: fc.boolean(),
              limit: fc.integer({ min: 1, max: 5 }),
              offset: fc.integer({ min: 0, max: 11 }),
            }),
            async (q) => {
              const expected = model(q);
              const got = await store.businesses.list(q);
              expect(got.total).toBe(expected.length);
              expect(ids(got.data)).toEqual(ids(expected.slice(q.offset, q.offset + q.limit)));
            },
          ),
          { numRuns: 40 },
        );
      });

      it("lists a business outside the metros under All Cities in the usual order, and under no city filter", async () => {
        const store = await h.fresh("biz-elsewhere");
        await withDirectory(store);
        const boise = business(40, { city: "Boise", state: "ID", zipCode: "83702", rating: "5.0", reviewCount: 50 });
        // Springfield is a metro in Illinois only: the one in Missouri is elsewhere.
        const springfield = business(41, {
          city: "Springfield",
          state: "MO",
          zipCode: "65806",
          description: "Maple work.",
        });
        await store.businesses.upsert(boise);
        await store.businesses.upsert(springfield);
        const all = await store.businesses.list({ limit: 50 });
        expect(all.total).toBe(DIRECTORY.length + 2);
        expect(ids(all.data)).toEqual(ids(modelOrder([...DIRECTORY, boise, springfield])));
        expect((await store.businesses.list({ search: "boise" })).data.map((b) => b.city)).toEqual(["Boise"]);
        for (const city of CITIES) {
          expect(ids((await store.businesses.list({ city: city.value, limit: 50 })).data)).not.toContain("t-040");
        }
        expect((await store.businesses.get("t-041"))?.city).toBe("Springfield");
      });

      it("re-indexes on upsert: old words stop matching, new words match", async () => {
        const store = await h.fresh("biz-reindex");
        await store.businesses.upsert(business(1, { description: "Magnolia specialists." }));
        expect((await store.businesses.list({ search: "magnolia" })).total).toBe(1);
        await store.businesses.upsert(business(1, { description: "Sycamore specialists.", city: "Dallas" }));
        expect((await store.businesses.list({ search: "magnolia" })).total).toBe(0);
        expect((await store.businesses.list({ search: "sycamore", city: "dallas" })).total).toBe(1);
        expect((await store.businesses.list({ search: "sycamore", city: "austin" })).total).toBe(0);
        expect((await store.businesses.list({ city: "austin" })).total).toBe(0);
      });

      it("sees writes in cached multi-word searches", async () => {
        const store = await h.fresh("biz-cache");
        await withDirectory(store);
        const before = await store.businesses.list({ search: "stump grinding" });
        await store.businesses.upsert(
          business(30, { description: "Stump grinding specialists.", rating: "5.0", reviewCount: 99 }),
        );
        const after = await store.businesses.list({ search: "stump grinding" });
        expect(after.total).toBe(before.total + 1);
        expect(after.data[0]?.id).toBe("t-030");
        await store.reviews.add("t-007", { customerName: "Z", rating: 1 });
        expect((await store.businesses.list({ search: "stump grinding" })).data.map((b) => b.reviewCount)).toContain(
          31,
        );
      });
    });

    describe("reviews", () => {
      it("counts a business's stored reviews, hidden ones too, whatever its seeded aggregate says", async () => {
        const store = await h.fresh("rev-count");
        await store.businesses.upsert(DIRECTORY[0]!);
        await store.businesses.upsert(business(2));
        expect(await store.reviews.count("t-001")).toBe(0);
        const first = await store.reviews.add("t-001", { customerName: "A", rating: 4 });
        await Promise.all([
          store.reviews.add("t-001", { customerName: "B", rating: 5 }),
          store.reviews.add("t-001", { customerName: "C", rating: 3 }),
        ]);
        await store.reviews.moderate(first.id, { hidden: true, hiddenReason: "spam-or-advertising" });
        expect(await store.reviews.count("t-001")).toBe(3);
        expect((await store.reviews.list("t-001")).length).toBe(3);
        expect(await store.reviews.count("t-002")).toBe(0);
        expect((await store.businesses.get("t-001"))?.reviewCount).toBe(14);
      });

      it("adds with server-set id, createdAt, isVerified=false and default rating 5", async () => {
        const store = await h.fresh("rev-add");
        await store.businesses.upsert(business(1));
        const review = await store.reviews.add("t-001", {
          customerName: "Dana",
          customerEmail: "",
          title: "Great",
          reviewText: "Quick work",
        });
        expect(review).toMatchObject({
          customerName: "Dana",
          rating: 5,
          title: "Great",
          reviewText: "Quick work",
          serviceType: "",
          isVerified: false,
        });
        expect(review.customerEmail).toBeUndefined();
        expect(review.id).toMatch(/^rv_/);
        expect(Math.abs(Date.parse(review.createdAt) - Date.now())).toBeLessThan(60_000);
        expect(await store.reviews.list("t-001")).toEqual([review]);
      });

      it("lists newest first and updates rating and count", async () => {
        const store = await h.fresh("rev-list");
        await store.businesses.upsert(business(1));
        const stars = [5, 4, 4, 3];
        for (const [i, rating] of stars.entries()) {
          await store.reviews.add(
            "t-001",
            { customerName: `C${i}`, rating },
            { createdAt: new Date(Date.UTC(2024, 0, i + 1)).toISOString() },
          );
        }
        expect((await store.reviews.list("t-001")).map((r) => r.customerName)).toEqual(["C3", "C2", "C1", "C0"]);
        expect(await store.businesses.get("t-001")).toMatchObject({ rating: "4.0", reviewCount: 4 });
        await store.reviews.add("t-001", { customerName: "C4", rating: 5 });
        expect(await store.businesses.get("t-001")).toMatchObject({ rating: "4.2", reviewCount: 5 });
      });

      it("reorders the directory when ratings change", async () => {
        const store = await h.fresh("rev-order");
        await store.businesses.upsert(business(1, { rating: "4.0", reviewCount: 1 }));
        await store.businesses.upsert(business(2, { rating: "4.5", reviewCount: 1, city: "Dallas" }));
        expect(ids((await store.businesses.list({ search: "test" })).data)).toEqual(["t-002", "t-001"]);
        for (let i = 0; i < 3; i++) await store.reviews.add("t-001", { customerName: "Fan", rating: 5 });
        expect(ids((await store.businesses.list()).data)).toEqual(["t-001", "t-002"]);
        expect(ids((await store.businesses.list({ search: "test" })).data)).toEqual(["t-001", "t-002"]);
        expect(ids((await store.businesses.list({ search: "test company" })).data)).toEqual(["t-001", "t-002"]);
      });

      it("keeps reviewCount equal to the number of reviews under concurrent posts", async () => {
        const store = await h.fresh("rev-race");
        await store.businesses.upsert(business(1, { services: ["Tree Trimming", "Stump Grinding", "Tree Removal"] }));
        const n = 25;
        const stars = Array.from({ length: n }, (_, i) => (i % 5) + 1);
        await Promise.all(stars.map((rating, i) => store.reviews.add("t-001", { customerName: `R${i}`, rating })));
        const reviews = await store.reviews.list("t-001");
        const biz = await store.businesses.get("t-001");
        expect(reviews).toHaveLength(n);
        expect(biz?.reviewCount).toBe(n);
        expect(biz?.rating).toBe("3.0");
        expect((await store.businesses.list({ search: "stump" })).data[0]?.reviewCount).toBe(n);
      });

      it("is a typed NotFound for an unknown business", async () => {
        const store = await h.fresh("rev-404");
        await expect(store.reviews.add("ghost", { customerName: "X" })).rejects.toBeInstanceOf(NotFoundError);
        await expect(store.reviews.list("ghost")).rejects.toMatchObject({ code: "NOT_FOUND", entity: "business" });
      });

      it("treats a known review id as already stored", async () => {
        const store = await h.fresh("rev-idem");
        await store.businesses.upsert(business(1));
        const opts = { id: "t-001-rev-001", createdAt: "2024-05-01T10:00:00Z", isVerified: true };
        const a = await store.reviews.addOrKeep("t-001", { customerName: "Seeded", rating: 4 }, opts);
        const b = await store.reviews.addOrKeep("t-001", { customerName: "Seeded", rating: 4 }, opts);
        expect([a.created, b.created]).toEqual([true, false]);
        expect(b.review).toEqual(a.review);
        expect(a.review.isVerified).toBe(true);
        expect(await store.businesses.get("t-001")).toMatchObject({ reviewCount: 1, rating: "4.0" });
      });
    });

    describe("operator: lead edits, search, outbox", () => {
      it("writes the outbox item and search text with the lead, and not again for a replay", async () => {
        const store = await h.fresh("outbox-create");
        const { lead } = await store.leads.create(
          "quote",
          { name: "Ann Ávila", email: "ann@example.com", phone: "(512) 555-0101" },
          { sourcePage: "/", idempotencyKey: "k1" },
        );
        await store.leads.create(
          "quote",
          { name: "Ann Ávila", email: "ann@example.com", phone: "(512) 555-0101" },
          { sourcePage: "/", idempotencyKey: "k1" },
        );
        const { items, total } = await store.outbox.list();
        expect(total).toBe(1);
        expect(items[0]).toEqual({
          leadId: lead.id,
          type: "quote",
          createdAt: lead.createdAt,
          attempts: 0,
          nextAttemptAt: lead.createdAt,
          delivered: [],
        });
        expect(JSON.stringify(items[0])).not.toContain("Ann");
      });

      it("claims due items once, under a lease, and settles them", async () => {
        const store = await h.fresh("outbox-claim");
        const a = (await store.leads.create("audit", { name: "A" }, { sourcePage: "/" })).lead;
        const b = (await store.leads.create("booking", { customerName: "B" }, { sourcePage: "/" })).lead;
        const now = Date.now() + 1_000;
        const claimed = await store.outbox.claimDue(now, now + 60_000, 10);
        expect(claimed.map((i) => i.leadId).sort()).toEqual([a.id, b.id].sort());
        expect(await store.outbox.claimDue(now, now + 60_000, 10)).toEqual([]);
        expect(await store.outbox.claim(a.id, now, now + 60_000)).toBeNull();
        await store.outbox.done(a.id);
        await store.outbox.reschedule({
          ...claimed.find((i) => i.leadId === b.id)!,
          attempts: 1,
          lastError: "webhook: HTTP 500",
          nextAttemptAt: new Date(now + 120_000).toISOString(),
        });
        expect((await store.outbox.list()).items).toMatchObject([
          { leadId: b.id, attempts: 1, lastError: "webhook: HTTP 500" },
        ]);
        // After the lease and the backoff, it is due again; a removed item is never re-created.
        expect((await store.outbox.claimDue(now + 130_000, now + 190_000, 10)).map((i) => i.leadId)).toEqual([b.id]);
        await store.outbox.reschedule({
          leadId: a.id,
          type: "audit",
          createdAt: a.createdAt,
          attempts: 9,
          nextAttemptAt: a.createdAt,
          delivered: [],
        });
        expect(await store.outbox.get(a.id)).toBeNull();
        expect(await store.outbox.retryNow(undefined, now)).toBe(1);
        expect(await store.outbox.claim(b.id, now, now + 60_000)).toMatchObject({ leadId: b.id });
      });

      it("closes, reopens and notes a lead with a history, and refuses unknown leads", async () => {
        const store = await h.fresh("lead-update");
        const { lead } = await store.leads.create("quote", { name: "Ann" }, { sourcePage: "/" });
        const t1 = new Date("2025-01-02T10:00:00.000Z");
        const noted = await store.leads.update(lead.id, { note: "Left a voicemail" }, t1);
        expect(noted).toMatchObject({
          status: "new",
          note: "Left a voicemail",
          updatedAt: t1.toISOString(),
          history: [{ at: t1.toISOString(), from: "new", to: "new", note: "Left a voicemail" }],
        });
        const closed = await store.leads.update(lead.id, { closed: true }, new Date("2025-01-03T10:00:00.000Z"));
        expect(closed).toMatchObject({ status: "closed", note: "Left a voicemail" });
        expect(closed?.history?.[1]).toMatchObject({ from: "new", to: "closed" });
        // Closing a closed lead, or reopening an open one, changes nothing.
        expect((await store.leads.update(lead.id, { closed: true }))?.history).toHaveLength(2);
        const reopened = await store.leads.update(lead.id, { closed: false });
        expect(reopened).toMatchObject({ status: "new" });
        expect(reopened?.history?.[2]).toMatchObject({ from: "closed", to: "new" });
        expect((await store.leads.update(lead.id, { closed: false }))?.history).toHaveLength(3);
        const cleared = await store.leads.update(lead.id, { note: "" });
        expect(cleared?.note).toBeUndefined();
        expect(await store.leads.get(lead.id)).toEqual(cleared);
        expect(await store.leads.update("ld_doesnotexist0000000", { closed: true })).toBeNull();
        // Concurrent edits: every one lands in the history.
        await Promise.all(["a", "b", "c", "d"].map((note) => store.leads.update(lead.id, { note })));
        expect((await store.leads.get(lead.id))?.history).toHaveLength(4 + 4);
      });

      it("searches by name, e-mail and phone digits, newest first, with a cursor", async () => {
        const store = await h.fresh("lead-search");
        const made: string[] = [];
        for (let i = 0; i < 5; i++) {
          made.push(
            (
              await store.leads.create(
                "quote",
                { name: `José Pérez ${i}`, email: `jose${i}@example.com`, phone: `+1 (512) 555-01${i}0` },
                { sourcePage: "/" },
              )
            ).lead.id,
          );
          await new Promise((r) => setTimeout(r, 2));
        }
        await store.leads.create(
          "booking",
          { customerName: "Other Person", customerEmail: "other@example.com", customerPhone: "512-555-9999" },
          { sourcePage: "/" },
        );
        expect((await store.leads.search("jose", "quote", { limit: 10 })).items.map((l) => l.id)).toEqual(
          [...made].reverse(),
        );
        expect((await store.leads.search("PÉREZ 3")).items.map((l) => l.id)).toEqual([made[3]]);
        expect((await store.leads.search("jose2@example")).items.map((l) => l.id)).toEqual([made[2]]);
        expect((await store.leads.search("512-555-0140")).items.map((l) => l.id)).toEqual([made[4]]);
        expect((await store.leads.search("5125559999")).items[0]?.type).toBe("booking");
        expect((await store.leads.search("nobody")).items).toEqual([]);
        const first = await store.leads.search("jose", undefined, { limit: 2 });
        const second = await store.leads.search("jose", undefined, { limit: 2, cursor: first.nextCursor });
        const third = await store.leads.search("jose", undefined, { limit: 2, cursor: second.nextCursor });
        expect([...first.items, ...second.items, ...third.items].map((l) => l.id)).toEqual([...made].reverse());
        expect(third.nextCursor).toBeNull();
      });
    });

    describe("operator: review moderation", () => {
      it("hides a review from the public list and the rating, shows it again, and keeps its Verified badge", async () => {
        const store = await h.fresh("rev-moderate");
        await store.businesses.upsert(business(1, { services: ["Tree Trimming", "Stump Grinding"] }));
        await store.businesses.upsert(business(2, { rating: "4.0", reviewCount: 1, city: "Dallas" }));
        const five = await store.reviews.add(
          "t-001",
          { customerName: "Five", rating: 5 },
          { createdAt: "2024-01-01T00:00:00Z", isVerified: true },
        );
        const one = await store.reviews.add(
          "t-001",
          { customerName: "One", rating: 1 },
          { createdAt: "2024-01-02T00:00:00Z" },
        );
        expect(await store.businesses.get("t-001")).toMatchObject({ rating: "3.0", reviewCount: 2 });
        expect(ids((await store.businesses.list({ search: "test" })).data)).toEqual(["t-002", "t-001"]);

        const hidden = await store.reviews.moderate(one.id, { hidden: true, hiddenReason: "duplicate" });
        expect(hidden).toMatchObject({ id: one.id, hidden: true, hiddenReason: "duplicate", businessId: "t-001" });
        // A hidden review keeps its place in the list (the public sees its reason), not its stars.
        expect((await store.reviews.list("t-001")).map((r) => `${r.id}${r.hidden ? " hidden" : ""}`)).toEqual([
          `${one.id} hidden`,
          five.id,
        ]);
        expect(await store.businesses.get("t-001")).toMatchObject({ rating: "5.0", reviewCount: 1 });
        expect(ids((await store.businesses.list({ search: "stump" })).data)).toEqual(["t-001"]);
        expect(ids((await store.businesses.list({ search: "test" })).data)).toEqual(["t-001", "t-002"]);
        // Hiding twice changes nothing.
        await store.reviews.moderate(one.id, { hidden: true });
        expect(await store.businesses.get("t-001")).toMatchObject({ rating: "5.0", reviewCount: 1 });

        // Moderation never touches the badge (it comes only with an invitation, add's isVerified).
        const rehidden = await store.reviews.moderate(five.id, { hidden: true, hiddenReason: "duplicate" });
        expect(rehidden?.isVerified).toBe(true);
        await store.reviews.moderate(five.id, { hidden: false });
        expect((await store.reviews.list("t-001")).find((r) => r.id === five.id)?.isVerified).toBe(true);

        await store.reviews.moderate(one.id, { hidden: false });
        expect((await store.reviews.list("t-001")).map((r) => r.id)).toEqual([one.id, five.id]);
        expect(await store.businesses.get("t-001")).toMatchObject({ rating: "3.0", reviewCount: 2 });
        expect((await store.reviews.get(one.id))?.hidden).toBeUndefined();
        expect((await store.reviews.get(one.id))?.hiddenReason).toBeUndefined();
        expect(await store.reviews.moderate("rv_unknown", { hidden: true })).toBeNull();
      });

      it("lists every review of every business, hidden ones too, with a cursor", async () => {
        const store = await h.fresh("rev-all");
        await store.businesses.upsert(business(1));
        await store.businesses.upsert(business(2, { city: "Dallas" }));
        const same = "2024-03-01T00:00:00Z";
        const made = [
          await store.reviews.add("t-001", { customerName: "A" }, { id: "t-001-rev-001", createdAt: same }),
          await store.reviews.add("t-002", { customerName: "B" }, { id: "t-002-rev-001", createdAt: same }),
          await store.reviews.add("t-001", { customerName: "C" }, { createdAt: "2024-04-01T00:00:00Z" }),
          await store.reviews.add("t-002", { customerName: "D" }, { createdAt: "2024-02-01T00:00:00Z" }),
        ];
        await store.reviews.moderate(made[0]!.id, { hidden: true });
        const seen: string[] = [];
        let cursor: string | null = null;
        do {
          const page = await store.reviews.listAll({ cursor, limit: 1 });
          seen.push(...page.items.map((r) => `${r.businessId}/${r.customerName}${r.hidden ? " (hidden)" : ""}`));
          cursor = page.nextCursor;
        } while (cursor);
        expect(seen).toEqual(["t-001/C", "t-002/B", "t-001/A (hidden)", "t-002/D"]);
      });

      it("keeps the aggregate exact when moderation races new reviews", async () => {
        const store = await h.fresh("rev-moderate-race");
        await store.businesses.upsert(business(1));
        const first = await Promise.all(
          [1, 2, 3, 4].map((rating) => store.reviews.add("t-001", { customerName: `R${rating}`, rating })),
        );
        await Promise.all([
          ...first.slice(0, 2).map((r) => store.reviews.moderate(r.id, { hidden: true })),
          ...[5, 5].map((rating) => store.reviews.add("t-001", { customerName: "New", rating })),
        ]);
        // Shown: 3, 4, 5, 5.
        expect(await store.businesses.get("t-001")).toMatchObject({ reviewCount: 4, rating: "4.3" });
        expect((await store.reviews.list("t-001")).filter((r) => !r.hidden)).toHaveLength(4);
      });
    });

    describe("near: radius search", () => {
      // Real ZIP centroids (zipcodes dataset): Round Rock 78664, Pflugerville 78660, downtown
      // Austin 78701, Georgetown 78626, San Marcos 78666, Katy 77494, El Paso 79901 (Mountain time).
      const AT = {
        roundRock: { lat: 30.5145, lng: -97.668 },
        pflugerville: { lat: 30.4486, lng: -97.5982 },
        austin: { lat: 30.2713, lng: -97.7426 },
        georgetown: { lat: 30.6464, lng: -97.6816 },
        sanMarcos: { lat: 29.8702, lng: -97.9406 },
        katy: { lat: 29.7463, lng: -95.8305 },
        elPaso: { lat: 31.7587, lng: -106.4869 },
      };
      const DAY_HOURS = {
        monday: "8:00 AM - 5:00 PM",
        tuesday: "8:00 AM - 5:00 PM",
        wednesday: "8:00 AM - 5:00 PM",
        thursday: "8:00 AM - 5:00 PM",
        friday: "8:00 AM - 5:00 PM",
      };
      const LATE = { ...DAY_HOURS, friday: "6:00 PM - 2:00 AM" };
      const ALWAYS = Object.fromEntries(
        ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((d) => [d, "Open 24 hours"]),
      );
      const NEAR: Fixture[] = [
        business(21, {
          name: "Round Rock Trim",
          location: AT.roundRock,
          rating: "4.1",
          reviewCount: 4,
          services: ["Tree Trimming"],
          businessHours: DAY_HOURS,
        }),
        business(22, {
          name: "Pflugerville Removal",
          location: AT.pflugerville,
          rating: "4.9",
          reviewCount: 40,
          services: ["Tree Removal", "Emergency Service"],
          emergency247: true,
          businessHours: ALWAYS,
        }),
        business(23, {
          name: "Downtown Arbor",
          location: AT.austin,
          isFeatured: true,
          rating: "4.5",
          reviewCount: 10,
          services: ["Tree Removal", "Tree Trimming"],
          businessHours: LATE,
        }),
        business(24, {
          name: "Georgetown Stumps",
          location: AT.georgetown,
          rating: "4.9",
          reviewCount: 12,
          services: ["Stump Grinding"],
          businessHours: DAY_HOURS,
        }),
        business(25, {
          name: "San Marcos Tree",
          location: AT.sanMarcos,
          rating: "3.9",
          reviewCount: 7,
          services: ["Tree Removal"],
          businessHours: DAY_HOURS,
        }),
        business(26, {
          name: "Katy Canopy",
          city: "Houston",
          location: AT.katy,
          rating: "4.7",
          reviewCount: 9,
          services: ["Tree Removal"],
          businessHours: DAY_HOURS,
        }),
        business(27, {
          name: "Franklin Mountain Trees",
          location: AT.elPaso,
          timeZone: "America/Denver",
          rating: "4.0",
          reviewCount: 1,
          services: ["Tree Removal"],
          businessHours: LATE,
        }),
        business(28, { name: "No Location Tree Co", rating: "5.0", reviewCount: 50, services: ["Tree Removal"] }),
      ];
      async function nearDirectory(store: Store) {
        for (const b of NEAR) await store.businesses.upsert(b);
      }
      const near = (store: Store, q: Parameters<Store["businesses"]["list"]>[0]) =>
        store.businesses.list({ limit: 50, ...q });

      it("orders by distance, cuts at the radius and reports miles", async () => {
        const store = await h.fresh("near-distance");
        await nearDirectory(store);
        const ten = await near(store, { near: AT.roundRock, radius: 10, sort: "distance" });
        expect(ids(ten.data)).toEqual(["t-021", "t-022", "t-024"]);
        expect(ten.total).toBe(3);
        expect(ten.data[0]!.distanceMiles).toBe(0);
        expect(ten.data[1]!.distanceMiles).toBeCloseTo(6.0, 0);
        const wide = await near(store, { near: AT.roundRock, radius: 50, sort: "distance" });
        expect(ids(wide.data)).toEqual(["t-021", "t-022", "t-024", "t-023", "t-025"]);
        const all = await near(store, { near: AT.roundRock, radius: 100, sort: "distance" });
        // Katy is about 125 miles away, El Paso 520; the unlocated business never appears.
        expect(ids(all.data)).toEqual(["t-021", "t-022", "t-024", "t-023", "t-025"]);
        for (let i = 1; i < all.data.length; i++)
          expect(all.data[i]!.distanceMiles!).toBeGreaterThanOrEqual(all.data[i - 1]!.distanceMiles!);
        expect(ids((await near(store, { near: AT.katy, radius: 10 })).data)).toEqual(["t-026"]);
      });

      it("sorts best (featured, rating, reviews), rating and reviews, distance breaking ties", async () => {
        const store = await h.fresh("near-sort");
        await nearDirectory(store);
        const q = { near: AT.roundRock, radius: 50 };
        expect(ids((await near(store, q)).data)).toEqual(["t-023", "t-022", "t-024", "t-021", "t-025"]);
        expect(ids((await near(store, { ...q, sort: "rating" })).data)).toEqual([
          "t-022",
          "t-024",
          "t-023",
          "t-021",
          "t-025",
        ]);
        expect(ids((await near(store, { ...q, sort: "reviews" })).data)).toEqual([
          "t-022",
          "t-024",
          "t-023",
          "t-025",
          "t-021",
        ]);
      });

      it("combines service, emergency, minimum rating, city and search filters", async () => {
        const store = await h.fresh("near-filters");
        await nearDirectory(store);
        const q = { near: AT.roundRock, radius: 50, sort: "distance" as const };
        expect(ids((await near(store, { ...q, service: "Tree Removal" })).data)).toEqual(["t-022", "t-023", "t-025"]);
        expect(ids((await near(store, { ...q, service: "tree removal", minRating: 4.5 })).data)).toEqual([
          "t-022",
          "t-023",
        ]);
        expect(ids((await near(store, { ...q, emergency: true })).data)).toEqual(["t-022"]);
        expect(ids((await near(store, { ...q, service: "Tree Trimming", emergency: true })).data)).toEqual([]);
        expect(ids((await near(store, { ...q, search: "stumps" })).data)).toEqual(["t-024"]);
        expect(ids((await near(store, { ...q, search: "tree removal" })).data)).toEqual(["t-022", "t-023", "t-025"]);
        expect(ids((await near(store, { ...q, city: "houston" })).data)).toEqual([]);
        expect(ids((await near(store, { near: AT.katy, radius: 25, city: "Houston" })).data)).toEqual(["t-026"]);
      });

      it("knows open now in each business's own time zone, across midnight", async () => {
        const store = await h.fresh("near-open");
        await nearDirectory(store);
        const q = { near: AT.roundRock, radius: 50, sort: "distance" as const, openNow: true };
        // Wednesday 2026-11-18 10:00 in Austin (CST, UTC-6): day hours and 24/7 are open.
        expect(ids((await near(store, { ...q, now: Date.parse("2026-11-18T16:00:00Z") })).data)).toEqual([
          "t-021",
          "t-022",
          "t-024",
          "t-023",
          "t-025",
        ]);
        // Wednesday 23:30: only 24/7.
        expect(ids((await near(store, { ...q, now: Date.parse("2026-11-19T05:30:00Z") })).data)).toEqual(["t-022"]);
        // Friday 23:30 and Saturday 01:30 (Friday's 6 PM - 2 AM): the late business too; Saturday 02:30 not.
        expect(ids((await near(store, { ...q, now: Date.parse("2026-11-21T05:30:00Z") })).data)).toEqual([
          "t-022",
          "t-023",
        ]);
        expect(ids((await near(store, { ...q, now: Date.parse("2026-11-21T07:30:00Z") })).data)).toEqual([
          "t-022",
          "t-023",
        ]);
        expect(ids((await near(store, { ...q, now: Date.parse("2026-11-21T08:30:00Z") })).data)).toEqual(["t-022"]);
        // El Paso is on Mountain time: at 01:30 Central on Saturday it is 00:30 there, inside Friday's span;
        // at 02:30 Central (01:30 Mountain) still open; at 03:30 Central (02:30 Mountain) closed.
        const ep = { near: AT.elPaso, radius: 10, openNow: true };
        expect(ids((await near(store, { ...ep, now: Date.parse("2026-11-21T07:30:00Z") })).data)).toEqual(["t-027"]);
        expect(ids((await near(store, { ...ep, now: Date.parse("2026-11-21T08:30:00Z") })).data)).toEqual(["t-027"]);
        expect(ids((await near(store, { ...ep, now: Date.parse("2026-11-21T09:30:00Z") })).data)).toEqual([]);
      });

      it("pages with an exact total", async () => {
        const store = await h.fresh("near-pages");
        await nearDirectory(store);
        const q = { near: AT.roundRock, radius: 100, sort: "distance" as const };
        const all = ids((await near(store, q)).data);
        const pages = [];
        for (let offset = 0; offset < 6; offset += 2) {
          const page = await store.businesses.list({ ...q, limit: 2, offset });
          expect(page.total).toBe(5);
          pages.push(...ids(page.data));
        }
        expect(pages).toEqual(all);
      });

      it("moves a business between location sets when it changes", async () => {
        const store = await h.fresh("near-move");
        await nearDirectory(store);
        await store.businesses.upsert({ ...NEAR[0]!, location: AT.katy, services: ["Stump Grinding"] });
        expect(ids((await near(store, { near: AT.roundRock, radius: 10 })).data)).toEqual(["t-022", "t-024"]);
        expect(ids((await near(store, { near: AT.katy, radius: 10, service: "Stump Grinding" })).data)).toEqual([
          "t-021",
        ]);
        expect(ids((await near(store, { near: AT.katy, radius: 10, service: "Tree Trimming" })).data)).toEqual([]);
        const { location: _gone, ...unlocated } = NEAR[0]!;
        await store.businesses.upsert(unlocated);
        expect(ids((await near(store, { near: AT.katy, radius: 10 })).data)).toEqual(["t-026"]);
      });
    });

    describe("seed", () => {
      const seed: SeedBusiness[] = [
        {
          ...business(1),
          reviews: [
            {
              customerName: "A",
              rating: 5,
              title: "",
              reviewText: "",
              serviceType: "",
              isVerified: true,
              createdAt: "2024-01-01T00:00:00Z",
            },
            {
              customerName: "B",
              rating: 4,
              title: "",
              reviewText: "",
              serviceType: "",
              isVerified: false,
              createdAt: "2024-02-01T00:00:00Z",
            },
          ],
        },
        { ...business(2), reviews: [] },
      ].map(({ rating: _r, reviewCount: _c, ...b }) => b as SeedBusiness);

      it("is idempotent", async () => {
        const store = await h.fresh("seed");
        expect(await seedDirectory(store, seed)).toEqual({
          businesses: 2,
          reviewsAdded: 2,
          reviewsKept: 0,
          samples: 0,
        });
        expect(await seedDirectory(store, seed)).toEqual({
          businesses: 2,
          reviewsAdded: 0,
          reviewsKept: 2,
          samples: 0,
        });
        expect(await store.businesses.get("t-001")).toMatchObject({ rating: "4.5", reviewCount: 2 });
        expect(await store.businesses.get("t-002")).toMatchObject({ rating: "0.0", reviewCount: 0 });
        expect((await store.reviews.list("t-001")).map((r) => r.id)).toEqual(["t-001-rev-002", "t-001-rev-001"]);
      });

      it("keeps a sample business's mark and never stores its reviews as Verified", async () => {
        const store = await h.fresh("seed-sample");
        const samples = seed.map((b) => ({ ...b, isSample: true }));
        expect(await seedDirectory(store, samples)).toMatchObject({ businesses: 2, samples: 2 });
        expect(await store.businesses.get("t-001")).toMatchObject({ isSample: true });
        expect((await store.businesses.getBySlug(seed[1]!.slug))?.isSample).toBe(true);
        const reviews = await store.reviews.list("t-001");
        expect(reviews).toHaveLength(2);
        expect(reviews.filter((r) => r.isVerified)).toEqual([]);
        // A real business keeps no mark.
        await store.businesses.upsert({ ...seed[0]!, id: "t-003", slug: "real-one", isSample: undefined });
        expect((await store.businesses.get("t-003"))?.isSample).toBeUndefined();
      });

      it.runIf(existsSync(DEFAULT_SEED_FILE))(
        "loads content/directory/businesses.json",
        async () => {
          const store = await h.fresh("seed-file");
          const items = readSeedFile(DEFAULT_SEED_FILE);
          const report = await store.batch(() => seedDirectory(store, items));
          expect(report.businesses).toBe(items.length);
          expect(report.reviewsAdded).toBe(items.reduce((n, b) => n + b.reviews.length, 0));
          const { total } = await store.businesses.list();
          expect(total).toBe(items.length);
          const first = items[0]!;
          const stored = await store.businesses.getBySlug(first.slug);
          const stars = first.reviews.map((r) => r.rating ?? 5);
          expect(stored?.reviewCount).toBe(stars.length);
          if (stars.length)
            expect(stored?.rating).toBe(
              (Math.floor((stars.reduce((a, b) => a + b, 0) * 10) / stars.length + 0.5) / 10).toFixed(1),
            );
        },
        60_000,
      );
    });
  });
}
