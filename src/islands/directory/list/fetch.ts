/**
 * The directory list's reads as fetcher stores on the shared query cache
 * (src/lib/stores/query.ts): one keyed by the list request's URL (the state's query
 * params), one for the Featured section. The island sets the keys; a page seen once comes
 * back from the cache on Back or Previous, and a request already on its way is shared.
 * A key stays null until the island has hydrated, so the server render never fetches.
 */
import { atom } from "nanostores";
import { apiGet } from "../../../lib/api.ts";
import { businessesApiUrl, type DirectoryState } from "../../../lib/directory-url.ts";
import { createFetcherStore, primeCache } from "../../../lib/stores/query.ts";
import { toListBusiness, type ListBusiness, type ListPage } from "../../../lib/directory-list.ts";
import type { StormNotice } from "../../../lib/storm.ts";

const FEATURED_URL = "/api/businesses/featured";

interface ListAnswer {
  data?: unknown;
  total?: unknown;
  near?: { label?: unknown; radius?: unknown };
  storm?: StormNotice;
  takingFirst?: unknown;
}

// The answer is trusted for field types (the same schema wrote it) but not for presence:
// a missing list or total must not blank the page.
function readList(answer: ListAnswer | null): ListBusiness[] {
  return Array.isArray(answer?.data) ? (answer.data as ListBusiness[]).map(toListBusiness) : [];
}

/** One list page: GET /api/businesses at `url` (businessesApiUrl). */
export async function fetchListPage(url: string | number | true): Promise<ListPage> {
  const answer = await apiGet<ListAnswer>(String(url));
  const data = readList(answer);
  const total = typeof answer?.total === "number" && answer.total >= 0 ? answer.total : data.length;
  const near =
    typeof answer?.near?.label === "string" && typeof answer.near.radius === "number"
      ? { label: answer.near.label, radius: answer.near.radius }
      : undefined;
  const storm = answer?.storm && typeof answer.storm.name === "string" ? answer.storm : undefined;
  const takingFirst = storm && answer?.takingFirst === true;
  return {
    data,
    total,
    ...(near ? { near } : {}),
    ...(storm ? { storm } : {}),
    ...(takingFirst ? { takingFirst } : {}),
  };
}

/** GET /api/businesses for the state shown (businessesApiUrl), or null: nothing to read. */
export const $listUrl = atom<string | null>(null);
export const $listPage = createFetcherStore<ListPage>([$listUrl], { fetcher: fetchListPage });

/** The Featured section: GET /api/businesses/featured. */
export async function fetchFeaturedList(): Promise<ListBusiness[]> {
  return readList(await apiGet<ListAnswer>(FEATURED_URL));
}

/** Set only when the island was given no Featured list. */
export const $featuredUrl = atom<string | null>(null);
export const $featured = createFetcherStore<ListBusiness[]>([$featuredUrl], { fetcher: fetchFeaturedList });

/** Shows `state`'s page, from the cache when it is there. */
export function showState(state: DirectoryState): void {
  $listUrl.set(businessesApiUrl(state));
}

/** The server rendered this page: cache it so hydration does not ask again. */
export function seedPage(state: DirectoryState, page: ListPage): void {
  primeCache(businessesApiUrl(state), page);
}

export function fetchFeatured(): void {
  $featuredUrl.set(FEATURED_URL);
}
