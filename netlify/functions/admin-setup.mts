/**
 * GET /api/admin/setup: the launch checklist (store, e-mail, SMS, Claude, link-signing key,
 * schedules, data), each line ready, a warning or not ready with what to do. Bearer
 * ADMIN_TOKEN; the checklist lives in ../lib/admin/setup.ts, which the server's log at start
 * reads too.
 */
import type { Config } from "@netlify/functions";
import { adminSetupHandler } from "../lib/admin/setup.ts";

export default adminSetupHandler();

// No method filter here: other methods must reach the handler to get a 405 with Allow.
export const config: Config = { path: "/api/admin/setup" };
