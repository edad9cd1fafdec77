/**
 * POST /respond/:token: a business's answer to a lead offered to it, from the answer page's
 * forms (Accept with an optional window and price, or Decline with a reason; 303 back to the
 * page) or as JSON. The page itself is src/pages/respond/[token].astro. The handler lives in
 * ../lib/delivery/handlers.ts.
 */
import type { Config } from "@netlify/functions";
import { respondHandler } from "../lib/delivery/handlers.ts";

export default respondHandler();

export const config: Config = { path: "/respond/:token", method: "POST" };
