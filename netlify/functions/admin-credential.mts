/**
 * PATCH /api/admin/credentials/:businessId { licence?, insurance?: "checked" | "rejected", note? }:
 * the operator's check of a business's license or insurance; the public page shows the badge
 * on the next request. Bearer ADMIN_TOKEN; the handler lives in ../lib/admin/credentials.ts.
 */
import type { Config } from "@netlify/functions";
import { adminCredentialHandler } from "../lib/admin/credentials.ts";

export default adminCredentialHandler();

// No method filter here: other methods must reach the handler to get a 405 with Allow.
export const config: Config = { path: "/api/admin/credentials/:businessId" };
