/**
 * What can happen to a job once a business accepted it, as pure steps: only that business
 * has the customer's number (the call), it can give the job back with a reason (the lead then
 * moves on as after a decline, its response time untouched), the homeowner can say the job is
 * done; and when the review invitation goes (review-time.ts), how a waiting one follows the
 * lead (rescheduled), and what a business sees of the job before it accepts (jobArea).
 */
import { describe, expect, it } from "vitest";
import { INVITE_WITHDRAWN_NOTE, composeMessages, rescheduled } from "../../../netlify/lib/delivery/compose.ts";
import {
  MAX_JOB_DAYS_AHEAD,
  REVIEW_INVITE_DELAY_MS,
  reviewTime,
  startOfDay,
  windowDay,
} from "../../../netlify/lib/delivery/review-time.ts";
import {
  advance,
  applyAnswer,
  applyComplete,
  applyWithdraw,
  completedAt,
  initialRouting,
  needsNextPro,
  type Candidate,
} from "../../../netlify/lib/delivery/routing.ts";
import { signer } from "../../../netlify/lib/delivery/signing.ts";
import { firstName, jobArea } from "../../../netlify/lib/messages/job.ts";
import { leadPlaceOf } from "../../../netlify/lib/matching.ts";
import { placeInAddress } from "../../../src/lib/geo/places.ts";
import type { Lead } from "../../../src/lib/schemas/lead.ts";

/** Monday, Nov 30 2026, 10:00 in Chicago. */
const T0 = Date.parse("2026-11-30T16:00:00Z");
const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const iso = (ms: number) => new Date(ms).toISOString();
const pro = (n: number): Candidate => ({
  businessId: `biz-00${n}`,
  name: `Pro ${n}`,
  slug: `pro-${n}`,
  email: "p@x.test",
});

function lead(type: Lead["type"], candidates: Candidate[], data: Record<string, unknown> = {}): Lead {
  return {
    id: "ld_0mwxxarwz03o87sx46n",
    type,
    createdAt: iso(T0),
    sourcePage: "/",
    reference: "TL-7KQ2-9F",
    urgency: "routine",
    status: "new",
    routing: initialRouting(candidates, "routine", T0),
    data: { location: "78701", serviceType: "Tree Removal", customerEmail: "v@x.test", ...data },
  };
}
const accept = (l: Lead, id: string, at: number, window?: string) =>
  applyAnswer(l, id, { kind: "accept", ...(window ? { window } : {}) }, at).lead!;

describe("the customer's number", () => {
  it("is only the accepting business's to call", () => {
    const l = lead("booking", [pro(1)]);
    expect(applyAnswer(l, "biz-001", { kind: "call" }, T0 + MIN)).toEqual({ lead: null, outcome: "closed" });
    const declined = applyAnswer(l, "biz-001", { kind: "decline", reason: "too-far" }, T0 + MIN).lead!;
    expect(applyAnswer(declined, "biz-001", { kind: "call" }, T0 + 2 * MIN).outcome).toBe("closed");
    const called = applyAnswer(accept(l, "biz-001", T0 + MIN), "biz-001", { kind: "call" }, T0 + 2 * MIN);
    expect(called.outcome).toBe("applied");
    const withdrawn = applyWithdraw(accept(l, "biz-001", T0 + MIN), "biz-001", "other", T0 + 2 * MIN).lead!;
    expect(applyAnswer(withdrawn, "biz-001", { kind: "call" }, T0 + 3 * MIN).outcome).toBe("closed");
  });
});

describe("giving an accepted job back", () => {
  it("needs an acceptance; keeps the first answer's time; once only; no answer after it", () => {
    const l = lead("booking", [pro(1)]);
    expect(applyWithdraw(l, "biz-001", "cant-make-it", T0 + MIN)).toEqual({ lead: null, outcome: "closed" });
    expect(applyWithdraw(l, "biz-009", "cant-make-it", T0 + MIN).outcome).toBe("closed");
    const held = accept(l, "biz-001", T0 + 5 * MIN, "Sat");
    const { lead: back, outcome } = applyWithdraw(held, "biz-001", "customer-unreachable", T0 + DAY);
    expect(outcome).toBe("applied");
    expect(back!.routing!.deliveries[0]).toMatchObject({
      state: "withdrawn",
      reason: "customer-unreachable",
      withdrawnAt: iso(T0 + DAY),
      answeredAt: iso(T0 + 5 * MIN),
    });
    expect(back!.routing!.events.at(-1)).toEqual({
      at: iso(T0 + DAY),
      kind: "withdrawn",
      businessId: "biz-001",
      reason: "customer-unreachable",
    });
    expect(applyWithdraw(back!, "biz-001", "other", T0 + DAY + MIN)).toEqual({ lead: null, outcome: "repeated" });
    expect(applyAnswer(back!, "biz-001", { kind: "accept" }, T0 + DAY + MIN).outcome).toBe("closed");
  });

  it("moves the lead on as after a decline: the operator for a booking, the next pro for find-pros", () => {
    const booking = applyWithdraw(
      accept(lead("booking", [pro(1)]), "biz-001", T0 + MIN),
      "biz-001",
      "other",
      T0 + DAY,
    ).lead!;
    const handed = advance(booking, T0 + DAY)!;
    expect(handed.routing!.escalatedAt).toBe(iso(T0 + DAY));
    expect(handed.routing!.events.at(-1)).toMatchObject({ kind: "escalated", reason: "withdrawn" });

    let pros = lead("find-pros", [pro(1), pro(2)]);
    pros = applyAnswer(pros, "biz-002", { kind: "decline", reason: "too-busy" }, T0 + MIN).lead!;
    pros = applyWithdraw(accept(pros, "biz-001", T0 + 2 * MIN), "biz-001", "not-as-described", T0 + 3 * MIN).lead!;
    expect(needsNextPro(pros, T0 + 3 * MIN)).toBe(true);
    const next = advance(pros, T0 + 3 * MIN, pro(3))!;
    expect(next.routing!.deliveries.map((d) => d.state)).toEqual(["withdrawn", "declined", "waiting"]);
    expect(next.routing!.events.at(-1)).toMatchObject({ kind: "offered", businessId: "biz-003", reason: "next-pro" });
  });
});

