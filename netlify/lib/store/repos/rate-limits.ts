/**
 * Request counters shared by every function instance, in the same Redis as the data:
 *
 * - Per-minute sliding windows by @upstash/ratelimit under `${prefix}ratelimit` (its keys and
 *   Lua are its own). One limiter per allowance, reused across requests: each keeps an
 *   in-memory cache of blocked callers that is only right if it lives as long as the instance.
 * - Per-hour fixed windows (INCR, expiry set by the first count), e.g. review posts to one
 *   business from every visitor together.
 * - Daily caps (UTC days): one count under several caps at once, or none (sign-in codes per
 *   business and per phone number). What is capped is hashed in the key.
 */
import { createHash } from "node:crypto";
import { Ratelimit } from "@upstash/ratelimit";
import type { Redis } from "@upstash/redis";
import { asNumber } from "../decode.ts";
import type { Keys } from "../keys.ts";
import { COUNT_UNDER_CAPS } from "../lua.ts";

/** A hung store must not hold a visitor's request hostage; after this the limiter lets it through. */
export const LIMITER_TIMEOUT_MS = 1_000;
/** An hourly counter outlives its hour by a little (its key names the hour, so it never counts twice). */
const HOUR_TTL_SECONDS = 3_700;
/** A day's cap counter outlives its day (its key names the day, so it never counts twice). */
export const DAY_CAP_TTL_SECONDS = 2 * 24 * 60 * 60;

/** One daily cap: what it counts (`name`), for which thing (`id`), at most `max` a day. */
export interface DailyCap {
  name: string;
  id: string;
  max: number;
}

export interface RateLimitsRepository {
  /**
   * Counts one request by `identifier` against `perMinute` in a sliding minute. `reset`: when
   * the window lets the next one through (ms). Passes after LIMITER_TIMEOUT_MS without an answer.
   */
  perMinute(identifier: string, perMinute: number): Promise<{ success: boolean; reset: number }>;
  /** Counts one review post to a business in the clock hour of `now`; returns that hour's count so far. */
  reviewsThisHour(businessId: string, now: number): Promise<number>;
  /**
   * Counts one under every cap for the UTC day of `now`, in one step; false, with nothing
   * counted, when any of them is reached already.
   */
  underDailyCaps(caps: readonly DailyCap[], now: number): Promise<boolean>;
}

export function rateLimitsRepository(redis: Redis, keys: Keys): RateLimitsRepository {
  const countUnderCaps = redis.createScript<unknown>(COUNT_UNDER_CAPS);
  const hashed = (id: string) => createHash("sha256").update(id, "utf8").digest("hex").slice(0, 32);
  const limiters = new Map<number, Ratelimit>();
  const limiterFor = (perMinute: number) => {
    let limiter = limiters.get(perMinute);
    if (!limiter) {
      limiter = new Ratelimit({
        redis,
        limiter: Ratelimit.slidingWindow(perMinute, "1 m"),
        prefix: keys.rateLimits,
        timeout: LIMITER_TIMEOUT_MS,
        analytics: false,
        // Visitor traffic is nobody else's business.
        enableTelemetry: false,
      });
      limiters.set(perMinute, limiter);
    }
    return limiter;
  };

  return {
    async perMinute(identifier, perMinute) {
      const { success, reset } = await limiterFor(perMinute).limit(identifier);
      return { success, reset };
    },

    async reviewsThisHour(businessId, now) {
      const key = keys.reviewRate(businessId, Math.floor(now / 3_600_000));
      const count = asNumber(await redis.incr(key));
      if (count === 1) await redis.expire(key, HOUR_TTL_SECONDS);
      return count;
    },

    async underDailyCaps(caps, now) {
      if (caps.length === 0) return true;
      const day = new Date(now).toISOString().slice(0, 10);
      const counted = await countUnderCaps.exec(
        caps.map((c) => keys.dailyCap(c.name, hashed(c.id), day)),
        [...caps.map((c) => String(c.max)), String(DAY_CAP_TTL_SECONDS)],
      );
      return asNumber(counted) === 1;
    },
  };
}
