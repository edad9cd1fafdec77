/**
 * GET /api/admin/leads?type=&cursor=&q=&limit=: the operator's inbox, newest first, searchable
 * by name, e-mail or phone. Bearer ADMIN_TOKEN; the handler lives in ../lib/admin/leads.ts.
 */
import type { Config } from "@netlify/functions";
import { adminLeadsHandler } from "../lib/admin/leads.ts";

export default adminLeadsHandler();

// No method filter here: other methods must reach the handler to get a 405 with Allow.
export const config: Config = { path: "/api/admin/leads" };
