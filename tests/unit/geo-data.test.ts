import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import zipcodes, { type ZipCode } from "zipcodes";
import { zipsFiles } from "../../scripts/generate-zips";
import { findPlace, lookupCity, lookupZip, type ZipRow } from "../../src/lib/geo/places";
import { DEFAULT_SEED_FILE, readSeedFile } from "../../netlify/lib/store/seed";
import { mulberry32 } from "../../scripts/random.ts";

/** What `zipcodes` says, in the shape places.ts answers. */
const expected = (z: ZipCode): ZipRow => ({
  zip: z.zip,
  lat: z.latitude,
  lng: z.longitude,
  city: z.city,
  state: z.state,
});
const byZip = (a: { zip: string }, b: { zip: string }) => (a.zip < b.zip ? -1 : a.zip > b.zip ? 1 : 0);

/** Every ZIP of the seed plus 200 drawn with a fixed seed (mulberry32), so failures reproduce. */
function sampleZips(): string[] {
  const all = Object.values(zipcodes.codes)
    .filter((z) => z.country === "US")
    .map((z) => z.zip)
    .sort();
  const next = mulberry32(20_240_611);
  const random = Array.from({ length: 200 }, () => all[Math.floor(next() * all.length)]!);
  const seed = readSeedFile(DEFAULT_SEED_FILE).map((b) => b.zipCode);
  return [...new Set([...seed, ...random])];
}

describe("zips.data.js", () => {
  it("is what `npm run geo:generate` writes from the installed zipcodes (run it if this fails)", () => {
    const files = Object.entries(zipsFiles());
    expect(files.map(([file]) => file)).toEqual(["src/lib/geo/zips.data.js", "src/lib/geo/zips.data.d.ts"]);
    // Not toEqual: a diff of two 1.5 MB strings is no help.
    for (const [file, text] of files) expect(readFileSync(file, "utf8") === text, `${file} is stale`).toBe(true);
  });
});

describe("lookups agree with zipcodes", () => {
  const zips = sampleZips();

  it("lookupZip is zipcodes.lookup for US ZIPs", () => {
    expect(zips.length).toBeGreaterThan(300);
    for (const zip of zips) expect(lookupZip(zip), zip).toEqual(expected(zipcodes.lookup(zip)!));
  });

  it("lookupZip knows nothing else: not 4 or 6 digits, not a ZIP+4, not a Canadian prefix", () => {
    for (const zip of ["99999", "00000", "7866", "786641", "78664-1234", " 78664", "T0A", "", "constructor"])
      expect(lookupZip(zip), zip).toBeUndefined();
  });

  it("lookupCity is zipcodes.lookupByName, in any case, for the cities of the sampled ZIPs", () => {
    for (const zip of zips) {
      const { city, state } = zipcodes.lookup(zip)!;
      const want = zipcodes.lookupByName(city, state).map(expected).sort(byZip);
      expect(want.length).toBeGreaterThan(0);
      expect(lookupCity(city, state), `${city}, ${state}`).toEqual(want);
      expect(lookupCity(city.toLowerCase(), state.toLowerCase())).toEqual(want);
      expect(lookupCity(city.toUpperCase(), state)).toEqual(want);
    }
    expect(lookupCity("Atlantis", "TX")).toEqual([]);
    expect(lookupCity("Kat", "TX")).toEqual([]);
  });

  it("findPlace reads every state name and code zipcodes knows, and a city is the mean of its ZIPs", () => {
    for (const [name, code] of Object.entries(zipcodes.states.full)) {
      const first = zipcodes.lookupByState(code).find((z) => z.country === "US");
      // Canadian provinces: the dataset is US only, so nothing is found there.
      if (!first) {
        expect(findPlace(`Toronto, ${name}`)).toBeNull();
        continue;
      }
      const zips = zipcodes.lookupByName(first.city, code);
      const mean = (f: (z: ZipCode) => number) => zips.reduce((s, z) => s + f(z), 0) / zips.length;
      for (const text of [`${first.city}, ${name}`, `${first.city}, ${code}`, `${first.city} ${code.toLowerCase()}`]) {
        const place = findPlace(text);
        expect(place, text).not.toBeNull();
        expect(place!.label.toUpperCase()).toBe(`${first.city.toUpperCase()}, ${code}`);
        // Summed in ZIP order rather than the package's order: equal to the last bits.
        expect(place!.lat).toBeCloseTo(
          mean((z) => z.latitude),
          10,
        );
        expect(place!.lng).toBeCloseTo(
          mean((z) => z.longitude),
          10,
        );
      }
    }
    // Territories and military codes are in the data but never were places one could type.
    expect(findPlace("San Juan, PR")).toBeNull();
    expect(findPlace("APO, AE")).toBeNull();
  });
});
