/**
 * The sample directory's rules (docs/directory.md, "Sample data rules"): the seed written by
 * `npm run seed:generate` is a demo and says so, its reviews are never Verified and fit their
 * business, and otherwise it looks like a real directory. One test per rule.
 */
import { existsSync, readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { describe, expect, it } from "vitest";
import seedJson from "../../content/directory/businesses.json" with { type: "json" };
import { sampleProviders } from "../../src/lib/find-pros-providers.ts";
import { distanceMiles, type Point } from "../../src/lib/geo/distance.ts";
import { findPlace, zipPoint } from "../../src/lib/geo/places.ts";
import { METROS, STATE_NAMES, directoryCoverage } from "../../src/lib/options.ts";
import { SeedFile } from "../../src/lib/schemas/seed.ts";
import { SITE } from "../../src/lib/site.ts";
import { mulberry32 } from "../../scripts/random.ts";
import {
  ALL_TREES,
  SERVICE_TERMS,
  TREES_BY_METRO,
  composeReview,
  foreignServices,
  foreignTrees,
  treesOfState,
  withoutOwnWords,
} from "../../scripts/sample-reviews.ts";

const seed = SeedFile.parse(seedJson);
const states = parseYaml(readFileSync("content/marketing/states.yaml", "utf8")) as {
  name: string;
  abbreviation: string;
  cities: string[];
}[];

/** How far a business may be from its ZIP's centroid (the generator jitters up to 1.5 miles). */
const MAX_FROM_CENTROID_MILES = 2;
/** Cities whose "City, ST" the ZIP dataset does not name: a ZIP in their centre instead. */
const CITY_CENTRE_ZIP: Record<string, string> = { "New York City": "10001" };

function within(point: Point, miles: number) {
  return seed.filter((b) => b.location && distanceMiles(point, b.location) <= miles);
}

/** A review's words without its business's own (name, towns): "Bur Oak Tree Care" names no tree. */
const ownText = (b: (typeof seed)[number], text: string) =>
  withoutOwnWords(text, [b.name, b.city, ...(b.locality ? [b.locality] : []), ...b.serviceAreas]);
const allReviews = seed.flatMap((b) => b.reviews.map((r) => ({ b, r })));

describe("sample directory data", () => {
  it("every business is marked as a sample", () => {
    for (const b of seed) expect(b.isSample, b.id).toBe(true);
  });

  it("no sample review is Verified", () => {
    expect(allReviews.length).toBeGreaterThan(1000);
    expect(allReviews.filter(({ r }) => r.isVerified)).toEqual([]);
  });

  it("no review text appears twice, on one business or two", () => {
    const seen = new Map<string, string>();
    const repeated: string[] = [];
    for (const { b, r } of allReviews) {
      const first = seen.get(r.reviewText);
      if (first) repeated.push(`${first} and ${b.id}: ${r.reviewText}`);
      else seen.set(r.reviewText, b.id);
    }
    expect(repeated).toEqual([]);
  });

  it("reviews name only trees of their business's region: no live oak in Chicago", () => {
    const wrong = allReviews.flatMap(({ b, r }) => {
      const trees = foreignTrees(ownText(b, `${r.title} ${r.reviewText}`), treesOfState(b.state));
      return trees.length ? [`${b.id} (${b.city}, ${b.state}) names ${trees.join(", ")}: ${r.reviewText}`] : [];
    });
    expect(wrong).toEqual([]);
    // The check sees a tree where one is named (and keeps "coast live oak" apart from "live oak").
    expect(foreignTrees("They trimmed our live oak.", treesOfState("IL"))).toEqual(["live oak"]);
    expect(foreignTrees("The coast live oak stump is gone.", treesOfState("CA"))).toEqual([]);
    expect(foreignTrees("Two young red maples pruned.", treesOfState("TX"))).toEqual(["red maple"]);
    // Most reviews do name a tree, so the rule is not met by saying nothing.
    const naming = allReviews.filter(({ r }) =>
      ALL_TREES.some((t) => r.reviewText.toLowerCase().includes(t.toLowerCase())),
    );
    expect(naming.length).toBeGreaterThan(allReviews.length * 0.9);
  });

  it("reviews are about a service their business offers and name no service it does not", () => {
    const wrong = allReviews.flatMap(({ b, r }) => {
      const services = foreignServices(ownText(b, `${r.title} ${r.reviewText}`), b.services);
      const offered = b.services.includes(r.serviceType);
      return services.length || !offered
        ? [`${b.id} (${b.services.join(", ")}) ${r.serviceType}: ${r.reviewText}`]
        : [];
    });
    expect(wrong).toEqual([]);
    expect(foreignServices("They ground out the stump.", ["Tree Trimming"])).toEqual(["Stump Grinding"]);
    expect(Object.keys(SERVICE_TERMS)).toEqual(expect.arrayContaining([...new Set(seed.flatMap((b) => b.services))]));
  });

  it("review words are reproducible: the same draws compose the same review", () => {
    const business = {
      name: "Prairie Tree Care",
      town: "Peoria",
      metro: "Peoria" as const,
      services: ["Stump Grinding"],
    };
    const compose = () =>
      composeReview({ rating: 5, wanted: "Tree Removal", business, random: mulberry32(7), used: new Set() });
    expect(compose()).toEqual(compose());
    expect(compose().serviceType).toBe("Stump Grinding");
    expect(TREES_BY_METRO.Peoria.some((t) => compose().reviewText.includes(t))).toBe(true);
  });

  it("every business has its own phone: fictional 555-01xx, never the hotline, never another's", () => {
    const phones = seed.flatMap((b) => (b.phone ? [b.phone] : []));
    expect(phones.length).toBeGreaterThan(seed.length * 0.95);
    expect(new Set(phones).size).toBe(phones.length);
    expect(phones).not.toContain(SITE.phone);
    for (const phone of phones) expect(phone).toMatch(/^\(\d{3}\) 555-01\d\d$/);
  });

  it("every business is at its own point, within a few miles of its ZIP's centroid", () => {
    const points = new Set<string>();
    for (const b of seed) {
      const centroid = zipPoint(b.zipCode);
      expect(centroid, `${b.id} ${b.zipCode}`).not.toBeNull();
      expect(b.location, b.id).toBeDefined();
      expect(distanceMiles(centroid!, b.location!), b.id).toBeLessThanOrEqual(MAX_FROM_CENTROID_MILES);
      expect(centroid!.state, b.id).toBe(b.state);
      points.add(`${b.location!.lat},${b.location!.lng}`);
    }
    // Not stacked on the centroids: distances between neighbours are real.
    expect(points.size).toBe(seed.length);
  });

  it("every city the home page serves has at least 3 businesses within 25 miles", () => {
    const cities = states.flatMap((s) => s.cities.map((city) => ({ city, state: s.abbreviation })));
    expect(cities).toHaveLength(20);
    for (const { city, state } of cities) {
      const place = findPlace(`${city}, ${state}`) ?? findPlace(CITY_CENTRE_ZIP[city] ?? "");
      expect(place, city).not.toBeNull();
      expect(within(place!, 25).length, `${city}, ${state}`).toBeGreaterThanOrEqual(3);
    }
    for (const zip of ["33101", "60601", "90012"])
      expect(within(zipPoint(zip)!, 25).length, zip).toBeGreaterThanOrEqual(3);
  });

  it("what the directory says it covers is what the data covers: every state and the metro count", () => {
    const inData = new Set(seed.map((b) => b.state));
    expect([...inData].sort()).toEqual(Object.keys(STATE_NAMES).sort());
    // The home page's served states, in its order.
    expect(Object.values(STATE_NAMES)).toEqual(states.map((s) => s.name));
    const coverage = directoryCoverage();
    for (const name of Object.values(STATE_NAMES)) expect(coverage).toContain(name);
    expect(coverage).toContain(`${METROS.length} cities`);
  });

  it("businesses outside Texas carry their metro's state and time zone", () => {
    for (const b of seed) {
      const metro = METROS.find((m) => m.label === b.city)!;
      expect(b.state, b.id).toBe(metro.state);
      expect(b.timeZone ?? "America/Chicago", b.id).toBe(metro.timeZone);
    }
    expect(new Set(seed.map((b) => b.state))).toEqual(new Set(states.map((s) => s.abbreviation)));
  });

  it("no link leads nowhere: no sample website, no example.com link", () => {
    for (const b of seed) {
      expect(b.website, b.id).toBeUndefined();
      expect(JSON.stringify({ ...b, email: undefined }), b.id).not.toMatch(/https?:\/\/[^"]*example\.com/);
    }
  });

  it("no shared stock photos: every image belongs to one business and exists", () => {
    const images = seed.flatMap((b) => b.images);
    expect(new Set(images).size).toBe(images.length);
    for (const src of images) expect(existsSync(`public${src}`), src).toBe(true);
  });

  it("a plausible spread of reviews: most have several with varied ratings, a few have none", () => {
    const counts = seed.map((b) => b.reviews.length);
    const none = counts.filter((c) => c === 0).length;
    expect(none).toBeGreaterThan(0);
    expect(none).toBeLessThanOrEqual(seed.length * 0.05);
    expect(counts.filter((c) => c >= 3).length).toBeGreaterThan(seed.length * 0.7);
    const stars = new Set(seed.flatMap((b) => b.reviews.map((r) => r.rating)));
    expect([...stars].sort()).toEqual([1, 2, 3, 4, 5]);
    const averages = seed
      .filter((b) => b.reviews.length >= 3)
      .map((b) => Math.round((b.reviews.reduce((t, r) => t + r.rating, 0) / b.reviews.length) * 10) / 10);
    expect(new Set(averages).size).toBeGreaterThan(8);
    expect(averages.filter((a) => a === 5).length).toBeLessThan(averages.length * 0.25);
  });

  it("the providers on /find-a-tree-service are directory businesses, with their directory facts", () => {
    const providers = sampleProviders();
    expect(providers).toHaveLength(3);
    for (const pro of providers) {
      const b = seed.find((x) => x.id === pro.id)!;
      expect(b, pro.id).toBeDefined();
      expect(pro).toMatchObject({ name: b.name, slug: b.slug, phone: b.phone, reviews: b.reviews.length });
    }
  });
});
