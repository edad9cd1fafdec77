/**
 * The location index: every business with a location is a member of the `near` sets (all,
 * per service, 24/7), scored by its geohash. A radius search reads the score ranges around
 * the point and filters the members by distance, hours and 24/7 before it loads a profile.
 */
import type { Redis } from "@upstash/redis";
import type { Business } from "../../../../src/lib/schemas/business.ts";
import { DEFAULT_RADIUS } from "../../../../src/lib/directory-url.ts";
import {
  decodeGeohashScore,
  distanceMiles,
  geohashScore,
  searchRanges,
  type Point,
} from "../../../../src/lib/geo/distance.ts";
import type { Closures } from "../../../../src/lib/holidays.ts";
import { DEFAULT_TIME_ZONE, openFromSpans, weeklySpans, type Span } from "../../../../src/lib/hours.ts";
import { asJson, asNumber } from "../decode.ts";
import type { Keys } from "../keys.ts";
import { CITY_BAND, FEATURED_BOOST, RATING_STEP } from "../score.ts";
import type { ListQuery, ListResult, NearSort } from "./businesses.types.ts";

export const NEAR_RADIUS = DEFAULT_RADIUS;

/** Index key part for a service name ("Cabling & Bracing" -> "cabling-bracing"). */
export const serviceKey = (service: string) =>
  service
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

/**
 * A location set's member: the business id plus what a radius search filters on besides
 * distance (time zone, weekly hours, 24/7 emergency), as JSON text. A search then reads
 * one member per candidate and nothing else per candidate but its order score, and the
 * JSON parses as it arrives (the client parses every reply that is JSON; an id alone
 * would cost it a failed parse each).
 */
type NearMember = [id: string, timeZone: string, emergency: 0 | 1, week: Span[][], closures?: NearClosures];

/**
 * The owner's closures, so "open now" agrees with the business page: [closedHolidays (null =
 * all), closed dates]. Absent when the business has neither (and in members written before).
 */
type NearClosures = [holidays: string[] | null, dates: string[]];

/** What the `near` field of the business hash holds: its member and the sets it is in, to leave them on change. */
export interface NearState {
  member: string;
  sets: string[];
}

/** The location index writes for one business (the bench bulk-loads with this too). */
export function nearPlan(
  profile: Pick<
    Business,
    "id" | "location" | "services" | "emergency247" | "businessHours" | "timeZone" | "closedHolidays" | "closedDates"
  >,
  keys: Keys,
) {
  if (!profile.location) return null;
  const sets = [keys.near, ...new Set(profile.services.map((s) => keys.nearService(serviceKey(s))))];
  if (profile.emergency247) sets.push(keys.nearEmergency);
  const entry: NearMember = [
    profile.id,
    profile.timeZone ?? DEFAULT_TIME_ZONE,
    profile.emergency247 ? 1 : 0,
    weeklySpans(profile.businessHours),
  ];
  if (profile.closedHolidays || profile.closedDates?.length)
    entry.push([profile.closedHolidays ?? null, (profile.closedDates ?? []).map((d) => d.date)]);
  const member = JSON.stringify(entry);
  const state: NearState = { member, sets: sets.map((k) => k.slice(keys.prefix.length)) };
  return { score: geohashScore(profile.location), sets, member, state };
}

function nearMember(value: unknown): NearMember | null {
  const entry = typeof value === "string" ? asJson<unknown>(value) : value;
  return Array.isArray(entry) && typeof entry[0] === "string" && Array.isArray(entry[3]) ? (entry as NearMember) : null;
}

/** A member's closures as hours.ts reads them. */
function nearClosures(value: NearClosures | undefined): Closures | undefined {
  if (!Array.isArray(value)) return undefined;
  const [holidays, dates] = value;
  return {
    ...(Array.isArray(holidays) ? { closedHolidays: holidays } : {}),
    closedDates: Array.isArray(dates) ? dates.map((date) => ({ date })) : [],
  };
}

/** What the location index reads of a business. */
type NearProfile = Parameters<typeof nearPlan>[0];

/** Moves the business into the location sets its profile asks for (and its old member out of all of them). */
export async function writeNear(
  redis: Redis,
  keys: Keys,
  profile: NearProfile,
  previous: NearState | null,
): Promise<void> {
  const plan = nearPlan(profile, keys);
  const tx = redis.multi();
  if (previous) for (const suffix of previous.sets) tx.zrem(keys.prefix + suffix, previous.member);
  if (plan) {
    for (const key of plan.sets) tx.zadd(key, { score: plan.score, member: plan.member });
    tx.hset(keys.business(profile.id), { near: JSON.stringify(plan.state) });
  } else tx.hdel(keys.business(profile.id), "near");
  await tx.exec();
}

