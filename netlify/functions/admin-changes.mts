/**
 * GET /api/admin/changes?businessId=&cursor=&limit=: the listing change history, newest first.
 * Bearer ADMIN_TOKEN; the handler lives in ../lib/admin/changes.ts.
 */
import type { Config } from "@netlify/functions";
import { adminChangesHandler } from "../lib/admin/changes.ts";

export default adminChangesHandler();

export const config: Config = { path: "/api/admin/changes" };
