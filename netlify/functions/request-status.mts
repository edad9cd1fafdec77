/**
 * GET /requests/:leadId/:sig: the visitor's private status page (the link in their receipt):
 * what they asked, who has it, each answer and what happens next. The handler lives in
 * ../lib/delivery/handlers.ts.
 */
import type { Config } from "@netlify/functions";
import { statusHandler } from "../lib/delivery/handlers.ts";

export default statusHandler();

export const config: Config = { path: "/requests/:leadId/:sig" };
