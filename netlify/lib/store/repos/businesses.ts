/**
 * The directory. Reads never scan: every query is answered from a precomputed sorted set whose
 * score is the display order (see score.ts), so a page costs a fixed number of round trips
 * whatever the directory size:
 *   - no search: idx:all (all cities) or the city's band of idx:geo;
 *   - one search word: the word's (or prefix's) term set, city = a band of it;
 *   - several words: their intersection, computed once per directory version and cached.
 */
import type { Redis } from "@upstash/redis";
import { findCity, CITIES } from "../../../../src/lib/options.ts";
import { Business, BusinessInput, type Review } from "../../../../src/lib/schemas/business.ts";
import { DEFAULT_RADIUS, DIRECTORY_MAX_LIMIT, DIRECTORY_PAGE_SIZE, type DirectorySort } from "../../../../src/lib/directory-url.ts";
import { decodeGeohashScore, distanceMiles, geohashScore, searchRanges, type Point } from "../../../../src/lib/geo/distance.ts";
import { DEFAULT_TIME_ZONE, openFromSpans, weeklySpans, type Span } from "../../../../src/lib/hours.ts";
import { asJson, asNumber, asString, pairs } from "../decode.ts";
import { ConflictError } from "../errors.ts";
import type { Keys } from "../keys.ts";
import { CITY_BAND, FEATURED_BOOST, RATING_STEP, cityBand, cityRank, formatRating, orderScore } from "../score.ts";
import { UPSERT_BUSINESS } from "../scripts.ts";
import { indexTerms, queryTerms } from "../text.ts";

export const PAGE_SIZE = DIRECTORY_PAGE_SIZE;
export const MAX_PAGE_SIZE = DIRECTORY_MAX_LIMIT;
/** Cached multi-word results live this long (and die with the next directory write). */
export const QUERY_CACHE_SECONDS = 300;

export interface ListQuery {
  /** Free text; every word must match a word (or word start) of name, description, services, specialties or city. */
  search?: string | null;
  /** City value or label ("san-antonio" / "San Antonio"); "all" or empty for every city. */
  city?: string | null;
  /** Only featured businesses. */
  featured?: boolean;
  /** Page size, default 12. */
  limit?: number;
  /** Items to skip, (page - 1) * limit. */
  offset?: number;
  /** Only businesses within `radius` miles of this point; each result then carries its distance. */
  near?: Point | null;
  /** Miles around `near` (default NEAR_RADIUS). */
  radius?: number;
  /** Only businesses offering this service (a service name, any case). Needs `near`. */
  service?: string | null;
  /** Only businesses open at `now` in their own time zone. Needs `near`. */
  openNow?: boolean;
  /** Only businesses answering emergency calls 24/7. Needs `near`. */
  emergency?: boolean;
  /** Only businesses rated at least this (0..5). Needs `near`. */
  minRating?: number;
  /** Order of a `near` search (default "best"). */
  sort?: NearSort;
  /** The clock for `openNow` (tests). */
  now?: number;
}

/** best: featured, rating, reviews, then distance. distance: nearest first. rating / reviews: that first, then nearest. */
export type NearSort = DirectorySort;
export const NEAR_RADIUS = DEFAULT_RADIUS;

/** A result of a `near` search: the business and how far it is (miles, one decimal). */
export type ListedBusiness = Business & { distanceMiles?: number };

export interface ListResult {
  data: ListedBusiness[];
  /** Matches across all pages. */
  total: number;
}

export interface BusinessesRepository {
  /** Creates or replaces a business (matched by id) and re-indexes it. */
  upsert(input: BusinessInput): Promise<Business>;
  get(id: string): Promise<Business | null>;
  /** Several by id in one pipeline; unknown ids are left out. */
  getMany(ids: readonly string[]): Promise<Business[]>;
  getBySlug(slug: string): Promise<Business | null>;
  /**
   * A business page's data: the business and its newest shown reviews, in at most 3 round
   * trips (slug -> id; profile + review ids in one pipeline; the review bodies).
   */
  getBySlugWithReviews(slug: string, options: { reviews: number }): Promise<{ business: Business; reviews: Review[] } | null>;
  list(query?: ListQuery): Promise<ListResult>;
  /** Featured businesses, best first. */
  featured(options?: { limit?: number }): Promise<Business[]>;
  /** Number of businesses (O(1)). */
  count(): Promise<number>;
}

