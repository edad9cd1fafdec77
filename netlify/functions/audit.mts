/**
 * POST /api/audit: validates and stores a audit lead. JSON clients get JSON; a no-JavaScript
 * form post gets a server-rendered page. The pipeline lives in ../lib/leads.ts.
 */
import type { Config } from "@netlify/functions";
import { AUDIT_ENDPOINT } from "../lib/lead-endpoints.ts";
import { leadHandler } from "../lib/leads.ts";

export default leadHandler(AUDIT_ENDPOINT);

// No method filter here: other methods must reach the handler to get a 405 with Allow.
export const config: Config = { path: "/api/audit" };
