/**
 * GET /api/admin/reviews: every review of every business, hidden ones too, newest first.
 * Bearer ADMIN_TOKEN; the handler lives in ../lib/admin/reviews.ts.
 */
import type { Config } from "@netlify/functions";
import { adminReviewsHandler } from "../lib/admin/reviews.ts";

export default adminReviewsHandler();

// No method filter here: other methods must reach the handler to get a 405 with Allow.
export const config: Config = { path: "/api/admin/reviews" };
