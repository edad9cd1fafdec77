/**
 * The response clock: how long a business has to answer an offer, by the lead's urgency, and
 * what happens when nobody does (docs/lead-delivery.md has the table).
 *
 * - emergency: 10 minutes, night or day. Three offers at once, then one more pro at minute
 *   10, then the operator at minute 20: someone who can act holds it well inside the half
 *   hour the emergency page names for the hotline.
 * - urgent: 2 hours, routine: 4 hours, both counted in daytime only (07:00-21:00 at the
 *   business), as the response-time figure is: an offer made at 22:00 is due at 11:00.
 */
import { addDaytimeMinutes } from "../../../src/lib/response-time.ts";
import { DEFAULT_TIME_ZONE } from "../../../src/lib/hours.ts";
import type { UrgencyLevel } from "../../../src/lib/lead-urgency.ts";

/** Minutes a business has to answer, by urgency. */
export const ANSWER_WINDOW_MINUTES: Readonly<Record<UrgencyLevel, number>> = {
  emergency: 10,
  urgent: 120,
  routine: 240,
};

/** Whether night hours count toward the window (an emergency cannot wait for the morning). */
export const COUNTS_NIGHT: Readonly<Record<UrgencyLevel, boolean>> = {
  emergency: true,
  urgent: false,
  routine: false,
};

/** Pros offered a find-pros request after the first matches before the operator takes over. */
export const EXTRA_PROS = 1;

/** When an offer made at `offeredAt` (ms) must be answered (ms). */
export function answerDeadline(urgency: UrgencyLevel, offeredAt: number, timeZone = DEFAULT_TIME_ZONE): number {
  const minutes = ANSWER_WINDOW_MINUTES[urgency];
  return COUNTS_NIGHT[urgency] ? offeredAt + minutes * 60_000 : addDaytimeMinutes(offeredAt, minutes, timeZone);
}
