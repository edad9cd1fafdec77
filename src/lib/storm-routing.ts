/**
 * Storm mode's routing figures and the storm board's words, once for
 * the functions, /admin and docs/lead-delivery.md. Client-safe.
 */

/**
 * Pros an emergency inside an active storm is offered to at once (MATCH_LIMIT, 3, elsewhere):
 * the nearest crews are booked for days after a storm, so more of them hear at minute 0. The
 * clock keeps its schedule: one more pro at minute 10, the operator at minute 20.
 */
export const STORM_OFFER_PROS = 6;

/** A business that said it is taking storm jobs (src/lib/capacity.ts): its tag on cards and matches. */
export const TAKING_STORM_JOBS = "Taking storm jobs";

/** Where a storm covers the searched place: the lines that say who comes first. */
export const TAKING_FIRST = {
  /** The directory orders each page it sends (the store's order stays within each group). */
  directory: "Storm area: on each page, businesses taking storm jobs are listed first.",
  /** Routing prefers them among the pros near the job (matching.ts). */
  matches: "Storm area: businesses taking storm jobs were offered your request first.",
} as const;

/** Hours of arrivals the storm board shows, newest first. */
export const STORM_BOARD_HOURS = 24;

/** Requests of one event the storm board reads (newest first); older ones are counted, not read. */
export const STORM_BOARD_LEADS = 2000;

/** The storm board's column headings. */
export const STORM_BOARD_LABELS = {
  requests: "Requests",
  waiting: "Waiting for a pro",
  accepted: "Accepted",
  escalated: "With the team (escalated)",
  closed: "Closed",
  taking: "Businesses taking storm jobs",
  booked: "Fully booked",
  perHour: "Requests per hour (last 24 hours)",
} as const;

/** One storm event on /admin's storm board (GET /api/admin/storm-board). */
export interface StormBoardEvent {
  id: string;
  name: string;
  /** "ZIPs 33101, 33125" etc. (areaLine in src/lib/storm.ts). */
  area: string;
  startsAt: string;
  endsAt?: string;
  active: boolean;
  /** Requests that arrived inside it (every one, not only those read). */
  requests: number;
  /** Of the newest STORM_BOARD_LEADS: offered and not yet accepted (or not offered yet). */
  waiting: number;
  accepted: number;
  escalated: number;
  closed: number;
  /** Businesses in its area taking storm jobs now, and fully booked now. */
  taking: { id: string; name: string }[];
  booked: { id: string; name: string; until: string }[];
  /** Arrivals per clock hour (UTC hours), newest first, the last STORM_BOARD_HOURS since it started. */
  perHour: { hourStart: string; count: number }[];
}

export interface StormBoardReply {
  storms: StormBoardEvent[];
}
