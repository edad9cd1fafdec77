/**
 * GET/POST /review/:token: the visitor's invitation to review a pro that accepted their job;
 * the review it makes shows as Verified. The handler lives in ../lib/delivery/review-invite.ts.
 */
import type { Config } from "@netlify/functions";
import { reviewInviteHandler } from "../lib/delivery/review-invite.ts";

export default reviewInviteHandler();

export const config: Config = { path: "/review/:token" };
