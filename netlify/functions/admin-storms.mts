/**
 * GET /api/admin/storms: declared storms and the NWS suggestions; POST declares one (from a
 * suggestion too, in one step). Bearer ADMIN_TOKEN; the handler lives in ../lib/admin/storms.ts.
 */
import type { Config } from "@netlify/functions";
import { adminStormsHandler } from "../lib/admin/storms.ts";

export default adminStormsHandler();

// No method filter here: other methods must reach the handler to get a 405 with Allow.
export const config: Config = { path: "/api/admin/storms" };
