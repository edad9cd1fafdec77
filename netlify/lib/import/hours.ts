/**
 * The import's hours column: one documented format (docs/import.md),
 *
 *   Mon-Fri 7:00 AM - 6:00 PM; Sat 8:00 AM - 12:00 PM
 *   Mon-Sat 24 hours
 *   Mon, Wed, Fri 7 AM - 12 PM, 1 PM - 5 PM
 *   by appointment
 *
 * Parts are separated by ";", each naming its days (a day, a range "Mon-Fri" or a list
 * "Mon, Wed") and then its times ("7:00 AM - 6:00 PM", several separated by ",", "24 hours"
 * or "closed"). A day no part names is closed. The times are stored as the directory shows
 * them (src/lib/hours.ts reads them back): "7:00 AM - 6:00 PM".
 */
import { OPEN_24_HOURS, clockMinutes } from "../../../src/lib/hours.ts";
import { WEEKDAYS, type Weekday } from "../../../src/lib/options.ts";
import type { BusinessHours } from "../../../src/lib/schemas/business.ts";

export const HOURS_FORMAT = 'e.g. "Mon-Fri 7:00 AM - 6:00 PM; Sat 8:00 AM - 12:00 PM" or "by appointment"';

export type ImportHours =
  { ok: true; businessHours: BusinessHours; byAppointment: boolean } | { ok: false; reason: string };

const DAY_NAMES: Readonly<Record<string, Weekday>> = {
  mon: "monday",
  monday: "monday",
  tue: "tuesday",
  tues: "tuesday",
  tuesday: "tuesday",
  wed: "wednesday",
  wednesday: "wednesday",
  thu: "thursday",
  thur: "thursday",
  thurs: "thursday",
  thursday: "thursday",
  fri: "friday",
  friday: "friday",
  sat: "saturday",
  saturday: "saturday",
  sun: "sunday",
  sunday: "sunday",
};

const DAY_WORD = Object.keys(DAY_NAMES).join("|");
/** Days, then the rest: "Mon-Fri, Sun 7 AM - 6 PM" -> ["Mon-Fri, Sun", "7 AM - 6 PM"]. */
const PART = new RegExp(`^((?:${DAY_WORD})\\.?(?:\\s*[-–,&]\\s*(?:${DAY_WORD})\\.?)*)\\s*:?\\s+(.+)$`, "i");

const dayOf = (word: string): Weekday | undefined => {
  const key = word.replace(/\.$/, "").toLowerCase();
  return Object.hasOwn(DAY_NAMES, key) ? DAY_NAMES[key] : undefined;
};

/** "Mon-Fri, Sun" -> the weekdays, Monday first in a range; null when unreadable. */
function readDays(text: string): Weekday[] | null {
  const days: Weekday[] = [];
  for (const item of text.split(/\s*[,&]\s*/)) {
    const [from, to, ...extra] = item.split(/\s*[-–]\s*/);
    const a = from === undefined ? undefined : dayOf(from);
    if (!a || extra.length) return null;
    if (to === undefined) {
      days.push(a);
      continue;
    }
    const b = dayOf(to);
    if (!b) return null;
    const start = WEEKDAYS.indexOf(a);
    const end = WEEKDAYS.indexOf(b);
    // "Fri-Mon" wraps past Sunday.
    for (let i = start; ; i = (i + 1) % 7) {
      days.push(WEEKDAYS[i]!);
      if (i === end) break;
    }
  }
  return days;
}

/** "7 am - 6:00 PM" -> "7:00 AM - 6:00 PM"; null when a side is not a clock time. */
function readSpan(text: string): string | null {
  const [a, b, ...extra] = text.split(/\s*[-–]\s*|\s+to\s+/i);
  if (a === undefined || b === undefined || extra.length) return null;
  const open = clockMinutes(a);
  const close = clockMinutes(b);
  if (open === null || close === null || open === close) return null;
  return `${clock(open)} - ${clock(close)}`;
}

function clock(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${h % 12 === 0 ? 12 : h % 12}:${String(m).padStart(2, "0")} ${h < 12 ? "AM" : "PM"}`;
}

/** One part's times as stored ("" for closed), or null. */
function readTimes(text: string): string | null {
  const t = text.trim().replace(/\s+/g, " ");
  if (/^closed$/i.test(t)) return "";
  if (/^(?:open )?24 hours$|^24\/7$|^24 hrs$/i.test(t)) return OPEN_24_HOURS;
  const spans = t.split(/\s*,\s*/).map(readSpan);
  return spans.every((s): s is string => s !== null) ? spans.join(", ") : null;
}

/** The hours column of one row. */
export function parseImportHours(text: string): ImportHours {
  const t = text.trim().replace(/\s+/g, " ");
  if (!t) return { ok: false, reason: `hours are missing (${HOURS_FORMAT})` };
  if (/^by appointment(?: only)?$/i.test(t)) return { ok: true, businessHours: {}, byAppointment: true };
  const hours: BusinessHours = {};
  for (const part of t.split(/\s*;\s*/).filter(Boolean)) {
    const m = PART.exec(part);
    const days = m ? readDays(m[1]!) : null;
    const times = m ? readTimes(m[2]!) : null;
    if (!m || !days || times === null) return { ok: false, reason: `hours "${part}" cannot be read (${HOURS_FORMAT})` };
    for (const day of days) {
      if (hours[day] !== undefined) return { ok: false, reason: `hours name ${cap(day)} twice` };
      hours[day] = times;
    }
  }
  for (const day of WEEKDAYS) if (hours[day] === "") delete hours[day];
  return { ok: true, businessHours: hours, byAppointment: false };
}

const cap = (day: string) => day[0]!.toUpperCase() + day.slice(1);
