/**
 * Opening hours as the directory stores them (display text per weekday, see BusinessHours)
 * read as minutes, and "open now" in the business's own time zone. Browser-safe: the cards,
 * the business page and the API all answer with this one reading.
 *
 * Formats: "7:00 AM - 5:00 PM", "7 AM - 5 PM", "Open 24 hours", "" (closed), and spans past
 * midnight ("6:00 PM - 2:00 AM" keeps the business open until 2 AM the next day).
 *
 * Public holidays (src/lib/holidays.ts: New Year's Day, Memorial Day, Independence Day, Labor
 * Day, Thanksgiving, Christmas, and the weekdays they are observed on) close a business for
 * that whole local day, unless it is open 24/7 or answers emergencies 24/7 (`emergency247`):
 * those keep their hours. A business may narrow the holidays (`closedHolidays`) and add days of
 * its own (`closedDates`, which close it whatever its hours: the owner said so).
 */
import { closedDateOn, holidayClosure, type Closures } from "./holidays.ts";
import { WEEKDAYS, type Weekday } from "./options.ts";
import type { BusinessHours } from "./schemas/business.ts";

/** Every directory city is in Texas' central zone; a business may say otherwise. */
export const DEFAULT_TIME_ZONE = "America/Chicago";
export const OPEN_24_HOURS = "Open 24 hours";
/** The business page's open state, as the visitor reads it. */
export const OPEN_TEXT = {
  always: "Open 24/7",
  open: "Open now",
  closed: "Closed now",
  appointment: "By appointment",
} as const;
const DAY = 24 * 60;

/**
 * A business that works by appointment and gave no set hours: its page and cards say "By
 * appointment", never "Closed", and it is never open now (the near search's filter included).
 * One that gave hours as well shows them, with the appointment line beside them.
 */
export function byAppointmentOnly(b: { byAppointment?: boolean; businessHours?: BusinessHours }): boolean {
  return b.byAppointment === true && Object.values(b.businessHours ?? {}).every((h) => !h?.trim());
}

/** [open, close) in minutes after the day's midnight; close may pass 1440 (after midnight). */
export type Span = readonly [number, number];

const TIME = /^(\d{1,2})(?::(\d{2}))?\s*([AaPp])\.?\s*[Mm]\.?$/;

/** "7:00 AM" -> 420, "12:30 PM" -> 750, "7 pm" -> 1140; null when the text is not a clock time. */
export function clockMinutes(text: string): number | null {
  const m = TIME.exec(text.trim());
  if (!m) return null;
  const h = Number(m[1]);
  const min = Number(m[2] ?? "0");
  if (h < 1 || h > 12 || min > 59) return null;
  return ((h % 12) + (m[3]!.toLowerCase() === "p" ? 12 : 0)) * 60 + min;
}

/** One day's text as spans; [] when closed or unreadable (unreadable text never reads as open). */
export function daySpans(text: string | undefined): Span[] {
  const t = (text ?? "").trim();
  if (!t || /^closed$/i.test(t)) return [];
  if (/^(open )?24 hours$|^24\/7$/i.test(t)) return [[0, DAY]];
  const spans: Span[] = [];
  for (const part of t.split(/\s*,\s*/)) {
    const [a, b] = part.split(/\s*[-–]\s*/);
    const open = a === undefined ? null : clockMinutes(a);
    const close = b === undefined ? null : clockMinutes(b);
    if (open === null || close === null) continue;
    // "12:00 AM" as a closing time is midnight at the end of the day.
    spans.push([open, close <= open ? close + DAY : close]);
  }
  return spans;
}

/** Open around the clock every day. */
export function isOpen247(hours: BusinessHours): boolean {
  return WEEKDAYS.every((d) => daySpans(hours[d]).some(([o, c]) => o === 0 && c >= DAY));
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The local clock at one moment: weekday, minutes after midnight and calendar date. */
export interface LocalTime {
  day: Weekday;
  minutes: number;
  /** "YYYY-MM-DD" in the zone. */
  date: string;
}

/** The weekday, minutes after midnight and date at `now` in `timeZone`. */
export function localTime(now: number | Date, timeZone: string = DEFAULT_TIME_ZONE): LocalTime {
  // A search asks for the same moment and zone once per candidate: answer repeats from memory.
  const memoKey = `${timeZone}|${+now}`;
  const known = recent.get(memoKey);
  if (known) return known;
  if (recent.size > 64) recent.clear();
  const found = readClock(now, timeZone);
  recent.set(memoKey, found);
  return found;
}

const recent = new Map<string, LocalTime>();

function readClock(now: number | Date, timeZone: string): LocalTime {
  const p = zoneParts(now, timeZone);
  return {
    day: (p.weekday ?? "").toLowerCase() as Weekday,
    minutes: (Number(p.hour) % 24) * 60 + Number(p.minute),
    date: `${p.year}-${p.month}-${p.day}`,
  };
}

/**
 * The calendar and clock at `now` in `timeZone`, by part: weekday ("Monday"), year, month and
 * day (two digits), hour (0-23), minute, second. One formatter per zone serves every reader.
 */
export function zoneParts(now: number | Date, timeZone: string): Partial<Record<Intl.DateTimeFormatPartTypes, string>> {
  let format = formats.get(timeZone);
  if (!format) {
    // Building a formatter costs far more than using one; a search checks hundreds of businesses.
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      weekday: "long",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
      hourCycle: "h23",
    });
    formats.set(timeZone, format);
  }
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const { type, value } of format.formatToParts(now)) parts[type] = value;
  return parts;
}

