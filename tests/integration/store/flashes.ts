/**
 * Form flashes' part of the repository contract, run by contract.ts on every transport
 * (embedded, real Redis, Upstash REST): what a no-JS post stores comes back whole under an
 * unguessable id, for 15 minutes, and nothing else does.
 */
import { describe, expect, it } from "vitest";
import { FLASH_ID, FLASH_TTL_SECONDS } from "../../../src/lib/schemas/flash.ts";
import type { StoreHarness } from "./contract.types.ts";

export function flashesContract(h: StoreHarness) {
  describe("form flashes", () => {
    it("stores a flash under a fresh 128-bit id and reads it back whole, as often as asked", async () => {
      const store = await h.fresh("flash-read");
      const flash = {
        path: "/forms/quote",
        status: 422,
        values: { name: "Jo <b>", currentChallenges: ["Hiring", "Cash flow"], phone: "007" },
        errors: { email: "Enter a valid email address." },
        problem: "Please check the highlighted fields.",
      };
      const id = await store.flashes.save(flash);
      expect(id).toMatch(FLASH_ID);
      expect(await store.flashes.save(flash)).not.toBe(id);
      const expected = { ...flash };
      expect(await store.flashes.get(id)).toEqual(expected);
      // A reload reads it again: reading does not take it.
      expect(await store.flashes.get(id)).toEqual(expected);
    });

    it("fills in the defaults, and keeps a notice and the form's name", async () => {
      const store = await h.fresh("flash-notice");
      const id = await store.flashes.save({ path: "/respond/x", status: 200, notice: "Thanks.", form: "accept" });
      expect(await store.flashes.get(id)).toEqual({
        path: "/respond/x",
        status: 200,
        values: {},
        errors: {},
        notice: "Thanks.",
        form: "accept",
      });
    });

    it("expires after 15 minutes", async () => {
      const store = await h.fresh("flash-ttl");
      const id = await store.flashes.save({ path: "/p", status: 200 });
      const ttl = await store.redis.ttl(`${store.prefix}flash:${id}`);
      expect(ttl).toBeGreaterThan(FLASH_TTL_SECONDS - 30);
      expect(ttl).toBeLessThanOrEqual(FLASH_TTL_SECONDS);
    });

    it("answers null for an unknown, malformed or damaged id, and refuses an invalid flash", async () => {
      const store = await h.fresh("flash-missing");
      expect(await store.flashes.get("AAAAAAAAAAAAAAAAAAAAAA")).toBeNull();
      expect(await store.flashes.get("../../lead:x")).toBeNull();
      expect(await store.flashes.get("")).toBeNull();
      await store.redis.set(`${store.prefix}flash:BBBBBBBBBBBBBBBBBBBBBB`, "{not json");
      expect(await store.flashes.get("BBBBBBBBBBBBBBBBBBBBBB")).toBeNull();
      await expect(store.flashes.save({ path: "no-slash", status: 200 })).rejects.toThrow();
      await expect(store.flashes.save({ path: "/p", status: 302 })).rejects.toThrow();
    });
  });
}
