/**
 * GET /api/businesses/featured: the Featured section, best first, at most six. The handler
 * lives in ../lib/directory.ts.
 */
import type { Config } from "@netlify/functions";
import { featuredHandler } from "../lib/directory.ts";

export default featuredHandler();

// No method filter here: other methods must reach the handler to get a 405 with Allow.
export const config: Config = { path: "/api/businesses/featured" };