export interface OpenState {
  open: boolean;
  /** Open around the clock every day ("24/7" badge). */
  always: boolean;
  /** The business's own weekday at `now` (the business page highlights it). */
  today: Weekday;
  /** The public holiday it is closed for today (absent when it is not one, or the business stays open). */
  holiday?: string;
  /** Closed today on a day the owner listed: its note, or "Closed". */
  closedDate?: string;
}

/**
 * Whether the business is open at `now` in its own time zone, overnight spans included; closed
 * on public holidays unless it is open 24/7 or `emergency247`.
 */
export function openState(
  hours: BusinessHours,
  timeZone: string = DEFAULT_TIME_ZONE,
  now: number | Date = Date.now(),
  emergency247 = false,
  closures?: Closures,
): OpenState {
  const always = isOpen247(hours);
  const clock = localTime(now, timeZone);
  const closedDate = closedDateOn(clock.date, closures);
  const holiday = always || emergency247 ? null : holidayClosure(clock.date, closures?.closedHolidays);
  return {
    open: closedDate === null && (always || openFromSpans(weeklySpans(hours), timeZone, now, emergency247, closures)),
    always,
    today: clock.day,
    ...(holiday ? { holiday: holiday.name } : {}),
    ...(closedDate !== null ? { closedDate } : {}),
  };
}

/** The weekly schedule as compact spans per weekday index (Monday 0), for the store's filter data. */
export function weeklySpans(hours: BusinessHours): Span[][] {
  return WEEKDAYS.map((d) => daySpans(hours[d]));
}

/** openState from weeklySpans (what the store keeps per business), public holidays included. */
export function openFromSpans(
  week: readonly (readonly Span[])[],
  timeZone: string,
  now: number | Date,
  emergency247 = false,
  closures?: Closures,
): boolean {
  const { day, minutes: at, date } = localTime(now, timeZone);
  if (closedDateOn(date, closures) !== null) return false;
  if (
    !emergency247 &&
    holidayClosure(date, closures?.closedHolidays) &&
    !week.every((d) => d.some(([o, c]) => o === 0 && c >= DAY))
  )
    return false;
  const index = WEEKDAYS.indexOf(day);
  return (
    (week[index] ?? []).some(([o, c]) => at >= o && at < c) ||
    (week[(index + 6) % 7] ?? []).some(([, c]) => c > DAY && at < c - DAY)
  );
}

const MINUTE = 60_000;

/**
 * The first whole minute after `now`, within `horizonMinutes`, at which openState says
 * something else (open or closed, or another weekday); null when nothing changes by then.
 * The business page is cached HTML showing the state at render time, so its cache lifetime
 * ends here. Stepping through real minutes instead of doing clock arithmetic keeps daylight
 * saving days and half-hour zones right.
 */
export function nextOpenStateChange(
  hours: BusinessHours,
  timeZone: string = DEFAULT_TIME_ZONE,
  now: number = Date.now(),
  horizonMinutes = 60,
  emergency247 = false,
  closures?: Closures,
): number | null {
  const always = isOpen247(hours);
  const week = weeklySpans(hours);
  const stateAt = (at: number) =>
    `${(always && closedDateOn(localTime(at, timeZone).date, closures) === null) || openFromSpans(week, timeZone, at, emergency247, closures)} ${localTime(at, timeZone).day}`;
  const start = stateAt(now);
  const firstMinute = Math.floor(now / MINUTE) * MINUTE + MINUTE;
  for (let i = 0; i < horizonMinutes; i++) {
    const at = firstMinute + i * MINUTE;
    if (stateAt(at) !== start) return at;
  }
  return null;
}
