/**
 * PATCH /api/admin/storms/:id: edit a declared storm in full, or {end: true} to end it now.
 * Bearer ADMIN_TOKEN; the handler lives in ../lib/admin/storms.ts.
 */
import type { Config } from "@netlify/functions";
import { adminStormHandler } from "../lib/admin/storms.ts";

export default adminStormHandler();

// No method filter here: other methods must reach the handler to get a 405 with Allow.
export const config: Config = { path: "/api/admin/storms/:id" };
