/**
 * POST /owner/calendar draws a new calendar feed link for the signed-in owner's business,
 * retiring the old one; back to /owner. The handler lives in ../lib/owners/calendar.ts.
 */
import type { Config } from "@netlify/functions";
import { ownerCalendarHandler } from "../lib/owners/calendar.ts";

export default ownerCalendarHandler();

export const config: Config = { path: "/owner/calendar", method: "POST" };
