import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { decodeGeohashScore, distanceMiles, formatMiles, geohashScore, searchRanges } from "../../src/lib/geo/distance";
import { findPlace, zipPoint } from "../../src/lib/geo/places";
import { daySpans, isOpen247, nextOpenStateChange, openState } from "../../src/lib/hours";
import { readSeedFile, DEFAULT_SEED_FILE } from "../../netlify/lib/store/seed";

describe("findPlace", () => {
  it("reads ZIPs, 'City, ST', 'City ST', 'City, State', a Texas city alone and lat,lng", () => {
    expect(findPlace("78664")).toMatchObject({
      label: "Round Rock, TX 78664",
      zip: "78664",
      lat: 30.5145,
      lng: -97.668,
    });
    expect(findPlace("77494-1234")).toMatchObject({ zip: "77494" });
    const katy = findPlace("Katy, TX")!;
    expect(katy.label).toBe("Katy, TX");
    for (const spelling of ["Katy", " katy tx ", "KATY, Texas", "Katy Texas"])
      expect(findPlace(spelling)).toEqual(katy);
    expect(findPlace("Pflugerville, TX")?.label).toBe("Pflugerville, TX");
    expect(findPlace("san-antonio")?.label).toBe("San Antonio, TX");
    expect(findPlace("Katy, TX 77494")?.zip).toBe("77494");
    expect(findPlace("30.51,-97.67")).toMatchObject({ lat: 30.51, lng: -97.67 });
  });

  it("knows no unknown places", () => {
    for (const text of ["", "99999", "00000", "Atlantis, TX", "Austin, ZZ", "Chicagoland", "91.0,10", "A1B 2C3"])
      expect(findPlace(text), text).toBeNull();
  });
});

