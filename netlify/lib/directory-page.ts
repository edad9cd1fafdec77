/**
 * What the on-demand directory pages (src/pages/directory/*, the directory sitemaps) read
 * and the headers they answer with: the one module src/ imports from netlify/ (eslint.config.js
 * holds the boundary), so it also hands over the store and the cache tags. The pages are rendered from the live store on request
 * and kept in Netlify's durable CDN cache under the `directory` and `business-<id>` tags,
 * which every write purges (docs/directory-pages.md). Nothing here depends on the request's
 * Host: data comes from the store, the page shell from the build.
 */
import { businessesApiParams, normalizeNear, type DirectoryState } from "../../src/lib/directory-url.ts";
import { distanceMiles } from "../../src/lib/geo/distance.ts";
import { Business } from "../../src/lib/schemas/business.ts";
import { toPublicReview, type PublicReview } from "../../src/lib/schemas/review.ts";
import { toListBusiness, type ListBusiness, type ListPage } from "../../src/lib/directory-list.ts";
import { DIRECTORY_TAG, FEATURED_LIMIT, businessTag } from "./directory.ts";
import type { FieldErrors } from "../../src/lib/schemas/forms.ts";
import { localTime, nextOpenStateChange } from "../../src/lib/hours.ts";
import { withRoundTrips } from "./store/round-trips.ts";
import type { Store } from "./store/index.ts";

/** Reviews rendered into a business page, newest first (the page weighs the same whatever a business collects). */
export const REVIEWS_ON_PAGE = 20;
/** The sitemap protocol's limit of URLs per file. */
export const SITEMAP_MAX_URLS = 50_000;

/** The longest a page stays in the CDN without a purge. */
export const PAGE_MAX_AGE_SECONDS = 3600;
/**
 * Browsers always revalidate; the CDN keeps a page until a purge (every directory write
 * purges its tags). The hour bounds the damage of a purge that failed; stale-while-revalidate
 * lets a visitor get the old copy while the function renders the new one after that hour.
 */
export const PAGE_CACHE = {
  "cache-control": "public, max-age=0, must-revalidate",
  "netlify-cdn-cache-control": `public, durable, s-maxage=${PAGE_MAX_AGE_SECONDS}, stale-while-revalidate=60`,
} as const;
/** "Business Not Found" is cached briefly: adding the business purges `directory` anyway. */
const MISSING_CACHE = {
  "cache-control": "public, max-age=0, must-revalidate",
  "netlify-cdn-cache-control": "public, durable, s-maxage=60",
} as const;
/** A store outage is never cached: the next request tries again. */
const UNAVAILABLE = { "cache-control": "no-store", "retry-after": "30" } as const;

export type PageOutcome = "ok" | "missing" | "unavailable";

/**
 * The security headers netlify.toml gives every static file (its `for = "/*"` block), which
 * Netlify does not add to function answers. src/middleware.ts passes the file's text
 * (imported at build time), so there is one definition and nothing is read at run time.
 */
export function staticPageHeaders(netlifyToml: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const block of netlifyToml.split(/^\s*\[\[headers\]\]\s*$/m).slice(1)) {
    const body = block.split(/^\s*\[\[(?!headers\]\])/m)[0] ?? "";
    if (!/^\s*for\s*=\s*"\/\*"\s*$/m.test(body)) continue;
    for (const match of body.matchAll(/^\s*([A-Za-z][A-Za-z0-9-]*)\s*=\s*"((?:[^"\\]|\\.)*)"\s*$/gm)) {
      const [, name, value] = match;
      if (name && value !== undefined && name.toLowerCase() !== "for")
        out[name.toLowerCase()] = value.replace(/\\(.)/g, "$1");
    }
  }
  return out;
}

/**
 * Everything an on-demand page answers with besides its body. `freshForSeconds` ends a page's
 * CDN life early when what it shows changes with the clock (a business page's "Open now"),
 * and then without stale-while-revalidate, which would serve the outdated copy once more.
 */
