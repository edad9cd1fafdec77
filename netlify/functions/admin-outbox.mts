/**
 * GET /api/admin/outbox: lead notifications not delivered yet; POST { leadId? }: retry now.
 * Bearer ADMIN_TOKEN; the handler lives in ../lib/admin/outbox.ts.
 */
import type { Config } from "@netlify/functions";
import { adminOutboxHandler } from "../lib/admin/outbox.ts";

export default adminOutboxHandler();

// No method filter here: other methods must reach the handler to get a 405 with Allow.
export const config: Config = { path: "/api/admin/outbox" };