describe('the homeowner\'s "The job is done"', () => {
  it("is for a job a business holds, once", () => {
    const l = lead("booking", [pro(1)]);
    expect(applyComplete(l, "biz-001", T0)).toEqual({ lead: null, outcome: "closed" });
    const held = accept(l, "biz-001", T0 + MIN);
    const done = applyComplete(held, "biz-001", T0 + DAY);
    expect(done.outcome).toBe("applied");
    expect(completedAt(done.lead!, "biz-001")).toBe(iso(T0 + DAY));
    expect(done.lead!.routing!.deliveries).toEqual(held.routing!.deliveries);
    expect(applyComplete(done.lead!, "biz-001", T0 + 2 * DAY)).toEqual({ lead: null, outcome: "repeated" });
  });
});

describe("the review invitation's time", () => {
  const day = (date: string) => Math.round(Date.parse(`${date}T00:00:00Z`) / DAY);
  const read = (text: string, from = T0) => {
    const d = windowDay(text, from, "America/Chicago");
    return d === null ? null : iso(d * DAY).slice(0, 10);
  };

  it("reads the day a pro's window names, from the acceptance's day in the job's zone", () => {
    expect(read("Today 4-6 PM")).toBe("2026-11-30");
    expect(read("tonight")).toBe("2026-11-30");
    expect(read("Tomorrow 8-10 AM")).toBe("2026-12-01");
    expect(read("Thursday morning")).toBe("2026-12-03");
    expect(read("Mon")).toBe("2026-11-30");
    expect(read("next Monday")).toBe("2026-12-07");
    expect(read("Dec 3")).toBe("2026-12-03");
    expect(read("December 3rd-5th")).toBe("2026-12-05");
    expect(read("Dec 3, 4-6 PM")).toBe("2026-12-03");
    expect(read("3 Dec")).toBe("2026-12-03");
    expect(read("12/3")).toBe("2026-12-03");
    expect(read("12/3/26")).toBe("2026-12-03");
    expect(read("2026-12-10 or 2026-12-11")).toBe("2026-12-11");
    expect(read("Jan 5")).toBe("2027-01-05");
    // No day, or not one to go by: fractions, times, words that only look like months or days.
    for (const none of ["8-10 AM", "ASAP", "1/2 day", "3/4 acre", "maybe 3 crew", "3 decks", "wedding", "Nov 1"])
      expect(read(none), none).toBeNull();
    // Late in the evening in Chicago is already tomorrow in UTC: "today" is still the local day.
    expect(read("today", Date.parse("2026-12-01T04:30:00Z"))).toBe("2026-11-30");
    expect(read("2027-09-01")).toBeNull(); // more than MAX_JOB_DAYS_AHEAD out
    expect(MAX_JOB_DAYS_AHEAD).toBe(180);
  });

  it("finds a day's start in a zone, DST included", () => {
    expect(iso(startOfDay(day("2026-12-04"), "America/Chicago"))).toBe("2026-12-04T06:00:00.000Z");
    expect(iso(startOfDay(day("2026-07-04"), "America/Chicago"))).toBe("2026-07-04T05:00:00.000Z");
    expect(iso(startOfDay(day("2026-03-08"), "America/New_York"))).toBe("2026-03-08T05:00:00.000Z");
    expect(iso(startOfDay(day("2026-03-09"), "America/New_York"))).toBe("2026-03-09T04:00:00.000Z");
    expect(iso(startOfDay(day("2026-12-04"), "America/Los_Angeles"))).toBe("2026-12-04T08:00:00.000Z");
  });

  it("goes when the job's day is over: the pro's day, else the booked one, else a few days on; sooner when done", () => {
    const booked = (preferredDate: string | undefined, window?: string, timeZone?: string) => {
      const l = {
        ...lead("booking", [pro(1)], preferredDate ? { preferredDate } : {}),
        ...(timeZone ? { timeZone } : {}),
      };
      const held = accept(l, "biz-001", T0, window);
      return { lead: held, time: reviewTime(held, held.routing!.deliveries[0]!) };
    };
    expect(booked("2026-12-03").time).toEqual({ at: Date.parse("2026-12-04T06:00:00Z"), basis: "booked" });
    // In the job's own zone: Miami's day ends an hour sooner.
    expect(booked("2026-12-03", undefined, "America/New_York").time!.at).toBe(Date.parse("2026-12-04T05:00:00Z"));
    expect(booked("2026-12-03", "Fri 8 AM").time).toEqual({ at: Date.parse("2026-12-05T06:00:00Z"), basis: "window" });
    expect(booked("2026-12-03", "8-10 AM").time!.basis).toBe("booked");
    // A booked day already gone when the pro accepted says nothing: the default.
    expect(booked("2026-11-20").time).toEqual({ at: T0 + REVIEW_INVITE_DELAY_MS, basis: "default" });
    expect(booked(undefined).time).toEqual({ at: T0 + REVIEW_INVITE_DELAY_MS, basis: "default" });

    const { lead: held } = booked("2026-12-03");
    const done = applyComplete(held, "biz-001", T0 + 2 * 60 * MIN).lead!;
    expect(reviewTime(done, done.routing!.deliveries[0]!)).toEqual({ at: T0 + 2 * 60 * MIN, basis: "done" });
    // Marked done after the day: the day stands (the invitation went then).
    const late = applyComplete(held, "biz-001", T0 + 10 * DAY).lead!;
    expect(reviewTime(late, late.routing!.deliveries[0]!)!.basis).toBe("booked");
    const back = applyWithdraw(held, "biz-001", "other", T0 + MIN).lead!;
    expect(reviewTime(back, back.routing!.deliveries[0]!)).toBeNull();
  });

  it("a waiting invitation is brought forward when the job is done, and stopped when the job is given back", () => {
    const ctx = {
      setup: { email: true, emailReady: true, operatorEmails: [], webhook: false, sms: false },
      signer: signer("x".repeat(40)),
      siteUrl: "https://treeline.test",
    };
    const held = accept(lead("booking", [pro(1)], { preferredDate: "2026-12-03" }), "biz-001", T0);
    const invite = (l: Lead) => composeMessages(l, ctx).filter((m) => m.kind === "review-invite");
    const stored = invite(held);
    expect(stored).toMatchObject([{ state: "queued", nextAttemptAt: "2026-12-04T06:00:00.000Z" }]);
    expect(rescheduled(stored, invite(held))).toEqual([]);

    const done = applyComplete(held, "biz-001", T0 + DAY).lead!;
    expect(rescheduled(stored, invite(done))).toEqual([{ ...stored[0], nextAttemptAt: iso(T0 + DAY) }]);

    const back = applyWithdraw(held, "biz-001", "cant-make-it", T0 + DAY).lead!;
    expect(invite(back)).toMatchObject([{ state: "kept", note: INVITE_WITHDRAWN_NOTE }]);
    const [stopped] = rescheduled(stored, invite(back));
    expect(stopped).toMatchObject({ id: stored[0]!.id, state: "kept", note: INVITE_WITHDRAWN_NOTE });
    expect(stopped!.nextAttemptAt).toBeUndefined();
    // One that went, or was tried, is history.
    expect(rescheduled([{ ...stored[0]!, state: "sent" }], invite(back))).toEqual([]);
    expect(rescheduled([{ ...stored[0]!, state: "retrying", attempts: 1 }], invite(done))).toEqual([]);
  });
});

