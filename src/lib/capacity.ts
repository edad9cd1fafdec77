/**
 * A business's capacity in storm mode: "taking storm jobs", or "fully booked until
 * <date>". Said from the answer page of any offer (one tap, no account) or from /owner;
 * routing skips a business while it is fully booked, and in a storm area the directory and
 * find-pros list the businesses taking work first. One schema, the words and the rule for
 * every side (pages, functions, the store). Client-safe.
 */
import { z } from "./zod.ts";
import { DEFAULT_TIME_ZONE, localTime } from "./hours.ts";
import { TAKING_FIRST, TAKING_STORM_JOBS } from "./storm-routing.ts";

/** The two statements a business can make; "clear" takes its statement back. */
export const CAPACITY_STATUSES = ["taking", "booked"] as const;
export type CapacityStatus = (typeof CAPACITY_STATUSES)[number];

/** Where the business said it. */
export const CAPACITY_SOURCES = ["answer", "owner"] as const;

/** Furthest a "fully booked until" date may be: a season's backlog, not a listing switched off. */
export const BOOKED_MAX_DAYS = 90;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** What the store keeps per business. */
export const Capacity = z.object({
  /** "taking": taking storm jobs; "booked": fully booked until `until`. */
  status: z.enum(CAPACITY_STATUSES),
  /** The last day it is fully booked (YYYY-MM-DD in its own time zone), inclusive; only with "booked". */
  until: z.string().regex(DATE).optional(),
  /** When it said so (ISO). */
  setAt: z.string(),
  /** From its answer page or its owner page. */
  via: z.enum(CAPACITY_SOURCES),
});
export type Capacity = z.output<typeof Capacity>;

/** The words on every page and in /admin. */
export const CAPACITY_TEXT = {
  taking: TAKING_STORM_JOBS,
  booked: (until: string) => `Fully booked until ${dayLabel(until)}`,
  /** A list's note in a storm area (directory, find-pros). */
  takingFirst: TAKING_FIRST,
  saved: {
    taking: "Saved: you're taking storm jobs. We'll keep offering you jobs.",
    booked: (until: string) =>
      `Saved: you're fully booked until ${dayLabel(until)}. We won't offer you new jobs until then.`,
    clear: "Saved: your availability is back to normal.",
  },
  /** On an answer page whose offer is still open: the offer itself is not declined. */
  offerStays: "This job's offer is still yours to accept or decline below.",
} as const;

export const CAPACITY_MESSAGES = {
  status: "Choose taking storm jobs, fully booked, or back to normal.",
  until: "Enter the last day you're fully booked (today or later).",
  tooFar: `Choose a day within ${BOOKED_MAX_DAYS} days.`,
} as const;

/** "Dec 3" from "2026-12-03" (no zone shift: the date is already the business's own). */
export function dayLabel(date: string): string {
  const [y, m, d] = date.split("-").map(Number);
  return new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" }).format(
    new Date(Date.UTC(y!, m! - 1, d!)),
  );
}

/** The business's calendar date at `now` (YYYY-MM-DD). */
export const todayIn = (now: number, timeZone = DEFAULT_TIME_ZONE) => localTime(now, timeZone).date;

/** `date` plus `days` (YYYY-MM-DD). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split("-").map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + days)).toISOString().slice(0, 10);
}

/** Fully booked at `now`: said so, and `until` is today or later in the business's zone. */
export function isBooked(capacity: Capacity | null | undefined, now: number, timeZone = DEFAULT_TIME_ZONE): boolean {
  if (capacity?.status !== "booked" || !capacity.until) return false;
  return capacity.until >= todayIn(now, timeZone);
}

/** Taking storm jobs at `now` (a statement that stands until replaced or cleared). */
export const isTaking = (capacity: Capacity | null | undefined) => capacity?.status === "taking";

/** The line a page shows for a business's capacity at `now`, or null (nothing said, or a booking past). */
export function capacityLine(capacity: Capacity | null | undefined, now: number, timeZone = DEFAULT_TIME_ZONE) {
  if (isTaking(capacity)) return CAPACITY_TEXT.taking;
  if (isBooked(capacity, now, timeZone)) return CAPACITY_TEXT.booked(capacity!.until!);
  return null;
}

/**
 * The capacity form (answer page and owner page, JSON or a no-JS post), checked against the
 * business's today: `until` today or later, within BOOKED_MAX_DAYS.
 */
export function capacityForm(now: number, timeZone = DEFAULT_TIME_ZONE) {
  const today = todayIn(now, timeZone);
  const last = addDays(today, BOOKED_MAX_DAYS);
  return z.discriminatedUnion(
    "capacity",
    [
      z.object({
        /** Taking storm jobs. */
        capacity: z.literal("taking"),
      }),
      z.object({
        /** Fully booked. */
        capacity: z.literal("booked"),
        /** The last day fully booked, YYYY-MM-DD (a date input's value). */
        until: z
          .string({ error: CAPACITY_MESSAGES.until })
          .trim()
          .regex(DATE, CAPACITY_MESSAGES.until)
          .refine((v) => v >= today, CAPACITY_MESSAGES.until)
          .refine((v) => v <= last, CAPACITY_MESSAGES.tooFar),
      }),
      z.object({
        /** Back to normal: the statement is taken back. */
        capacity: z.literal("clear"),
      }),
    ],
    { error: CAPACITY_MESSAGES.status },
  );
}
export type CapacityFormValue = z.output<ReturnType<typeof capacityForm>>;

/** The answer page's default "until": tomorrow, so "Fully booked" is one tap too. */
export const defaultUntil = (now: number, timeZone = DEFAULT_TIME_ZONE) => addDays(todayIn(now, timeZone), 1);

/** What a capacity form shows: the current statement's line, and the date field's bounds and default. */
export interface CapacityView {
  /** "Taking storm jobs", "Fully booked until Dec 3", or null (nothing said, or past). */
  line: string | null;
  /** A statement stands (so "Back to normal" is offered). */
  stated: boolean;
  /** The date field's value: the stated day while booked, else tomorrow. */
  until: string;
  /** The date field's min and max (the business's today, and BOOKED_MAX_DAYS on). */
  min: string;
  max: string;
}

export function capacityView(capacity: Capacity | null, now: number, timeZone = DEFAULT_TIME_ZONE): CapacityView {
  const line = capacityLine(capacity, now, timeZone);
  const today = todayIn(now, timeZone);
  return {
    line,
    stated: line !== null,
    until: line && capacity?.until ? capacity.until : defaultUntil(now, timeZone),
    min: today,
    max: addDays(today, BOOKED_MAX_DAYS),
  };
}
