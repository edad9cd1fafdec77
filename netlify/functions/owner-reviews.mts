/**
 * POST /owner/reviews: the signed-in owner answers their business's reviews (one public reply
 * per review); the page is src/pages/owner/reviews.astro. The handler lives in
 * ../lib/owners/reviews.ts.
 */
import type { Config } from "@netlify/functions";
import { ownerReviewsHandler } from "../lib/owners/reviews.ts";

export default ownerReviewsHandler();

export const config: Config = { path: "/owner/reviews", method: "POST" };
