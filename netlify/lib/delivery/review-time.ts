/**
 * When a visitor may be asked to review a business that took their job: once the job should
 * be done. Its day comes from the pro's own answer when the window it gave names a day
 * ("Tomorrow 8-10 AM", "Sat", "Dec 3", "12/3"), else from the booking's preferred date, and
 * the invitation goes when that day is over in the job's time zone; with no day to go by, a
 * few days after the acceptance. The homeowner's "The job is done" brings it forward to that
 * moment. The invitation is sent then (compose.ts), and only from then on can the review it
 * leads to be Verified (review-invite.ts).
 */
import { DEFAULT_TIME_ZONE, zoneParts } from "../../../src/lib/hours.ts";
import type { Delivery, Lead } from "../../../src/lib/schemas/lead.ts";
import { completedAt } from "./routing.ts";

const DAY_MS = 24 * 60 * 60_000;
/** With no day to go by, the visitor is asked this long after the acceptance. */
export const REVIEW_INVITE_DELAY_MS = 3 * DAY_MS;
/** A day named further out than this from the acceptance is not taken as the job's day. */
export const MAX_JOB_DAYS_AHEAD = 180;

/** Days since 1970-01-01 of a calendar date; null when there is no such date. */
export function dayNumber(year: number, month: number, day: number): number | null {
  const t = new Date(Date.UTC(year, month - 1, day));
  if (t.getUTCFullYear() !== year || t.getUTCMonth() !== month - 1 || t.getUTCDate() !== day) return null;
  return Math.round(t.getTime() / DAY_MS);
}

const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];
const MONTH =
  "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)(?![a-z])\\.?";
const ORDINAL = "(?:st|nd|rd|th)?";
/** "1/2 day", "3/4 acre": fractions, not dates (nor a clock time). */
const NOT_A_FRACTION = "(?!\\s*(?:day|hour|hr|acre|mile|inch|in\\b|ft|foot|feet|%|am|pm))";

/** The calendar day (a day number) and weekday (0 = Sunday) at `at` in `timeZone`. */
export function localDay(at: number, timeZone: string): { day: number; weekday: number; year: number } {
  const p = zoneParts(at, timeZone);
  const year = Number(p.year);
  return {
    day: dayNumber(year, Number(p.month), Number(p.day)) ?? Math.floor(at / DAY_MS),
    weekday: WEEKDAYS.indexOf((p.weekday ?? "").toLowerCase()),
    year,
  };
}

/**
 * The instant a local wall-clock time (minute `minute` of day `day`) happens in `timeZone`,
 * whatever its offset that day (a DST change included).
 */
export function zonedInstant(day: number, minute: number, timeZone: string): number {
  const wall = day * DAY_MS + minute * 60_000;
  let at = wall;
  // Twice: the offset at a first guess may differ from the one at that time (a DST change that day).
  for (let i = 0; i < 2; i++) {
    const p = zoneParts(at, timeZone);
    const clock = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute));
    at = wall - (clock - Math.floor(at / 60_000) * 60_000);
  }
  return at;
}

/** The instant a local calendar day begins in `timeZone` (its midnight, whatever the offset). */
export function startOfDay(day: number, timeZone: string): number {
  return zonedInstant(day, 0, timeZone);
}

/**
 * Every day a pro's window names (day numbers, ascending, once each), read from `from`'s day
 * in `timeZone`: as windowDay reads them, without the days before `from` or too far ahead.
 */
export function windowDays(text: string, from: number, timeZone: string = DEFAULT_TIME_ZONE): number[] {
  const today = localDay(from, timeZone);
  const fit = namedDays(text, today).filter((d) => d >= today.day && d <= today.day + MAX_JOB_DAYS_AHEAD);
  return [...new Set(fit)].toSorted((a, b) => a - b);
}

/**
 * The last day a pro's window names (a day number), read from `from`'s day in `timeZone`:
 * "today", "tonight", "tomorrow", a weekday (the next one, today included; "next" skips
 * today), "2026-12-03", "12/3" or "12/3/26", "Dec 3", "December 3rd-5th", "3 Dec". A date
 * without a year is the next one to come. Null when it names no day, or only days before
 * `from` or more than MAX_JOB_DAYS_AHEAD after it.
 */
export function windowDay(text: string, from: number, timeZone: string = DEFAULT_TIME_ZONE): number | null {
  const days = windowDays(text, from, timeZone);
  return days.length === 0 ? null : days[days.length - 1]!;
}

