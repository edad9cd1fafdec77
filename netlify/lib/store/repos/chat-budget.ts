/**
 * The assistant's daily token counters: one for the UTC day, shared by every function
 * instance, and one per client (its address hashed) for the same day. A reservation adds to
 * both in one transaction and is handed back at once if it passed either line, so concurrent
 * requests cannot all slip under together. Counters expire after two days (yesterday's stays
 * readable for a look).
 */
import { createHash } from "node:crypto";
import type { Redis } from "@upstash/redis";
import { asNumber } from "../decode.ts";
import type { Keys } from "../keys.ts";

/** Seconds a day's counter lives. */
export const BUDGET_TTL_SECONDS = 2 * 24 * 60 * 60;

/** The UTC day of `at` (ms), as the counters' keys name it. */
export const budgetDay = (at: number) => new Date(at).toISOString().slice(0, 10);
/** A client address as its counter's key names it. */
export const budgetClient = (client: string) => createHash("sha256").update(client, "utf8").digest("hex").slice(0, 32);

export interface BudgetLines {
  /** The day's budget for everybody. */
  total: number;
  /** One client's own line, if it has one. */
  client?: { id: string; limit: number };
}

export interface ChatBudgetRepository {
  /**
   * Adds `tokens` to the counters of the day of `at` (and the client's); false, with nothing
   * kept, when that passes either line.
   */
  reserve(tokens: number, at: number, lines: BudgetLines): Promise<boolean>;
  /** Adds `delta` (negative: hands tokens back) to the counters a reservation at `at` used. */
  adjust(delta: number, at: number, client?: string): Promise<void>;
  /** Tokens counted on the day of `at`. */
  used(at: number): Promise<number>;
}

export function chatBudgetRepository(redis: Redis, keys: Keys): ChatBudgetRepository {
  const keysFor = (at: number, client?: string) => {
    const day = budgetDay(at);
    return client === undefined
      ? [keys.chatBudget(day)]
      : [keys.chatBudget(day), keys.chatClientBudget(day, budgetClient(client))];
  };
  /** Adds `delta` to every key in one transaction; the new totals, in key order. */
  const add = async (list: string[], delta: number) => {
    const tx = redis.multi();
    for (const key of list) tx.incrby(key, delta).expire(key, BUDGET_TTL_SECONDS);
    const replies = await tx.exec<unknown[]>();
    return list.map((_, i) => asNumber(replies[i * 2]));
  };

  return {
    async reserve(tokens, at, lines) {
      const list = keysFor(at, lines.client?.id);
      const [total = 0, clientTotal = 0] = await add(list, tokens);
      if (total <= lines.total && (!lines.client || clientTotal <= lines.client.limit)) return true;
      const tx = redis.multi();
      for (const key of list) tx.decrby(key, tokens);
      await tx.exec();
      return false;
    },

    async adjust(delta, at, client) {
      if (delta !== 0) await add(keysFor(at, client), delta);
    },

    used: async (at) => asNumber(await redis.get(keys.chatBudget(budgetDay(at)))),
  };
}
