/**
 * GET /api/businesses near-me parameters against a real Redis loaded with the real seed
 * (content/directory/businesses.json): every expectation is worked out from the seed file
 * with the same place lookup, distance and hours rules, never hard-coded counts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QUERY_ERROR, type DirectoryDeps } from "../../../netlify/lib/directory.ts";
import { businessesHandler } from "../../../netlify/lib/directory-search.ts";
import { DEFAULT_SEED_FILE, readSeedFile, seedDirectory } from "../../../netlify/lib/store/seed.ts";
import { DIRECTORY_QUERY_MESSAGES as M } from "../../../src/lib/directory-query.ts";
import { NEAR_REQUIRED } from "../../../src/lib/directory-url.ts";
import { distanceMiles } from "../../../src/lib/geo/distance.ts";
import { UNKNOWN_PLACE, findPlace } from "../../../src/lib/geo/places.ts";
import { openState } from "../../../src/lib/hours.ts";
import { directoryDeps, functionsHarness, getRequest } from "../../helpers/functions.ts";

const h = await functionsHarness("directory-near");
afterAll(async () => {
  await h?.teardown();
});

const SEED = readSeedFile(DEFAULT_SEED_FILE);
/** Wednesday 2026-11-18, 23:30 in Texas (CST = UTC-6). */
const LATE_WEDNESDAY = Date.parse("2026-11-19T05:30:00Z");

type Item = { id: string; distanceMiles: number; services: string[]; rating: string; emergency247?: boolean };
type Answer = { data: Item[]; total: number; near?: { label: string; lat: number; lng: number; radius: number } };

/** The seed's answer to a near query, by the rules the API documents. */
function model(near: string, radius: number, filter: (b: (typeof SEED)[number]) => boolean = () => true) {
  const place = findPlace(near)!;
  return SEED.filter((b) => b.location && distanceMiles(place, b.location) <= radius && filter(b));
}