/** What a radius search needs from the rest of the directory. */
export interface NearReads {
  /** The set the search words restrict to (null: no words), computed only once there are candidates. */
  textKey(): Promise<string | null>;
  /** The page's profiles, in order. */
  load(ids: readonly string[]): Promise<Business[]>;
}

/**
 * A radius search. Three round trips whatever the directory size: the location set's
 * score ranges around the point (one pipeline of at most 25 ranges), the order scores
 * of the candidates inside the radius that pass the hours and 24/7 filters (one
 * pipeline), the page's profiles (one pipeline). Work grows only with the businesses
 * inside the radius.
 */
export async function nearList(
  redis: Redis,
  keys: Keys,
  query: ListQuery & { near: Point },
  page: { rank: number | null; limit: number; offset: number },
  reads: NearReads,
): Promise<ListResult> {
  const { rank, limit, offset } = page;
  const radius = query.radius ?? NEAR_RADIUS;
  const service = query.service ? serviceKey(query.service) : "";
  // The smallest set that already applies a filter.
  const key = service ? keys.nearService(service) : query.emergency ? keys.nearEmergency : keys.near;
  const p = redis.pipeline();
  for (const r of searchRanges(query.near, radius))
    p.zrange(key, r.min, `(${r.max}`, { byScore: true, withScores: true });
  const replies = await p.exec<unknown[]>();
  const now = query.now ?? Date.now();
  const inside: { id: string; miles: number }[] = [];
  for (const reply of replies) {
    const flat = Array.isArray(reply) ? reply : [];
    for (let i = 0; i + 1 < flat.length; i += 2) {
      const entry = nearMember(flat[i]);
      if (!entry) continue;
      const miles = distanceMiles(query.near, decodeGeohashScore(asNumber(flat[i + 1])));
      if (miles > radius) continue;
      if (query.emergency && entry[2] !== 1) continue;
      if (query.openNow && !openFromSpans(entry[3], entry[1], now, entry[2] === 1, nearClosures(entry[4]))) continue;
      inside.push({ id: entry[0], miles });
    }
  }
  if (inside.length === 0) return { data: [], total: 0 };

  // The banded city-and-order score of each candidate: rating, reviews, featured and city in one number.
  const textKey = await reads.textKey();
  const candidateIds = inside.map((c) => c.id);
  const q = redis.pipeline();
  q.zmscore(keys.geo, candidateIds);
  if (textKey) q.zmscore(textKey, candidateIds);
  const [banded, text] = await q.exec<[unknown[] | null, unknown[] | null]>();
  const minTenths = Math.round((query.minRating ?? 0) * 10);

  const matches: { id: string; miles: number; order: number; tenths: number; count: number }[] = [];
  inside.forEach((c, i) => {
    const score = banded?.[i];
    if (score === null || score === undefined) return;
    if (text && (text[i] === null || text[i] === undefined)) return;
    const value = asNumber(score);
    const cityOf = Math.floor(value / CITY_BAND);
    if (rank !== null && cityOf !== rank) return;
    const order = value - cityOf * CITY_BAND;
    const tenths = Math.floor((order % FEATURED_BOOST) / RATING_STEP);
    if (tenths < minTenths) return;
    matches.push({ id: c.id, miles: c.miles, order, tenths, count: order % RATING_STEP });
  });

  const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const compare: Record<NearSort, (a: (typeof matches)[number], b: (typeof matches)[number]) => number> = {
    best: (a, b) => b.order - a.order || a.miles - b.miles || byId(a, b),
    distance: (a, b) => a.miles - b.miles || b.order - a.order || byId(a, b),
    rating: (a, b) => b.tenths - a.tenths || b.count - a.count || a.miles - b.miles || byId(a, b),
    reviews: (a, b) => b.count - a.count || b.tenths - a.tenths || a.miles - b.miles || byId(a, b),
  };
  matches.sort(compare[query.sort ?? "best"]);
  const pageItems = matches.slice(offset, offset + limit);
  const loaded = await reads.load(pageItems.map((m) => m.id));
  const miles = new Map(pageItems.map((m) => [m.id, Math.round(m.miles * 10) / 10]));
  return { data: loaded.map((b) => ({ ...b, distanceMiles: miles.get(b.id) ?? 0 })), total: matches.length };
}
