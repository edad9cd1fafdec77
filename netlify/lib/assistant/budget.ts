/**
 * The daily token budget in Redis: `${prefix}chat:budget:<YYYY-MM-DD>` (UTC day) counts
 * the tokens Claude has used today, shared by every function instance.
 *
 * Each model call reserves its worst case first (estimated input + max output) with one
 * INCRBY, so concurrent requests cannot all slip under the line together; a reservation
 * that crosses the budget is handed back and the fallback answers. After the call the
 * reservation is corrected to the usage the API reported. A call that timed out may
 * still have been billed, so its reservation stays counted; one the API refused is
 * handed back. Keys expire after two days (yesterday's stays readable for a look).
 */
import type { Redis } from "@upstash/redis";

/** Seconds a day's counter lives. */
export const BUDGET_TTL_SECONDS = 2 * 24 * 60 * 60;

export function budgetKey(prefix: string, now: number): string {
  return `${prefix}chat:budget:${new Date(now).toISOString().slice(0, 10)}`;
}

/** Rough token count of text for a reservation: English runs about 4 characters a token; 3 errs high. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 3);
}

/** Tokens set aside for one model call, on the day they were reserved. */
export interface Reservation {
  readonly tokens: number;
  /** Replaces the reservation by what was actually used (0 hands it all back). */
  settle(used: number): Promise<void>;
}

export interface TokenBudget {
  /** Reserves `tokens`; null (and nothing kept) when that would pass the day's budget. */
  reserve(tokens: number): Promise<Reservation | null>;
  /** Tokens counted today. */
  used(): Promise<number>;
}

export function redisTokenBudget(redis: Redis, prefix: string, limit: number, now: () => number = Date.now): TokenBudget {
  const add = (key: string, delta: number) => redis.multi().incrby(key, delta).expire(key, BUDGET_TTL_SECONDS).exec<[number, number]>();
  return {
    async reserve(tokens) {
      if (limit <= 0) return null;
      // The reservation's own day, so a call that straddles midnight corrects the right counter.
      const key = budgetKey(prefix, now());
      const [total] = await add(key, tokens);
      if (Number(total) > limit) {
        await redis.decrby(key, tokens);
        return null;
      }
      return {
        tokens,
        async settle(used) {
          const delta = Math.max(0, Math.round(used)) - tokens;
          if (delta !== 0) await add(key, delta);
        },
      };
    },
    async used() {
      return Number((await redis.get<number | string>(budgetKey(prefix, now()))) ?? 0);
    },
  };
}
