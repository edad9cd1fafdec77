/**
 * Directory ordering: featured first, then rating, then review count. Every index sorted set
 * uses the same number so any of them can be paged with ZRANGE ... REV. City-banded sets add
 * rank * CITY_BAND so one set answers "this city" with a score range.
 *
 * The Lua scripts in lua.ts compute the same numbers; keep the two in step.
 */
import { METROS } from "../../../src/lib/options.ts";

export const CITY_BAND = 100_000_000;
export const FEATURED_BOOST = 10_000_000;
export const RATING_STEP = 10_000;
const MAX_COUNTED_REVIEWS = 9_999;

/** Rating in tenths (0..50), rounded half up; 0 when there are no reviews. */
export function ratingTenths(sum: number, count: number): number {
  return count > 0 ? Math.floor((sum * 10) / count + 0.5) : 0;
}

/** Display rating: numeric string with one decimal, "0.0" without reviews. */
export function formatRating(sum: number, count: number): string {
  return (ratingTenths(sum, count) / 10).toFixed(1);
}

export function orderScore(featured: boolean, sum: number, count: number): number {
  return (
    (featured ? FEATURED_BOOST : 0) + ratingTenths(sum, count) * RATING_STEP + Math.min(count, MAX_COUNTED_REVIEWS)
  );
}

/** The band of every business outside the METROS: one after theirs, so "All Cities" lists it too. */
export const ELSEWHERE_RANK = METROS.length;

/** How many bands the city-banded sets hold: one per metro, then ELSEWHERE_RANK. */
export const BAND_COUNT = METROS.length + 1;

/**
 * The band of a stored business: its metro's index in METROS (the filter cities first) when
 * its city names one in the same state, else ELSEWHERE_RANK (Boise, ID; a Springfield in
 * another state). Without a state only the name is matched (the directory's city filter).
 */
export function cityRank(city: string, state?: string): number {
  const rank = METROS.findIndex((c) => c.label === city && (state === undefined || c.state === state));
  return rank < 0 ? ELSEWHERE_RANK : rank;
}

/** Score range [min, max) of one city's band, optionally only its featured part. */
export function cityBand(rank: number, featuredOnly: boolean): { min: number; max: number } {
  const base = rank * CITY_BAND;
  return { min: base + (featuredOnly ? FEATURED_BOOST : 0), max: base + CITY_BAND };
}