type Profile = Omit<Business, "rating" | "reviewCount">;
const Profile = Business.omit({ rating: true, reviewCount: true });

/** Text a business is searchable by. */
export function searchableTexts(b: Pick<Business, "name" | "description" | "services" | "specialties" | "city">): string[] {
  return [b.name, b.description, ...b.services, ...b.specialties, b.city];
}

/**
 * Everything the index holds for one business. The bench bulk-loads with this so its layout
 * is exactly the repository's.
 */
export function indexPlan(profile: Profile, sum: number, count: number) {
  const rank = cityRank(profile.city);
  const order = orderScore(profile.isFeatured, sum, count);
  return { terms: indexTerms(searchableTexts(profile)), rank, order, banded: rank * CITY_BAND + order };
}

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
type NearMember = [id: string, timeZone: string, emergency: 0 | 1, week: Span[][]];

/** What the `near` field of the business hash holds: its member and the sets it is in, to leave them on change. */
interface NearState {
  member: string;
  sets: string[];
}

/** The location index writes for one business (the bench bulk-loads with this too). */
export function nearPlan(profile: Pick<Business, "id" | "location" | "services" | "emergency247" | "businessHours" | "timeZone">, keys: Keys) {
  if (!profile.location) return null;
  const sets = [keys.near, ...new Set(profile.services.map((s) => keys.nearService(serviceKey(s))))];
  if (profile.emergency247) sets.push(keys.nearEmergency);
  const entry: NearMember = [profile.id, profile.timeZone ?? DEFAULT_TIME_ZONE, profile.emergency247 ? 1 : 0, weeklySpans(profile.businessHours)];
  const member = JSON.stringify(entry);
  const state: NearState = { member, sets: sets.map((k) => k.slice(keys.prefix.length)) };
  return { score: geohashScore(profile.location), sets, member, state };
}

function nearMember(value: unknown): NearMember | null {
  const entry = typeof value === "string" ? asJson<unknown>(value) : value;
  return Array.isArray(entry) && typeof entry[0] === "string" && Array.isArray(entry[3]) ? (entry as NearMember) : null;
}

function hydrate(row: unknown): Business | null {
  if (!row || typeof row !== "object") return null;
  const r = row as Record<string, unknown>;
  const doc = asJson<Profile>(r.doc);
  if (!doc) return null;
  const sum = asNumber(r.sum);
  const count = asNumber(r.count);
  return { ...doc, rating: formatRating(sum, count), reviewCount: count };
}

type Source = { key: string; banded: boolean; scale: number };

