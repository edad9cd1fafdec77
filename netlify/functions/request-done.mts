/**
 * POST /requests/:leadId/:sig/done: the homeowner's "The job is done" on their status page
 * (src/pages/requests/[leadId]/[sig].astro); the pro's review invitation goes at once. The
 * handler lives in ../lib/delivery/handlers.ts.
 */
import type { Config } from "@netlify/functions";
import { jobDoneHandler } from "../lib/delivery/handlers.ts";

export default jobDoneHandler();

export const config: Config = { path: "/requests/:leadId/:sig/done", method: "POST" };