/** The days a window's text names, seen from `today` (a date without a year is the next one to come). */
function namedDays(text: string, today: ReturnType<typeof localDay>): number[] {
  const t = text.toLowerCase();
  const days: number[] = [];
  /** A month and day without a year: this year's, or next year's once this year's has passed. */
  const coming = (month: number, day: number) => {
    const now = dayNumber(today.year, month, day);
    return now !== null && now < today.day ? dayNumber(today.year + 1, month, day) : now;
  };
  const add = (day: number | null) => day !== null && days.push(day);
  const monthOf = (name: string) => "janfebmaraprmayjunjulaugsepoctnovdec".indexOf(name.slice(0, 3)) / 3 + 1;

  for (const m of t.matchAll(/\b(\d{4})-(\d{1,2})-(\d{1,2})\b/g)) add(dayNumber(+m[1]!, +m[2]!, +m[3]!));
  for (const m of t.matchAll(new RegExp(`\\b(\\d{1,2})/(\\d{1,2})(?:/(\\d{4}|\\d{2}))?\\b${NOT_A_FRACTION}`, "g"))) {
    const year = m[3] ? (m[3].length === 2 ? 2000 + Number(m[3]) : Number(m[3])) : null;
    add(year === null ? coming(+m[1]!, +m[2]!) : dayNumber(year, +m[1]!, +m[2]!));
  }
  const monthFirst = new RegExp(
    `\\b${MONTH}\\s+(\\d{1,2})${ORDINAL}(?:\\s*(?:-|–|to|through|thru)\\s*(\\d{1,2})${ORDINAL}(?!\\s*(?:am|pm|a\\.m|p\\.m|:|\\d)))?(?:,?\\s+(\\d{4}))?\\b`,
    "g",
  );
  for (const m of t.matchAll(monthFirst)) {
    const month = monthOf(m[1]!);
    // "Dec 3-5": every day from the first to the last (at most a month's worth).
    const from = Number(m[2]);
    const to = Math.max(from, Math.min(Number(m[3] ?? m[2]), from + 31));
    for (let day = from; day <= to; day++) add(m[4] ? dayNumber(Number(m[4]), month, day) : coming(month, day));
  }
  for (const m of t.matchAll(new RegExp(`\\b(\\d{1,2})${ORDINAL}\\s+(?:of\\s+)?${MONTH}(?!\\s*\\d)`, "g")))
    add(coming(monthOf(m[2]!), Number(m[1])));
  if (/\b(today|tonight|this (morning|afternoon|evening))\b/.test(t)) add(today.day);
  if (/\btomorrow\b/.test(t)) add(today.day + 1);
  const weekday = /\b(next\s+)?(sun|mon|tue|tues|wed|thu|thur|thurs|fri|sat)(?:day|nesday|rsday|sday|urday)?\b/g;
  for (const m of t.matchAll(weekday)) {
    const target = WEEKDAYS.findIndex((w) => w.startsWith(m[2]!));
    if (target < 0 || today.weekday < 0) continue;
    const ahead = (target - today.weekday + 7) % 7;
    add(today.day + (ahead === 0 && m[1] ? 7 : ahead));
  }
  return days;
}

/** A booking's preferred date ("YYYY-MM-DD") as a day number. */
export function bookedDay(lead: Lead): number | null {
  const date = (lead.data as Record<string, unknown> | null)?.preferredDate;
  const m = typeof date === "string" ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(date) : null;
  return m ? dayNumber(+m[1]!, +m[2]!, +m[3]!) : null;
}

/** What the invitation's time goes by. */
export type ReviewBasis = "done" | "window" | "booked" | "default";

/** When the business accepted the job (its accepted event; else its first answer). */
export function acceptedAt(lead: Lead, delivery: Delivery): number {
  const event = lead.routing?.events.find((e) => e.kind === "accepted" && e.businessId === delivery.businessId);
  return Date.parse(event?.at ?? delivery.answeredAt ?? delivery.offeredAt);
}

/**
 * When the visitor may be asked to review this business's job (ms), and what that goes by:
 * the end of the job's day (the pro's window, else the booked date) in the job's zone, or the
 * default delay after the acceptance; the homeowner's "done" when it comes sooner. Null for a
 * job the business does not hold (never accepted, or given back).
 */
export function reviewTime(lead: Lead, delivery: Delivery): { at: number; basis: ReviewBasis } | null {
  if (delivery.state !== "accepted") return null;
  const timeZone = lead.timeZone ?? DEFAULT_TIME_ZONE;
  const accepted = acceptedAt(lead, delivery);
  const today = localDay(accepted, timeZone).day;
  const fromWindow = delivery.window ? windowDay(delivery.window, accepted, timeZone) : null;
  const booked = bookedDay(lead);
  // A booked day already gone when the pro accepted says nothing about when the job is done.
  const fromBooking = booked !== null && booked >= today && booked <= today + MAX_JOB_DAYS_AHEAD ? booked : null;
  const day = fromWindow ?? fromBooking;
  const scheduled =
    day !== null
      ? { at: startOfDay(day + 1, timeZone), basis: fromWindow !== null ? ("window" as const) : ("booked" as const) }
      : { at: accepted + REVIEW_INVITE_DELAY_MS, basis: "default" as const };
  const done = completedAt(lead, delivery.businessId);
  return done && Date.parse(done) < scheduled.at ? { at: Date.parse(done), basis: "done" } : scheduled;
}
