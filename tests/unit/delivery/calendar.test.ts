/**
 * Accepted jobs as iCalendar (RFC 5545): the window a pro typed read as days and times in the
 * job's time zone (DST included), and the text every calendar reads: CRLF lines folded at 75
 * octets without splitting a character, TEXT escaping, UID and DTSTAMP, parsed back with
 * ical.js (an independent iCalendar parser).
 */
import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { businessEvent, visitEvents } from "../../../netlify/lib/delivery/calendar.ts";
import { escapeText, foldLine, icsCalendar } from "../../../netlify/lib/delivery/ical.ts";
import { jobWindow, windowTimes } from "../../../netlify/lib/delivery/job-window.ts";
import { dayNumber } from "../../../netlify/lib/delivery/review-time.ts";
import { signer } from "../../../netlify/lib/delivery/signing.ts";
import { parseEnv } from "../../../src/lib/env.ts";
import type { Delivery, Lead } from "../../../src/lib/schemas/lead.ts";

const env = parseEnv({ SITE_URL: "https://treeline.example" });
const H = 60;

/** A booking accepted at `acceptedAt` (ISO) by one business with `window`, in `timeZone`. */
function accepted(window: string | undefined, acceptedAt: string, timeZone = "America/Chicago", data = {}): Lead {
  const delivery: Delivery = {
    businessId: "biz-1",
    name: "Oak & Sons, LLC",
    slug: "oak-and-sons",
    phone: "(512) 555-0100",
    offeredAt: acceptedAt,
    deadlineAt: acceptedAt,
    state: "accepted",
    answeredAt: acceptedAt,
    ...(window ? { window } : {}),
    price: "$650",
  };
  return {
    id: "ld_0000000000000000000a",
    type: "booking",
    createdAt: acceptedAt,
    sourcePage: "/directory/oak-and-sons",
    reference: "TL-7KQ2-9F",
    status: "accepted",
    timeZone,
    routing: { deliveries: [delivery], events: [{ at: acceptedAt, kind: "accepted", businessId: "biz-1" }] },
    data: {
      customerName: "Bob Smith",
      customerEmail: "bob@example.com",
      customerPhone: "512-555-0123",
      propertyAddress: "12 Elm St, Austin, TX 78701",
      serviceType: "Tree Removal",
      ...data,
    },
  };
}
const only = (lead: Lead) => lead.routing!.deliveries[0]!;

describe("the window a pro typed, as a calendar holds it", () => {
  it("reads time ranges and single times, never a bare number", () => {
    expect(windowTimes("Sat 8-10 AM")).toEqual({ start: 8 * H, end: 10 * H });
    expect(windowTimes("Today 4-6 PM")).toEqual({ start: 16 * H, end: 18 * H });
    expect(windowTimes("tomorrow 11-1 pm")).toEqual({ start: 11 * H, end: 13 * H });
    expect(windowTimes("12/3 9:30 AM - 12 PM")).toEqual({ start: 9 * H + 30, end: 12 * H });
    expect(windowTimes("Fri 8am to noon")).toEqual({ start: 8 * H, end: 12 * H });
    expect(windowTimes("Mon 14:00-16:30")).toEqual({ start: 14 * H, end: 16 * H + 30 });
    expect(windowTimes("Thursday at 9 a.m.")).toEqual({ start: 9 * H });
    expect(windowTimes("Dec 3-5")).toBeNull();
    expect(windowTimes("2026-12-03")).toBeNull();
    expect(windowTimes("Sat 9")).toBeNull();
  });

  it("one day with times is timed in the job's zone, across a DST change; days without times are all-day", () => {
    // Accepted Thu Oct 29 2026 (Chicago on CDT, UTC-5); Sat Oct 31 is still CDT.
    const cdt = jobWindow(
      accepted("Sat 8-10 AM", "2026-10-29T15:00:00Z"),
      only(accepted("Sat 8-10 AM", "2026-10-29T15:00:00Z")),
    );
    expect(cdt).toEqual({
      kind: "timed",
      start: Date.parse("2026-10-31T13:00:00Z"),
      end: Date.parse("2026-10-31T15:00:00Z"),
      timeZone: "America/Chicago",
    });
    // Mon Nov 2, after the change to CST (UTC-6) on Nov 1: the same wall clock is an hour later in UTC.
    const cstLead = accepted("Mon 8-10 AM", "2026-10-29T15:00:00Z");
    expect(jobWindow(cstLead, only(cstLead))).toMatchObject({ start: Date.parse("2026-11-02T14:00:00Z") });
    // Another zone: Los Angeles.
    const la = accepted("Tomorrow 4-6 PM", "2026-12-01T20:00:00Z", "America/Los_Angeles");
    expect(jobWindow(la, only(la))).toMatchObject({
      start: Date.parse("2026-12-03T00:00:00Z"),
      end: Date.parse("2026-12-03T02:00:00Z"),
    });
    const days = accepted("Dec 3-5", "2026-12-01T20:00:00Z");
    expect(jobWindow(days, only(days))).toEqual({
      kind: "days",
      first: dayNumber(2026, 12, 3),
      last: dayNumber(2026, 12, 5),
    });
    // No day named: the booking's preferred date; nothing to go by: no calendar entry.
    const booked = accepted("mornings", "2026-12-01T20:00:00Z", "America/Chicago", { preferredDate: "2026-12-10" });
    expect(jobWindow(booked, only(booked))).toEqual({
      kind: "days",
      first: dayNumber(2026, 12, 10),
      last: dayNumber(2026, 12, 10),
    });
    const vague = accepted("As soon as we can", "2026-12-01T20:00:00Z");
    expect(jobWindow(vague, only(vague))).toBeNull();
    // A job not (or no longer) held has no window.
    expect(jobWindow(cstLead, { ...only(cstLead), state: "withdrawn" })).toBeNull();
  });
});

