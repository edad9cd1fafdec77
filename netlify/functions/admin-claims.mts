/**
 * GET /api/admin/claims?status=pending|all: the operator's claims queue (claims of listed
 * businesses and businesses to add). Bearer ADMIN_TOKEN; the handler lives in
 * ../lib/admin/claims.ts.
 */
import type { Config } from "@netlify/functions";
import { adminClaimsHandler } from "../lib/admin/claims.ts";

export default adminClaimsHandler();

export const config: Config = { path: "/api/admin/claims" };
