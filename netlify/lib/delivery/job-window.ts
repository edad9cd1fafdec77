/**
 * When an accepted job happens, as a calendar can hold it: read from the window the pro typed
 * when accepting ("Sat 8-10 AM", "Tomorrow 4-6 PM", "Dec 3-5", "12/3 9:30 AM"), else the
 * booking's preferred date, in the job's time zone. One named day with a time range is a timed
 * event (a single time, an event that starts then); otherwise the days named are all-day
 * events. A window that names no day (and no booked day to go by) has no place in a calendar:
 * null, and the pro's words stay on its page.
 */
import { DEFAULT_TIME_ZONE } from "../../../src/lib/hours.ts";
import type { Delivery, Lead } from "../../../src/lib/schemas/lead.ts";
import { MAX_JOB_DAYS_AHEAD, acceptedAt, bookedDay, localDay, windowDays, zonedInstant } from "./review-time.ts";

export type JobWindow =
  /** From `start` to `end` (ms; none: a single time), on one local day. */
  | { kind: "timed"; start: number; end?: number; timeZone: string }
  /** Whole days, `first` to `last` (day numbers since 1970-01-01, local to the job). */
  | { kind: "days"; first: number; last: number };

const MERIDIEM = "(a\\.?m\\.?|p\\.?m\\.?)";
const TIME = `(noon|midnight|\\d{1,2}(?::[0-5]\\d)?)\\s*${MERIDIEM}?`;
const RANGE = new RegExp(`(?<![\\d/:])${TIME}\\s*(?:-|–|—|to|until|till|thru|through)\\s*${TIME}(?![\\d/])`, "i");
const SINGLE = new RegExp(`(?<![\\d/:])${TIME}(?![\\d/])`, "i");

interface ClockTime {
  hour: number;
  minute: number;
  /** "am" or "pm" when said (noon and midnight say it themselves); null for a bare number. */
  meridiem: "am" | "pm" | null;
  /** Written as hh:mm (a 24-hour time when it has no meridiem). */
  colon: boolean;
}

function clockOf(token: string, meridiem: string | undefined): ClockTime | null {
  const t = token.toLowerCase();
  if (t === "noon") return { hour: 12, minute: 0, meridiem: "pm", colon: false };
  if (t === "midnight") return { hour: 0, minute: 0, meridiem: "am", colon: false };
  const [h = "", m = "0"] = t.split(":");
  const hour = Number(h);
  const minute = Number(m);
  const said = meridiem ? (meridiem.toLowerCase().startsWith("a") ? "am" : "pm") : null;
  if (said ? hour < 1 || hour > 12 : hour > 23) return null;
  return { hour, minute, meridiem: said, colon: t.includes(":") };
}

/** Minutes after midnight; a bare number takes `fallback`'s meridiem. Null when it cannot be read. */
function minutesOf(c: ClockTime, fallback: "am" | "pm" | null): number | null {
  const meridiem = c.meridiem ?? fallback;
  if (!meridiem) return c.colon ? c.hour * 60 + c.minute : null;
  if (c.hour > 12) return null;
  return ((c.hour % 12) + (meridiem === "pm" ? 12 : 0)) * 60 + c.minute;
}

/**
 * The time of day a window names, in minutes after midnight: a range ("8-10 AM", "11-1 PM",
 * "9:30 AM - 12 PM", "8am to noon", "14:00-16:30") or a single time ("at 9 AM"). A bare number
 * is no time ("Dec 3-5" are days), so a range needs a meridiem or both times in hh:mm.
 */
export function windowTimes(text: string): { start: number; end?: number } | null {
  const range = RANGE.exec(text);
  if (range) {
    const a = clockOf(range[1]!, range[2]);
    const b = clockOf(range[3]!, range[4]);
    if (a && b) {
      const end = minutesOf(b, a.meridiem);
      let start = minutesOf(a, b.meridiem);
      // "11-1 PM": the first time is the morning's.
      if (start !== null && end !== null && a.meridiem === null && start >= end && start >= 12 * 60) start -= 12 * 60;
      if (start !== null && end !== null) return end > start ? { start, end } : { start };
    }
  }
  for (const m of text.matchAll(new RegExp(SINGLE, "gi"))) {
    const c = clockOf(m[1]!, m[2]);
    // A single time needs its meridiem or hh:mm ("Sat 9" is not a time).
    const start = c && (c.meridiem || c.colon) ? minutesOf(c, null) : null;
    if (start !== null) return { start };
  }
  return null;
}

/** The accepted job's window for a calendar, or null when it names no day (see the file's note). */
export function jobWindow(lead: Lead, delivery: Delivery): JobWindow | null {
  if (delivery.state !== "accepted") return null;
  const timeZone = lead.timeZone ?? DEFAULT_TIME_ZONE;
  const accepted = acceptedAt(lead, delivery);
  const today = localDay(accepted, timeZone).day;
  let days = delivery.window ? windowDays(delivery.window, accepted, timeZone) : [];
  if (days.length === 0) {
    const booked = bookedDay(lead);
    if (booked !== null && booked >= today && booked <= today + MAX_JOB_DAYS_AHEAD) days = [booked];
  }
  if (days.length === 0) return null;
  const first = days[0]!;
  const last = days[days.length - 1]!;
  const times = first === last && delivery.window ? windowTimes(delivery.window) : null;
  if (!times) return { kind: "days", first, last };
  return {
    kind: "timed",
    start: zonedInstant(first, times.start, timeZone),
    ...(times.end !== undefined ? { end: zonedInstant(first, times.end, timeZone) } : {}),
    timeZone,
  };
}
