/**
 * GET /api/admin/leads.csv?type=: the leads as a CSV attachment (formula-safe). Bearer
 * ADMIN_TOKEN; the handler lives in ../lib/admin/leads.ts.
 */
import type { Config } from "@netlify/functions";
import { adminLeadsCsvHandler } from "../lib/admin/leads.ts";

export default adminLeadsCsvHandler();

// No method filter here: other methods must reach the handler to get a 405 with Allow.
export const config: Config = { path: "/api/admin/leads.csv" };
