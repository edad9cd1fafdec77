/**
 * GET /api/admin/reports: businesses' reports of bad leads, counted by reason and by form, and
 * the newest ones. Bearer ADMIN_TOKEN; the handler lives in ../lib/admin/reports.ts.
 */
import type { Config } from "@netlify/functions";
import { adminReportsHandler } from "../lib/admin/reports.ts";

export default adminReportsHandler();

// No method filter here: other methods must reach the handler to get a 405 with Allow.
export const config: Config = { path: "/api/admin/reports" };
