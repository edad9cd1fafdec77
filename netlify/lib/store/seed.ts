/**
 * Loads content/directory/businesses.json. Idempotent: businesses are upserted by id and
 * reviews get ids derived from business id + position, so a re-run adds nothing twice. A sample
 * business's reviews are never stored as Verified, whatever the file says: only a review
 * invited after a booked job is (docs/owners.md, /how-reviews-work).
 */
import { readFileSync } from "node:fs";
import { SeedFile, type SeedBusiness } from "../../../src/lib/schemas/seed.ts";
import type { BusinessesRepository } from "./repos/businesses.types.ts";
import type { ReviewsRepository } from "./repos/reviews.ts";

export const DEFAULT_SEED_FILE = "content/directory/businesses.json";

export function readSeedFile(path: string): SeedBusiness[] {
  const parsed = SeedFile.safeParse(JSON.parse(readFileSync(path, "utf8")));
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new Error(`${path}: ${first ? `${first.path.join(".")}: ${first.message}` : "invalid"}`);
  }
  return parsed.data;
}

export const seedReviewId = (businessId: string, index: number) =>
  `${businessId}-rev-${String(index + 1).padStart(3, "0")}`;

export interface SeedReport {
  businesses: number;
  reviewsAdded: number;
  reviewsKept: number;
  /** Sample businesses (`isSample`) among them: the data is a demo when there are any. */
  samples: number;
}

export async function seedDirectory(
  repos: { businesses: BusinessesRepository; reviews: ReviewsRepository },
  items: readonly SeedBusiness[],
): Promise<SeedReport> {
  const report: SeedReport = { businesses: 0, reviewsAdded: 0, reviewsKept: 0, samples: 0 };
  for (const { reviews, ...business } of items) {
    await repos.businesses.upsert(business);
    report.businesses++;
    if (business.isSample) report.samples++;
    for (const [index, review] of reviews.entries()) {
      const { isVerified, createdAt, ...input } = review;
      const { created } = await repos.reviews.addOrKeep(business.id, input, {
        id: seedReviewId(business.id, index),
        createdAt,
        isVerified: isVerified && !business.isSample,
      });
      if (created) report.reviewsAdded++;
      else report.reviewsKept++;
    }
  }
  return report;
}
