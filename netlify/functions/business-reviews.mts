/**
 * GET /api/businesses/:id/reviews lists a business's reviews (newest first, no e-mails);
 * POST adds one and answers with the new rating. The handler lives in
 * ../lib/directory-reviews.ts.
 */
import type { Config } from "@netlify/functions";
import { reviewsHandler } from "../lib/directory-reviews.ts";

export default reviewsHandler();

// No method filter here: other methods must reach the handler to get a 405 with Allow.
export const config: Config = { path: "/api/businesses/:id/reviews" };
