/**
 * GET /api/admin/messages?offset=&limit=&leadId=: every message the site sent or kept (operator
 * alerts, visitor receipts and updates, offers to businesses), newest first, or one lead's.
 * Bearer ADMIN_TOKEN; the handler lives in ../lib/admin/messages.ts.
 */
import type { Config } from "@netlify/functions";
import { adminMessagesHandler } from "../lib/admin/messages.ts";

export default adminMessagesHandler();

// No method filter here: other methods must reach the handler to get a 405 with Allow.
export const config: Config = { path: "/api/admin/messages" };
