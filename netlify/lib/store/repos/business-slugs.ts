/**
 * Business ids and slugs in directory order (idx:all, best first), for the import and the sitemap
 * files: one ZRANGE, then the slugs read in pipelines of SLUG_BATCH, which bounds each request's size on Upstash.
 */
import type { Redis } from "@upstash/redis";
import { asString } from "../decode.ts";
import type { Keys } from "../keys.ts";

const SLUG_BATCH = 2_000;

/** The ids of the businesses at positions offset .. offset + limit - 1 in directory order (one ZRANGE). */
export function idPager(redis: Redis, keys: Keys) {
  return async (offset: number, limit: number): Promise<string[]> => {
    const start = Math.max(0, Math.floor(offset));
    const ids = await redis.zrange<unknown[]>(keys.all, start, start + Math.max(1, Math.floor(limit)) - 1, {
      rev: true,
    });
    return ids.map((v) => asString(v) ?? "").filter(Boolean);
  };
}

/** The slugs of the businesses at positions offset .. offset + limit - 1 in directory order. */
export function slugPager(redis: Redis, keys: Keys) {
  return async (offset: number, limit: number): Promise<string[]> => {
    const start = Math.max(0, Math.floor(offset));
    const ids = (
      await redis.zrange<unknown[]>(keys.all, start, start + Math.max(1, Math.floor(limit)) - 1, { rev: true })
    ).map((v) => asString(v) ?? "");
    const slugs: string[] = [];
    for (let i = 0; i < ids.length; i += SLUG_BATCH) {
      const p = redis.pipeline();
      for (const id of ids.slice(i, i + SLUG_BATCH)) p.hget(keys.business(id), "slug");
      for (const slug of await p.exec<unknown[]>()) if (typeof slug === "string" && slug) slugs.push(slug);
    }
    return slugs;
  };
}
