/**
 * GET /api/businesses/slug/:slug: one business for /directory/{slug}, or 404. The handler
 * lives in ../lib/directory.ts.
 */
import type { Config } from "@netlify/functions";
import { businessBySlugHandler } from "../lib/directory.ts";

export default businessBySlugHandler();

// No method filter here: other methods must reach the handler to get a 405 with Allow.
export const config: Config = { path: "/api/businesses/slug/:slug" };
