/**
 * The directory API against a real Redis with a seeded directory: filters, paging, featured,
 * slug lookups, the review list and review posts (validation, limits, the rating aggregate,
 * cache purges), and which answers may be cached by the CDN.
 */
import { REVIEW_TOASTS } from "../../../src/lib/forms/copy.ts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  REVIEW_BUSINESS_BUSY,
  REVIEW_EMAIL_TAKEN,
  REVIEW_SAVE_ERROR,
  reviewsHandler,
} from "../../../netlify/lib/directory-reviews.ts";
import {
  DIRECTORY_UNAVAILABLE,
  QUERY_ERROR,
  businessBySlugHandler,
  featuredHandler,
  type DirectoryDeps,
} from "../../../netlify/lib/directory.ts";
import { DIRECTORY_MAX_LIMIT, DIRECTORY_PAGE_SIZE } from "../../../src/lib/directory-url.ts";
import { businessesHandler } from "../../../netlify/lib/directory-search.ts";
import { VALIDATION_ERROR } from "../../../src/lib/schemas/forms.ts";
import type { BusinessInput } from "../../../src/lib/schemas/business.ts";
import { REVIEW_MESSAGES } from "../../../src/lib/schemas/review.ts";
import {
  ORIGIN,
  brokenDirectory,
  directoryDeps,
  formRequest,
  functionsHarness,
  getRequest,
  jsonRequest,
  nextIp,
  testBusiness,
  validReview,
  expectFlash,
} from "../../helpers/functions.ts";
import { parseEnv } from "../../../src/lib/env.ts";

const h = await functionsHarness("directory");
afterAll(async () => {
  await h?.teardown();
});

const DIRECTORY: BusinessInput[] = [
  testBusiness("dir-01", {
    name: "Oakline Tree Care",
    slug: "oakline-tree-care",
    isFeatured: true,
    rating: "4.8",
    reviewCount: 12,
    services: ["Tree Trimming", "Tree Pruning"],
  }),
  testBusiness("dir-02", {
    name: "Capitol Stump Grinding",
    rating: "4.9",
    reviewCount: 20,
    services: ["Stump Grinding"],
  }),
  testBusiness("dir-03", { name: "Barton Creek Arborists", isFeatured: true, rating: "4.5", reviewCount: 8 }),
  testBusiness("dir-04", {
    name: "Austin Storm Crew",
    rating: "4.1",
    reviewCount: 3,
    services: ["Storm Cleanup", "Emergency Service"],
  }),
  testBusiness("dir-05", {
    name: "Bayou Tree Removal",
    city: "Houston",
    zipCode: "77002",
    isFeatured: true,
    rating: "4.7",
    reviewCount: 15,
  }),
  testBusiness("dir-06", {
    name: "Gulf Coast Trimming",
    city: "Houston",
    zipCode: "77002",
    rating: "4.3",
    reviewCount: 6,
  }),
  testBusiness("dir-07", {
    name: "Heights Arbor",
    city: "Houston",
    zipCode: "77008",
    isFeatured: true,
    rating: "4.9",
    reviewCount: 40,
  }),
  testBusiness("dir-08", {
    name: "Lone Star Tree Removal",
    city: "Dallas",
    zipCode: "75201",
    isFeatured: true,
    rating: "4.6",
    reviewCount: 9,
  }),
  testBusiness("dir-09", {
    name: "Trinity Stump & Tree",
    city: "Dallas",
    zipCode: "75201",
    rating: "4.4",
    reviewCount: 5,
    services: ["Stump Grinding"],
  }),
  testBusiness("dir-10", { name: "Deep Ellum Oaks", city: "Dallas", zipCode: "75226", rating: "3.9", reviewCount: 2 }),
  testBusiness("dir-11", {
    name: "Alamo Arborists",
    city: "San Antonio",
    zipCode: "78205",
    isFeatured: true,
    rating: "5.0",
    reviewCount: 3,
  }),
  testBusiness("dir-12", {
    name: "Mission Pruning Co",
    city: "San Antonio",
    zipCode: "78210",
    rating: "4.2",
    reviewCount: 7,
  }),
  testBusiness("dir-13", {
    name: "Riverwalk Tree Service",
    city: "San Antonio",
    zipCode: "78205",
    isFeatured: true,
    rating: "4.0",
    reviewCount: 1,
  }),
  // Fresh (no reviews, no seeded aggregate): the rating tests post to these.
  testBusiness("dir-14", {
    name: "Pecan Street Arbor",
    slug: "pecan-street-arbor",
    city: "San Antonio",
    zipCode: "78205",
  }),
  testBusiness("dir-15", { name: "Brand New Tree Co", slug: "brand-new-tree-co" }),
];
const TOTAL = DIRECTORY.length;

