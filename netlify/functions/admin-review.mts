/**
 * PATCH /api/admin/reviews/:id { isVerified?, hidden? }: verify, hide or show a review; the
 * business's rating follows and its cached pages are purged. Bearer ADMIN_TOKEN; the handler
 * lives in ../lib/admin/reviews.ts.
 */
import type { Config } from "@netlify/functions";
import { adminReviewHandler } from "../lib/admin/reviews.ts";

export default adminReviewHandler();

// No method filter here: other methods must reach the handler to get a 405 with Allow.
export const config: Config = { path: "/api/admin/reviews/:id" };
