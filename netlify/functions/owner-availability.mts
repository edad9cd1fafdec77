/**
 * POST /owner/availability: the owner's capacity statement (taking storm jobs, fully booked
 * until a day, back to normal), a plain form (the page is src/pages/owner/availability.astro).
 * The handler lives in ../lib/owners/availability.ts.
 */
import type { Config } from "@netlify/functions";
import { ownerAvailabilityHandler } from "../lib/owners/availability.ts";

export default ownerAvailabilityHandler();

export const config: Config = { path: "/owner/availability", method: "POST" };
