/**
 * Owners' signed-in sessions: one JSON string per random session id, living as long as the
 * session, so signing out (or the key expiring) ends it everywhere at once. The cookie that
 * names a session, and its signature, are owners/session.ts's.
 */
import type { Redis } from "@upstash/redis";
import type { OwnerSession } from "../../../../src/lib/owner-records.ts";
import { asJson } from "../decode.ts";
import type { Keys } from "../keys.ts";

export interface OwnerSessionsRepository {
  /** Stores a new session that the store forgets after `ttlMs`. */
  create(session: OwnerSession, ttlMs: number): Promise<void>;
  /** The session while it is stored (its own expiresAt is the caller's to check). */
  get(id: string): Promise<OwnerSession | null>;
  end(id: string): Promise<void>;
}

export function ownerSessionsRepository(redis: Redis, keys: Keys): OwnerSessionsRepository {
  return {
    async create(session, ttlMs) {
      await redis.set(keys.ownerSession(session.id), JSON.stringify(session), { px: Math.max(1, Math.round(ttlMs)) });
    },

    async get(id) {
      const session = asJson<OwnerSession>(await redis.get(keys.ownerSession(id)));
      return session && session.id === id ? session : null;
    },

    async end(id) {
      await redis.del(keys.ownerSession(id));
    },
  };
}
