/**
 * The on-demand directory pages' data and headers (netlify/lib/directory-page.ts), against
 * real Redis: a business page in at most 3 round trips with only shown reviews, a review
 * posted through the API on the very next load, unknown and malformed slugs as "missing",
 * the list through the API's own query schema, a response time on the page and the list, and
 * the sitemap chunking.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  PAGE_CACHE,
  PAGE_MAX_AGE_SECONDS,
  REVIEWS_ON_PAGE,
  SITEMAP_MAX_URLS,
  directorySitemapPath,
  loadBusinessPage,
  loadDirectoryPage,
  openStateFreshFor,
  pageHeaders,
  sitemapFileCount,
  sitemapIndexXml,
  sitemapSlugs,
  staticPageHeaders,
  urlsetXml,
} from "../../../netlify/lib/directory-page.ts";
import { reviewsHandler } from "../../../netlify/lib/directory-reviews.ts";
import { businessesHandler } from "../../../netlify/lib/directory-search.ts";
import { parseDirectoryQuery } from "../../../src/lib/directory-url.ts";
import {
  directoryDeps,
  functionsHarness,
  getRequest,
  jsonRequest,
  nextIp,
  testBusiness,
  validReview,
} from "../../helpers/functions.ts";

const h = await functionsHarness("directory-page");
afterAll(async () => {
  await h?.teardown();
});

const netlifyToml = readFileSync("netlify.toml", "utf8");

describe("page headers", () => {
  it("carry netlify.toml's static security headers, parsed from the file itself", () => {
    const security = staticPageHeaders(netlifyToml);
    expect(security["x-frame-options"]).toBe("DENY");
    expect(security["strict-transport-security"]).toMatch(/max-age=\d+/);
    expect(security["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(security["x-content-type-options"]).toBe("nosniff");
    expect(security).not.toHaveProperty("for");
  });

  it("only the /* block counts", () => {
    const toml =
      '[[headers]]\n  for = "/_astro/*"\n  [headers.values]\n    Cache-Control = "immutable"\n[[headers]]\n  for = "/*"\n  [headers.values]\n    X-Frame-Options = "DENY"\n';
    expect(staticPageHeaders(toml)).toEqual({ "x-frame-options": "DENY" });
  });

  it("a page is cached durably under its tags; not found briefly; an outage never", () => {
    const ok = pageHeaders("ok", ["business-b1"], 2);
    expect(ok).toMatchObject({
      ...PAGE_CACHE,
      "netlify-cache-tag": "directory, business-b1",
      "server-timing": 'store;desc="2 round trips"',
    });
    expect(ok["netlify-cdn-cache-control"]).toMatch(/\bdurable\b/);
    const missing = pageHeaders("missing", []);
    expect(missing["netlify-cdn-cache-control"]).toMatch(/s-maxage=60\b/);
    expect(missing["netlify-cache-tag"]).toBe("directory");
    const down = pageHeaders("unavailable", []);
    expect(down["cache-control"]).toBe("no-store");
    expect(down).not.toHaveProperty("netlify-cdn-cache-control");
    expect(down).not.toHaveProperty("netlify-cache-tag");
  });

  it("a page whose open state changes sooner than the hour leaves the CDN then, without a stale copy", () => {
    const soon = pageHeaders("ok", ["business-b1"], 2, 90.2);
    expect(soon["netlify-cdn-cache-control"]).toBe("public, durable, s-maxage=91");
    expect(soon["cache-control"]).toBe(PAGE_CACHE["cache-control"]);
    expect(pageHeaders("ok", [], 2, 0)["netlify-cdn-cache-control"]).toBe("public, durable, s-maxage=1");
    expect(pageHeaders("ok", [], 2, PAGE_MAX_AGE_SECONDS)).toMatchObject(PAGE_CACHE);
    expect(pageHeaders("missing", [], 0, 30)["netlify-cdn-cache-control"]).toMatch(/s-maxage=60\b/);
  });

  it("a list's copy ends when the first of its businesses opens or closes", () => {
    const weekdays = (spans: string) => ({
      monday: spans,
      tuesday: spans,
      wednesday: spans,
      thursday: spans,
      friday: spans,
    });
    const opensAtEight = { businessHours: weekdays("8:00 AM - 5:00 PM"), timeZone: "America/Chicago" };
    const opensAtNine = { businessHours: weekdays("9:00 AM - 5:00 PM"), timeZone: "America/Chicago" };
    const always = {
      businessHours: {
        monday: "Open 24 hours",
        tuesday: "Open 24 hours",
        wednesday: "Open 24 hours",
        thursday: "Open 24 hours",
        friday: "Open 24 hours",
        saturday: "Open 24 hours",
        sunday: "Open 24 hours",
      },
    };
    // Monday 07:30 Central: the 08:00 opening comes first, in 30 minutes.
    const now = Date.parse("2026-11-23T13:30:00Z");
    expect(openStateFreshFor([opensAtNine, always, opensAtEight], now)).toBe(30 * 60);
    // 10:00: nothing changes within the hour, so the page keeps its full CDN life.
    expect(openStateFreshFor([opensAtEight, opensAtNine], Date.parse("2026-11-23T16:00:00Z"))).toBeUndefined();
    expect(openStateFreshFor([], now)).toBeUndefined();
  });
});

describe("sitemap files", () => {
  it("are SITEMAP_MAX_URLS (the protocol's 50,000) per file, at least one", () => {
    expect(SITEMAP_MAX_URLS).toBe(50_000);
    expect(sitemapFileCount(0)).toBe(1);
    expect(sitemapFileCount(1)).toBe(1);
    expect(sitemapFileCount(50_000)).toBe(1);
    expect(sitemapFileCount(50_001)).toBe(2);
    expect(sitemapFileCount(100_000)).toBe(2);
    expect(sitemapFileCount(100_001)).toBe(3);
    expect(directorySitemapPath(2)).toBe("/sitemap-directory-2.xml");
  });

  it("escape what they list", () => {
    expect(urlsetXml(["https://x.test/a?b=1&c=<2>"])).toContain("<loc>https://x.test/a?b=1&amp;c=&lt;2&gt;</loc>");
    expect(sitemapIndexXml(["https://x.test/s-0.xml"])).toMatch(
      /^<\?xml[^>]+\?><sitemapindex xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9"><sitemap><loc>https:\/\/x.test\/s-0.xml<\/loc><\/sitemap><\/sitemapindex>$/,
    );
  });
});

describe.skipIf(!h)("on-demand directory data", () => {
  const N = 7;
  beforeAll(async () => {
    for (let i = 1; i <= N; i++) {
      await h!.store.businesses.upsert(
        testBusiness(`dp-${i}`, {
          name: `Page Tree ${i}`,
          slug: `page-tree-${i}`,
          city: i % 2 ? "Austin" : "Houston",
          zipCode: i % 2 ? "78701" : "77002",
          isFeatured: i === 3,
        }),
      );
    }
    // A minute apart, so "newest" is not decided by ids within one millisecond.
    const start = Date.parse("2026-01-01T12:00:00Z");
    for (let r = 0; r < REVIEWS_ON_PAGE + 3; r++) {
      await h!.store.reviews.add(
        "dp-1",
        { ...validReview(), title: `Review ${r}` },
        { createdAt: new Date(start + r * 60_000).toISOString() },
      );
    }
  });

  it("a business page is the business and its newest REVIEWS_ON_PAGE reviews in at most 3 round trips", async () => {
    const { page, roundTrips } = await loadBusinessPage(h!.store, "page-tree-1");
    expect(page?.business).toMatchObject({ id: "dp-1", name: "Page Tree 1", reviewCount: REVIEWS_ON_PAGE + 3 });
    expect(page?.reviews).toHaveLength(REVIEWS_ON_PAGE);
    expect(page?.reviews[0]?.title).toBe(`Review ${REVIEWS_ON_PAGE + 2}`);
    for (const review of page!.reviews) expect(review).not.toHaveProperty("customerEmail");
    expect(roundTrips).toBeGreaterThan(0);
    expect(roundTrips).toBeLessThanOrEqual(3);
  });

  it("a business without reviews takes 2 round trips", async () => {
    const { page, roundTrips } = await loadBusinessPage(h!.store, "page-tree-2");
    expect(page?.reviews).toEqual([]);
    expect(roundTrips).toBe(2);
  });

  it("unknown slugs are missing after one lookup; malformed ones without asking the store", async () => {
    expect(await loadBusinessPage(h!.store, "no-such-tree")).toEqual({ page: null, roundTrips: 1 });
    expect(await loadBusinessPage(h!.store, "Bad Slug!")).toEqual({ page: null, roundTrips: 0 });
    expect(await loadBusinessPage(h!.store, "")).toEqual({ page: null, roundTrips: 0 });
  });

  it("a review posted through the API is on the next load, rating and count included; a hidden one is not", async () => {
    const deps = directoryDeps(h!);
    const post = await reviewsHandler(deps)(
      jsonRequest("/api/businesses/dp-4/reviews", { ...validReview(), rating: 3, title: "Fresh one" }),
      nextIp(),
    );
    expect(post.status).toBe(201);
    expect(deps.purges).toContainEqual(["directory", "business-dp-4"]);
    const { page } = await loadBusinessPage(h!.store, "page-tree-4");
    expect(page?.reviews.map((r) => r.title)).toEqual(["Fresh one"]);
    expect(page?.business).toMatchObject({ rating: "3.0", reviewCount: 1 });

    const id = page!.reviews[0]!.id;
    await h!.store.reviews.moderate(id, { hidden: true, hiddenReason: "not-about-this-business" });
    const after = await loadBusinessPage(h!.store, "page-tree-4");
    // In its place: the reason only (no name, no text, no stars).
    expect(after.page?.reviews).toEqual([
      {
        id,
        hidden: true,
        hiddenReason: "not-about-this-business",
        createdAt: page!.reviews[0]!.createdAt,
        customerName: "",
        rating: 0,
        title: "",
        reviewText: "",
        serviceType: "",
        isVerified: false,
      },
    ]);
    expect(after.page?.business.reviewCount).toBe(0);
  });

  it("a /directory state reads what GET /api/businesses answers for it", async () => {
    for (const query of ["", "?city=houston", "?q=page&page=2", "?q=zzzz-nothing"]) {
      const state = parseDirectoryQuery(query);
      const { data } = await loadDirectoryPage(h!.store, state);
      const api = (await (
        await businessesHandler(directoryDeps(h!))(
          getRequest(
            `/api/businesses?${new URLSearchParams({ ...(state.search ? { search: state.search } : {}), ...(state.city !== "all" ? { city: state.city } : {}), limit: "12", offset: String((state.page - 1) * 12) })}`,
          ),
        )
      ).json()) as { data: { id: string }[]; total: number };
      expect(data.page.total, query).toBe(api.total);
      expect(
        data.page.data.map((b) => b.id),
        query,
      ).toEqual(api.data.map((b) => b.id));
      expect(data.featured.map((b) => b.id)).toEqual(["dp-3"]);
    }
  });

  it("a business's response figures reach its page, the /directory list and the API answer", async () => {
    const outcomes = [20, 100, 130, null, null].map((minutes) =>
      minutes === null ? { answered: false as const } : { answered: true as const, minutes, inTime: true },
    );
    for (const [i, o] of outcomes.entries()) await h!.store.businesses.recordOutcome("dp-5", `ld-${i}`, o);
    const figure = { responseRate: 60, responseMinutes: 100, responseOffers: 5 };
    const { page } = await loadBusinessPage(h!.store, "page-tree-5");
    expect(page?.business).toMatchObject({ ...figure, responseCount: 3 });
    const { data } = await loadDirectoryPage(h!.store, parseDirectoryQuery("?city=austin"));
    const cards = new Map(data.page.data.map((b) => [b.id, b]));
    expect(cards.get("dp-5")).toMatchObject(figure);
    expect(cards.get("dp-1")).not.toHaveProperty("responseRate");
    const api = (await (
      await businessesHandler(directoryDeps(h!))(getRequest("/api/businesses?city=austin"))
    ).json()) as { data: { id: string; responseRate?: number; responseMinutes?: number; responseOffers?: number }[] };
    expect(api.data.find((b) => b.id === "dp-5")).toMatchObject(figure);
  });

  it("sitemap files split the directory without gaps or repeats, in directory order", async () => {
    const total = await h!.store.businesses.count();
    expect(total).toBe(N);
    const perFile = 3;
    const files = sitemapFileCount(total, perFile);
    expect(files).toBe(3);
    const chunks = [];
    for (let i = 0; i < files; i++) chunks.push(await sitemapSlugs(h!.store, i, perFile));
    expect(chunks.map((c) => c.length)).toEqual([3, 3, 1]);
    const listed = chunks.flat();
    const { data } = await h!.store.businesses.list({ limit: 50 });
    expect(listed).toEqual(data.map((b) => b.slug));
    expect(await sitemapSlugs(h!.store, files, perFile)).toEqual([]);
  });
});
