/**
 * Each business's private calendar feed key (netlify/lib/delivery/calendar.ts): the feed's URL
 * signs it, and only the current key opens the feed, so drawing a new one retires every URL
 * handed out before. One string per business, drawn on first use.
 */
import type { Redis } from "@upstash/redis";
import { asString } from "../decode.ts";
import type { Keys } from "../keys.ts";

/** What a feed key looks like (base64url); anything else stored reads as none. */
const FEED_KEY = /^[A-Za-z0-9_-]{16,64}$/;

export interface CalendarFeedsRepository {
  /** The business's current key, or null before one was drawn. */
  current(businessId: string): Promise<string | null>;
  /** The current key, or `fresh` kept as the business's first (concurrent callers get the same one). */
  ensure(businessId: string, fresh: string): Promise<string>;
  /** Keeps `fresh` as the business's key in place of the old one (its URLs stop working). */
  replace(businessId: string, fresh: string): Promise<string>;
}

const checked = (value: unknown) => {
  const key = asString(value);
  return key && FEED_KEY.test(key) ? key : null;
};

export function calendarFeedsRepository(redis: Redis, keys: Keys): CalendarFeedsRepository {
  const valid = (fresh: string) => {
    if (!FEED_KEY.test(fresh)) throw new RangeError("not a calendar feed key");
    return fresh;
  };
  return {
    async current(businessId) {
      return checked(await redis.get(keys.calendarFeed(businessId)));
    },
    async ensure(businessId, fresh) {
      const key = keys.calendarFeed(businessId);
      const p = redis.pipeline();
      p.set(key, valid(fresh), { nx: true });
      p.get(key);
      const [, stored] = await p.exec<[unknown, unknown]>();
      const current = checked(stored);
      if (current) return current;
      // A damaged value: replaced, so the business gets a working feed.
      await redis.set(key, fresh);
      return fresh;
    },
    async replace(businessId, fresh) {
      await redis.set(keys.calendarFeed(businessId), valid(fresh));
      return fresh;
    },
  };
}
