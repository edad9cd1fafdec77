/**
 * POST /api/booking-request: validates a Book Service request against the business it names
 * and stores it as a booking lead. JSON clients get JSON; a no-JavaScript form post gets a
 * server-rendered page. The pipeline lives in ../lib/leads.ts.
 */
import type { Config } from "@netlify/functions";
import { BOOKING_ENDPOINT } from "../lib/lead-endpoints.ts";
import { leadHandler } from "../lib/leads.ts";

export default leadHandler(BOOKING_ENDPOINT);

// No method filter here: other methods must reach the handler to get a 405 with Allow.
export const config: Config = { path: "/api/booking-request" };
