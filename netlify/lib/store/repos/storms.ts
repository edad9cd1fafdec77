/**
 * Storm events the operator declared, and the NWS alerts suggested to the operator. Both are
 * few (a handful of storms a season, the alerts of the covered states), so each lives in one
 * hash (id -> JSON) read whole: every storm check is one HGETALL.
 *
 * Suggestions are added with HSETNX, so a check that sees an alert again never brings back
 * one the operator dismissed or declared; declaring from a suggestion writes the event and
 * marks the suggestion in one MULTI.
 */
import type { Redis } from "@upstash/redis";
import { StormEvent, StormSuggestion } from "../../../../src/lib/storm.ts";
import { asJson } from "../decode.ts";
import type { Keys } from "../keys.ts";

export interface StormsRepository {
  /** Stores a new event (or replaces one with its id); with `fromSuggestion`, marks it declared in the same step. */
  create(event: StormEvent, fromSuggestion?: string): Promise<StormEvent>;
  get(id: string): Promise<StormEvent | null>;
  /** Every event, latest start first. */
  list(): Promise<StormEvent[]>;
  /** Replaces an event (an edit, or ending it); false when there is none with its id. */
  update(event: StormEvent): Promise<boolean>;
  /** Adds the suggestions not seen before (any status); returns how many were new. */
  suggest(suggestions: readonly StormSuggestion[]): Promise<number>;
  /** Every suggestion, latest start first. */
  suggestions(): Promise<StormSuggestion[]>;
  getSuggestion(id: string): Promise<StormSuggestion | null>;
  /** Marks a suggestion dismissed; false when there is none. */
  dismissSuggestion(id: string): Promise<boolean>;
  /** Drops suggestions whose alert ended (or started, without an end) before `before` (ms); returns how many. */
  prune(before: number): Promise<number>;
}

const readEvent = (value: unknown): StormEvent | null => {
  const parsed = StormEvent.safeParse(asJson(value));
  return parsed.success ? parsed.data : null;
};
const readSuggestion = (value: unknown): StormSuggestion | null => {
  const parsed = StormSuggestion.safeParse(asJson(value));
  return parsed.success ? parsed.data : null;
};
const latestFirst = (a: { startsAt: string }, b: { startsAt: string }) =>
  Date.parse(b.startsAt) - Date.parse(a.startsAt);

export function stormsRepository(redis: Redis, keys: Keys): StormsRepository {
  const all = async <T>(key: string, read: (v: unknown) => T | null): Promise<T[]> => {
    const map = (await redis.hgetall<Record<string, unknown>>(key)) ?? {};
    return Object.values(map)
      .map(read)
      .filter((x): x is T => x !== null);
  };

  const repo: StormsRepository = {
    async create(input, fromSuggestion) {
      const event = StormEvent.parse(input);
      const tx = redis.multi();
      tx.hset(keys.storms, { [event.id]: JSON.stringify(event) });
      if (fromSuggestion) {
        const suggestion = await repo.getSuggestion(fromSuggestion);
        if (suggestion) {
          const declared: StormSuggestion = { ...suggestion, status: "declared", stormId: event.id };
          tx.hset(keys.stormSuggestions, { [suggestion.id]: JSON.stringify(declared) });
        }
      }
      await tx.exec();
      return event;
    },

    get: async (id) => readEvent(await redis.hget(keys.storms, id)),

    list: async () => (await all(keys.storms, readEvent)).sort(latestFirst),

    async update(input) {
      const event = StormEvent.parse(input);
      if (!(await redis.hexists(keys.storms, event.id))) return false;
      await redis.hset(keys.storms, { [event.id]: JSON.stringify(event) });
      return true;
    },

    async suggest(list) {
      if (list.length === 0) return 0;
      const p = redis.pipeline();
      for (const s of list) p.hsetnx(keys.stormSuggestions, s.id, JSON.stringify(StormSuggestion.parse(s)));
      const added = await p.exec<number[]>();
      return added.filter((n) => Number(n) === 1).length;
    },

    suggestions: async () => (await all(keys.stormSuggestions, readSuggestion)).sort(latestFirst),

    getSuggestion: async (id) => readSuggestion(await redis.hget(keys.stormSuggestions, id)),

    async dismissSuggestion(id) {
      const suggestion = await repo.getSuggestion(id);
      if (!suggestion) return false;
      await redis.hset(keys.stormSuggestions, { [id]: JSON.stringify({ ...suggestion, status: "dismissed" }) });
      return true;
    },

    async prune(before) {
      const old = (await repo.suggestions()).filter((s) => Date.parse(s.endsAt ?? s.startsAt) < before);
      if (old.length === 0) return 0;
      await redis.hdel(keys.stormSuggestions, ...old.map((s) => s.id));
      return old.length;
    },
  };
  return repo;
}
