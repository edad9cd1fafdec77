/**
 * "Usually responds within ..." for a directory business: the median time from a lead's offer
 * to the business's first answer, counting only daytime on the business's own clock (a lead
 * sent at 11 PM and answered at 7:30 AM took 30 minutes). Browser-safe: the cards, the
 * business page and the store all use this one reading (docs/directory.md, "Response time").
 */
import { DEFAULT_TIME_ZONE, zoneParts } from "./hours.ts";

export { DEFAULT_TIME_ZONE };

/** Night starts at 21:00 local time; night hours do not count towards response time. */
export const NIGHT_START_HOUR = 21;
/** Night ends at 07:00 local time. */
export const NIGHT_END_HOUR = 7;
/** The figure is shown once a business has answered this many offers. */
export const MIN_RESPONSE_SAMPLES = 3;
/** The figure is the median of this many most recent answers. */
export const RESPONSE_SAMPLE_LIMIT = 50;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The zone's wall clock at `ms`, written as if it were UTC (ms, whole seconds). */
function wallClock(ms: number, timeZone: string): number {
  const parts = zoneParts(ms, timeZone);
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts[type] ?? 0);
  return Date.UTC(get("year"), get("month") - 1, get("day"), get("hour") % 24, get("minute"), get("second"));
}

/** The zone's UTC offset at `ms` (ms). */
function offsetAt(ms: number, timeZone: string): number {
  const wholeSecond = ms - (((ms % 1000) + 1000) % 1000);
  return wallClock(wholeSecond, timeZone) - wholeSecond;
}

/**
 * The instant the zone's clock shows `wall` (a wall time written as UTC ms). Two passes settle
 * the offset across a DST change; 07:00 and 21:00 are never in a US clock change's gap.
 */
function instantOf(wall: number, timeZone: string): number {
  const guess = wall - offsetAt(wall, timeZone);
  return wall - offsetAt(guess, timeZone);
}

/** The daytime windows [07:00, 21:00) of each local day, from the day `fromMs` falls on. */
function* daytimeWindows(fromMs: number, timeZone: string): Generator<[number, number]> {
  const wall = wallClock(fromMs, timeZone);
  // Wall days are exactly 24 h apart in "wall as UTC" time, whatever DST does to real time.
  for (let midnight = wall - (((wall % DAY) + DAY) % DAY); ; midnight += DAY) {
    yield [
      instantOf(midnight + NIGHT_END_HOUR * HOUR, timeZone),
      instantOf(midnight + NIGHT_START_HOUR * HOUR, timeZone),
    ];
  }
}

function finite(name: string, value: number): void {
  if (!Number.isFinite(value)) throw new RangeError(`${name} must be a finite number, got ${value}`);
}

/**
 * Minutes from `startMs` to `endMs` not counting night (21:00-07:00) in `timeZone`, an IANA
 * zone, DST included; 0 when `endMs <= startMs`. Fractional when the instants are.
 */
export function daytimeMinutesBetween(startMs: number, endMs: number, timeZone: string = DEFAULT_TIME_ZONE): number {
  finite("startMs", startMs);
  finite("endMs", endMs);
  if (endMs <= startMs) return 0;
  let total = 0;
  for (const [open, close] of daytimeWindows(startMs, timeZone)) {
    if (open >= endMs) break;
    total += Math.max(0, Math.min(endMs, close) - Math.max(startMs, open));
  }
  return total / MINUTE;
}

/**
 * The instant at which `minutes` of daytime have passed since `startMs` in `timeZone` (a
 * start at night counts from 07:00 the next morning). The inverse of daytimeMinutesBetween:
 * `daytimeMinutesBetween(s, addDaytimeMinutes(s, m, tz), tz) === m` for whole minutes.
 * Negative minutes count as 0.
 */
export function addDaytimeMinutes(startMs: number, minutes: number, timeZone: string = DEFAULT_TIME_ZONE): number {
  finite("startMs", startMs);
  finite("minutes", minutes);
  let left = Math.max(0, Math.round(minutes * MINUTE));
  for (const [open, close] of daytimeWindows(startMs, timeZone)) {
    const from = Math.max(startMs, open);
    if (from >= close) continue;
    if (left <= close - from) return from + left;
    left -= close - from;
  }
  throw new Error("unreachable: daytime windows never end");
}

/** The middle sample (the mean of the two middle ones for an even count); NaN for none. */
export function medianMinutes(samples: readonly number[]): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const half = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[half]! : (sorted[half - 1]! + sorted[half]!) / 2;
}

/** Upper bounds (minutes) of the phrases, shortest first; anything longer is "a few days". */
const BUCKETS: readonly (readonly [number, string])[] = [
  [15, "15 minutes"],
  [30, "30 minutes"],
  [60, "an hour"],
  [120, "2 hours"],
  [240, "4 hours"],
  [24 * 60, "a day"],
];

/** A response time as a rounded-up phrase for "Usually responds within {phrase}". */
export function formatResponseTime(minutes: number): string {
  for (const [max, phrase] of BUCKETS) if (minutes <= max) return phrase;
  return "a few days";
}

/** "Usually responds within 2 hours". */
export function responseTimeLabel(minutes: number): string {
  return `Usually responds within ${formatResponseTime(minutes)}`;
}
