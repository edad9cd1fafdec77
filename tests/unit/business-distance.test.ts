/**
 * The business page's distance from the place searched (netlify/lib/directory-page.ts,
 * `distanceFromPlace`): what `?near=` resolves to, read as the API reads `near`.
 */
import { describe, expect, it } from "vitest";
import { distanceFromPlace } from "../../netlify/lib/directory-page.ts";
import { zipPoint } from "../../src/lib/geo/places.ts";

const ROUND_ROCK = zipPoint("78664")!;

describe("distance from the place searched", () => {
  it("a ZIP: miles from its point, named as the dataset names it", async () => {
    const business = { location: { lat: ROUND_ROCK.lat + 0.1, lng: ROUND_ROCK.lng } };
    const found = await distanceFromPlace(business, " 78664 ");
    expect(found?.label).toBe("Round Rock, TX 78664");
    expect(found?.miles).toBeCloseTo(6.9, 0);
  });

  it("a city and lat,lng too; nothing without a place, for an unknown one, or a business without a point", async () => {
    const business = { location: { lat: 30.2672, lng: -97.7431 } };
    expect((await distanceFromPlace(business, "Austin, TX"))?.label).toBe("Austin, TX");
    expect((await distanceFromPlace(business, "30.2672,-97.7431"))?.miles).toBe(0);
    expect(await distanceFromPlace(business, null)).toBeUndefined();
    expect(await distanceFromPlace(business, "   ")).toBeUndefined();
    expect(await distanceFromPlace(business, "Atlantis, ZZ")).toBeUndefined();
    expect(await distanceFromPlace({}, "78664")).toBeUndefined();
  });
});
