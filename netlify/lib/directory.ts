/**
 * The directory API's reads behind /api/businesses/featured and /api/businesses/slug/:slug,
 * and what every directory endpoint shares (the list: directory-search.ts; reviews:
 * directory-reviews.ts). Each function file only picks its handler; the handlers are
 * factories so tests pass their own store, clock and purge.
 *
 * Reads are public and the same for everyone, so a 200 may sit in Netlify's CDN for a minute
 * (tagged, and purged when a review changes a rating); 404s, errors and writes never do.
 */
import { withPublicCredentials } from "../../src/lib/credentials/badges.ts";
import { BUSINESS_NOT_FOUND } from "../../src/lib/directory.ts";
import type { FieldErrors } from "../../src/lib/schemas/forms.ts";
import { Business } from "../../src/lib/schemas/business.ts";
import {
  endpoint,
  errorName,
  jsonError,
  jsonResponse,
  storeCall,
  type EndpointDeps,
  type Endpoint,
  type FunctionContext,
} from "./http.ts";

/** The Featured section shows at most this many. */
export const FEATURED_LIMIT = 6;
export const QUERY_ERROR = "Please check the search filters.";
export const DIRECTORY_UNAVAILABLE = "The directory is unavailable right now. Please try again in a moment.";
/** Browsers revalidate every time; the CDN keeps a copy a minute and serves it stale while refreshing. */
export const CACHE_HEADERS: Readonly<Record<string, string>> = {
  "cache-control": "public, max-age=0, must-revalidate",
  "netlify-cdn-cache-control": "public, durable, s-maxage=60, stale-while-revalidate=300",
};
/** Every directory answer carries this tag, so one purge refreshes lists and pages alike. */
export const DIRECTORY_TAG = "directory";
export const businessTag = (id: string) => `business-${id}`;

export type Purge = (tags: string[]) => Promise<void>;

/** Seams for tests and local scripts; production uses the defaults. */
export interface DirectoryDeps extends EndpointDeps {
  /** Drops CDN copies by tag (Netlify's purge API by default). */
  purge?: Purge;
}

export type DirectoryContext = FunctionContext;
export type DirectoryHandler = Endpoint;

/**
 * The real purge, loaded on first use. Outside Netlify (local dev, tests, a missing token)
 * it throws or skips; either way the caller only logs, because a stale CDN copy for a
 * minute is better than a failed review.
 */
export const netlifyPurge: Purge = async (tags) => {
  const { purgeCache } = await import("@netlify/functions");
  await purgeCache({ tags });
};

export async function purgeQuietly(purge: Purge, tags: string[]): Promise<void> {
  try {
    await purge(tags);
  } catch (error) {
    console.warn(
      `[directory] cache purge for ${tags.join(", ")} failed (${error instanceof Error ? error.message : errorName(error)})`,
    );
  }
}

export const notFound = () => jsonError(404, BUSINESS_NOT_FOUND);
export const badQuery = (fields: FieldErrors) => jsonError(400, QUERY_ERROR, { fields });

/** A cacheable 200; HEAD gets the same headers without the body. */
export function cached(req: Request, body: unknown, tags: string[], vary?: string): Response {
  const headers: Record<string, string> = { ...CACHE_HEADERS, "netlify-cache-tag": tags.join(", ") };
  // Only these parameters change the answer; anything else (utm_*, cache busters) shares the copy.
  if (vary) headers["netlify-vary"] = `query=${vary}`;
  const res = jsonResponse(body, 200, headers);
  return req.method === "HEAD" ? new Response(null, { status: 200, headers: res.headers }) : res;
}

/** What every directory read shares: GET and HEAD, and the directory's own 503 text. */
export const directoryRead = (label: string) =>
  ({ log: `[directory] ${label}`, methods: ["GET", "HEAD"], unavailable: DIRECTORY_UNAVAILABLE }) as const;

/**
 * A route whose param is a business id or slug, checked by the Business schema (404 "Business
 * not found"): a malformed id or slug cannot name one, so the store is not asked.
 */
export const businessRoute = <R extends string>(path: R, field: "id" | "slug") => ({
  path,
  valid: (value: string) => Business.shape[field].safeParse(value).success,
  notFound: BUSINESS_NOT_FOUND,
});

/** GET /api/businesses/featured -> { data } (best first, at most FEATURED_LIMIT). */
export function featuredHandler(deps: DirectoryDeps = {}): Endpoint {
  return endpoint(directoryRead("featured"), deps, async ({ req, store }) => {
    const data = await storeCall(() => store.businesses.featured({ limit: FEATURED_LIMIT }));
    return cached(req, { data: data.map(withPublicCredentials) }, [DIRECTORY_TAG]);
  });
}

/** GET /api/businesses/slug/:slug -> { data } or 404. */
export function businessBySlugHandler(deps: DirectoryDeps = {}): Endpoint {
  const spec = { ...directoryRead("slug"), route: businessRoute("/api/businesses/slug/:slug", "slug") };
  return endpoint(spec, deps, async ({ req, store, params }) => {
    const business = await storeCall(() => store.businesses.getBySlug(params.slug));
    if (!business) return notFound();
    return cached(req, { data: withPublicCredentials(business) }, [DIRECTORY_TAG, businessTag(business.id)]);
  });
}