const CACHED = {
  "cache-control": "public, max-age=0, must-revalidate",
  "netlify-cdn-cache-control": "public, durable, s-maxage=60, stale-while-revalidate=300",
};

function expectCached(res: Response, tag: string) {
  expect(res.headers.get("cache-control")).toBe(CACHED["cache-control"]);
  expect(res.headers.get("netlify-cdn-cache-control")).toBe(CACHED["netlify-cdn-cache-control"]);
  expect(res.headers.get("netlify-cache-tag")).toBe(tag);
}

function expectNotCached(res: Response) {
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(res.headers.get("netlify-cdn-cache-control")).toBeNull();
  expect(res.headers.get("netlify-cache-tag")).toBeNull();
}

const ids = (list: { id: string }[]) => list.map((b) => b.id);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!h)("directory API", () => {
  let deps: ReturnType<typeof directoryDeps>;
  const list = (query = "", over: DirectoryDeps = {}) =>
    businessesHandler({ ...deps, ...over })(getRequest(`/api/businesses${query}`));
  const listJson = async (query = "") => {
    const res = await list(query);
    expect(res.status, query).toBe(200);
    return (await res.json()) as {
      data: { id: string; rating: string; reviewCount: number; city: string; isFeatured: boolean }[];
      total: number;
      limit: number;
      offset: number;
    };
  };
  const reviewsPath = (id: string) => `/api/businesses/${id}/reviews`;
  const reviews = (over: DirectoryDeps = {}) => reviewsHandler({ ...deps, ...over });
  const postReview = (id: string, body: unknown, over: DirectoryDeps = {}, headers: Record<string, string> = {}) =>
    reviews(over)(jsonRequest(reviewsPath(id), body, headers), nextIp());

  beforeAll(async () => {
    deps = directoryDeps(h!);
    for (const b of DIRECTORY) await h!.store.businesses.upsert(b);
    // Three dated reviews on one business, one with an e-mail that must never be shown.
    const at = (day: number) => ({ createdAt: `2026-01-${String(day).padStart(2, "0")}T12:00:00.000Z` });
    await h!.store.reviews.add("dir-15", { customerName: "Old", rating: 4, customerEmail: "old@example.com" }, at(1));
    await h!.store.reviews.add(
      "dir-15",
      { customerName: "Newest", rating: 5, customerEmail: "secret@example.com" },
      at(20),
    );
    await h!.store.reviews.add("dir-15", { customerName: "Middle", rating: 3 }, at(10));
  });

  describe("GET /api/businesses", () => {
    it("defaults: first 12, best first, with the total and the paging echoed", async () => {
      const body = await listJson();
      expect(body.limit).toBe(DIRECTORY_PAGE_SIZE);
      expect(body.offset).toBe(0);
      expect(body.total).toBe(TOTAL);
      expect(body.data).toHaveLength(12);
      // Featured first.
      const firstPlain = body.data.findIndex((b) => !b.isFeatured);
      expect(body.data.slice(firstPlain).every((b) => !b.isFeatured)).toBe(true);
      expect(body.data.slice(0, firstPlain).map((b) => b.id)).toEqual([
        "dir-11",
        "dir-07",
        "dir-01",
        "dir-05",
        "dir-08",
        "dir-03",
        "dir-13",
      ]);
    });

    it("pages with limit/offset: no gaps, no repeats, the same total", async () => {
      const all = await listJson(`?limit=${DIRECTORY_MAX_LIMIT}`);
      expect(all.limit).toBe(50);
      expect(all.data).toHaveLength(TOTAL);
      const pages = [];
      for (let offset = 0; offset < TOTAL; offset += 4) {
        const page = await listJson(`?limit=4&offset=${offset}`);
        expect(page.total).toBe(TOTAL);
        expect(page).toMatchObject({ limit: 4, offset });
        pages.push(...ids(page.data));
      }
      expect(pages).toEqual(ids(all.data));
      expect(await listJson("?offset=10000")).toMatchObject({ data: [], total: TOTAL, offset: 10000 });
    });

    it("search only when non-blank after trimming", async () => {
      expect(ids((await listJson("?search=stump")).data).sort()).toEqual(["dir-02", "dir-09"]);
      expect((await listJson("?search=%20%20%20")).total).toBe(TOTAL);
      expect((await listJson("?search=")).total).toBe(TOTAL);
      expect(ids((await listJson("?search=stump&city=dallas")).data)).toEqual(["dir-09"]);
      expect((await listJson(`?search=${"a".repeat(100)}`)).total).toBe(0);
    });

    it("city by value or label; 'all' or blank means every city", async () => {
      const sa = ["dir-11", "dir-12", "dir-13", "dir-14"];
      expect(ids((await listJson("?city=san-antonio")).data).sort()).toEqual(sa);
      expect(ids((await listJson("?city=San%20Antonio")).data).sort()).toEqual(sa);
      expect(ids((await listJson("?city=HOUSTON")).data).sort()).toEqual(["dir-05", "dir-06", "dir-07"]);
      expect((await listJson("?city=all")).total).toBe(TOTAL);
      expect((await listJson("?city=All")).total).toBe(TOTAL);
      expect((await listJson("?city=")).total).toBe(TOTAL);
      const body = await listJson("?city=dallas&limit=2");
      expect(body.total).toBe(3);
      expect(body.data.every((b) => b.city === "Dallas")).toBe(true);
    });

    it("400 with fields for an unknown city, a long search and out-of-range paging", async () => {
      const cases: [string, string][] = [
        ["?city=Paris", "city"],
        [`?search=${"a".repeat(101)}`, "search"],
        ["?limit=51", "limit"],
        ["?limit=0", "limit"],
        ["?limit=abc", "limit"],
        ["?limit=1.5", "limit"],
        ["?limit=-1", "limit"],
        ["?limit=1e1", "limit"],
        ["?offset=-1", "offset"],
        ["?offset=10001", "offset"],
        ["?offset=x", "offset"],
      ];
      for (const [query, field] of cases) {
        const res = await list(query);
        expect(res.status, query).toBe(400);
        expectNotCached(res);
        const body = await res.json();
        expect(body.error).toBe(QUERY_ERROR);
        expect(Object.keys(body.fields), query).toEqual([field]);
        expect(typeof body.fields[field]).toBe("string");
      }
      expect((await (await list("?city=Paris")).json()).fields.city).toMatch(/Austin, Houston, Dallas, San Antonio/);
      expect((await (await list("?limit=51")).json()).fields.limit).toBe("Limit must be a whole number from 1 to 50");
    });

    it("cacheable 200s tagged 'directory', varying only by the known parameters; HEAD has no body", async () => {
      const res = await list("?city=austin&utm_source=x");
      expectCached(res, "directory");
      expect(res.headers.get("netlify-vary")).toBe(
        "query=search|city|limit|offset|near|radius|service|open|emergency|minRating|sort",
      );
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      const head = await businessesHandler(deps)(getRequest("/api/businesses", { method: "HEAD" }));
      expect(head.status).toBe(200);
      expect(await head.text()).toBe("");
      expectCached(head, "directory");
    });

    it("405 JSON with Allow for other methods", async () => {
      for (const method of ["POST", "PUT", "DELETE"]) {
        const res = await businessesHandler(deps)(new Request(`${ORIGIN}/api/businesses`, { method }));
        expect(res.status).toBe(405);
        expect(res.headers.get("allow")).toBe("GET, HEAD");
        expect((await res.json()).error).toMatch(/GET/);
        expectNotCached(res);
      }
    });

    it("503 JSON when the store fails, never cached", async () => {
      const res = await list("", { store: () => brokenDirectory(h!.store) });
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ error: DIRECTORY_UNAVAILABLE });
      expectNotCached(res);
      const noStore = await list("", {
        store: () => {
          throw new Error("no config");
        },
      });
      expect(noStore.status).toBe(503);
    });
  });

  describe("GET /api/businesses/featured", () => {
    it("featured only, best first, at most 6", async () => {
      const res = await featuredHandler(deps)(getRequest("/api/businesses/featured"));
      expect(res.status).toBe(200);
      expectCached(res, "directory");
      const body = await res.json();
      expect(Object.keys(body)).toEqual(["data"]);
      // dir-13 (4.0) is the seventh featured business and does not make the cut.
      expect(ids(body.data)).toEqual(["dir-11", "dir-07", "dir-01", "dir-05", "dir-08", "dir-03"]);
    });

    it("405 for writes, 503 on a store failure", async () => {
      const post = await featuredHandler(deps)(new Request(`${ORIGIN}/api/businesses/featured`, { method: "POST" }));
      expect(post.status).toBe(405);
      expect(post.headers.get("allow")).toBe("GET, HEAD");
      const down = await featuredHandler({ ...deps, store: () => brokenDirectory(h!.store) })(
        getRequest("/api/businesses/featured"),
      );
      expect(down.status).toBe(503);
    });
  });

  describe("GET /api/businesses/slug/:slug", () => {
    const bySlug = (slug: string, context?: { params: Record<string, string> }) =>
      businessBySlugHandler(deps)(getRequest(`/api/businesses/slug/${slug}`), context);

    it("200 with the business, tagged with its id", async () => {
      const res = await bySlug("oakline-tree-care");
      expect(res.status).toBe(200);
      expectCached(res, "directory, business-dir-01");
      const body = await res.json();
      expect(body.data).toMatchObject({ id: "dir-01", name: "Oakline Tree Care", rating: "4.8", reviewCount: 12 });
      // Netlify's own path params work too.
      expect((await bySlug("ignored", { params: { slug: "oakline-tree-care" } })).status).toBe(200);
    });

    it("404 for an unknown or malformed slug, never cached", async () => {
      for (const slug of [
        "no-such-business",
        "Bad_Slug",
        "a--b",
        "%E0%A4%A",
        "x".repeat(200),
        encodeURIComponent("oakline tree care"),
      ]) {
        const res = await bySlug(slug);
        expect(res.status, slug).toBe(404);
        expect(await res.json()).toEqual({ error: "Business not found" });
        expectNotCached(res);
      }
    });
  });

  describe("GET /api/businesses/:id/reviews", () => {
    const getReviews = (id: string, query = "") => reviews()(getRequest(`${reviewsPath(id)}${query}`));

    it("newest first, no e-mails, with the total and the business's aggregate", async () => {
      const res = await getReviews("dir-15");
      expect(res.status).toBe(200);
      expectCached(res, "directory, business-dir-15");
      const text = await res.text();
      expect(text).not.toContain("@example.com");
      expect(text).not.toContain("customerEmail");
      const body = JSON.parse(text);
      expect(body.data.map((r: { customerName: string }) => r.customerName)).toEqual(["Newest", "Middle", "Old"]);
      expect(body).toMatchObject({ total: 3, rating: "4.0", reviewCount: 3 });
      expect(body.data[0]).toMatchObject({
        rating: 5,
        isVerified: false,
        title: "",
        reviewText: "",
        createdAt: "2026-01-20T12:00:00.000Z",
        id: expect.any(String),
      });
    });

    it("limit/offset page the list; the total stays", async () => {
      const body = await (await getReviews("dir-15", "?limit=1&offset=1")).json();
      expect(body.data.map((r: { customerName: string }) => r.customerName)).toEqual(["Middle"]);
      expect(body.total).toBe(3);
      for (const query of ["?limit=51", "?limit=0", "?offset=-2"])
        expect((await getReviews("dir-15", query)).status, query).toBe(400);
      expect((await getReviews("dir-15", "?limit=50")).status).toBe(200);
    });

    it("an empty list for a business without reviews; 404 for unknown or malformed ids", async () => {
      expect(await (await getReviews("dir-13")).json()).toEqual({ data: [], total: 0, rating: "4.0", reviewCount: 1 });
      for (const id of ["dir-999", "bad%20id", "-x"]) {
        const res = await getReviews(id);
        expect(res.status, id).toBe(404);
        expect(await res.json()).toEqual({ error: "Business not found" });
        expectNotCached(res);
      }
    });
  });

  describe("POST /api/businesses/:id/reviews", () => {
    it("201 with the public review and the new aggregate; list, slug and reviews agree; the cache is purged", async () => {
      const purges = directoryDeps(h!);
      const info = vi.spyOn(console, "info").mockImplementation(() => {});
      const first = await postReview("dir-14", { ...validReview(), rating: 5 }, purges);
      expect(first.status).toBe(201);
      expectNotCached(first);
      const a = await first.json();
      expect(a.business).toEqual({ id: "dir-14", rating: "5.0", reviewCount: 1 });
      await sleep(5);
      const second = await postReview(
        "dir-14",
        { ...validReview(), customerName: "Second", rating: 2, businessId: "dir-14" },
        purges,
      );
      expect(second.status).toBe(201);
      const b = await second.json();
      expect(b.business).toEqual({ id: "dir-14", rating: "3.5", reviewCount: 2 });
      expect(b.data).toMatchObject({
        customerName: "Second",
        rating: 2,
        isVerified: false,
        title: "Great crew",
        serviceType: "Tree Trimming",
        id: expect.stringMatching(/^rv_/),
      });
      expect(b.data.customerEmail).toBeUndefined();
      expect(JSON.stringify(b)).not.toContain("rita+");
      expect(purges.purges).toEqual([
        ["directory", "business-dir-14"],
        ["directory", "business-dir-14"],
      ]);
      // One line per write, without personal data.
      const lines = info.mock.calls.map((c) => String(c[0])).filter((l) => l.startsWith("[review]"));
      expect(lines).toEqual([`[review] stored ${a.data.id} for dir-14`, `[review] stored ${b.data.id} for dir-14`]);
      info.mockRestore();

      const slug = await (
        await businessBySlugHandler(deps)(getRequest("/api/businesses/slug/pecan-street-arbor"))
      ).json();
      expect(slug.data).toMatchObject({ rating: "3.5", reviewCount: 2 });
      const found = (await listJson("?search=pecan")).data.find((x) => x.id === "dir-14");
      expect(found).toMatchObject({ rating: "3.5", reviewCount: 2 });
      const listed = await (await reviews()(getRequest(reviewsPath("dir-14")))).json();
      expect(listed).toMatchObject({ total: 2, rating: "3.5", reviewCount: 2 });
      expect(listed.data.map((r: { customerName: string }) => r.customerName)).toEqual(["Second", "Rita Reviewer"]);
    });

    it("one review per e-mail per business (trimmed, any case): 409 with a clear message, nothing stored", async () => {
      const email = `Once.${process.pid}@Example.com`;
      const first = await postReview("dir-13", { ...validReview(), customerEmail: email });
      expect(first.status).toBe(201);
      const count = (await h!.store.reviews.list("dir-13")).length;
      for (const again of [email, `  ${email.toLowerCase()} `, email.toUpperCase()]) {
        const res = await postReview("dir-13", { ...validReview(), customerEmail: again, rating: 1 });
        expect(res.status, again).toBe(409);
        expectNotCached(res);
        expect(await res.json()).toEqual({ error: REVIEW_EMAIL_TAKEN, fields: { customerEmail: REVIEW_EMAIL_TAKEN } });
      }
      expect((await h!.store.reviews.list("dir-13")).length).toBe(count);
      // The same address may review another business; reviews without e-mail are not limited by it.
      expect((await postReview("dir-11", { ...validReview(), customerEmail: email })).status).toBe(201);
      expect((await postReview("dir-13", { customerName: "No Mail" })).status).toBe(201);
      expect((await postReview("dir-13", { customerName: "No Mail" })).status).toBe(201);
    });

    it("two concurrent posts from one e-mail: exactly one is stored", async () => {
      const email = `race.${process.pid}@example.com`;
      const results = await Promise.all(
        Array.from({ length: 6 }, () => postReview("dir-10", { ...validReview(), customerEmail: email })),
      );
      expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
      const stored = await h!.store.reviews.list("dir-10");
      expect(stored.filter((r) => r.customerEmail === email)).toHaveLength(1);
    });

    it("per-business hourly limit across every IP: 429 with Retry-After and a clear message", async () => {
      const limited = { env: parseEnv({ RATE_LIMIT_PER_MINUTE: "1000", REVIEW_BUSINESS_LIMIT_PER_HOUR: "2" }) };
      await h!.store.redis.del(
        `${h!.store.prefix}ratelimit:review-business:dir-09:${Math.floor(Date.now() / 3_600_000)}`,
      );
      expect((await postReview("dir-09", validReview(), limited)).status).toBe(201);
      expect((await postReview("dir-09", validReview(), limited)).status).toBe(201);
      const res = await postReview("dir-09", validReview(), limited);
      expect(res.status).toBe(429);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(Number(res.headers.get("retry-after"))).toBeLessThanOrEqual(3600);
      expect((await res.json()).error).toBe(REVIEW_BUSINESS_BUSY);
      // Another business is not affected.
      expect((await postReview("dir-08", validReview(), limited)).status).toBe(201);
    });

    describe("without JavaScript (a urlencoded form post: 303 to the review's page with a flash)", () => {
      const post = (id: string, fields: Record<string, string>, over: DirectoryDeps = {}) =>
        reviews(over)(formRequest(reviewsPath(id), Object.entries(fields)), nextIp());

      it("stores the review (stars from the radio group) and goes on to the thanks; the same e-mail again is refused", async () => {
        const email = `nojs.${process.pid}@example.com`;
        const res = await post("dir-07", {
          customerName: "No Script",
          customerEmail: email,
          rating: "3",
          title: "Fine",
        });
        expect(await expectFlash(h!.store, res, "/forms/review/dir-07")).toMatchObject({
          status: 200,
          notice: REVIEW_TOASTS.success.description,
        });
        const stored = (await h!.store.reviews.list("dir-07")).find((r) => r.customerEmail === email);
        expect(stored).toMatchObject({ customerName: "No Script", rating: 3, title: "Fine", isVerified: false });

        // The same e-mail again: back to the form, which says so; nothing stored.
        const again = await post("dir-07", { customerName: "No Script", customerEmail: email.toUpperCase() });
        expect(await expectFlash(h!.store, again, "/forms/review/dir-07")).toMatchObject({
          status: 409,
          problem: REVIEW_EMAIL_TAKEN,
          errors: { customerEmail: REVIEW_EMAIL_TAKEN },
        });
      });

      it("invalid: back to the form's page with the visitor's values and the messages", async () => {
        const res = await post("dir-07", {
          customerName: " ",
          customerEmail: "nope",
          rating: "4",
          reviewText: "<b>x</b>",
        });
        const flash = await expectFlash(h!.store, res, "/forms/review/dir-07");
        expect(flash.status).toBe(422);
        expect(flash.errors).toMatchObject({
          customerName: REVIEW_MESSAGES.customerName,
          customerEmail: REVIEW_MESSAGES.customerEmail,
        });
        expect(flash.values).toMatchObject({ rating: "4", reviewText: "<b>x</b>", customerEmail: "nope" });
      });

      it("a form post that asks for JSON (a script) gets JSON: a 400 with the fields, a 201 (found by the fuzzer)", async () => {
        const asJson = (fields: Record<string, string>) =>
          reviews()(
            formRequest(reviewsPath("dir-07"), Object.entries(fields), { accept: "application/json" }),
            nextIp(),
          );
        const bad = await asJson({ customerName: "Rita Reviewer", customerEmail: "\u202Eevil", rating: "5" });
        expect(bad.status).toBe(400);
        expect(bad.headers.get("content-type")).toMatch(/application\/json/);
        expect((await bad.json()).fields.customerEmail).toBe(REVIEW_MESSAGES.customerEmail);
        const good = await asJson({
          customerName: "Script Poster",
          customerEmail: `script.${process.pid}@example.com`,
          rating: "4",
        });
        expect(good.status).toBe(201);
        expect((await good.json()).data).toMatchObject({ customerName: "Script Poster", rating: 4 });
      });

      it("429 from the per-business limit goes back to the form with Retry-After", async () => {
        const limited = { env: parseEnv({ RATE_LIMIT_PER_MINUTE: "1000", REVIEW_BUSINESS_LIMIT_PER_HOUR: "1" }) };
        await h!.store.redis.del(
          `${h!.store.prefix}ratelimit:review-business:dir-06:${Math.floor(Date.now() / 3_600_000)}`,
        );
        expect(
          (
            await expectFlash(
              h!.store,
              await post("dir-06", { customerName: "First" }, limited),
              "/forms/review/dir-06",
            )
          ).status,
        ).toBe(200);
        const res = await post("dir-06", { customerName: "Second" }, limited);
        expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
        expect(await expectFlash(h!.store, res, "/forms/review/dir-06")).toMatchObject({
          status: 429,
          problem: REVIEW_BUSINESS_BUSY,
          values: { customerName: "Second" },
        });
      });
    });

    it("the server decides id, createdAt and isVerified", async () => {
      const before = Date.now();
      const res = await postReview("dir-12", {
        ...validReview(),
        isVerified: true,
        id: "rv_forged",
        createdAt: "2000-01-01T00:00:00.000Z",
      });
      expect(res.status).toBe(201);
      const { data } = await res.json();
      expect(data.isVerified).toBe(false);
      expect(data.id).not.toBe("rv_forged");
      expect(Date.parse(data.createdAt)).toBeGreaterThanOrEqual(before - 1000);
      const stored = await h!.store.reviews.list("dir-12");
      expect(stored.find((r) => r.id === data.id)?.isVerified).toBe(false);
    });

    it("only the name is required; rating defaults to 5", async () => {
      const res = await postReview("dir-12", { customerName: "Just A Name", customerEmail: "" });
      expect(res.status).toBe(201);
      expect((await res.json()).data).toMatchObject({
        customerName: "Just A Name",
        rating: 5,
        title: "",
        reviewText: "",
        serviceType: "",
      });
    });

    it("400 with human messages; nothing stored", async () => {
      const before = (await h!.store.reviews.list("dir-12")).length;
      const cases: [Record<string, unknown>, Record<string, string>][] = [
        [{ ...validReview(), customerName: undefined }, { customerName: REVIEW_MESSAGES.customerName }],
        [{ ...validReview(), customerName: "   " }, { customerName: "Please enter your name" }],
        [{ ...validReview(), rating: 0 }, { rating: "Rating must be a whole number from 1 to 5" }],
        [{ ...validReview(), rating: 6 }, { rating: REVIEW_MESSAGES.rating }],
        [{ ...validReview(), rating: 4.5 }, { rating: REVIEW_MESSAGES.rating }],
        [{ ...validReview(), rating: "4.5" }, { rating: REVIEW_MESSAGES.rating }],
        [{ ...validReview(), rating: "x" }, { rating: REVIEW_MESSAGES.rating }],
        [{ ...validReview(), rating: true }, { rating: REVIEW_MESSAGES.rating }],
        [{ ...validReview(), rating: [5] }, { rating: REVIEW_MESSAGES.rating }],
        [{ ...validReview(), rating: null }, { rating: REVIEW_MESSAGES.rating }],
        [{ ...validReview(), customerEmail: "not-an-email" }, { customerEmail: "Please enter a valid email" }],
        [{ ...validReview(), customerEmail: 42 }, { customerEmail: REVIEW_MESSAGES.customerEmail }],
        [{ ...validReview(), title: "t".repeat(201) }, { title: REVIEW_MESSAGES.title }],
        [{ ...validReview(), businessId: "dir-13" }, { businessId: "This review is for a different business" }],
        [{ ...validReview(), businessId: 13 }, { businessId: "This review is for a different business" }],
        [
          { rating: 9, businessId: "dir-01" },
          {
            customerName: REVIEW_MESSAGES.customerName,
            rating: REVIEW_MESSAGES.rating,
            businessId: "This review is for a different business",
          },
        ],
      ];
      for (const [body, fields] of cases) {
        const res = await postReview("dir-12", body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expectNotCached(res);
        expect(await res.json(), JSON.stringify(body)).toEqual({ error: VALIDATION_ERROR, fields });
      }
      expect((await h!.store.reviews.list("dir-12")).length).toBe(before);
      // The path's own id in the body is fine.
      expect((await postReview("dir-12", { ...validReview(), businessId: "dir-12" })).status).toBe(201);
    });

    it("400 for bodies that are not a JSON object", async () => {
      for (const body of ['{"customerName": ', "[]", "null", "42"]) {
        const res = await postReview("dir-12", body);
        expect(res.status, body).toBe(400);
        expect(typeof (await res.json()).error).toBe("string");
      }
    });

    it("415 for anything but JSON or a form, 413 above 16 KB, 405 with Allow for other methods", async () => {
      const handler = reviews();
      for (const headers of [{ "content-type": "text/plain" }, {} as Record<string, string>]) {
        const res = await handler(
          new Request(`${ORIGIN}${reviewsPath("dir-12")}`, {
            method: "POST",
            headers,
            body: JSON.stringify(validReview()),
          }),
          nextIp(),
        );
        expect(res.status).toBe(415);
        expect((await res.json()).error).toMatch(/application\/json|form/);
      }
      const big = await postReview("dir-12", { ...validReview(), reviewText: "x".repeat(17 * 1024) });
      expect(big.status).toBe(413);
      expect((await big.json()).error).toMatch(/16 KB/);
      for (const method of ["PUT", "DELETE", "PATCH"]) {
        const res = await handler(new Request(`${ORIGIN}${reviewsPath("dir-12")}`, { method }), nextIp());
        expect(res.status).toBe(405);
        expect(res.headers.get("allow")).toBe("GET, HEAD, POST");
        expectNotCached(res);
      }
    });

    it("404 for an unknown or malformed business", async () => {
      for (const id of ["dir-404", "no%2Fslash"]) {
        const res = await postReview(id, validReview());
        expect(res.status, id).toBe(404);
        expect(await res.json()).toEqual({ error: "Business not found" });
      }
    });

    it("429 with Retry-After once the per-IP limit is used up; other visitors unaffected", async () => {
      const limited = reviews({ env: parseEnv({ RATE_LIMIT_PER_MINUTE: "2" }) });
      const ip = nextIp();
      const post = () => limited(jsonRequest(reviewsPath("dir-12"), { customerName: "" }), ip);
      expect((await post()).status).toBe(400);
      expect((await post()).status).toBe(400);
      const res = await post();
      expect(res.status).toBe(429);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect((await res.json()).error).toMatch(/too many/i);
      expectNotCached(res);
      expect((await limited(jsonRequest(reviewsPath("dir-12"), validReview()), nextIp())).status).toBe(201);
    });

    it("a failing purge, or no Netlify at all, only warns", async () => {
      const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
      const failing = await postReview("dir-12", validReview(), {
        purge: async () => {
          throw new Error("purge API down");
        },
      });
      expect(failing.status).toBe(201);
      // The real purge outside Netlify: no site id or token here.
      const { purge: _recorded, ...withoutPurge } = deps;
      const real = await reviewsHandler(withoutPurge)(jsonRequest(reviewsPath("dir-12"), validReview()), nextIp());
      expect(real.status).toBe(201);
      const warnings = warn.mock.calls.map((c) => String(c[0])).filter((l) => l.startsWith("[directory] cache purge"));
      expect(warnings).toHaveLength(2);
      expect(warnings[0]).toContain("directory, business-dir-12");
      warn.mockRestore();
    });

    it("on Netlify the purge is handed to waitUntil", async () => {
      const pending: Promise<unknown>[] = [];
      const recorded = directoryDeps(h!);
      const res = await reviews(recorded)(jsonRequest(reviewsPath("dir-12"), validReview()), {
        ...nextIp(),
        waitUntil: (p) => pending.push(p),
      });
      expect(res.status).toBe(201);
      expect(pending).toHaveLength(1);
      await Promise.all(pending);
      expect(recorded.purges).toEqual([["directory", "business-dir-12"]]);
    });

    it("503 JSON when the store fails", async () => {
      const res = await postReview("dir-12", validReview(), { store: () => brokenDirectory(h!.store) });
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ error: REVIEW_SAVE_ERROR });
      const list = await reviews({ store: () => brokenDirectory(h!.store) })(getRequest(reviewsPath("dir-12")));
      expect(list.status).toBe(503);
      expect(await list.json()).toEqual({ error: DIRECTORY_UNAVAILABLE });
    });
  });
  describe("netlify/functions/*.mts", () => {
    it("each file is wired to its path without a method filter and reads through getStore()", async () => {
      const saved = { ...process.env };
      Object.assign(process.env, {
        REDIS_URL: h!.url,
        REDIS_KEY_PREFIX: h!.store.prefix,
        RATE_LIMIT_PER_MINUTE: "1000",
      });
      delete process.env.UPSTASH_REDIS_REST_URL;
      try {
        const load = async (name: string) => import(`../../../netlify/functions/${name}.mts`);
        const cases: [string, string, string, number][] = [
          ["businesses", "/api/businesses", "/api/businesses?city=dallas", 200],
          ["businesses-featured", "/api/businesses/featured", "/api/businesses/featured", 200],
          ["business-by-slug", "/api/businesses/slug/:slug", "/api/businesses/slug/oakline-tree-care", 200],
          ["business-reviews", "/api/businesses/:id/reviews", "/api/businesses/dir-15/reviews", 200],
          ["booking-request", "/api/booking-request", "/api/booking-request", 405],
        ];
        for (const [name, path, url, status] of cases) {
          const mod = await load(name);
          expect(mod.config.path, name).toBe(path);
          expect(mod.config.method, name).toBeUndefined();
          const res: Response = await mod.default(getRequest(url), nextIp());
          expect(res.status, name).toBe(status);
        }
        const list = await (await (await load("businesses")).default(getRequest("/api/businesses?city=dallas"))).json();
        expect(list.total).toBe(3);
      } finally {
        process.env = saved;
      }
    });
  });
});
