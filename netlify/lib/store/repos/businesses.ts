/**
 * The directory (its shapes: businesses.types.ts; writes: business-writes.ts; radius search:
 * business-near.ts). Reads never scan: every query is answered from a precomputed sorted set
 * whose score is the display order (see score.ts), so a page costs a fixed number of round
 * trips whatever the directory size:
 *   - no search: idx:all (all cities) or the city's band of idx:geo;
 *   - one search word: the word's (or prefix's) term set, city = a band of it;
 *   - several words: their intersection, computed once per directory version and cached.
 */
import type { Redis } from "@upstash/redis";
import { findCity } from "../../../../src/lib/options.ts";
import type { Business } from "../../../../src/lib/schemas/business.ts";
import type { Review } from "../../../../src/lib/schemas/review.ts";
import { DIRECTORY_MAX_LIMIT, DIRECTORY_PAGE_SIZE } from "../../../../src/lib/directory-url.ts";
import { asJson, asNumber, asString, pairs } from "../decode.ts";
import type { Keys } from "../keys.ts";
import { BAND_COUNT, CITY_BAND, FEATURED_BOOST, cityBand, cityRank, formatRating } from "../score.ts";
import { queryTerms } from "../text.ts";
import { nearList } from "./business-near.ts";
import { outcomeExcluder, outcomeRecorder, responseFields } from "./business-responses.ts";
import { idPager, slugPager } from "./business-slugs.ts";
import type { BusinessesRepository, ListQuery, ListResult } from "./businesses.types.ts";
import { businessUpsert, type Profile } from "./business-writes.ts";

export const PAGE_SIZE = DIRECTORY_PAGE_SIZE;
export const MAX_PAGE_SIZE = DIRECTORY_MAX_LIMIT;
/** Cached multi-word results live this long (and die with the next directory write). */
export const QUERY_CACHE_SECONDS = 300;

/** The hash fields a Business is read from; every profile read asks for exactly these. */
export const PROFILE_FIELDS = ["doc", "sum", "count", "rt"] as const;

function hydrate(row: unknown): Business | null {
  if (!row || typeof row !== "object") return null;
  const r = row as Record<string, unknown>;
  const doc = asJson<Profile>(r.doc);
  if (!doc) return null;
  const sum = asNumber(r.sum);
  const count = asNumber(r.count);
  return { ...doc, rating: formatRating(sum, count), reviewCount: count, ...responseFields(r.rt) };
}

type Source = { key: string; banded: boolean; scale: number };

export function businessesRepository(redis: Redis, keys: Keys): BusinessesRepository {
  async function load(ids: readonly string[]): Promise<Business[]> {
    if (ids.length === 0) return [];
    const p = redis.pipeline();
    for (const id of ids) p.hmget(keys.business(id), ...PROFILE_FIELDS);
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
    // Every city: the top offset+limit of each band, merged. Bounded by the metro count.
    for (let r = 0; r < BAND_COUNT; r++) {
      const band = cityBand(r, featured);
      const max = `(${band.max * scale}` as const;
      p.zrange(key, max, band.min * scale, {
        byScore: true,
        rev: true,
        offset: 0,
        count: offset + limit,
        withScores: true,
      });
      p.zcount(key, band.min * scale, max);
    }
    const replies = await p.exec<unknown[]>();
    const merged: { id: string; order: number }[] = [];
    let total = 0;
    for (let r = 0; r < BAND_COUNT; r++) {
      for (const [id, score] of pairs(replies[r * 2])) merged.push({ id, order: score / scale - r * CITY_BAND });
      total += asNumber(replies[r * 2 + 1]);
    }
    // Same order as ZRANGE ... REV on idx:all: score, then member, both descending.
    merged.sort((a, b) => b.order - a.order || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    return { ids: merged.slice(offset, offset + limit).map((m) => m.id), total };
  }

  return {
    upsert: businessUpsert(redis, keys, get),

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
      p.hmget(keys.business(id), ...PROFILE_FIELDS);
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
      const rank = city ? cityRank(city.label, city.state) : null;

      const terms = queryTerms(query.search);
      if (query.near) {
        const textKey = async () =>
          terms.length === 0 ? null : terms.length === 1 ? keys.term(terms[0]!) : (await intersection(terms)).key;
        return nearList(redis, keys, { ...query, near: query.near }, { rank, limit, offset }, { textKey, load });
      }
      let source: Source;
      if (terms.length === 0)
        source = rank === null ? { key: keys.all, banded: false, scale: 1 } : { key: keys.geo, banded: true, scale: 1 };
      else if (terms.length === 1) source = { key: keys.term(terms[0]!), banded: true, scale: 1 };
      else source = await intersection(terms);

      const { ids, total } = await page(source, rank, featured, offset, limit);
      return { data: await load(ids), total };
    },

    async featured(options: { limit?: number } = {}): Promise<Business[]> {
      const limit = Math.max(1, Math.min(MAX_PAGE_SIZE, Math.floor(options.limit ?? PAGE_SIZE)));
      const ids = await redis.zrange<unknown[]>(keys.all, "+inf", FEATURED_BOOST, {
        byScore: true,
        rev: true,
        offset: 0,
        count: limit,
      });
      return load(ids.map((v) => asString(v) ?? ""));
    },

    async count(): Promise<number> {
      return asNumber(await redis.zcard(keys.all));
    },

    slugs: slugPager(redis, keys),
    ids: idPager(redis, keys),

    recordOutcome: outcomeRecorder(redis, keys),
    excludeOutcome: outcomeExcluder(redis, keys),
  };
}
