/**
 * GET /api/businesses' query, strictly: the same parameters and option lists as the page URL
 * (directory-url.ts), but a bad value is a 400 with a field message instead of a default.
 * Kept apart from directory-url.ts so the directory island does not ship zod.
 */
import { z } from "./zod.ts";
import { CITIES, PRO_SERVICES, findCity } from "./options.ts";
import {
  DEFAULT_RADIUS,
  DEFAULT_SORT,
  DIRECTORY_MAX_LIMIT,
  DIRECTORY_MAX_OFFSET,
  DIRECTORY_PAGE_SIZE,
  MAX_NEAR_LENGTH,
  MAX_SEARCH_LENGTH,
  MIN_RATING_OPTIONS,
  NEAR_REQUIRED,
  OPEN_NOW,
  RADIUS_OPTIONS,
  SORT_OPTIONS,
  flagValue,
  radiusValue,
  ratingValue,
  serviceValue,
  sortValue,
} from "./directory-url.ts";

/** A whole number in a window ("1.5", "1e3" and "-1" are refused); blank or missing takes the default. */
export const intParam = (min: number, max: number, fallback: number, message: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "") return fallback;
      const n = /^\d{1,9}$/.test(v) ? Number(v) : NaN;
      if (Number.isInteger(n) && n >= min && n <= max) return n;
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    });

/** Free text up to `max` characters; blank or missing is no value. */
const textParam = (max: number, message: string) =>
  z
    .string()
    .trim()
    .max(max, message)
    .optional()
    .transform((v) => v || undefined);

/** A parameter read by one of directory-url's readers; blank takes the default, anything unreadable is `message`. */
const readParam = <T>(read: (v: string) => T | undefined, fallback: T, message: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v, ctx): T => {
      if (v === undefined || v === "") return fallback;
      const value = read(v);
      if (value !== undefined) return value;
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    });

const CITY_LIST = CITIES.map((c) => c.label).join(", ");
const list = (values: readonly (string | number)[]) =>
  `${values.slice(0, -1).join(", ")} or ${values[values.length - 1]}`;

export const DIRECTORY_QUERY_MESSAGES = {
  search: `Search can be at most ${MAX_SEARCH_LENGTH} characters`,
  city: `Unknown city. Choose one of: ${CITY_LIST}`,
  limit: `Limit must be a whole number from 1 to ${DIRECTORY_MAX_LIMIT}`,
  offset: `Offset must be a whole number from 0 to ${DIRECTORY_MAX_OFFSET}`,
  near: `The ZIP code or city can be at most ${MAX_NEAR_LENGTH} characters`,
  radius: `Radius must be ${list(RADIUS_OPTIONS.map((o) => o.value))} miles`,
  service: `Unknown service. Choose one of: ${PRO_SERVICES.map((s) => s.label).join(", ")}`,
  open: `Open can only be "${OPEN_NOW}"`,
  emergency: "Emergency must be true or false",
  minRating: `Minimum rating must be ${list(MIN_RATING_OPTIONS.map((o) => o.value).filter((v) => v > 0))} (or a number from 0 to 5 in tenths)`,
  sort: `Sort must be ${list(SORT_OPTIONS.map((o) => o.value))}`,
} as const;
const M = DIRECTORY_QUERY_MESSAGES;

/** GET /api/businesses query: the list's filters plus the near-me search's place and radius. */
export const DirectoryQuery = z
  .object({
    /** Free text; applied only when non-blank after trimming. */
    search: textParam(MAX_SEARCH_LENGTH, M.search),
    /** City value or label ("san-antonio" / "San Antonio"); blank or "all" means every city. */
    city: z
      .string()
      .trim()
      .optional()
      .transform((v) => (!v || v.toLowerCase() === "all" ? undefined : v))
      .refine((v) => v === undefined || findCity(v) !== undefined, M.city),
    /** Page size, 1..DIRECTORY_MAX_LIMIT, default DIRECTORY_PAGE_SIZE. */
    limit: intParam(1, DIRECTORY_MAX_LIMIT, DIRECTORY_PAGE_SIZE, M.limit),
    /** Items to skip, 0..DIRECTORY_MAX_OFFSET, default 0. */
    offset: intParam(0, DIRECTORY_MAX_OFFSET, 0, M.offset),
    /** A 5-digit ZIP, "City, ST", "City" or "lat,lng"; resolved to a point by the function. */
    near: textParam(MAX_NEAR_LENGTH, M.near),
    /** Miles around `near`: 10, 25, 50 or 100 (default 25). */
    radius: readParam(radiusValue, DEFAULT_RADIUS, M.radius),
    /** One of PRO_SERVICES (value or label, any case). */
    service: readParam<string | undefined>(serviceValue, undefined, M.service),
    /** "now": open at this moment in the business's own time zone. */
    open: readParam((v) => (v.toLowerCase() === OPEN_NOW ? true : undefined), false, M.open),
    /** true: only businesses answering emergency calls 24/7. */
    emergency: readParam(flagValue, false, M.emergency),
    /** Lowest rating, 0..5 in tenths (0 = any). */
    minRating: readParam(ratingValue, 0, M.minRating),
    /** best (default), distance, rating or reviews. */
    sort: readParam(sortValue, DEFAULT_SORT, M.sort),
  })
  .superRefine((q, ctx) => {
    // These rank and cut the businesses around a place; over the whole directory they would read every business.
    if (!q.near && (q.service || q.open || q.emergency || q.minRating > 0 || q.sort !== DEFAULT_SORT)) {
      ctx.addIssue({ code: "custom", path: ["near"], message: NEAR_REQUIRED });
    }
  });
export type DirectoryQuery = z.output<typeof DirectoryQuery>;
