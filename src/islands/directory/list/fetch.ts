/**
 * Reads for the directory list, with the query cache the spec describes (section 7 and
 * 9: read data is never stale, unused entries are dropped after 5 minutes, no retries,
 * no refetch on focus). A page seen once comes back instantly on Back or Previous.
 */
import { apiGet } from "../../../lib/api.ts";
import { businessesApiUrl, type DirectoryState } from "../../../lib/directory-url.ts";
import { toListBusiness, type ListBusiness, type ListPage } from "./types.ts";

const GC_MS = 5 * 60_000;

const cache = new Map<string, { page: ListPage; usedAt: number }>();

export function cachedPage(state: DirectoryState): ListPage | undefined {
  const key = businessesApiUrl(state);
  const hit = cache.get(key);
  if (!hit) return undefined;
  if (Date.now() - hit.usedAt > GC_MS) {
    cache.delete(key);
    return undefined;
  }
  hit.usedAt = Date.now();
  return hit.page;
}

export function rememberPage(state: DirectoryState, page: ListPage): void {
  cache.set(businessesApiUrl(state), { page, usedAt: Date.now() });
}

interface ListAnswer {
  data?: unknown;
  total?: unknown;
  near?: { label?: unknown; radius?: unknown };
}

// The answer is trusted for field types (the same schema wrote it) but not for presence:
// a missing list or total must not blank the page.
function readList(answer: ListAnswer | null): ListBusiness[] {
  return Array.isArray(answer?.data) ? (answer.data as ListBusiness[]).map(toListBusiness) : [];
}

export async function fetchBusinessesPage(state: DirectoryState, signal?: AbortSignal): Promise<ListPage> {
  const answer = await apiGet<ListAnswer>(businessesApiUrl(state), { signal });
  const data = readList(answer);
  const total = typeof answer?.total === "number" && answer.total >= 0 ? answer.total : data.length;
  const near = typeof answer?.near?.label === "string" && typeof answer.near.radius === "number" ? { label: answer.near.label, radius: answer.near.radius } : undefined;
  const page: ListPage = { data, total, ...(near ? { near } : {}) };
  rememberPage(state, page);
  return page;
}

export async function fetchFeatured(signal?: AbortSignal): Promise<ListBusiness[]> {
  return readList(await apiGet<ListAnswer>("/api/businesses/featured", { signal }));
}
