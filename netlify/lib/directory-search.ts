/**
 * GET /api/businesses: the directory list with the near-me parameters (docs/directory.md).
 * Apart from the other directory handlers (directory.ts) because reading a place needs the
 * ZIP dataset (about 5 MB): only the functions that read `near` load it.
 */
import { withPublicCredentials } from "../../src/lib/credentials/badges.ts";
import { DirectoryQuery } from "../../src/lib/directory-query.ts";
import { UNKNOWN_PLACE, findPlace } from "../../src/lib/geo/places.ts";
import type { FieldErrors } from "../../src/lib/schemas/forms.ts";
import type { StormNotice } from "../../src/lib/storm.ts";
import { stormForPlace } from "./storms.ts";
import { isTaking } from "../../src/lib/capacity.ts";
import { endpoint, jsonResponse, storeCall, type Endpoint } from "./http.ts";
import { parseQuery } from "./query.ts";
import type { ListResult } from "./store/repos/businesses.types.ts";
import type { Store } from "./store/index.ts";
import { DIRECTORY_TAG, badQuery, cached, directoryRead, type DirectoryDeps } from "./directory.ts";

/** Every parameter that changes the list (the CDN keys its copies on these only). */
const LIST_PARAMS = Object.keys(DirectoryQuery.shape).join("|");

export type DirectoryAnswer = ListResult & {
  limit: number;
  offset: number;
  /** Where a near search was centered. */
  near?: { label: string; lat: number; lng: number; radius: number };
  /** The storm notice when an active storm covers the near place (src/lib/storm.ts). */
  storm?: StormNotice;
  /** Inside a storm: this page lists businesses taking storm jobs first (each one marked). */
  takingFirst?: true;
};

/**
 * One directory page for a query string's parameters, read by the API's schema: the
 * answer, or the field messages of a 400. For the API below and server-rendered pages.
 * Store failures throw.
 */
export async function searchDirectory(
  store: Store,
  params: URLSearchParams,
  now: number = Date.now(),
): Promise<
  | {
      ok: true;
      answer: DirectoryAnswer;
      openNow: boolean;
      /** Seconds until a storm starts or ends, for a near search (its notice may change then). */
      stormFreshFor?: number;
    }
  | { ok: false; fields: FieldErrors }
> {
  const query = parseQuery(DirectoryQuery, new Request(`http://directory/?${params}`));
  if (!query.ok) return query;
  const { search, city, limit, offset, radius, service, open, emergency, minRating, sort } = query.data;
  const place = query.data.near ? findPlace(query.data.near) : null;
  if (query.data.near && !place) return { ok: false, fields: { near: UNKNOWN_PLACE } };
  const point = place ? { lat: place.lat, lng: place.lng } : null;
  const { data, total } = await store.businesses.list({
    search,
    city,
    limit,
    offset,
    near: point,
    radius,
    service,
    openNow: open,
    emergency,
    minRating,
    sort,
    now,
  });
  const near = place ? { label: place.label, lat: round3(place.lat), lng: round3(place.lng), radius } : undefined;
  // The searched place's storm notice (a place typed as coordinates is tested by its point).
  const checked = place ? await stormForPlace(place, now, store) : null;
  const storm = checked?.notice;
  const listed = storm ? await takingFirst(store, data) : data;
  return {
    ok: true,
    answer: {
      data: listed.map(withPublicCredentials),
      total,
      limit,
      offset,
      ...(near ? { near } : {}),
      ...(storm ? { storm, takingFirst: true as const } : {}),
    },
    openNow: open,
    ...(checked?.freshForSeconds !== undefined ? { stormFreshFor: checked.freshForSeconds } : {}),
  };
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** The longest a cached list answer is served (CACHE_HEADERS: a minute, then five stale). */
const STORM_CACHE_SECONDS = 360;
/**
 * Inside a storm: the page's businesses taking storm jobs first, each marked, the store's
 * order kept within each group. One MGET of the page's capacity statements.
 */
async function takingFirst<T extends { id: string }>(
  store: Store,
  data: T[],
): Promise<(T & { takingStormJobs?: true })[]> {
  const capacity = await store.capacity.getMany(data.map((b) => b.id));
  const taking = data
    .filter((b) => isTaking(capacity.get(b.id)))
    .map((b) => ({ ...b, takingStormJobs: true as const }));
  return [...taking, ...data.filter((b) => !isTaking(capacity.get(b.id)))];
}

/** A 200 nobody may keep; HEAD likewise without the body. */
function uncached(req: Request, body: unknown): Response {
  const res = jsonResponse(body, 200, { "cache-control": "no-store" });
  return req.method === "HEAD" ? new Response(null, { status: 200, headers: res.headers }) : res;
}

/**
 * GET /api/businesses?search=&city=&near=&radius=&service=&open=&emergency=&minRating=&sort=&limit=&offset=
 * -> { data, total, limit, offset, near? }. With `near`, each item has `distanceMiles`.
 */
export function businessesHandler(deps: DirectoryDeps = {}): Endpoint {
  return endpoint(directoryRead("list"), deps, async ({ req, store, now }) => {
    // Validation first: a bad query is a 400 even when the store is down.
    const query = parseQuery(DirectoryQuery, req);
    if (!query.ok) return badQuery(query.fields);
    const result = await storeCall(() => searchDirectory(store, new URL(req.url).searchParams, now()));
    if (!result.ok) return badQuery(result.fields);
    // "Open now" changes by the minute, and a storm notice when the storm starts or ends: such
    // answers are not kept by the CDN (a copy lives up to STORM_CACHE_SECONDS).
    const stormSoon = result.stormFreshFor !== undefined && result.stormFreshFor < STORM_CACHE_SECONDS;
    return result.openNow || stormSoon
      ? uncached(req, result.answer)
      : cached(req, result.answer, [DIRECTORY_TAG], LIST_PARAMS);
  });
}
