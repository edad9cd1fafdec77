/**
 * The /directory list state as it lives in the page URL (`?q=&city=&page=`) and as it goes
 * to GET /api/businesses (`search`, `city`, `limit`, `offset`; spec sections 7 and 9).
 *
 * Anything can arrive in the URL: links from /find-a-tree-service (a city as typed without
 * JavaScript, "San Antonio"), the no-JS form (`city=all&q=`), hand edits. Parsing never
 * throws; it normalises to a state the API accepts, and serialising writes the canonical
 * form back, so equal states always have equal URLs (and equal cache keys).
 */
import { findCity } from "./options.ts";

/** Spec section 9: the directory pages by 12. */
export const DIRECTORY_PAGE_SIZE = 12;
/** Longer search text is cut, not rejected: a pasted paragraph still searches. */
export const MAX_SEARCH_LENGTH = 100;
/** The city filter's "every city" value (spec: city is sent only when not "all"). */
export const ALL_CITIES = "all";
/** GET /api/businesses refuses deeper offsets (netlify/lib/directory.ts), so no page goes past it. */
const MAX_OFFSET = 10_000;
const MAX_PAGE = Math.floor(MAX_OFFSET / DIRECTORY_PAGE_SIZE) + 1;

export interface DirectoryState {
  /** Trimmed search text, at most MAX_SEARCH_LENGTH characters; "" for none. */
  search: string;
  /** A CITIES value ("san-antonio") or ALL_CITIES. */
  city: string;
  /** 1-based page number. */
  page: number;
}

export const DEFAULT_DIRECTORY_STATE: Readonly<DirectoryState> = Object.freeze({ search: "", city: ALL_CITIES, page: 1 });

export function normalizeSearch(input: unknown): string {
  if (typeof input !== "string") return "";
  // Trim before cutting so leading spaces do not eat the allowance, and after so the cut
  // cannot leave a trailing space.
  return input.trim().slice(0, MAX_SEARCH_LENGTH).trim();
}

export function normalizeCity(input: unknown): string {
  return typeof input === "string" ? (findCity(input)?.value ?? ALL_CITIES) : ALL_CITIES;
}

export function normalizePage(input: unknown): number {
  const n = typeof input === "number" ? input : typeof input === "string" && /^\s*\d+\s*$/.test(input) ? Number(input) : NaN;
  return Number.isInteger(n) && n >= 1 ? Math.min(n, MAX_PAGE) : 1;
}

export function normalizeDirectoryState(input: Partial<Record<keyof DirectoryState, unknown>> = {}): DirectoryState {
  return { search: normalizeSearch(input.search), city: normalizeCity(input.city), page: normalizePage(input.page) };
}

/** Reads `?q=&city=&page=` (a search string with or without "?", or URLSearchParams). */
export function parseDirectoryQuery(query: string | URLSearchParams): DirectoryState {
  const params = typeof query === "string" ? new URLSearchParams(query) : query;
  return normalizeDirectoryState({ search: params.get("q") ?? "", city: params.get("city") ?? "", page: params.get("page") ?? "" });
}

/** The canonical query for a state: "" for the default, else "?q=..&city=..&page=.." without defaults. */
export function serializeDirectoryQuery(state: Partial<DirectoryState>): string {
  const { search, city, page } = normalizeDirectoryState(state);
  const params = new URLSearchParams();
  if (search) params.set("q", search);
  if (city !== ALL_CITIES) params.set("city", city);
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return query ? `?${query}` : "";
}

/** Whether the visitor narrowed the list (the results heading reads "Search Results"). */
export function isFiltered(state: Pick<DirectoryState, "search" | "city">): boolean {
  return normalizeSearch(state.search) !== "" || normalizeCity(state.city) !== ALL_CITIES;
}

export function sameDirectoryState(a: DirectoryState, b: DirectoryState): boolean {
  return serializeDirectoryQuery(a) === serializeDirectoryQuery(b);
}

/** Query for GET /api/businesses: search only when non-empty, city only when not "all". */
export function businessesApiParams(state: Partial<DirectoryState>): URLSearchParams {
  const { search, city, page } = normalizeDirectoryState(state);
  const params = new URLSearchParams();
  if (search) params.set("search", search);
  if (city !== ALL_CITIES) params.set("city", city);
  params.set("limit", String(DIRECTORY_PAGE_SIZE));
  params.set("offset", String((page - 1) * DIRECTORY_PAGE_SIZE));
  return params;
}

export function businessesApiUrl(state: Partial<DirectoryState>): string {
  return `/api/businesses?${businessesApiParams(state)}`;
}

/** Pages needed for `total` results; at least 1 so "Page 1 of 1" reads right when empty. */
export function pageCount(total: number): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / DIRECTORY_PAGE_SIZE));
}
