/**
 * A directory business's response figures, over its latest RESPONSE_WINDOW offers whose outcome
 * is known: the response rate (the share it answered before the offer's deadline; an offer that
 * expired unanswered counts against it) and the response time (the median time from the offer to
 * its first answer, counting only daytime on the business's own clock: a lead sent at 11 PM and
 * answered at 7:30 AM took 30 minutes). Browser-safe: the cards, the business page, the page
 * that explains the rule and the store all use this one reading (docs/directory.md, "Response
 * figures").
 */
import { REPORT_REASONS } from "./lead-routing.ts";
import { DEFAULT_TIME_ZONE, zoneParts } from "./hours.ts";

export { DEFAULT_TIME_ZONE };

/** Night starts at 21:00 local time; night hours do not count towards response time. */
export const NIGHT_START_HOUR = 21;
/** Night ends at 07:00 local time. */
export const NIGHT_END_HOUR = 7;
/** The figures cover this many of the business's latest offers whose outcome is known. */
export const RESPONSE_WINDOW = 50;
/** Nothing is shown until this many offers in the window have an outcome. */
export const MIN_RESPONSE_OFFERS = 5;
/** The response time is shown once the window holds this many answers (and MIN_RESPONSE_OFFERS offers). */
export const MIN_RESPONSE_SAMPLES = 3;
/** Where the site explains the figures (a section of /how-reviews-work). */
export const RESPONSE_RULES_ID = "response";
export const RESPONSE_RULES_PATH = `/how-reviews-work#${RESPONSE_RULES_ID}`;

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

/** A response time as a rounded-up phrase for "usually within {phrase}". */
export function formatResponseTime(minutes: number): string {
  for (const [max, phrase] of BUCKETS) if (minutes <= max) return phrase;
  return "a few days";
}

/**
 * How one offer ended for a business: answered (its first answer, `minutes` of daytime after the
 * offer; `inTime` when that was by the offer's deadline), or missed (the deadline passed with no
 * answer). An offer no channel delivered, or still waiting, has no outcome.
 */
export type OfferOutcome = { answered: true; minutes: number; inTime: boolean } | { answered: false };

/** The public figures as a Business carries them; each absent until its minimum sample is in. */
export interface ResponseFigures {
  /** Percent of the window's offers answered in time (whole, 0-100). */
  responseRate?: number;
  /** Median daytime minutes to answer, over the window's answers. */
  responseMinutes?: number;
  /** Offers in the window (at most RESPONSE_WINDOW). */
  responseOffers?: number;
}

/**
 * `answered` of `offers` as a whole percent, rounded, but never to 0 or 100 unless it is: one
 * miss in a thousand still shows 99%.
 */
export function responseRate(answered: number, offers: number): number {
  if (!(offers > 0) || answered < 0 || answered > offers)
    throw new RangeError(`bad response rate ${answered}/${offers}`);
  const rate = Math.round((100 * answered) / offers);
  if (answered === offers) return 100;
  if (answered === 0) return 0;
  return Math.min(99, Math.max(1, rate));
}

/**
 * The figures from counts over the window: `offers` outcomes, `inTime` of them answered by the
 * deadline, `answers` answered at all (late ones too), whose median is `median` minutes. The
 * store keeps exactly these counts and calls this on every read.
 */
export function figuresOf(counts: {
  offers: number;
  inTime: number;
  answers: number;
  median?: number;
}): ResponseFigures {
  const { offers, inTime, answers, median } = counts;
  if (offers < MIN_RESPONSE_OFFERS) return offers > 0 ? { responseOffers: offers } : {};
  return {
    responseRate: responseRate(inTime, offers),
    ...(answers >= MIN_RESPONSE_SAMPLES && median !== undefined && Number.isFinite(median)
      ? { responseMinutes: median }
      : {}),
    responseOffers: offers,
  };
}

/** The figures of a business's outcomes, newest first: the reference the store's script follows. */
export function responseFigures(outcomes: readonly OfferOutcome[]): ResponseFigures {
  const window = outcomes.slice(0, RESPONSE_WINDOW);
  const minutes = window.flatMap((o) => (o.answered ? [Math.round(o.minutes)] : []));
  return figuresOf({
    offers: window.length,
    inTime: window.filter((o) => o.answered && o.inTime).length,
    answers: minutes.length,
    median: minutes.length > 0 ? medianMinutes(minutes) : undefined,
  });
}

/** The figure's words, or null while there is nothing to show. */
export interface ResponseLine {
  /** "Responds to 10% of requests" */
  rate: string;
  /** "usually within 2 hours", once there are enough answers */
  time?: string;
  /** "last 10 requests": the window the figures cover */
  window: string;
}

export function responseLine(figures: ResponseFigures): ResponseLine | null {
  const { responseRate: rate, responseMinutes: minutes, responseOffers: offers } = figures;
  if (rate === undefined || offers === undefined) return null;
  return {
    rate: `Responds to ${rate}% of requests`,
    ...(minutes !== undefined ? { time: `usually within ${formatResponseTime(minutes)}` } : {}),
    window: `last ${offers} request${offers === 1 ? "" : "s"}`,
  };
}

/** "Responds to 10% of requests · usually within 2 hours · last 10 requests"; "" while nothing shows. */
export function responseLabel(figures: ResponseFigures): string {
  const line = responseLine(figures);
  return line ? [line.rate, line.time, line.window].filter(Boolean).join(" · ") : "";
}

/** "7 AM", "7:30 AM", "9 PM": a time of day as the rule's text says it. */
function clockWords(hour: number, minute = 0): string {
  const h = hour % 12 === 0 ? 12 : hour % 12;
  return `${h}${minute ? `:${String(minute).padStart(2, "0")}` : ""} ${hour < 12 ? "AM" : "PM"}`;
}

/**
 * The rule in words, for the page that explains the figure (/how-reviews-work): one term and its
 * explanation each, written from the constants above, so the explanation and the figure cannot
 * disagree.
 */
export const RESPONSE_RULES: readonly { term: string; text: string }[] = [
  {
    term: "Which requests count",
    text:
      `The business's latest ${RESPONSE_WINDOW} requests whose outcome we know (fewer while it has had fewer). ` +
      "A request counts once the business answered it (accepted, declined or called the homeowner) " +
      "or once its deadline to answer passed. A request we could not deliver to the business does not count, " +
      `nor one the business reported to us as a bad lead ("${REPORT_REASONS.map((r) => r.label).join('", "')}"), ` +
      "and neither does one still waiting for an answer.",
  },
  {
    term: "Response rate",
    text:
      "The share of those requests the business answered before the request's deadline. " +
      "A request left unanswered until its deadline counts against it; so does an answer after the deadline. " +
      "A job it accepted and later gave back still counts as answered.",
  },
  {
    term: "Response time",
    text:
      "The median time the business took to answer the requests it answered, counting only daytime: " +
      `${clockWords(NIGHT_END_HOUR)} to ${clockWords(NIGHT_START_HOUR)} on the business's own clock. ` +
      `A request sent at ${clockWords(NIGHT_START_HOUR + 2)} and answered at ${clockWords(NIGHT_END_HOUR, 30)} took 30 minutes.`,
  },
  {
    term: "When it shows",
    text:
      `Nothing is shown until ${MIN_RESPONSE_OFFERS} requests have an outcome; ` +
      `the response time needs ${MIN_RESPONSE_SAMPLES} answered ones among them. ` +
      "The figures change as each request is answered or runs out, and a business cannot edit them.",
  },
];
