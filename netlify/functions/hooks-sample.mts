/**
 * GET /api/hooks/sample?event=: sample data for a Zapier or Make trigger (one made-up event shaped like a real one), authenticated with the business's API key.
 * The handler lives in ../lib/webhooks/api.ts; docs/webhooks.md shows how Zapier and Make use it.
 */
import type { Config } from "@netlify/functions";
import { sampleHandler } from "../lib/webhooks/api.ts";

export default sampleHandler();

export const config: Config = { path: "/api/hooks/sample", method: "GET" };
