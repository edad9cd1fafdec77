/**
 * POST /respond/:token/call: the answer page's `ping` when the business taps the customer's
 * number; records the contact. The handler lives in ../lib/delivery/handlers.ts.
 */
import type { Config } from "@netlify/functions";
import { respondCallHandler } from "../lib/delivery/handlers.ts";

export default respondCallHandler();

export const config: Config = { path: "/respond/:token/call" };
