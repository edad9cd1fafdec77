/**
 * GET /api/admin/leads/:id/offers (businesses near the job, to offer the lead to by hand) and
 * POST { businessIds } (offer it to them). Bearer ADMIN_TOKEN; the handler lives in
 * ../lib/admin/offers.ts.
 */
import type { Config } from "@netlify/functions";
import { adminLeadOffersHandler } from "../lib/admin/offers.ts";

export default adminLeadOffersHandler();

// No method filter here: other methods must reach the handler to get a 405 with Allow.
export const config: Config = { path: "/api/admin/leads/:id/offers" };
