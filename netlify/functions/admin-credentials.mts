/**
 * GET /api/admin/credentials: owners' licenses and insurance waiting for the operator's check.
 * Bearer ADMIN_TOKEN; the handler lives in ../lib/admin/credentials.ts.
 */
import type { Config } from "@netlify/functions";
import { adminCredentialsHandler } from "../lib/admin/credentials.ts";

export default adminCredentialsHandler();

// No method filter here: other methods must reach the handler to get a 405 with Allow.
export const config: Config = { path: "/api/admin/credentials" };
