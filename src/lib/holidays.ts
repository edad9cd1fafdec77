/**
 * US public holidays, computed for any year (no list of dates to keep up to date), and the
 * days a business is closed for them. Browser-safe: the cards' "Open now" runs in islands.
 *
 * Federal rules (5 U.S.C. 6103): fixed-date holidays that fall on a Saturday are observed on
 * the Friday before, on a Sunday on the Monday after; the others are "the nth/last weekday of
 * a month". New Year's Day on a Saturday is observed on Friday 31 December of the year before.
 */

/** One holiday in one year. */
export interface Holiday {
  /** e.g. "Thanksgiving Day". */
  readonly name: string;
  /** The calendar date, "YYYY-MM-DD". */
  readonly date: string;
  /** The weekday it is observed on (differs from `date` when that is a weekend), "YYYY-MM-DD". */
  readonly observed: string;
  /** A day most businesses close (the six "major" holidays); the others are federal office days off. */
  readonly closes: boolean;
}

const pad = (n: number) => String(n).padStart(2, "0");
const iso = (y: number, m: number, d: number) => {
  const at = new Date(Date.UTC(y, m - 1, d));
  return `${at.getUTCFullYear()}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())}`;
};
/** 0 = Sunday .. 6 = Saturday. */
const weekday = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d)).getUTCDay();

/** Day of the month of the nth (1-based) `day` (0 = Sunday) of a month. */
function nth(y: number, m: number, day: number, n: number): number {
  const first = weekday(y, m, 1);
  return 1 + ((day - first + 7) % 7) + (n - 1) * 7;
}

/** Day of the month of the last `day` of a month. */
function last(y: number, m: number, day: number): number {
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return days - ((weekday(y, m, days) - day + 7) % 7);
}

function fixed(name: string, y: number, m: number, d: number, closes: boolean): Holiday {
  const w = weekday(y, m, d);
  const shift = w === 6 ? -1 : w === 0 ? 1 : 0;
  return { name, date: iso(y, m, d), observed: iso(y, m, d + shift), closes };
}

function floating(name: string, y: number, m: number, d: number, closes: boolean): Holiday {
  return { name, date: iso(y, m, d), observed: iso(y, m, d), closes };
}

/** The US federal holidays of `year`, in calendar order (Juneteenth from 2021). */
export function usHolidays(year: number): Holiday[] {
  const y = year;
  const list = [
    fixed("New Year's Day", y, 1, 1, true),
    floating("Martin Luther King Jr. Day", y, 1, nth(y, 1, 1, 3), false),
    floating("Washington's Birthday", y, 2, nth(y, 2, 1, 3), false),
    floating("Memorial Day", y, 5, last(y, 5, 1), true),
    ...(y >= 2021 ? [fixed("Juneteenth", y, 6, 19, false)] : []),
    fixed("Independence Day", y, 7, 4, true),
    floating("Labor Day", y, 9, nth(y, 9, 1, 1), true),
    floating("Columbus Day", y, 10, nth(y, 10, 1, 2), false),
    fixed("Veterans Day", y, 11, 11, false),
    floating("Thanksgiving Day", y, 11, nth(y, 11, 4, 4), true),
    fixed("Christmas Day", y, 12, 25, true),
  ];
  return list;
}

const byYear = new Map<number, Holiday[]>();
function cached(year: number): Holiday[] {
  let list = byYear.get(year);
  if (!list) {
    list = usHolidays(year);
    byYear.set(year, list);
  }
  return list;
}

/**
 * The holiday a business is closed for on `date` ("YYYY-MM-DD", a local calendar date), or
 * null: one of the six major holidays, on its own date or on the weekday it is observed.
 * `closedHolidays` (the business's own list, by name) narrows them; absent = all six.
 */
export function holidayClosure(date: string, closedHolidays?: readonly string[]): Holiday | null {
  const year = Number(date.slice(0, 4));
  // New Year's Day of next year may be observed on 31 December.
  for (const h of [...cached(year), ...cached(year + 1).slice(0, 1)]) {
    if (closedHolidays && !closedHolidays.includes(h.name)) continue;
    if (h.closes && (h.date === date || h.observed === date)) return h;
  }
  return null;
}

/** The days a business closes besides its weekly hours (Business.closedHolidays / closedDates). */
export interface Closures {
  /** Holiday names it closes on; absent = every CLOSING_HOLIDAYS one, [] = none. */
  readonly closedHolidays?: readonly string[] | undefined;
  /** Other closed days, "YYYY-MM-DD", with an optional note. */
  readonly closedDates?: readonly { readonly date: string; readonly note?: string | undefined }[] | undefined;
}

/** The owner's closed day on `date` ("Closed" or its note), or null. */
export function closedDateOn(date: string, closures: Closures | undefined): string | null {
  const found = closures?.closedDates?.find((d) => d.date === date);
  return found ? found.note || "Closed" : null;
}

/** The closing holidays a business closes on, in calendar order. */
export function closingHolidaysOf(closures: Closures | undefined): string[] {
  const list = closures?.closedHolidays;
  return list ? CLOSING_HOLIDAYS.filter((h) => list.includes(h)) : [...CLOSING_HOLIDAYS];
}

/** Its closed days from `today` on ("YYYY-MM-DD"), soonest first, at most `limit`. */
export function upcomingClosedDates(closures: Closures | undefined, today: string, limit = 10) {
  return [...(closures?.closedDates ?? [])]
    .filter((d) => d.date >= today)
    .sort((a, b) => a.date.localeCompare(b.date))
    .slice(0, limit);
}

/** Names of the holidays a business closes for, in calendar order (the business page lists them). */
export const CLOSING_HOLIDAYS = usHolidays(2000)
  .filter((h) => h.closes)
  .map((h) => h.name);
