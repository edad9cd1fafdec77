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
 *
 * Each client (by address, hashed) also has its own counter for the day, capped at a share
 * of the budget (CHAT_CLIENT_BUDGET_PERCENT, default 5%), so one client cannot spend what
 * every other visitor would get; a reservation must fit under both lines.
 */
import { createHash } from "node:crypto";
import type { Redis } from "@upstash/redis";

/** Seconds a day's counter lives. */
export const BUDGET_TTL_SECONDS = 2 * 24 * 60 * 60;

export function budgetKey(prefix: string, now: number): string {
  return `${prefix}chat:budget:${new Date(now).toISOString().slice(0, 10)}`;
}

/** One client's counter for the day; the address is hashed, it is nobody's business in a key listing. */
export function clientBudgetKey(prefix: string, now: number, client: string): string {
  return `${budgetKey(prefix, now)}:client:${createHash("sha256").update(client, "utf8").digest("hex").slice(0, 32)}`;
}

/**
 * Rough token count of text for a reservation, from its UTF-8 bytes rather than its
 * characters: English runs about 4 bytes a token, so 3 errs high; a CJK character is 3
 * bytes and about one token, where counting characters would be 3x low.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text, "utf8") / 3);
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

/** Whose reservation this is, and the fraction of the day's budget one client may use. */
export interface ClientShare {
  /** The client's address (see clientIp); null: no identity, so no share and no Claude. */
  client: string | null;
  /** 0 < share <= 1. */
  share: number;
}

export function redisTokenBudget(
  redis: Redis,
  prefix: string,
  limit: number,
  now: () => number = Date.now,
  perClient?: ClientShare,
): TokenBudget {
  /** Adds `delta` to every key in one transaction; the new totals, in key order. */
  const add = async (keys: string[], delta: number) => {
    const tx = redis.multi();
    for (const key of keys) tx.incrby(key, delta).expire(key, BUDGET_TTL_SECONDS);
    const replies = await tx.exec<number[]>();
    return keys.map((_, i) => Number(replies[i * 2]));
  };
  const clientLimit = perClient ? Math.floor(limit * Math.min(1, Math.max(0, perClient.share))) : limit;
  return {
    async reserve(tokens) {
      if (limit <= 0 || clientLimit <= 0) return null;
      // A client nobody can tell apart from the others has no share of its own to spend.
      if (perClient && perClient.client === null) return null;
      // The reservation's own day, so a call that straddles midnight corrects the right counter.
      const at = now();
      const keys = [budgetKey(prefix, at)];
      if (perClient?.client) keys.push(clientBudgetKey(prefix, at, perClient.client));
      const [total = 0, clientTotal = 0] = await add(keys, tokens);
      if (total > limit || (keys.length > 1 && clientTotal > clientLimit)) {
        const tx = redis.multi();
        for (const key of keys) tx.decrby(key, tokens);
        await tx.exec();
        return null;
      }
      return {
        tokens,
        async settle(used) {
          const delta = Math.max(0, Math.round(used)) - tokens;
          if (delta !== 0) await add(keys, delta);
        },
      };
    },
    async used() {
      return Number((await redis.get<number | string>(budgetKey(prefix, now()))) ?? 0);
    },
  };
}
