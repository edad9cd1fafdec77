/**
 * GET /respond/:token: a business's one-tap answer page for a lead offered to it (signed
 * link from the offer e-mail or text); POST: Accept (optional window and price) or Decline
 * (with a reason). Works without JavaScript. The handler lives in ../lib/delivery/handlers.ts.
 */
import type { Config } from "@netlify/functions";
import { respondHandler } from "../lib/delivery/handlers.ts";

export default respondHandler();

export const config: Config = { path: "/respond/:token" };
