/**
 * POST /review/:token: the visitor's review of a pro that accepted their job, from the
 * invitation page (src/pages/review/[token].astro); it shows as Verified. The handler lives
 * in ../lib/delivery/review-invite.ts.
 */
import type { Config } from "@netlify/functions";
import { reviewInviteHandler } from "../lib/delivery/review-invite.ts";

export default reviewInviteHandler();

export const config: Config = { path: "/review/:token", method: "POST" };
