/** US public holidays (src/lib/holidays.ts) and "open now" on them (src/lib/hours.ts). */
import { describe, expect, it } from "vitest";
import { CLOSING_HOLIDAYS, holidayClosure, usHolidays } from "../../src/lib/holidays.ts";
import { nextOpenStateChange, openFromSpans, openState, weeklySpans, OPEN_24_HOURS } from "../../src/lib/hours.ts";
import type { BusinessHours } from "../../src/lib/schemas/business.ts";

const dates = (year: number) => Object.fromEntries(usHolidays(year).map((h) => [h.name, [h.date, h.observed]]));

describe("US public holidays", () => {
  it("computes the floating holidays for several years", () => {
    expect(dates(2025)).toMatchObject({
      "Martin Luther King Jr. Day": ["2025-01-20", "2025-01-20"],
      "Washington's Birthday": ["2025-02-17", "2025-02-17"],
      "Memorial Day": ["2025-05-26", "2025-05-26"],
      "Labor Day": ["2025-09-01", "2025-09-01"],
      "Columbus Day": ["2025-10-13", "2025-10-13"],
      "Thanksgiving Day": ["2025-11-27", "2025-11-27"],
    });
    expect(dates(2026)).toMatchObject({
      "Memorial Day": ["2026-05-25", "2026-05-25"],
      "Labor Day": ["2026-09-07", "2026-09-07"],
      "Thanksgiving Day": ["2026-11-26", "2026-11-26"],
    });
    expect(dates(2027)["Thanksgiving Day"]).toEqual(["2027-11-25", "2027-11-25"]);
    expect(dates(2028)["Memorial Day"]).toEqual(["2028-05-29", "2028-05-29"]);
  });

  it("observes a Saturday holiday on the Friday before, a Sunday one on the Monday after", () => {
    expect(dates(2026)["Independence Day"]).toEqual(["2026-07-04", "2026-07-03"]); // Saturday
    expect(dates(2027)["Independence Day"]).toEqual(["2027-07-04", "2027-07-05"]); // Sunday
    expect(dates(2027)["Christmas Day"]).toEqual(["2027-12-25", "2027-12-24"]); // Saturday
    expect(dates(2022)["Christmas Day"]).toEqual(["2022-12-25", "2022-12-26"]); // Sunday
    expect(dates(2023)["New Year's Day"]).toEqual(["2023-01-01", "2023-01-02"]); // Sunday
    expect(dates(2022)["New Year's Day"]).toEqual(["2022-01-01", "2021-12-31"]); // Saturday, year before
    expect(dates(2026)["Juneteenth"]).toEqual(["2026-06-19", "2026-06-19"]);
    expect(dates(2020)["Juneteenth"]).toBeUndefined();
  });

  it("closes for the six major holidays, on the day and on the observed weekday", () => {
    expect(CLOSING_HOLIDAYS).toEqual([
      "New Year's Day",
      "Memorial Day",
      "Independence Day",
      "Labor Day",
      "Thanksgiving Day",
      "Christmas Day",
    ]);
    expect(holidayClosure("2026-11-26")?.name).toBe("Thanksgiving Day");
    expect(holidayClosure("2026-07-03")?.name).toBe("Independence Day");
    expect(holidayClosure("2026-07-04")?.name).toBe("Independence Day");
    expect(holidayClosure("2021-12-31")?.name).toBe("New Year's Day");
    expect(holidayClosure("2026-11-27")).toBeNull();
    expect(holidayClosure("2026-01-19")).toBeNull(); // MLK Day: a federal day off, businesses open
    expect(holidayClosure("2026-12-24")).toBeNull();
  });
});

describe("open now on a holiday", () => {
  const weekdays: BusinessHours = {
    monday: "7:00 AM - 5:00 PM",
    tuesday: "7:00 AM - 5:00 PM",
    wednesday: "7:00 AM - 5:00 PM",
    thursday: "7:00 AM - 5:00 PM",
    friday: "7:00 AM - 5:00 PM",
  };
  const always: BusinessHours = Object.fromEntries(
    ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((d) => [d, OPEN_24_HOURS]),
  );
  // 10 AM in Chicago on Thanksgiving 2026 (a Thursday), and the day after.
  const thanksgiving = Date.parse("2026-11-26T16:00:00Z");
  const dayAfter = Date.parse("2026-11-27T16:00:00Z");

  it("is closed on Thanksgiving, with the holiday named, and open the day after", () => {
    expect(openState(weekdays, "America/Chicago", thanksgiving)).toEqual({
      open: false,
      always: false,
      today: "thursday",
      holiday: "Thanksgiving Day",
    });
    expect(openState(weekdays, "America/Chicago", dayAfter).open).toBe(true);
    expect(openFromSpans(weeklySpans(weekdays), "America/Chicago", thanksgiving)).toBe(false);
  });

  it("a 24/7 emergency business stays open, as does one open around the clock", () => {
    expect(openState(weekdays, "America/Chicago", thanksgiving, true).open).toBe(true);
    expect(openFromSpans(weeklySpans(weekdays), "America/Chicago", thanksgiving, true)).toBe(true);
    expect(openState(always, "America/Chicago", thanksgiving)).toMatchObject({ open: true, always: true });
    expect(openFromSpans(weeklySpans(always), "America/Chicago", thanksgiving)).toBe(true);
  });

  it("reads the holiday on the business's own calendar", () => {
    // 11 PM Wednesday in Los Angeles is already Thanksgiving in New York.
    const lateWednesday = Date.parse("2026-11-26T07:00:00Z");
    const late: BusinessHours = { ...weekdays, wednesday: "7:00 AM - 11:30 PM", thursday: "7:00 AM - 11:30 PM" };
    expect(openState(late, "America/Los_Angeles", lateWednesday).open).toBe(true);
    expect(openState(late, "America/New_York", lateWednesday).open).toBe(false);
  });

  it("a page drawn the evening before changes state at the holiday's midnight, not the next opening", () => {
    const night: BusinessHours = { ...weekdays, wednesday: "7:00 AM - 2:00 AM" };
    // 11:30 PM Wednesday in Chicago: open past midnight, except midnight starts Thanksgiving.
    const at = nextOpenStateChange(night, "America/Chicago", Date.parse("2026-11-26T05:30:00Z"), 60);
    expect(at).toBe(Date.parse("2026-11-26T06:00:00Z"));
  });
});