describe("iCalendar text", () => {
  it("escapes TEXT and folds long lines at 75 octets without splitting a character", () => {
    expect(escapeText("a\\b;c,d\ne")).toBe("a\\\\b\\;c\\,d\\ne");
    const long = `DESCRIPTION:${"Pruning the big ".repeat(5)}— 🌳 oak — ${"é".repeat(60)}`;
    const folded = foldLine(long);
    const lines = folded.split("\r\n");
    expect(lines.length).toBeGreaterThan(1);
    for (const [i, line] of lines.entries()) {
      expect(Buffer.byteLength(line, "utf8")).toBeLessThanOrEqual(75);
      if (i > 0) expect(line.startsWith(" ")).toBe(true);
    }
    expect(lines.map((l, i) => (i === 0 ? l : l.slice(1))).join("")).toBe(long);
    // Control characters never reach the text; a newline is escaped, a tab becomes a space.
    const odd = icsCalendar({
      name: "x",
      now: 0,
      events: [{ uid: "u@x", window: { kind: "days", first: 0, last: 0 }, summary: "a\u0007b\tc\nd" }],
    });
    expect(odd).toContain("SUMMARY:a b c\\nd\r\n");
  });

  it("a business's feed parses with ical.js and lists the accepted window, in UTC, with UID and DTSTAMP", () => {
    const lead = accepted("Sat 8-10 AM; bring the chipper, please", "2026-10-29T15:00:00Z");
    const event = businessEvent(lead, only(lead), env)!;
    const allDay = accepted("Dec 3-5", "2026-12-01T20:00:00Z");
    const text = icsCalendar({
      name: "Oak & Sons, LLC: jobs from Treeline",
      events: [event, { ...businessEvent(allDay, only(allDay), env)!, uid: "job-2@treeline.example" }],
      now: Date.parse("2026-10-29T16:00:00Z"),
    });
    // CRLF only, ending in one; no line over 75 octets.
    expect(text.endsWith("\r\n")).toBe(true);
    expect(text.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    for (const line of text.split("\r\n")) expect(Buffer.byteLength(line, "utf8")).toBeLessThanOrEqual(75);

    const calendar = new ICAL.Component(ICAL.parse(text));
    expect(calendar.getFirstPropertyValue("version")).toBe("2.0");
    expect(calendar.getFirstPropertyValue("prodid")).toBeTruthy();
    // An X- property is not typed by the parser: its raw value keeps the TEXT escape.
    expect(calendar.getFirstPropertyValue("x-wr-calname")).toBe("Oak & Sons\\, LLC: jobs from Treeline");
    const [timed, days] = calendar.getAllSubcomponents("vevent").map((v) => new ICAL.Event(v));
    expect(timed!.uid).toBe(`job-${lead.id}-biz-1@treeline.example`);
    expect(timed!.component.getFirstPropertyValue("dtstamp")!.toString()).toBe("2026-10-29T16:00:00Z");
    expect(timed!.startDate.toJSDate().toISOString()).toBe("2026-10-31T13:00:00.000Z");
    expect(timed!.endDate.toJSDate().toISOString()).toBe("2026-10-31T15:00:00.000Z");
    expect(timed!.summary).toBe("Bob Smith: Booking: Tree Removal");
    expect(timed!.location).toBe("12 Elm St, Austin, TX 78701");
    expect(timed!.description).toBe(
      [
        "Booking: Tree Removal, Bob Smith (TL-7KQ2-9F)",
        "Window: Sat 8-10 AM; bring the chipper, please",
        "Price: $650",
        "Phone: 512-555-0123",
        "E-mail: bob@example.com",
      ].join("\n"),
    );
    expect(days!.startDate.isDate).toBe(true);
    expect(days!.startDate.toString()).toBe("2026-12-03");
    expect(days!.endDate.toString()).toBe("2026-12-06");
  });

  it("the homeowner's file names the pro, its window and the status page", () => {
    const lead = accepted("Sat 8-10 AM", "2026-10-29T15:00:00Z");
    const statusUrl = `https://treeline.example${signer("k".repeat(32)).statusPath(lead.id)}`;
    const text = icsCalendar({ name: "Your tree job", events: visitEvents(lead, statusUrl, env), now: Date.now() });
    const [event] = new ICAL.Component(ICAL.parse(text)).getAllSubcomponents("vevent").map((v) => new ICAL.Event(v));
    expect(event!.summary).toBe("Tree service: Oak & Sons, LLC");
    expect(event!.startDate.toJSDate().toISOString()).toBe("2026-10-31T13:00:00.000Z");
    expect(event!.description).toContain(`Your request: ${statusUrl}`);
    expect(event!.component.getFirstPropertyValue("url")).toBe(statusUrl);
    // Nothing accepted with a day: no event.
    expect(visitEvents(accepted("whenever suits", "2026-10-29T15:00:00Z"), statusUrl, env)).toEqual([]);
  });
});
