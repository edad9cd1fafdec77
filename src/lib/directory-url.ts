/**
 * The /directory list state as it lives in the page URL and as it goes to GET
 * /api/businesses (with the "near me" search of docs/directory.md). One reading of every
 * directory parameter for the island, the server-rendered pages and the API: the API's
 * strict zod schema (src/lib/directory-query.ts) is built from the option lists here.
 *
 *   page URL:  ?q=&city=&near=&radius=&service=&open=now&emergency=1&minRating=&sort=&page=
 *   API:       ?search=&city=&near=&radius=&service=&open=now&emergency=true&minRating=&sort=&limit=&offset=
 *
 * Anything can arrive in the URL: links from /find-a-tree-service (a city as typed without
 * JavaScript, "San Antonio"), the no-JS form (`city=all&q=`), hand edits. Parsing never
 * throws; it normalizes to a state the API accepts, and serialising writes the canonical
 * form back, so equal states always have equal URLs (and equal cache keys).
 */
import { PRO_SERVICES, findCity } from "./options.ts";

/** Businesses per directory page. */
export const DIRECTORY_PAGE_SIZE = 12;
/** Largest `limit` GET /api/businesses accepts. */
export const DIRECTORY_MAX_LIMIT = 50;
/** Deeper pages are refused: nobody pages that far. */
export const DIRECTORY_MAX_OFFSET = 10_000;
/** Longer search text is cut, not rejected: a pasted paragraph still searches. */
export const MAX_SEARCH_LENGTH = 100;
/** How long typing in the search box must pause before the search runs (ms). */
export const SEARCH_DEBOUNCE_MS = 300;
/** Longest "ZIP code or city" text. */
export const MAX_NEAR_LENGTH = 100;
/** The city filter's "every city" value (spec: city is sent only when not "all"). */
export const ALL_CITIES = "all";
const MAX_PAGE = Math.floor(DIRECTORY_MAX_OFFSET / DIRECTORY_PAGE_SIZE) + 1;

/** Miles around the place a near-me search may cover (default 25). */
export const RADIUS_OPTIONS = [
  { value: 10, label: "10 miles" },
  { value: 25, label: "25 miles" },
  { value: 50, label: "50 miles" },
  { value: 100, label: "100 miles" },
] as const;
export type Radius = (typeof RADIUS_OPTIONS)[number]["value"];
export const DEFAULT_RADIUS: Radius = 25;

export const SORT_OPTIONS = [
  { value: "best", label: "Best match" },
  { value: "distance", label: "Nearest" },
  { value: "rating", label: "Highest rated" },
  { value: "reviews", label: "Most reviews" },
] as const;
export type DirectorySort = (typeof SORT_OPTIONS)[number]["value"];
export const DEFAULT_SORT: DirectorySort = "best";

/** Minimum rating choices; 0 is "any". */
export const MIN_RATING_OPTIONS = [
  { value: 0, label: "Any rating" },
  { value: 3, label: "3+ stars" },
  { value: 4, label: "4+ stars" },
  { value: 4.5, label: "4.5+ stars" },
] as const;

/** The only `open` value: open at this moment in the business's own time zone. */
export const OPEN_NOW = "now";

/** What the filters need before they can apply (they rank and cut a radius, not the whole directory). */
export const NEAR_REQUIRED = "Enter a ZIP code or city to use these filters";

export interface DirectoryState {
  /** Trimmed search text, at most MAX_SEARCH_LENGTH characters; "" for none. */
  search: string;
  /** A CITIES value ("san-antonio") or ALL_CITIES. */
  city: string;
  /** 1-based page number. */
  page: number;
  /** ZIP code, "City, ST", "City" or "lat,lng" as typed (trimmed); "" for none. */
  near: string;
  /** Miles around `near`. */
  radius: Radius;
  /** A PRO_SERVICES value or "" for any. */
  service: string;
  /** Open now only. */
  open: boolean;
  /** 24/7 emergency service only. */
  emergency: boolean;
  /** Minimum rating, 0 for any. */
  minRating: number;
  sort: DirectorySort;
}

