/**
 * The capacity rule (src/lib/capacity.ts): fully booked through the end of its day in the
 * business's own zone, the form's bounds on that zone's today, the words, and the view a
 * form is drawn from.
 */
import { describe, expect, it } from "vitest";
import {
  BOOKED_MAX_DAYS,
  CAPACITY_MESSAGES,
  CAPACITY_TEXT,
  addDays,
  capacityForm,
  capacityLine,
  capacityView,
  dayLabel,
  defaultUntil,
  isBooked,
  isTaking,
  todayIn,
  type Capacity,
} from "../../src/lib/capacity.ts";

// 02:00 UTC Nov 30 is still Nov 29 in Miami and in Los Angeles.
const NOW = Date.parse("2026-11-30T02:00:00Z");
const booked = (until: string): Capacity => ({ status: "booked", until, setAt: "2026-11-29T00:00:00Z", via: "owner" });

describe("capacity", () => {
  it("is booked through the end of its day in the business's zone", () => {
    expect(todayIn(NOW, "America/New_York")).toBe("2026-11-29");
    expect(todayIn(NOW, "UTC")).toBe("2026-11-30");
    expect(isBooked(booked("2026-11-29"), NOW, "America/New_York")).toBe(true);
    expect(isBooked(booked("2026-11-29"), NOW, "UTC")).toBe(false);
    expect(isBooked({ status: "taking", setAt: "x", via: "answer" }, NOW)).toBe(false);
    expect(isBooked(null, NOW)).toBe(false);
    expect(isTaking({ status: "taking", setAt: "x", via: "answer" })).toBe(true);
    expect(isTaking(booked("2026-12-01"))).toBe(false);
  });

  it("says it in words, and nothing for a booking whose day is over", () => {
    expect(dayLabel("2026-12-03")).toBe("Dec 3");
    expect(capacityLine(booked("2026-12-03"), NOW, "America/New_York")).toBe("Fully booked until Dec 3");
    expect(capacityLine(booked("2026-11-28"), NOW, "America/New_York")).toBeNull();
    expect(capacityLine({ status: "taking", setAt: "x", via: "owner" }, NOW)).toBe(CAPACITY_TEXT.taking);
    expect(CAPACITY_TEXT.saved.booked("2026-12-03")).toContain("until Dec 3");
  });

  it("takes a day from the zone's today to BOOKED_MAX_DAYS on; refuses the rest with the field's message", () => {
    const form = capacityForm(NOW, "America/New_York");
    expect(form.parse({ capacity: "booked", until: "2026-11-29" })).toEqual({
      capacity: "booked",
      until: "2026-11-29",
    });
    expect(form.parse({ capacity: "taking", until: "ignored" })).toEqual({ capacity: "taking" });
    expect(form.parse({ capacity: "clear" })).toEqual({ capacity: "clear" });
    const message = (v: unknown) => form.safeParse(v).error?.issues[0]?.message;
    expect(message({ capacity: "booked", until: "2026-11-28" })).toBe(CAPACITY_MESSAGES.until);
    expect(message({ capacity: "booked", until: "soon" })).toBe(CAPACITY_MESSAGES.until);
    expect(message({ capacity: "booked" })).toBe(CAPACITY_MESSAGES.until);
    expect(message({ capacity: "booked", until: addDays("2026-11-29", BOOKED_MAX_DAYS + 1) })).toBe(
      CAPACITY_MESSAGES.tooFar,
    );
    expect(message({ capacity: "maybe" })).toBe(CAPACITY_MESSAGES.status);
  });

  it("draws the form from the statement: its day while booked, else tomorrow; Back to normal only when one stands", () => {
    expect(defaultUntil(NOW, "America/New_York")).toBe("2026-11-30");
    expect(capacityView(null, NOW, "America/New_York")).toEqual({
      line: null,
      stated: false,
      until: "2026-11-30",
      min: "2026-11-29",
      max: addDays("2026-11-29", BOOKED_MAX_DAYS),
    });
    expect(capacityView(booked("2026-12-05"), NOW, "America/New_York")).toMatchObject({
      stated: true,
      until: "2026-12-05",
    });
    expect(capacityView(booked("2026-11-01"), NOW, "America/New_York")).toMatchObject({
      stated: false,
      until: "2026-11-30",
    });
  });
});