export function pageHeaders(
  outcome: PageOutcome,
  tags: readonly string[],
  roundTrips?: number,
  freshForSeconds?: number,
): Record<string, string> {
  if (outcome === "unavailable") return { ...UNAVAILABLE };
  const headers: Record<string, string> = { ...(outcome === "ok" ? PAGE_CACHE : MISSING_CACHE) };
  if (outcome === "ok" && freshForSeconds !== undefined && freshForSeconds < PAGE_MAX_AGE_SECONDS) {
    headers["netlify-cdn-cache-control"] = `public, durable, s-maxage=${Math.max(1, Math.ceil(freshForSeconds))}`;
  }
  headers["netlify-cache-tag"] = [...new Set([DIRECTORY_TAG, ...tags])].join(", ");
  // Store cost of this render, for the scale bench and for anyone reading a response.
  if (roundTrips !== undefined) headers["server-timing"] = `store;desc="${roundTrips} round trips"`;
  return headers;
}

/**
 * Seconds until the first of `businesses` opens or closes (or its day changes), for
 * pageHeaders' `freshForSeconds`: a page that draws their "Open now" at render time must not
 * outlive it. Undefined when none changes within the page's CDN life.
 */
export function openStateFreshFor(
  businesses: readonly Pick<
    ListBusiness,
    "businessHours" | "timeZone" | "emergency247" | "closedHolidays" | "closedDates"
  >[],
  now: number,
): number | undefined {
  let first: number | null = null;
  for (const { businessHours, timeZone, emergency247, closedHolidays, closedDates } of businesses) {
    const at = nextOpenStateChange(businessHours ?? {}, timeZone, now, PAGE_MAX_AGE_SECONDS / 60, emergency247, {
      closedHolidays,
      closedDates,
    });
    if (at !== null && (first === null || at < first)) first = at;
  }
  return first === null ? undefined : (first - now) / 1000;
}

/**
 * Seconds until an insurance badge the page shows goes (the end of its last day, on the
 * business's clock), when that is within the page's CDN life: a cached copy must not show
 * it a moment past its expiry.
 */
export function credentialsFreshFor(
  business: Pick<Business, "credentials" | "timeZone">,
  now: number,
): number | undefined {
  const insurance = business.credentials?.insurance;
  if (!insurance?.check) return undefined;
  const local = localTime(now, business.timeZone);
  if (insurance.expiresOn !== local.date) return undefined;
  const left = (24 * 60 - local.minutes) * 60 - (Math.floor(now / 1000) % 60);
  return left < PAGE_MAX_AGE_SECONDS ? left : undefined;
}

/** A business page's freshness: the sooner of its open state's next change and its insurance badge's end. */
export function businessPageFreshFor(business: Business, now: number): number | undefined {
  const times = [openStateFreshFor([business], now), credentialsFreshFor(business, now)].filter(
    (t): t is number => t !== undefined,
  );
  return times.length ? Math.min(...times) : undefined;
}

/** Copies headers onto Astro.response (or any Headers). */
export function applyHeaders(target: Headers, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) target.set(name, value);
}

export interface BusinessPage {
  business: Business;
  /** Newest first, at most REVIEWS_ON_PAGE, without reviewers' e-mail addresses. */
  reviews: PublicReview[];
}

/** How far a business is from the place a visitor searched (the business page's `?near=`). */
export interface DistanceFrom {
  miles: number;
  /** The place as the dataset names it ("Round Rock, TX 78664"), never the raw query text. */
  label: string;
}

/**
 * The distance from `near` (what the list's View Details carries: the place as typed) to the
 * business, or undefined without a place, for one the dataset does not know, or a business
 * without a point. One lookup, whatever the size of the directory. The ZIP dataset is
 * loaded only when a page asks (a business page without `?near=` never loads it).
 */
export async function distanceFromPlace(
  business: Pick<Business, "location">,
  near: string | null | undefined,
): Promise<DistanceFrom | undefined> {
  const text = normalizeNear(near);
  if (!text || !business.location) return undefined;
  const { findPlace } = await import("../../src/lib/geo/places.ts");
  const place = findPlace(text);
  if (!place) return undefined;
  return { miles: distanceMiles(place, business.location), label: place.label };
}

