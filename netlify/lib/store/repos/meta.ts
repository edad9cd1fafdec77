/**
 * The store's own facts, in one hash: when and from what it was seeded (and whether that was
 * the sample directory, so the site and /admin can say the data is a demo), and the key that signs
 * its links when LINK_SIGNING_SECRET is unset (drawn once by whichever instance asks first;
 * every other instance reads the same one).
 */
import type { Redis } from "@upstash/redis";
import { asString } from "../decode.ts";
import type { Keys } from "../keys.ts";

export interface MetaRepository {
  /** Keeps `candidate` as the link key unless one is kept already; returns the kept one (null: unreadable). */
  linkSecret(candidate: string): Promise<string | null>;
  /** Notes a seeding: when, from which file, and whether it loaded sample businesses. */
  seeded(file: string, at?: Date, sample?: boolean): Promise<void>;
  /** The last seeding noted, or null when the store was never seeded. */
  seeding(): Promise<Seeding | null>;
}

/** What the store knows of its last seeding. */
export interface Seeding {
  /** When (ISO). */
  at: string;
  /** The seed file's path. */
  from: string;
  /** It loaded the sample directory (businesses with `isSample`): the data is a demo. */
  sample: boolean;
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

    async seeded(file, at = new Date(), sample = false) {
      await redis.hset(keys.meta, { seededAt: at.toISOString(), seededFrom: file, sampleData: sample ? "yes" : "no" });
    },

    async seeding() {
      const row = (await redis.hmget(keys.meta, "seededAt", "seededFrom", "sampleData")) as Record<
        string,
        unknown
      > | null;
      const at = asString(row?.seededAt);
      if (!at) return null;
      return { at, from: asString(row?.seededFrom) ?? "", sample: asString(row?.sampleData) === "yes" };
    },
  };
}
