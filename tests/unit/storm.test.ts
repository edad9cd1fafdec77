import { describe, expect, it } from "vitest";
import {
  GENERAL_PRICE_RULE,
  PRICE_RULES,
  StormEvent,
  areaCovers,
  priceRuleFor,
  ruleStateOf,
  stormActive,
  stormAt,
  type StormArea,
} from "../../src/lib/storm.ts";

const T0 = Date.parse("2026-10-09T12:00:00Z");
const DAY = 86_400_000;

function storm(area: StormArea, over: Partial<StormEvent> = {}): StormEvent {
  return StormEvent.parse({
    id: `storm_${"0".repeat(19)}`,
    name: "Hurricane Test",
    area,
    startsAt: new Date(T0).toISOString(),
    declaration: { level: "governor", reference: "EO 26-1" },
    createdAt: new Date(T0).toISOString(),
    updatedAt: new Date(T0).toISOString(),
    ...over,
  });
}

// Miami 33101 and Austin 78701 centroids, as the ZIP dataset has them (rounded).
const MIAMI = { zip: "33101", state: "FL", lat: 25.7791, lng: -80.1978 };
const AUSTIN = { zip: "78701", state: "TX", lat: 30.2713, lng: -97.7426 };

describe("areaCovers", () => {
  it("states: by the place's state, any case", () => {
    const area: StormArea = { kind: "states", states: ["FL", "GA"] };
    expect(areaCovers(area, MIAMI)).toBe(true);
    expect(areaCovers(area, { state: "fl" })).toBe(true);
    expect(areaCovers(area, AUSTIN)).toBe(false);
    expect(areaCovers(area, { zip: "33101" })).toBe(false);
  });
  it("zips: by the place's 5-digit ZIP (ZIP+4 too)", () => {
    const area: StormArea = { kind: "zips", zips: ["33101", "33125"] };
    expect(areaCovers(area, MIAMI)).toBe(true);
    expect(areaCovers(area, { zip: "33125-1234" })).toBe(true);
    expect(areaCovers(area, AUSTIN)).toBe(false);
    expect(areaCovers(area, { state: "FL", lat: MIAMI.lat, lng: MIAMI.lng })).toBe(false);
  });
  it("radius: by distance from the center, edge included; needs a point", () => {
    const area: StormArea = { kind: "radius", label: "Miami, FL 33101", lat: MIAMI.lat, lng: MIAMI.lng, miles: 30 };
    expect(areaCovers(area, MIAMI)).toBe(true);
    // Fort Lauderdale (about 24 miles north) is in; West Palm Beach (about 66) is not.
    expect(areaCovers(area, { lat: 26.1224, lng: -80.1373 })).toBe(true);
    expect(areaCovers(area, { lat: 26.7153, lng: -80.0534 })).toBe(false);
    expect(areaCovers(area, { zip: "33101", state: "FL" })).toBe(false);
  });
});

describe("stormAt", () => {
  const zips = storm({ kind: "zips", zips: ["33101"] });
  it("finds the active storm covering the place, and none elsewhere", () => {
    expect(stormAt(MIAMI, [zips], T0)?.name).toBe("Hurricane Test");
    expect(stormAt(AUSTIN, [zips], T0)).toBeNull();
    expect(stormAt(MIAMI, [], T0)).toBeNull();
  });
  it("only between start and end", () => {
    const ended = storm({ kind: "zips", zips: ["33101"] }, { endsAt: new Date(T0 + DAY).toISOString() });
    expect(stormAt(MIAMI, [ended], T0 - 1)).toBeNull();
    expect(stormAt(MIAMI, [ended], T0)).not.toBeNull();
    expect(stormAt(MIAMI, [ended], T0 + DAY - 1)).not.toBeNull();
    expect(stormAt(MIAMI, [ended], T0 + DAY)).toBeNull();
    expect(stormActive(zips, T0 + 365 * DAY)).toBe(true);
  });
  it("the latest-started of several", () => {
    const older = storm(
      { kind: "states", states: ["FL"] },
      { name: "Older", startsAt: new Date(T0 - DAY).toISOString() },
    );
    const newer = storm({ kind: "zips", zips: ["33101"] }, { name: "Newer" });
    expect(stormAt(MIAMI, [older, newer], T0)?.name).toBe("Newer");
    expect(stormAt(MIAMI, [newer, older], T0)?.name).toBe("Newer");
    expect(stormAt({ state: "FL", zip: "32801" }, [newer, older], T0)?.name).toBe("Older");
  });
});

describe("price rules", () => {
  it("each state named in the issue, with its citation; others the general line", () => {
    expect(priceRuleFor("CA").citation).toBe("California Penal Code 396");
    expect(priceRuleFor("CA").maxIncreasePercent).toBe(10);
    expect(priceRuleFor("fl").citation).toContain("501.160");
    expect(priceRuleFor("TX").citation).toContain("17.46(b)(27)");
    expect(priceRuleFor("TX").citation).toContain("17.4625");
    expect(priceRuleFor("GA").citation).toContain("10-1-393.4");
    expect(priceRuleFor("NC").citation).toContain("75-38");
    expect(priceRuleFor("LA").citation).toContain("29:732");
    expect(priceRuleFor("OK")).toBe(GENERAL_PRICE_RULE);
    expect(priceRuleFor(undefined)).toBe(GENERAL_PRICE_RULE);
    expect(Object.keys(PRICE_RULES).sort()).toEqual(["CA", "FL", "GA", "LA", "NC", "TX"]);
  });
  it("the rule's state: the place's, else a single-state area's or a radius center's", () => {
    const fl = storm({ kind: "states", states: ["FL"] });
    expect(ruleStateOf(fl, { state: "GA" })).toBe("GA");
    expect(ruleStateOf(fl, {})).toBe("FL");
    expect(ruleStateOf(storm({ kind: "states", states: ["FL", "GA"] }), {})).toBeUndefined();
    expect(ruleStateOf(storm({ kind: "radius", label: "x", lat: 1, lng: 1, miles: 5, state: "CA" }), {})).toBe("CA");
    expect(ruleStateOf(storm({ kind: "zips", zips: ["33101"] }), {})).toBeUndefined();
  });
});

describe("StormEvent schema", () => {
  it("refuses an empty area, a bad ZIP or state, and a declaration without a reference", () => {
    const base = {
      name: "X storm",
      startsAt: new Date(T0).toISOString(),
      declaration: { level: "county", reference: "R-1" },
    };
    const ok = (area: unknown, over: object = {}) =>
      StormEvent.safeParse({
        ...base,
        id: `storm_${"0".repeat(19)}`,
        area,
        createdAt: base.startsAt,
        updatedAt: base.startsAt,
        ...over,
      }).success;
    expect(ok({ kind: "zips", zips: [] })).toBe(false);
    expect(ok({ kind: "zips", zips: ["3310"] })).toBe(false);
    expect(ok({ kind: "states", states: ["Florida"] })).toBe(false);
    expect(ok({ kind: "radius", label: "x", lat: 1, lng: 1, miles: 0 })).toBe(false);
    expect(ok({ kind: "states", states: ["FL"] }, { declaration: { level: "governor", reference: "" } })).toBe(false);
    expect(ok({ kind: "states", states: ["FL"] })).toBe(true);
  });
});
