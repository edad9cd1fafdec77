/**
 * GET /calendar/:token: a business's private calendar feed (iCalendar) of the jobs it accepted,
 * with their windows. The handler lives in ../lib/delivery/calendar.ts.
 */
import type { Config } from "@netlify/functions";
import { calendarFeedHandler } from "../lib/delivery/calendar.ts";

export default calendarFeedHandler();

// No method filter here: other methods must reach the handler to get a 405 with Allow.
export const config: Config = { path: "/calendar/:token" };