export const DEFAULT_DIRECTORY_STATE: Readonly<DirectoryState> = Object.freeze({
  search: "",
  city: ALL_CITIES,
  page: 1,
  near: "",
  radius: DEFAULT_RADIUS,
  service: "",
  open: false,
  emergency: false,
  minRating: 0,
  sort: DEFAULT_SORT,
});

export function normalizeSearch(input: unknown): string {
  if (typeof input !== "string") return "";
  // Trim before cutting so leading spaces do not eat the allowance, and after so the cut
  // cannot leave a trailing space.
  return input.trim().slice(0, MAX_SEARCH_LENGTH).trim();
}

export function normalizeNear(input: unknown): string {
  return typeof input === "string" ? input.trim().replace(/\s+/g, " ").slice(0, MAX_NEAR_LENGTH).trim() : "";
}

export function normalizeCity(input: unknown): string {
  return typeof input === "string" ? (findCity(input)?.value ?? ALL_CITIES) : ALL_CITIES;
}

export function normalizePage(input: unknown): number {
  const n =
    typeof input === "number" ? input : typeof input === "string" && /^\s*\d+\s*$/.test(input) ? Number(input) : NaN;
  return Number.isInteger(n) && n >= 1 ? Math.min(n, MAX_PAGE) : 1;
}

/** "25" or 25 -> 25 when it is one of RADIUS_OPTIONS, else undefined. */
export function radiusValue(input: unknown): Radius | undefined {
  const n =
    typeof input === "number"
      ? input
      : typeof input === "string" && /^\s*\d{1,3}\s*$/.test(input)
        ? Number(input)
        : NaN;
  return RADIUS_OPTIONS.find((o) => o.value === n)?.value;
}

/** A PRO_SERVICES value for any casing of a value or label, else undefined. */
export function serviceValue(input: unknown): string | undefined {
  if (typeof input !== "string") return undefined;
  const needle = input.trim().toLowerCase();
  return PRO_SERVICES.find((s) => s.value.toLowerCase() === needle || s.label.toLowerCase() === needle)?.value;
}

export function sortValue(input: unknown): DirectorySort | undefined {
  return SORT_OPTIONS.find((o) => o.value === (typeof input === "string" ? input.trim().toLowerCase() : ""))?.value;
}

/** "4", "4.5" -> the number when 0..5 with at most one decimal, else undefined. */
export function ratingValue(input: unknown): number | undefined {
  const n =
    typeof input === "number"
      ? input
      : typeof input === "string" && /^\s*\d(?:\.\d)?\s*$/.test(input)
        ? Number(input)
        : NaN;
  return Number.isFinite(n) && n >= 0 && n <= 5 && Math.round(n * 10) === n * 10 ? n : undefined;
}

/** "true", "1", "yes", "on" -> true; "false", "0", "no", "off", "" -> false; anything else undefined. */
export function flagValue(input: unknown): boolean | undefined {
  if (typeof input === "boolean") return input;
  if (typeof input !== "string") return undefined;
  const t = input.trim().toLowerCase();
  if (["true", "1", "yes", "on"].includes(t)) return true;
  if (["false", "0", "no", "off", ""].includes(t)) return false;
  return undefined;
}

export function normalizeDirectoryState(input: Partial<Record<keyof DirectoryState, unknown>> = {}): DirectoryState {
  const near = normalizeNear(input.near);
  return {
    search: normalizeSearch(input.search),
    city: normalizeCity(input.city),
    page: normalizePage(input.page),
    near,
    radius: radiusValue(input.radius) ?? DEFAULT_RADIUS,
    service: serviceValue(input.service) ?? "",
    open: input.open === true || (typeof input.open === "string" && input.open.trim().toLowerCase() === OPEN_NOW),
    emergency: flagValue(input.emergency) ?? false,
    minRating: ratingValue(input.minRating) ?? 0,
    sort: sortValue(input.sort) ?? DEFAULT_SORT,
  };
}

