/**
 * The owner's profile form (src/lib/owner-profile/): reading the posted form, its messages
 * per field, and what it stores; and the owner's closures in the hours logic (hours.ts,
 * holidays.ts), the near index's member (business-near.ts) and the JSON-LD (jsonld.ts).
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { HoursTable } from "../../src/islands/directory/detail/BusinessHours.tsx";
import { nearPlan } from "../../netlify/lib/store/repos/business-near.ts";
import { keyspace } from "../../netlify/lib/store/keys.ts";
import { CLOSING_HOLIDAYS, holidayClosure, upcomingClosedDates, closingHolidaysOf } from "../../src/lib/holidays.ts";
import { nextOpenStateChange, openFromSpans, openState, weeklySpans } from "../../src/lib/hours.ts";
import { businessJsonLd, specialClosures } from "../../src/lib/jsonld.ts";
import { ProfileInput, profileFormInput, profilePatch } from "../../src/lib/owner-profile/form.ts";
import { dayFields, to12h, to24hValue, keepUntouchedDays } from "../../src/lib/owner-profile/hours.ts";
import { PROFILE_MESSAGES, splitDayNote } from "../../src/lib/owner-profile/messages.ts";
import { sameServices, serviceChoices } from "../../src/lib/owner-profile/services.ts";
import { fieldErrors } from "../../src/lib/schemas/forms.ts";
import type { Business } from "../../src/lib/schemas/business.ts";

function form(over: Record<string, string | string[]> = {}): URLSearchParams {
  const base: Record<string, string | string[]> = {
    description: "  Family-run.  ",
    services: ["Tree Trimming", "Tree Trimming", "Crane Work"],
    serviceAreas: "Austin\n\n  Round Rock \nAustin",
    website: "",
    phone: "",
    closedHolidays: ["Christmas Day"],
    closedDate: ["2026-12-31", "", "2026-12-24"],
    closedNote: ["", "", "Christmas Eve"],
  };
  for (const d of ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"])
    base[`${d}.mode`] = "closed";
  base["monday.mode"] = "open";
  base["monday.open"] = "07:30";
  base["monday.close"] = "17:00";
  base["friday.mode"] = "open";
  base["friday.open"] = "18:00";
  base["friday.close"] = "02:00";
  base["sunday.mode"] = "24h";
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...base, ...over }))
    for (const x of Array.isArray(v) ? v : [v]) params.append(k, x);
  return params;
}

const parse = (params: URLSearchParams) => ProfileInput.safeParse(profileFormInput(params));

describe("profile form", () => {
  it("converts clock times both ways", () => {
    expect(to12h("07:30")).toBe("7:30 AM");
    expect(to12h("00:00")).toBe("12:00 AM");
    expect(to12h("12:05")).toBe("12:05 PM");
    expect(to12h("23:59")).toBe("11:59 PM");
    expect(to12h("24:00")).toBeNull();
    expect(to12h("7:30")).toBeNull();
    expect(to24hValue("7:30 AM")).toBe("07:30");
    expect(to24hValue("12:00 AM")).toBe("00:00");
    expect(to24hValue("whenever")).toBe("");
    expect(dayFields("7:00 AM - 6:00 PM")).toEqual({ mode: "open", open: "07:00", close: "18:00" });
    expect(dayFields("Open 24 hours")).toEqual({ mode: "24h", open: "", close: "" });
    expect(dayFields(undefined)).toEqual({ mode: "closed", open: "", close: "" });
  });

  it("by appointment is a tick: true when ticked, removed (null) when not", () => {
    expect(profilePatch(parse(form({ byAppointment: "1" })).data!).byAppointment).toBe(true);
    expect(profilePatch(parse(form()).data!).byAppointment).toBeNull();
  });

  it("stores hours in the format hours.ts reads, and the rest cleaned", () => {
    const result = parse(form());
    expect(result.success).toBe(true);
    const patch = profilePatch(result.data!);
    expect(patch.businessHours).toEqual({
      monday: "7:30 AM - 5:00 PM",
      friday: "6:00 PM - 2:00 AM",
      sunday: "Open 24 hours",
    });
    // What the stored text means to hours.ts: Friday runs past midnight.
    expect(weeklySpans(patch.businessHours)[4]).toEqual([[1080, 1560]]);
    expect(patch.description).toBe("Family-run.");
    expect(patch.services).toEqual(["Tree Trimming", "Crane Work"]);
    expect(patch.serviceAreas).toEqual(["Austin", "Round Rock"]);
    expect(patch.website).toBeNull();
    expect(patch.phone).toBeNull();
    expect(patch.closedHolidays).toEqual(["Christmas Day"]);
    expect(patch.closedDates).toEqual([{ date: "2026-12-24", note: "Christmas Eve" }, { date: "2026-12-31" }]);
  });

  it("puts each message on its own field", () => {
    const result = parse(
      form({
        "tuesday.mode": "open",
        "tuesday.open": "09:00",
        "wednesday.mode": "open",
        "wednesday.open": "09:00",
        "wednesday.close": "09:00",
        website: "javascript:alert(1)",
        phone: "555",
        closedHolidays: ["Groundhog Day"],
        closedDate: ["31/12/2026"],
        closedNote: ["x".repeat(81)],
      }),
    );
    expect(result.success).toBe(false);
    const errors = fieldErrors(result.error!);
    expect(errors["hours.tuesday"]).toBe(PROFILE_MESSAGES.time);
    expect(errors["hours.wednesday"]).toBe(PROFILE_MESSAGES.sameTime);
    expect(errors.website).toBe(PROFILE_MESSAGES.website);
    expect(errors.phone).toBe(PROFILE_MESSAGES.phone);
    expect(errors["closedHolidays.0"]).toBe(PROFILE_MESSAGES.holidays);
    expect(errors["closedDates.0.date"]).toBe(PROFILE_MESSAGES.closedDate);
    expect(errors["closedDates.0.note"]).toBe(PROFILE_MESSAGES.closedNote);
  });

  it("accepts a real website and phone", () => {
    const result = parse(form({ website: "https://oak.example.com/about", phone: "(512) 555-0142" }));
    expect(result.success).toBe(true);
    expect(result.data!.website).toBe("https://oak.example.com/about");
    expect(result.data!.phone).toBe("(512) 555-0142");
  });

  it("offers the site's services first, then the listing's own", () => {
    const choices = serviceChoices(["Crane Work", "Tree Removal"]);
    expect(choices.slice(0, 2)).toEqual(["Tree Removal", "Tree Trimming"]);
    expect(choices.at(-1)).toBe("Crane Work");
    expect(choices.filter((c) => c === "Tree Removal")).toHaveLength(1);
  });

  it("offers each service once, whatever its case or spacing", () => {
    const choices = serviceChoices(["Tree Planting", " tree  planting ", "TREE REMOVAL", "Tree Planting"]);
    expect(choices.filter((c) => c.toLowerCase() === "tree planting")).toEqual(["Tree Planting"]);
    expect(choices.filter((c) => c.toLowerCase() === "tree removal")).toEqual(["Tree Removal"]);
  });

  it("stores each posted service once, case-insensitively and trimmed", () => {
    const result = parse(form({ services: ["Tree Planting", "tree planting ", "Crane Work"] }));
    expect(result.data!.services).toEqual(["Tree Planting", "Crane Work"]);
  });

  it("tells the same set of services in another order or case from a real change", () => {
    expect(sameServices(["Stump Grinding", "Tree Trimming"], ["tree trimming", "Stump Grinding "])).toBe(true);
    expect(sameServices(["Stump Grinding"], ["Stump Grinding", "Tree Trimming"])).toBe(false);
  });

  it("takes a bare host as an https:// address, and still refuses what is not a web address", () => {
    const site = (website: string) => parse(form({ website }));
    expect(site("www.sierratreecare.example.com").data!.website).toBe("https://www.sierratreecare.example.com");
    expect(site("sierratreecare.example.com/about").data!.website).toBe("https://sierratreecare.example.com/about");
    expect(site("www.oak.example.com:8080").data!.website).toBe("https://www.oak.example.com:8080");
    expect(site("http://oak.example.com").data!.website).toBe("http://oak.example.com");
    for (const bad of [
      "javascript:alert(1)",
      "mailto:owner@example.com",
      "www.oak tree.com",
      "oak",
      "ftp://oak.example.com",
    ])
      expect(fieldErrors(site(bad).error!).website, bad).toBe(PROFILE_MESSAGES.website);
  });
});

// Thanksgiving 2026 is Thursday 26 November; noon in Austin is 18:00 UTC.
const THANKSGIVING_NOON = Date.parse("2026-11-26T18:00:00Z");
const WEEKDAYS_9_TO_5 = {
  monday: "9:00 AM - 5:00 PM",
  tuesday: "9:00 AM - 5:00 PM",
  wednesday: "9:00 AM - 5:00 PM",
  thursday: "9:00 AM - 5:00 PM",
  friday: "9:00 AM - 5:00 PM",
};
const ZONE = "America/Chicago";

describe("the owner's closures in the hours", () => {
  it("absent holidays = all of them, as before; a list narrows them; [] = open on every one", () => {
    expect(holidayClosure("2026-11-26")?.name).toBe("Thanksgiving Day");
    expect(holidayClosure("2026-11-26", ["Christmas Day"])).toBeNull();
    expect(holidayClosure("2026-12-25", ["Christmas Day"])?.name).toBe("Christmas Day");
    expect(openState(WEEKDAYS_9_TO_5, ZONE, THANKSGIVING_NOON).open).toBe(false);
    expect(openState(WEEKDAYS_9_TO_5, ZONE, THANKSGIVING_NOON, false, { closedHolidays: [] }).open).toBe(true);
    expect(openState(WEEKDAYS_9_TO_5, ZONE, THANKSGIVING_NOON, false, { closedHolidays: ["Christmas Day"] }).open).toBe(
      true,
    );
    expect(closingHolidaysOf({})).toEqual(CLOSING_HOLIDAYS);
    expect(closingHolidaysOf({ closedHolidays: ["Christmas Day", "New Year's Day"] })).toEqual([
      "New Year's Day",
      "Christmas Day",
    ]);
  });

  it("a closed day closes the business whatever its hours, 24/7 included, and says why", () => {
    const friday = Date.parse("2026-11-27T18:00:00Z");
    const closures = { closedDates: [{ date: "2026-11-27", note: "Staff training" }] };
    expect(openState(WEEKDAYS_9_TO_5, ZONE, friday).open).toBe(true);
    const state = openState(WEEKDAYS_9_TO_5, ZONE, friday, false, closures);
    expect(state.open).toBe(false);
    expect(state.closedDate).toBe("Staff training");
    const always = {
      monday: "Open 24 hours",
      tuesday: "Open 24 hours",
      wednesday: "Open 24 hours",
      thursday: "Open 24 hours",
      friday: "Open 24 hours",
      saturday: "Open 24 hours",
      sunday: "Open 24 hours",
    };
    expect(openState(always, ZONE, friday, false, closures).open).toBe(false);
    expect(openFromSpans(weeklySpans(WEEKDAYS_9_TO_5), ZONE, friday, false, closures)).toBe(false);
    expect(openFromSpans(weeklySpans(WEEKDAYS_9_TO_5), ZONE, friday, false, { closedDates: [] })).toBe(true);
  });

  it("the page's cache ends when a closed day begins", () => {
    // 23:30 on Thursday 26 Nov in Austin (a normal day for a business open on Thanksgiving 24/7).
    const always = Object.fromEntries(
      ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((d) => [d, "Open 24 hours"]),
    );
    const lateThursday = Date.parse("2026-11-27T05:30:00Z");
    expect(nextOpenStateChange(always, ZONE, lateThursday, 60, false, { closedDates: [{ date: "2026-11-27" }] })).toBe(
      Date.parse("2026-11-27T06:00:00Z"),
    );
  });

  it("lists upcoming closed days only, soonest first", () => {
    const closures = {
      closedDates: [{ date: "2026-12-31" }, { date: "2026-11-01" }, { date: "2026-12-24", note: "Eve" }],
    };
    expect(upcomingClosedDates(closures, "2026-11-28")).toEqual([
      { date: "2026-12-24", note: "Eve" },
      { date: "2026-12-31" },
    ]);
    expect(specialClosures(closures, "2026-11-28")).toEqual([
      {
        "@type": "OpeningHoursSpecification",
        validFrom: "2026-12-24",
        validThrough: "2026-12-24",
        opens: "00:00",
        closes: "00:00",
      },
      {
        "@type": "OpeningHoursSpecification",
        validFrom: "2026-12-31",
        validThrough: "2026-12-31",
        opens: "00:00",
        closes: "00:00",
      },
    ]);
  });

  it("the JSON-LD has no special hours without closed days", () => {
    const business = {
      id: "biz-1",
      name: "Oak",
      slug: "oak",
      description: "",
      city: "Austin",
      state: "TX",
      zipCode: "78701",
      address: "",
      rating: "0.0",
      reviewCount: 0,
      isFeatured: false,
      services: [],
      specialties: [],
      serviceAreas: [],
      images: [],
      businessHours: WEEKDAYS_9_TO_5,
      yearsInBusiness: 1,
    } satisfies Business;
    expect(businessJsonLd(business, [], "https://example.com/directory/oak", THANKSGIVING_NOON)).not.toHaveProperty(
      "specialOpeningHoursSpecification",
    );
  });

  it("the near index's member carries the closures, so 'open now' agrees with the page", () => {
    const keys = keyspace("t:");
    const profile = {
      id: "biz-1",
      location: { lat: 30.27, lng: -97.74 },
      services: [],
      businessHours: WEEKDAYS_9_TO_5,
      closedHolidays: [] as string[],
      closedDates: [{ date: "2026-12-24" }],
    };
    const member = JSON.parse(nearPlan(profile, keys)!.member) as unknown[];
    expect(member[4]).toEqual([[], ["2026-12-24"]]);
    const plain = JSON.parse(
      nearPlan({ ...profile, closedHolidays: undefined, closedDates: undefined }, keys)!.member,
    ) as unknown[];
    expect(plain).toHaveLength(4);
  });

  it("the business page lists the holidays it closes on and its upcoming closed days", () => {
    const html = renderToStaticMarkup(
      createElement(HoursTable, {
        business: {
          businessHours: WEEKDAYS_9_TO_5,
          closedHolidays: ["Thanksgiving Day", "Christmas Day"],
          closedDates: [{ date: "2026-12-24", note: "Christmas Eve" }, { date: "2026-01-02" }],
        },
        now: THANKSGIVING_NOON,
      }),
    );
    expect(html).toContain("Closed today for Thanksgiving Day.");
    expect(html).toContain("Closed on Thanksgiving Day and Christmas Day (and the weekdays they are observed on).");
    expect(html).toContain('<time dateTime="2026-12-24">Thursday, December 24, 2026</time>: Christmas Eve');
    expect(html).not.toContain("2026-01-02");
    const open = renderToStaticMarkup(
      createElement(HoursTable, {
        business: { businessHours: WEEKDAYS_9_TO_5, closedHolidays: [] },
        now: THANKSGIVING_NOON,
      }),
    );
    expect(open).toContain("Open on public holidays.");
    expect(open).not.toContain("Closed today");
  });
});

describe("keepUntouchedDays", () => {
  const split = "7:00 AM - 12:00 PM, 1:00 PM - 5:00 PM";
  const stored = { monday: split, tuesday: "8:00 AM - 4:00 PM" };
  const shown = (d: "monday" | "tuesday" | "sunday") => dayFields(stored[d as keyof typeof stored]);

  it("keeps a day with a break when the owner left it as the form showed it", () => {
    const posted = {
      monday: shown("monday"),
      tuesday: { mode: "open", open: "09:00", close: "17:00" },
      sunday: shown("sunday"),
    };
    const next = { monday: "7:00 AM - 12:00 PM", tuesday: "9:00 AM - 5:00 PM" };
    expect(keepUntouchedDays(stored, posted, next)).toEqual({ monday: split, tuesday: "9:00 AM - 5:00 PM" });
  });

  it("replaces it once the owner changes its times or closes it", () => {
    const next = { monday: "7:00 AM - 3:00 PM" };
    expect(keepUntouchedDays(stored, { monday: { mode: "open", open: "07:00", close: "15:00" } }, next).monday).toBe(
      "7:00 AM - 3:00 PM",
    );
    expect(keepUntouchedDays(stored, { monday: { mode: "closed", open: "", close: "" } }, {}).monday).toBeUndefined();
  });

  it("says a stored break is there and how to keep it", () => {
    expect(splitDayNote(split)).toContain(split);
  });
});