/** A business page's data, or null for a slug the directory does not have (malformed ones included). */
export async function loadBusinessPage(
  store: Store,
  slug: string,
): Promise<{ page: BusinessPage | null; roundTrips: number }> {
  // A malformed slug cannot name a business; no need to ask the store.
  if (!Business.shape.slug.safeParse(slug).success) return { page: null, roundTrips: 0 };
  const { value, roundTrips } = await withRoundTrips(() =>
    store.businesses.getBySlugWithReviews(slug, { reviews: REVIEWS_ON_PAGE }),
  );
  return { page: value && { business: value.business, reviews: value.reviews.map(toPublicReview) }, roundTrips };
}

export interface DirectoryPage {
  /** The list for the requested state (an out-of-range page is empty, as in the API). */
  page: ListPage;
  /** Featured businesses, directory order (the island hides them while the list is narrowed). */
  featured: ListBusiness[];
}

/**
 * One /directory state, read by the API's own search (directory-search.ts), so whatever
 * filter directory-url.ts turns into API parameters reaches the store the same way here.
 * A state the API refuses (an unknown place) answers its field messages and an empty list.
 */
export async function loadDirectoryPage(
  store: Store,
  state: DirectoryState,
  now: number = Date.now(),
): Promise<{ data: DirectoryPage; fields?: FieldErrors; roundTrips: number; stormFreshFor?: number }> {
  // Loaded here, not at the top: reading a place needs the ZIP dataset (~5 MB), which the
  // business pages rendered by the same function never use.
  const { searchDirectory } = await import("./directory-search.ts");
  const { value, roundTrips } = await withRoundTrips(() =>
    Promise.all([
      searchDirectory(store, businessesApiParams(state), now),
      store.businesses.featured({ limit: FEATURED_LIMIT }),
    ]),
  );
  const [found, featured] = value;
  const page: ListPage = found.ok
    ? {
        data: found.answer.data.map(toListBusiness),
        total: found.answer.total,
        ...(found.answer.near ? { near: found.answer.near } : {}),
        ...(found.answer.storm ? { storm: found.answer.storm } : {}),
        ...(found.answer.takingFirst ? { takingFirst: true as const } : {}),
      }
    : { data: [], total: 0 };
  return {
    data: { page, featured: featured.map(toListBusiness) },
    ...(found.ok ? {} : { fields: found.fields }),
    ...(found.ok && found.stormFreshFor !== undefined ? { stormFreshFor: found.stormFreshFor } : {}),
    roundTrips,
  };
}

/** How many directory sitemap files `total` businesses need (at least one, so the index is never empty of them). */
export function sitemapFileCount(total: number, perFile = SITEMAP_MAX_URLS): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / perFile));
}

/** The business slugs of directory sitemap file `index` (0-based), in directory order. */
export function sitemapSlugs(store: Store, index: number, perFile = SITEMAP_MAX_URLS): Promise<string[]> {
  return store.businesses.slugs(index * perFile, perFile);
}

const xmlEscape = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");

export function urlsetXml(urls: readonly string[]): string {
  const body = urls.map((u) => `<url><loc>${xmlEscape(u)}</loc></url>`).join("");
  return `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${body}</urlset>`;
}

export function sitemapIndexXml(urls: readonly string[]): string {
  const body = urls.map((u) => `<sitemap><loc>${xmlEscape(u)}</loc></sitemap>`).join("");
  return `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${body}</sitemapindex>`;
}

/** Path of directory sitemap file `index` (0-based): /sitemap-directory-0.xml, ... */
export const directorySitemapPath = (index: number) => `/sitemap-directory-${index}.xml`;

export { DIRECTORY_TAG, businessTag };
export { getStore } from "./store/index.ts";
export { stormForPlace, type PlaceStorm } from "./storms.ts";