describe("geohash scores", () => {
  it("match what Redis GEOADD stores (Round Rock and Katy, checked against redis-server 7)", () => {
    expect(geohashScore({ lat: 30.5145, lng: -97.668 })).toBe(1387159797985894);
    expect(geohashScore({ lat: 29.8323, lng: -95.736 })).toBe(1387239166582192);
  });

  it("decode to within a meter, and every point within the radius is inside a search range (property)", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 25, max: 49, noNaN: true }),
        fc.double({ min: -124, max: -67, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
        fc.constantFrom(10, 25, 50, 100),
        (lat, lng, f, bearing, miles) => {
          const center = { lat, lng };
          const back = decodeGeohashScore(geohashScore(center));
          expect(distanceMiles(center, back)).toBeLessThan(0.001);
          // A point f * miles away in some direction.
          const d = (f * miles) / 69;
          const p = {
            lat: lat + d * Math.cos(bearing),
            lng: lng + (d * Math.sin(bearing)) / Math.cos((lat * Math.PI) / 180),
          };
          if (distanceMiles(center, p) > miles) return;
          const score = geohashScore(p);
          expect(searchRanges(center, miles).some((r) => score >= r.min && score < r.max)).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("needs a bounded number of ranges (at most 5 x 5 cells) whatever the radius", () => {
    for (const lat of [25.8, 30.27, 47.6])
      for (const miles of [10, 25, 50, 100])
        expect(searchRanges({ lat, lng: -97.74 }, miles).length).toBeLessThanOrEqual(25);
  });
});

describe("distances", () => {
  it("Round Rock to Katy is about 125 miles; formats to one decimal under 10", () => {
    expect(distanceMiles(zipPoint("78664")!, zipPoint("77494")!)).toBeCloseTo(126, -1);
    expect(formatMiles(3.24)).toBe("3.2 mi");
    expect(formatMiles(0)).toBe("0.0 mi");
    expect(formatMiles(12.6)).toBe("13 mi");
  });
});

describe("hours", () => {
  const week = (text: string) =>
    Object.fromEntries(
      ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((d) => [d, text]),
    );
  it("reads spans, 24 hours, closed days and spans past midnight", () => {
    expect(daySpans("7:00 AM - 5:00 PM")).toEqual([[420, 1020]]);
    expect(daySpans("7 AM - 12:30 PM")).toEqual([[420, 750]]);
    expect(daySpans("6:00 PM - 2:00 AM")).toEqual([[1080, 1560]]);
    expect(daySpans("Open 24 hours")).toEqual([[0, 1440]]);
    expect(daySpans("")).toEqual([]);
    expect(daySpans("Closed")).toEqual([]);
    expect(daySpans("by appointment")).toEqual([]);
    expect(isOpen247(week("Open 24 hours"))).toBe(true);
    expect(isOpen247({ ...week("Open 24 hours"), sunday: "" })).toBe(false);
  });

  it("is open or closed on the business's own clock, today's weekday included", () => {
    const hours = { ...week("8:00 AM - 5:00 PM"), friday: "6:00 PM - 2:00 AM", saturday: "", sunday: "" };
    // Friday 2026-11-20 23:30 Central = Saturday 05:30 UTC.
    expect(openState(hours, "America/Chicago", Date.parse("2026-11-21T05:30:00Z"))).toEqual({
      open: true,
      always: false,
      today: "friday",
    });
    // Saturday 01:59 Central: still Friday's span.
    expect(openState(hours, "America/Chicago", Date.parse("2026-11-21T07:59:00Z")).open).toBe(true);
    expect(openState(hours, "America/Chicago", Date.parse("2026-11-21T08:00:00Z"))).toEqual({
      open: false,
      always: false,
      today: "saturday",
    });
    // The same instant is 01:00 in Denver (Mountain): still open there.
    expect(openState(hours, "America/Denver", Date.parse("2026-11-21T08:00:00Z")).open).toBe(true);
    // Monday 07:59 and 08:00 Central.
    expect(openState(hours, "America/Chicago", Date.parse("2026-11-23T13:59:00Z")).open).toBe(false);
    expect(openState(hours, "America/Chicago", Date.parse("2026-11-23T14:00:00Z")).open).toBe(true);
  });

  it("knows the next minute the open state or the weekday changes, within the horizon", () => {
    const hours = { ...week("8:00 AM - 5:00 PM"), friday: "6:00 PM - 2:00 AM", saturday: "", sunday: "" };
    const change = (iso: string, zone = "America/Chicago", horizon = 60) => {
      const at = nextOpenStateChange(hours, zone, Date.parse(iso), horizon);
      return at === null ? null : new Date(at).toISOString();
    };
    // Monday 07:30:20 Central: opens at 08:00.
    expect(change("2026-11-23T13:30:20Z")).toBe("2026-11-23T14:00:00.000Z");
    // Monday 10:00: nothing within the hour; with a longer look, the 17:00 closing.
    expect(change("2026-11-23T16:00:00Z")).toBeNull();
    expect(change("2026-11-23T16:00:00Z", "America/Chicago", 8 * 60)).toBe("2026-11-23T23:00:00.000Z");
    // Monday 23:45 Central, closed: the weekday turns at midnight.
    expect(change("2026-11-24T05:45:00Z")).toBe("2026-11-24T06:00:00.000Z");
    // Saturday 01:30 Central: Friday's span ends at 02:00.
    expect(change("2026-11-21T07:30:00Z")).toBe("2026-11-21T08:00:00.000Z");
    // Open 24/7: only midnight changes anything (today's row).
    expect(
      nextOpenStateChange(week("Open 24 hours"), "America/Chicago", Date.parse("2026-11-23T12:00:00Z")),
    ).toBeNull();
    expect(change("2026-11-24T05:30:00Z", "America/Denver")).toBeNull();
  });

  it("counts real minutes across a daylight saving change", () => {
    const early = { ...week(""), sunday: "3:00 AM - 5:00 AM" };
    // Sunday 2026-03-08 01:30 CST (07:30Z); clocks jump from 02:00 to 03:00 at 08:00Z, so it
    // opens 30 real minutes later, not 90.
    const at = nextOpenStateChange(early, "America/Chicago", Date.parse("2026-03-08T07:30:00Z"));
    expect(at === null ? null : new Date(at).toISOString()).toBe("2026-03-08T08:00:00.000Z");
  });
});

describe("the seed", () => {
  const seed = readSeedFile(DEFAULT_SEED_FILE);
  it("has at least 150 businesses in all twenty metros, some 24/7, each located near its own ZIP", () => {
    expect(seed.length).toBeGreaterThanOrEqual(150);
    expect(new Set(seed.map((b) => b.city)).size).toBe(20);
    expect(seed.filter((b) => isOpen247(b.businessHours)).length).toBeGreaterThan(5);
    expect(seed.filter((b) => b.locality).length).toBeGreaterThan(50);
    for (const b of seed) {
      const zip = zipPoint(b.zipCode);
      expect(zip, `${b.id} ${b.zipCode}`).not.toBeNull();
      // Its own point around the ZIP's centroid (the sample data rules: tests/unit/sample-data.test.ts).
      expect(distanceMiles(b.location!, zip!), b.id).toBeLessThan(2);
      if (b.state === "TX") expect(b.locality ?? b.city).toBe(zip!.city === b.city ? b.city : zip!.city);
    }
  });

  it("has neighbors near Round Rock (78664) and Katy", () => {
    const near = (place: string, miles: number) =>
      seed.filter((b) => distanceMiles(findPlace(place)!, b.location!) <= miles).length;
    expect(near("78664", 10)).toBeGreaterThanOrEqual(5);
    expect(near("Katy, TX", 10)).toBeGreaterThanOrEqual(5);
  });
});
