/**
 * Storm events and NWS suggestions, part of the repository contract run by contract.ts on
 * every transport (embedded, real Redis, Upstash REST): events stored whole and listed latest
 * start first, edits and ending, suggestions added once (a dismissed or declared one never
 * comes back), declaring from a suggestion in one step, pruning, damaged records read as none.
 */
import { describe, expect, it } from "vitest";
import { declareStorm } from "../../../netlify/lib/storms.ts";
import type { StormSuggestion } from "../../../src/lib/storm.ts";
import type { StoreHarness } from "./contract.types.ts";

const at = (day: number) => new Date(Date.UTC(2026, 9, day, 12)).toISOString();

const suggestion = (id: string, day: number, over: Partial<StormSuggestion> = {}): StormSuggestion => ({
  id,
  event: "Hurricane Warning",
  headline: "Hurricane Warning issued for Miami-Dade",
  areaDesc: "Miami-Dade; Broward",
  states: ["FL"],
  severity: "Extreme",
  startsAt: at(day),
  endsAt: at(day + 2),
  seenAt: at(day),
  status: "new",
  ...over,
});

export function stormsContract(h: StoreHarness) {
  describe("storms", () => {
    it("stores events whole, lists them latest start first, edits and ends them", async () => {
      const store = await h.fresh("storms-events");
      expect(await store.storms.list()).toEqual([]);
      const milton = await declareStorm(
        {
          name: "Hurricane Milton",
          area: { kind: "zips", zips: ["33101", "33125"] },
          startsAt: at(9),
          declaration: { level: "governor", reference: "EO 24-208", url: "https://www.flgov.com/eo" },
        },
        { store, now: Date.parse(at(9)) },
      );
      const helene = await declareStorm(
        {
          name: "Hurricane Helene",
          area: { kind: "radius", label: "Asheville, NC 28801", lat: 35.59, lng: -82.55, state: "NC", miles: 40 },
          startsAt: at(1),
          declaration: { level: "federal", reference: "FEMA-4827-DR" },
        },
        { store, now: Date.parse(at(2)) },
      );
      expect(milton.id).toMatch(/^storm_/);
      expect(await store.storms.get(milton.id)).toEqual(milton);
      expect(await store.storms.list()).toEqual([milton, helene]);

      const ended = { ...helene, endsAt: at(20), updatedAt: at(20) };
      expect(await store.storms.update(ended)).toBe(true);
      expect(await store.storms.get(helene.id)).toEqual(ended);
      expect(await store.storms.update({ ...ended, id: `storm_${"1".repeat(19)}` })).toBe(false);
      expect(await store.storms.get(`storm_${"1".repeat(19)}`)).toBeNull();
      expect(await store.storms.list()).toHaveLength(2);
    });

    it("refuses an invalid event and reads a damaged record as none", async () => {
      const store = await h.fresh("storms-invalid");
      await expect(
        declareStorm(
          {
            name: "X",
            area: { kind: "zips", zips: [] },
            startsAt: at(1),
            declaration: { level: "county", reference: "" },
          },
          { store },
        ),
      ).rejects.toThrow();
      await store.redis.hset(`${store.prefix}storms`, { bad: "{not json" });
      expect(await store.storms.list()).toEqual([]);
      expect(await store.storms.get("bad")).toBeNull();
    });

    it("adds each suggestion once: seen again, dismissed or declared ones stay as they are", async () => {
      const store = await h.fresh("storms-suggest");
      expect(await store.storms.suggestions()).toEqual([]);
      expect(await store.storms.suggest([suggestion("a", 1), suggestion("b", 3)])).toBe(2);
      expect((await store.storms.suggestions()).map((s) => s.id)).toEqual(["b", "a"]);
      expect(await store.storms.dismissSuggestion("a")).toBe(true);
      expect(await store.storms.dismissSuggestion("nope")).toBe(false);
      // The next check sees both again, and a new one.
      expect(await store.storms.suggest([suggestion("a", 1), suggestion("b", 3), suggestion("c", 4)])).toBe(1);
      expect((await store.storms.getSuggestion("a"))?.status).toBe("dismissed");
      expect(await store.storms.suggest([])).toBe(0);

      const storm = await declareStorm(
        {
          name: "Hurricane B",
          area: { kind: "states", states: ["FL"] },
          startsAt: at(3),
          declaration: { level: "governor", reference: "EO 1" },
          alertId: "b",
        },
        { store, fromSuggestion: "b" },
      );
      expect(await store.storms.getSuggestion("b")).toEqual({
        ...suggestion("b", 3),
        status: "declared",
        stormId: storm.id,
      });
      expect(await store.storms.suggest([suggestion("b", 3)])).toBe(0);
      expect((await store.storms.getSuggestion("b"))?.status).toBe("declared");
    });

    it("prunes suggestions long over, by end (or start without one)", async () => {
      const store = await h.fresh("storms-prune");
      await store.storms.suggest([
        suggestion("old", 1),
        suggestion("open", 2, { endsAt: undefined }),
        suggestion("recent", 10),
      ]);
      expect(await store.storms.prune(Date.parse(at(5)))).toBe(2);
      expect((await store.storms.suggestions()).map((s) => s.id)).toEqual(["recent"]);
      expect(await store.storms.prune(Date.parse(at(5)))).toBe(0);
    });
  });
}
