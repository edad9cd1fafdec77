/**
 * GET /requests/:leadId/:sig/calendar.ics: the homeowner's accepted window(s) as an iCalendar
 * file, linked from the status page. The handler lives in ../lib/delivery/calendar.ts.
 */
import type { Config } from "@netlify/functions";
import { visitCalendarHandler } from "../lib/delivery/calendar.ts";

export default visitCalendarHandler();

// No method filter here: other methods must reach the handler to get a 405 with Allow.
export const config: Config = { path: "/requests/:leadId/:sig/calendar.ics" };
