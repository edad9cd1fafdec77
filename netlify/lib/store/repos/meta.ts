/**
 * The store's own facts, in one hash: when and from what it was seeded, and the key that signs
 * its links when LINK_SIGNING_SECRET is unset (drawn once by whichever instance asks first;
 * every other instance reads the same one).
 */
import type { Redis } from "@upstash/redis";
import { asString } from "../decode.ts";
import type { Keys } from "../keys.ts";

export interface MetaRepository {
  /** Keeps `candidate` as the link key unless one is kept already; returns the kept one (null: unreadable). */
  linkSecret(candidate: string): Promise<string | null>;
  /** Notes a seeding: when, and from which file. */
  seeded(file: string, at?: Date): Promise<void>;
  /** The last seeding noted (when, ISO, and from which file), or null when the store was never seeded. */
  seeding(): Promise<{ at: string; file: string } | null>;
}

export function metaRepository(redis: Redis, keys: Keys): MetaRepository {
  return {
    async linkSecret(candidate) {
      // One transaction: the first writer wins and every caller reads the winner.
      const [, kept] = await redis
        .multi()
        .hsetnx(keys.meta, "linkSecret", candidate)
        .hget(keys.meta, "linkSecret")
        .exec<[number, unknown]>();
      return typeof kept === "string" ? kept : null;
    },

    async seeded(file, at = new Date()) {
      await redis.hset(keys.meta, { seededAt: at.toISOString(), seededFrom: file });
    },

    async seeding() {
      const [at, file] = await redis
        .hmget<Record<string, unknown>>(keys.meta, "seededAt", "seededFrom")
        .then((r) => [asString(r?.seededAt), asString(r?.seededFrom)]);
      return at && file ? { at, file } : null;
    },
  };
}
