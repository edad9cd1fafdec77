/** The seed file, content/directory/businesses.json: the businesses and their reviews to load. */
import { z } from "../zod.ts";
import { BusinessInput } from "./business.ts";
import { ReviewInput } from "./review.ts";

const isoDateTime = z.iso.datetime({ offset: true });

/** A review as written in the seed file: the visitor fields plus what the server normally sets. */
export const SeedReview = ReviewInput.extend({
  /** Verified badge as the file gives it; never stored for a sample business (`isSample`): store/seed.ts. */
  isVerified: z.boolean().default(false),
  /** When the review was written. */
  createdAt: isoDateTime,
});

/** One entry of content/directory/businesses.json (rating and count are derived from reviews). */
export const SeedBusiness = BusinessInput.omit({ rating: true, reviewCount: true }).extend({
  /** Reviews to import with deterministic ids. */
  reviews: z.array(SeedReview).default([]),
});
export type SeedBusiness = z.output<typeof SeedBusiness>;

/** The whole seed file. */
export const SeedFile = z.array(SeedBusiness);