export function businessesRepository(redis: Redis, keys: Keys): BusinessesRepository {
  const upsertScript = redis.createScript<unknown[]>(UPSERT_BUSINESS);

  async function load(ids: readonly string[]): Promise<Business[]> {
    if (ids.length === 0) return [];
    const p = redis.pipeline();
    for (const id of ids) p.hmget(keys.business(id), "doc", "sum", "count");
    const rows = await p.exec<unknown[]>();
    return rows.map(hydrate).filter((b): b is Business => b !== null);
  }

  async function get(id: string): Promise<Business | null> {
    const [b] = await load([id]);
    return b ?? null;
  }

  /** The set holding every match of a multi-word search, computed at most once per directory version. */
  async function intersection(terms: string[]): Promise<Source> {
    const version = asString(await redis.get(keys.version)) ?? "0";
    const key = keys.query(version, terms);
    if ((await redis.exists(key)) === 0) {
      const tx = redis.multi();
      // Default AGGREGATE SUM: every input holds the same score, so the result is terms.length x score.
      tx.zinterstore(key, terms.length, terms.map(keys.term));
      tx.expire(key, QUERY_CACHE_SECONDS);
      await tx.exec();
    }
    return { key, banded: true, scale: terms.length };
  }

  async function page(source: Source, rank: number | null, featured: boolean, offset: number, limit: number) {
    const p = redis.pipeline();
    const { key, scale } = source;
    if (!source.banded) {
      if (featured) {
        p.zrange(key, "+inf", FEATURED_BOOST, { byScore: true, rev: true, offset, count: limit });
        p.zcount(key, FEATURED_BOOST, "+inf");
      } else {
        p.zrange(key, offset, offset + limit - 1, { rev: true });
        p.zcard(key);
      }
      const [ids, total] = await p.exec<[unknown[], number]>();
      return { ids: ids.map((v) => asString(v) ?? ""), total: asNumber(total) };
    }
    if (rank !== null) {
      const band = cityBand(rank, featured);
      const max = `(${band.max * scale}` as const;
      p.zrange(key, max, band.min * scale, { byScore: true, rev: true, offset, count: limit });
      p.zcount(key, band.min * scale, max);
      const [ids, total] = await p.exec<[unknown[], number]>();
      return { ids: ids.map((v) => asString(v) ?? ""), total: asNumber(total) };
    }
    // Every city: the top offset+limit of each city band, merged. Bounded by the city count.
    for (let r = 0; r < CITIES.length; r++) {
      const band = cityBand(r, featured);
      const max = `(${band.max * scale}` as const;
      p.zrange(key, max, band.min * scale, { byScore: true, rev: true, offset: 0, count: offset + limit, withScores: true });
      p.zcount(key, band.min * scale, max);
    }
    const replies = await p.exec<unknown[]>();
    const merged: { id: string; order: number }[] = [];
    let total = 0;
    for (let r = 0; r < CITIES.length; r++) {
      for (const [id, score] of pairs(replies[r * 2])) merged.push({ id, order: score / scale - r * CITY_BAND });
      total += asNumber(replies[r * 2 + 1]);
    }
    // Same order as ZRANGE ... REV on idx:all: score, then member, both descending.
    merged.sort((a, b) => b.order - a.order || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    return { ids: merged.slice(offset, offset + limit).map((m) => m.id), total };
  }

  /** Moves the business into the location sets its profile asks for (and its old member out of all of them). */
  async function writeNear(profile: Profile, previous: NearState | null): Promise<void> {
    const plan = nearPlan(profile, keys);
    const tx = redis.multi();
    if (previous) for (const suffix of previous.sets) tx.zrem(keys.prefix + suffix, previous.member);
    if (plan) {
      for (const key of plan.sets) tx.zadd(key, { score: plan.score, member: plan.member });
      tx.hset(keys.business(profile.id), { near: JSON.stringify(plan.state) });
    } else tx.hdel(keys.business(profile.id), "near");
    await tx.exec();
  }

  /**
   * A radius search. Three round trips whatever the directory size: the location set's
   * score ranges around the point (one pipeline of at most 25 ranges), the order scores
   * of the candidates inside the radius that pass the hours and 24/7 filters (one
   * pipeline), the page's profiles (one pipeline). Work grows only with the businesses
   * inside the radius.
   */
  async function nearList(query: ListQuery & { near: Point }, rank: number | null, terms: string[], limit: number, offset: number): Promise<ListResult> {
    const radius = query.radius ?? NEAR_RADIUS;
    const service = query.service ? serviceKey(query.service) : "";
    // The smallest set that already applies a filter.
    const key = service ? keys.nearService(service) : query.emergency ? keys.nearEmergency : keys.near;
    const p = redis.pipeline();
    for (const r of searchRanges(query.near, radius)) p.zrange(key, r.min, `(${r.max}`, { byScore: true, withScores: true });
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
        if (query.openNow && !openFromSpans(entry[3], entry[1], now)) continue;
        inside.push({ id: entry[0], miles });
      }
    }
    if (inside.length === 0) return { data: [], total: 0 };

    // The banded city-and-order score of each candidate: rating, reviews, featured and city in one number.
    const textKey = terms.length === 0 ? null : terms.length === 1 ? keys.term(terms[0]!) : (await intersection(terms)).key;
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
    const loaded = await load(pageItems.map((m) => m.id));
    const miles = new Map(pageItems.map((m) => [m.id, Math.round(m.miles * 10) / 10]));
    return { data: loaded.map((b) => ({ ...b, distanceMiles: miles.get(b.id) ?? 0 })), total: matches.length };
  }

  return {
    async upsert(input: BusinessInput): Promise<Business> {
      const parsed = BusinessInput.parse(input);
      const { rating, reviewCount, ...rest } = parsed;
      const profile: Profile = Profile.parse(rest);
      const initialCount = reviewCount ?? 0;
      const initialSum = rating !== undefined && initialCount > 0 ? Number(rating) * initialCount : 0;
      const plan = indexPlan(profile, initialSum, initialCount);
      const bizKey = keys.business(profile.id);
      // Optimistic: the script refuses if another upsert changed the terms since we read them.
      for (let attempt = 0; attempt < 8; attempt++) {
        const current = (await redis.hmget(keys.business(profile.id), "tv", "terms", "near")) as Record<string, unknown> | null;
        const tv = asString(current?.tv) ?? "0";
        const previous = new Set(asJson<string[]>(current?.terms) ?? []);
        const next = new Set(plan.terms);
        const removed = [...previous].filter((t) => !next.has(t));
        const reply = await upsertScript.exec(
          [bizKey, keys.slugs, keys.all, keys.geo, keys.version, ...removed.map(keys.term), ...plan.terms.map(keys.term)],
          [
            profile.id,
            JSON.stringify(profile),
            profile.slug,
            String(plan.rank),
            profile.isFeatured ? "1" : "0",
            JSON.stringify(plan.terms),
            tv,
            String(removed.length),
            String(initialSum),
            String(initialCount),
          ],
        );
        const status = asString(reply[0]);
        if (status === "ok") {
          await writeNear(profile, asJson<NearState>(current?.near));
          const saved = await get(profile.id);
          if (!saved) throw new Error(`business ${profile.id} vanished after upsert`);
          return saved;
        }
        if (status === "slug_taken") {
          throw new ConflictError(`slug ${JSON.stringify(profile.slug)} belongs to business ${asString(reply[1])}`);
        }
        if (status !== "stale") throw new Error(`unexpected upsert reply ${JSON.stringify(reply)}`);
      }
      throw new Error(`business ${profile.id}: too many concurrent updates`);
    },

    get,

    getMany: load,

    async getBySlug(slug: string): Promise<Business | null> {
      const id = asString(await redis.hget(keys.slugs, slug));
      return id ? get(id) : null;
    },

    async getBySlugWithReviews(slug, options) {
      const id = asString(await redis.hget(keys.slugs, slug));
      if (!id) return null;
      const count = Math.max(0, Math.floor(options.reviews));
      const p = redis.pipeline();
      p.hmget(keys.business(id), "doc", "sum", "count");
      // The date index holds shown reviews only, so no hidden one can reach the page.
      p.zrange(keys.reviewsByDate(id), 0, count - 1, { rev: true });
      const [row, rawIds] = await p.exec<[unknown, unknown[]]>();
      const business = hydrate(row);
      if (!business) return null;
      const ids = count > 0 ? rawIds.map((v) => asString(v) ?? "").filter(Boolean) : [];
      if (ids.length === 0) return { business, reviews: [] };
      const rows = (await redis.hmget(keys.reviews(id), ...ids)) as Record<string, unknown> | null;
      const reviews = ids.map((rid) => asJson<Review>(rows?.[rid])).filter((r): r is Review => r !== null);
      return { business, reviews };
    },

    async list(query: ListQuery = {}): Promise<ListResult> {
      const limit = Math.max(1, Math.min(MAX_PAGE_SIZE, Math.floor(query.limit ?? PAGE_SIZE) || PAGE_SIZE));
      const offset = Math.max(0, Math.floor(query.offset ?? 0) || 0);
      const featured = query.featured === true;
      const cityInput = (query.city ?? "").trim();
      const city = cityInput && cityInput.toLowerCase() !== "all" ? findCity(cityInput) : undefined;
      if (cityInput && cityInput.toLowerCase() !== "all" && !city) return { data: [], total: 0 };
      const rank = city ? cityRank(city.label) : null;

      const terms = queryTerms(query.search);
      if (query.near) return nearList({ ...query, near: query.near }, rank, terms, limit, offset);
      let source: Source;
      if (terms.length === 0) source = rank === null ? { key: keys.all, banded: false, scale: 1 } : { key: keys.geo, banded: true, scale: 1 };
      else if (terms.length === 1) source = { key: keys.term(terms[0]!), banded: true, scale: 1 };
      else source = await intersection(terms);

      const { ids, total } = await page(source, rank, featured, offset, limit);
      return { data: await load(ids), total };
    },

    async featured(options: { limit?: number } = {}): Promise<Business[]> {
      const limit = Math.max(1, Math.min(MAX_PAGE_SIZE, Math.floor(options.limit ?? PAGE_SIZE)));
      const ids = await redis.zrange<unknown[]>(keys.all, "+inf", FEATURED_BOOST, { byScore: true, rev: true, offset: 0, count: limit });
      return load(ids.map((v) => asString(v) ?? ""));
    },

    async count(): Promise<number> {
      return asNumber(await redis.zcard(keys.all));
    },
  };
}