describe.skipIf(!h)("GET /api/businesses near-me", () => {
  let deps: DirectoryDeps;
  const list = (query: string, over: DirectoryDeps = {}) =>
    businessesHandler({ ...deps, ...over })(getRequest(`/api/businesses${query}`));
  const json = async (query: string, over: DirectoryDeps = {}) => {
    const res = await list(query, over);
    expect(res.status, query).toBe(200);
    return (await res.json()) as Answer;
  };

  beforeAll(async () => {
    deps = directoryDeps(h!, { now: () => LATE_WEDNESDAY });
    await h!.store.batch(() => seedDirectory(h!.store, SEED));
  }, 120_000);

  it("finds Round Rock's neighbors from a ZIP, nearest first, each with its distance", async () => {
    const expected = model("78664", 25);
    expect(expected.length).toBeGreaterThan(5);
    const body = await json(`?near=78664&sort=distance&limit=50`);
    expect(body.total).toBe(expected.length);
    expect(body.near).toMatchObject({ label: "Round Rock, TX 78664", radius: 25 });
    expect(body.data.map((b) => b.id).sort()).toEqual(expected.map((b) => b.id).sort());
    for (let i = 1; i < body.data.length; i++)
      expect(body.data[i]!.distanceMiles).toBeGreaterThanOrEqual(body.data[i - 1]!.distanceMiles);
    expect(body.data.every((b) => b.distanceMiles <= 25)).toBe(true);
  });

  it("finds businesses within 25 miles of Miami (33101), Chicago (60601) and Los Angeles (90012), at real distances", async () => {
    for (const zip of ["33101", "60601", "90012"]) {
      const expected = model(zip, 25);
      expect(expected.length, zip).toBeGreaterThanOrEqual(3);
      const body = await json(`?near=${zip}&radius=25&sort=distance&limit=50`);
      expect(body.total, zip).toBe(expected.length);
      expect(body.data.map((b) => b.id).sort()).toEqual(expected.map((b) => b.id).sort());
      // Each at its own point: not all "0.0 mi" from the ZIP's center.
      expect(new Set(body.data.map((b) => b.distanceMiles)).size, zip).toBeGreaterThan(1);
    }
  });

  it("lists every metro's businesses with All Cities, best first, and the four filter cities alone", async () => {
    const seen = new Set<string>();
    let total = 0;
    for (let offset = 0; offset < SEED.length; offset += 50) {
      const page = await json(`?limit=50&offset=${offset}`);
      total = page.total;
      for (const b of page.data) seen.add(b.id);
    }
    expect(total).toBe(SEED.length);
    expect(seen.size).toBe(SEED.length);
    const austin = await json(`?city=austin&limit=50`);
    expect(austin.total).toBe(SEED.filter((b) => b.city === "Austin").length);
    expect((await list(`?city=miami`)).status).toBe(400);
  });

  it("reads 'Katy, TX', 'Katy' and 'katy texas' alike; radius widens the circle", async () => {
    const a = await json(`?near=${encodeURIComponent("Katy, TX")}&radius=10&limit=50`);
    const b = await json(`?near=Katy&radius=10&limit=50`);
    const c = await json(`?near=${encodeURIComponent("katy texas")}&radius=10&limit=50`);
    expect(a.total).toBe(model("Katy, TX", 10).length);
    expect(a.total).toBeGreaterThan(0);
    expect(b.data).toEqual(a.data);
    expect(c.data).toEqual(a.data);
    const wide = await json(`?near=Katy&radius=50&limit=50`);
    expect(wide.total).toBe(model("Katy", 50).length);
    expect(wide.total).toBeGreaterThan(a.total);
  });

  it("filters by service, 24/7 emergency and minimum rating, and pages with the same total", async () => {
    const service = await json(`?near=77494&radius=50&service=${encodeURIComponent("Tree Removal")}&limit=50`);
    expect(service.total).toBe(model("77494", 50, (b) => b.services.includes("Tree Removal")).length);
    expect(service.data.every((b) => b.services.includes("Tree Removal"))).toBe(true);

    const emergency = await json(`?near=78664&radius=50&emergency=true&limit=50`);
    expect(emergency.total).toBe(model("78664", 50, (b) => b.emergency247 === true).length);

    const rated = await json(`?near=78664&radius=50&minRating=4.5&sort=rating&limit=50`);
    expect(rated.data.every((b) => Number(b.rating) >= 4.5)).toBe(true);
    for (let i = 1; i < rated.data.length; i++)
      expect(Number(rated.data[i]!.rating)).toBeLessThanOrEqual(Number(rated.data[i - 1]!.rating));

    const all = await json(`?near=78664&radius=50&sort=distance&limit=50`);
    const paged = [];
    for (let offset = 0; offset < all.total; offset += 5) {
      const page = await json(`?near=78664&radius=50&sort=distance&limit=5&offset=${offset}`);
      expect(page.total).toBe(all.total);
      paged.push(...page.data.map((b) => b.id));
    }
    expect(paged).toEqual(all.data.map((b) => b.id));
  });

  it("open=now uses each business's own clock (23:30 on a Wednesday) and is never cached", async () => {
    const res = await list(`?near=78664&radius=100&open=now&limit=50`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = (await res.json()) as Answer;
    const expected = model("78664", 100, (b) => openState(b.businessHours, b.timeZone, LATE_WEDNESDAY).open);
    expect(body.total).toBe(expected.length);
    expect(body.total).toBeGreaterThan(0);
    expect(body.total).toBeLessThan(model("78664", 100).length);
  });

  it("keeps search and city working with near", async () => {
    const body = await json(`?near=78664&radius=100&city=houston&limit=50`);
    expect(body.total).toBe(0);
    const stump = await json(`?near=78664&radius=25&search=stump&limit=50`);
    const texts = (b: (typeof SEED)[number]) =>
      [b.name, b.description, b.city, ...b.services, ...b.specialties].join(" ");
    const expected = model("78664", 25, (b) => /\bstump/i.test(texts(b)));
    expect(stump.total).toBe(expected.length);
    expect(stump.total).toBeGreaterThan(0);
    expect(stump.data.map((b) => b.id).sort()).toEqual(expected.map((b) => b.id).sort());
  });

  it.each([
    ["?near=99999", "near", UNKNOWN_PLACE],
    ["?near=Atlantis%2C%20TX", "near", UNKNOWN_PLACE],
    [`?near=${"7".repeat(101)}`, "near", M.near],
    ["?near=78664&radius=30", "radius", M.radius],
    ["?near=78664&radius=ten", "radius", M.radius],
    ["?near=78664&service=Gardening", "service", M.service],
    ["?near=78664&open=later", "open", M.open],
    ["?near=78664&emergency=maybe", "emergency", M.emergency],
    ["?near=78664&minRating=6", "minRating", M.minRating],
    ["?near=78664&minRating=4.55", "minRating", M.minRating],
    ["?near=78664&sort=price", "sort", M.sort],
    ["?service=Tree%20Removal", "near", NEAR_REQUIRED],
    ["?open=now", "near", NEAR_REQUIRED],
    ["?sort=distance", "near", NEAR_REQUIRED],
  ])("%s is a 400 naming %s", async (query, field, message) => {
    const res = await list(query);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; fields: Record<string, string> };
    expect(body.error).toBe(QUERY_ERROR);
    expect(body.fields[field]).toBe(message);
  });
});