describe("the job before a business accepts", () => {
  it("is its area, never its street address; the customer is a first name", () => {
    // The area is the place the lead kept when it arrived, read from its address.
    const areaOf = (address: string) => {
      const place = placeInAddress(address);
      return jobArea({ place: place ? leadPlaceOf(place) : undefined });
    };
    expect(areaOf("42 Pecan Lane, Austin TX")).toBe("Austin, TX");
    expect(areaOf("410 Oakmont Ct, San Antonio, TX")).toBe("San Antonio, TX");
    expect(areaOf("100 Brickell Ave, Miami, FL 33131")).toBe("Miami, FL 33131");
    expect(areaOf("12345 Main St, Austin TX 78701")).toBe("Austin, TX 78701");
    expect(areaOf("1 Main St Round Rock TX")).toBe("Round Rock, TX");
    expect(areaOf("233 S Wacker Dr, Chicago, IL")).toBe("Chicago, IL");
    expect(areaOf("78701")).toBe("Austin, TX 78701");
    expect(areaOf("Round Rock, TX")).toBe("Round Rock, TX");
    for (const street of ["42 Pecan Lane", "12345 Main St", "30.26,-97.74", ""])
      expect(areaOf(street), street).toBeUndefined();
    expect(firstName("  Bob   Booker ")).toBe("Bob");
    expect(firstName("Cher")).toBe("Cher");
  });
});
