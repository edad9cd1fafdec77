import { describe, expect, it } from "vitest";
import { timeZoneOf } from "../../src/lib/geo/time-zone.ts";
import { findPlace } from "../../src/lib/geo/places.ts";
import { METROS } from "../../src/lib/options.ts";

/** The zone of a place the dataset knows, by its own state and point. */
const zoneAt = (text: string) => {
  const place = findPlace(text)!;
  return timeZoneOf(place.state, place);
};

describe("timeZoneOf", () => {
  it("gives each state its zone, any case, and nothing for a code it does not know", () => {
    expect(timeZoneOf("FL")).toBe("America/New_York");
    expect(timeZoneOf("il")).toBe("America/Chicago");
    expect(timeZoneOf("AZ")).toBe("America/Phoenix");
    expect(timeZoneOf("HI")).toBe("Pacific/Honolulu");
    expect(timeZoneOf("ZZ")).toBeUndefined();
    expect(timeZoneOf(undefined)).toBeUndefined();
  });

  it("agrees with every metro the directory serves", () => {
    // The dataset names New York City "New York".
    for (const metro of METROS)
      expect(zoneAt(`${metro.label.replace(/ City$/, "")}, ${metro.state}`), metro.label).toBe(metro.timeZone);
  });

  it("splits the states that keep two clocks by where the place is", () => {
    expect(zoneAt("33131")).toBe("America/New_York"); // Miami
    expect(zoneAt("32501")).toBe("America/Chicago"); // Pensacola
    expect(zoneAt("32301")).toBe("America/New_York"); // Tallahassee
    expect(zoneAt("79901")).toBe("America/Denver"); // El Paso
    expect(zoneAt("37902")).toBe("America/New_York"); // Knoxville
    expect(zoneAt("37203")).toBe("America/Chicago"); // Nashville
    expect(zoneAt("46402")).toBe("America/Chicago"); // Gary
    expect(zoneAt("46204")).toBe("America/Indiana/Indianapolis");
    expect(zoneAt("42101")).toBe("America/Chicago"); // Bowling Green
    expect(zoneAt("40202")).toBe("America/New_York"); // Louisville
    expect(zoneAt("83814")).toBe("America/Los_Angeles"); // Coeur d'Alene
    expect(zoneAt("83702")).toBe("America/Boise");
    expect(zoneAt("57701")).toBe("America/Denver"); // Rapid City
    expect(zoneAt("57104")).toBe("America/Chicago"); // Sioux Falls
    // Without a point, the state's main zone.
    expect(timeZoneOf("TX")).toBe("America/Chicago");
  });

  it("names only zones the runtime knows", () => {
    for (const state of ["AK", "FL", "ID", "IN", "MI", "OR", "PR", "GU", "VI", "AS", "MP"]) {
      for (const lng of [-180, -160, -120, -100, -86, -80, 145]) {
        const zone = timeZoneOf(state, { lat: 40, lng })!;
        expect(() => new Intl.DateTimeFormat("en-US", { timeZone: zone })).not.toThrow();
      }
    }
  });
});
