/**
 * POST /api/admin/changes/:id/rollback: puts a listing change's fields back as they were (a
 * new change by the operator). Bearer ADMIN_TOKEN; the handler lives in ../lib/admin/changes.ts.
 */
import type { Config } from "@netlify/functions";
import { adminRollbackHandler } from "../lib/admin/changes.ts";

export default adminRollbackHandler();

// No method filter here: other methods must reach the handler to get a 405 with Allow.
export const config: Config = { path: "/api/admin/changes/:id/rollback" };
