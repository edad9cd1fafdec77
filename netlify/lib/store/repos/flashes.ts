/**
 * Form flashes (src/lib/schemas/flash.ts): one JSON string per flash under a random 128-bit
 * id, expiring after FLASH_TTL_SECONDS. An id is a capability, like a status link's: it is
 * unguessable, and what it opens is the form its own visitor posted.
 */
import { randomBytes } from "node:crypto";
import type { Redis } from "@upstash/redis";
import { FLASH_ID, FLASH_TTL_SECONDS, Flash, type FlashInput } from "../../../../src/lib/schemas/flash.ts";
import { asJson } from "../decode.ts";
import type { Keys } from "../keys.ts";

export interface FlashesRepository {
  /** Stores a flash; returns its new id. */
  save(flash: FlashInput): Promise<string>;
  /** The flash, or null when the id is malformed, unknown or expired. */
  get(id: string): Promise<Flash | null>;
}

export function flashesRepository(redis: Redis, keys: Keys): FlashesRepository {
  return {
    async save(flash) {
      const id = randomBytes(16).toString("base64url");
      await redis.set(keys.flash(id), JSON.stringify(Flash.parse(flash)), { ex: FLASH_TTL_SECONDS });
      return id;
    },
    async get(id) {
      if (!FLASH_ID.test(id)) return null;
      const parsed = Flash.safeParse(asJson(await redis.get(keys.flash(id))));
      return parsed.success ? parsed.data : null;
    },
  };
}