/** Reads the page URL's query (a search string with or without "?", or URLSearchParams). */
/** The query parameters of a directory page (what parseDirectoryQuery reads). */
export const DIRECTORY_PARAMS = [
  "q",
  "city",
  "page",
  "near",
  "radius",
  "service",
  "open",
  "emergency",
  "minRating",
  "sort",
] as const;

export function parseDirectoryQuery(query: string | URLSearchParams): DirectoryState {
  const params = typeof query === "string" ? new URLSearchParams(query) : query;
  const get = (name: string) => params.get(name) ?? "";
  return normalizeDirectoryState({
    search: get("q"),
    city: get("city"),
    page: get("page"),
    near: get("near"),
    radius: get("radius"),
    service: get("service"),
    open: get("open"),
    emergency: get("emergency"),
    minRating: get("minRating"),
    sort: get("sort"),
  });
}

/** The canonical page query for a state: "" for the default, else only what differs from it. */
export function serializeDirectoryQuery(state: Partial<DirectoryState>): string {
  const s = normalizeDirectoryState(state);
  const params = new URLSearchParams();
  if (s.search) params.set("q", s.search);
  if (s.city !== ALL_CITIES) params.set("city", s.city);
  if (s.near) params.set("near", s.near);
  if (s.radius !== DEFAULT_RADIUS) params.set("radius", String(s.radius));
  if (s.service) params.set("service", s.service);
  if (s.open) params.set("open", OPEN_NOW);
  if (s.emergency) params.set("emergency", "1");
  if (s.minRating) params.set("minRating", String(s.minRating));
  if (s.sort !== DEFAULT_SORT) params.set("sort", s.sort);
  if (s.page > 1) params.set("page", String(s.page));
  const query = params.toString();
  return query ? `?${query}` : "";
}

/** Whether the visitor narrowed the list (the results heading reads "Search Results"). */
export function isFiltered(state: Partial<DirectoryState>): boolean {
  const s = normalizeDirectoryState(state);
  return (
    s.search !== "" ||
    s.city !== ALL_CITIES ||
    s.near !== "" ||
    s.service !== "" ||
    s.open ||
    s.emergency ||
    s.minRating > 0
  );
}

export function sameDirectoryState(a: DirectoryState, b: DirectoryState): boolean {
  return serializeDirectoryQuery(a) === serializeDirectoryQuery(b);
}

/** Query for GET /api/businesses: only what is set, plus limit and offset. */
export function businessesApiParams(state: Partial<DirectoryState>): URLSearchParams {
  const s = normalizeDirectoryState(state);
  const params = new URLSearchParams();
  if (s.search) params.set("search", s.search);
  if (s.city !== ALL_CITIES) params.set("city", s.city);
  if (s.near) {
    params.set("near", s.near);
    if (s.radius !== DEFAULT_RADIUS) params.set("radius", String(s.radius));
  }
  if (s.service) params.set("service", s.service);
  if (s.open) params.set("open", OPEN_NOW);
  if (s.emergency) params.set("emergency", "true");
  if (s.minRating) params.set("minRating", String(s.minRating));
  if (s.sort !== DEFAULT_SORT) params.set("sort", s.sort);
  params.set("limit", String(DIRECTORY_PAGE_SIZE));
  params.set("offset", String((s.page - 1) * DIRECTORY_PAGE_SIZE));
  return params;
}

export function businessesApiUrl(state: Partial<DirectoryState>): string {
  return `/api/businesses?${businessesApiParams(state)}`;
}

/** Pages needed for `total` results; at least 1 so "Page 1 of 1" reads right when empty. */
export function pageCount(total: number): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / DIRECTORY_PAGE_SIZE));
}
