/**
 * GET /api/admin/leads/:id (the lead and its notification state) and PATCH (status and
 * note). Bearer ADMIN_TOKEN; the handler lives in ../lib/admin/leads.ts.
 */
import type { Config } from "@netlify/functions";
import { adminLeadHandler } from "../lib/admin/leads.ts";

export default adminLeadHandler();

// No method filter here: other methods must reach the handler to get a 405 with Allow.
export const config: Config = { path: "/api/admin/leads/:id" };
