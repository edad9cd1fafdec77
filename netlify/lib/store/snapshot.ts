/**
 * The directory as the build sees it, for prerendering /directory and every
 * /directory/{slug} page. Read from the configured store (the same one the functions use
 * at run time); if that store holds no businesses yet (a fresh deploy before seeding, or a
 * CI build against an empty Redis), the seed file is used instead and the build log says
 * so, because pages that 404 in the API are better than a directory with no pages.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { toPublicReview, type Business, type PublicReview } from "../../../src/lib/schemas/business.ts";
import { createStore, storeOptionsFromEnv } from "./index.ts";
import { formatRating } from "./score.ts";
import { DEFAULT_SEED_FILE, readSeedFile, seedReviewId } from "./seed.ts";

export interface DirectorySnapshot {
  /** Every business in directory order (featured, rating, review count). */
  businesses: Business[];
  /** Public reviews per business id, newest first. */
  reviews: Map<string, PublicReview[]>;
  /** Where the data came from, for the build log. */
  source: "store" | "seed";
}

/** Reviews prerendered per detail page; the page's island fetches the live list anyway. */
export const PRERENDERED_REVIEWS = 20;
const PAGE = 50;

let cached: Promise<DirectorySnapshot> | undefined;

/** Once per build: every page of the build shares one read of the store. */
export function directorySnapshot(env: Record<string, string | undefined> = process.env): Promise<DirectorySnapshot> {
  cached ??= loadDirectorySnapshot(env);
  return cached;
}

export async function loadDirectorySnapshot(env: Record<string, string | undefined>): Promise<DirectorySnapshot> {
  const store = createStore(storeOptionsFromEnv(env));
  // The Redis transport unrefs its socket between commands so function workers can exit;
  // a build that has nothing else pending would then end mid-read with exit code 0.
  const keepAlive = setInterval(() => {}, 1_000);
  try {
    const businesses: Business[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const { data, total } = await store.businesses.list({ limit: PAGE, offset });
      businesses.push(...data);
      if (data.length === 0 || businesses.length >= total) break;
    }
    if (businesses.length > 0) {
      const reviews = new Map<string, PublicReview[]>();
      for (const b of businesses) {
        reviews.set(b.id, (await store.reviews.list(b.id, { limit: PRERENDERED_REVIEWS })).map(toPublicReview));
      }
      console.log(`[directory] prerendering ${businesses.length} businesses from ${store.description}`);
      return { businesses, reviews, source: "store" };
    }
  } finally {
    await store.close();
    clearInterval(keepAlive);
  }
  return fromSeed(env);
}

function fromSeed(env: Record<string, string | undefined>): DirectorySnapshot {
  const file = resolve(env.TREELINE_SEED_FILE || DEFAULT_SEED_FILE);
  if (!existsSync(file)) {
    console.warn(`[directory] the store is empty and ${file} is missing: prerendering an empty directory`);
    return { businesses: [], reviews: new Map(), source: "seed" };
  }
  console.warn(`[directory] the store has no businesses yet: prerendering from ${file} (run \`npm run seed\` against it)`);
  const items = readSeedFile(file);
  const businesses: Business[] = [];
  const reviews = new Map<string, PublicReview[]>();
  for (const { reviews: seedReviews, ...input } of items) {
    const sum = seedReviews.reduce((total, r) => total + (r.rating ?? 5), 0);
    businesses.push({
      ...input,
      rating: formatRating(sum, seedReviews.length),
      reviewCount: seedReviews.length,
    } as Business);
    reviews.set(
      input.id,
      seedReviews
        .map((r, index) => ({
          id: seedReviewId(input.id, index),
          customerName: r.customerName,
          rating: Number(r.rating ?? 5),
          title: r.title ?? "",
          reviewText: r.reviewText ?? "",
          serviceType: r.serviceType ?? "",
          isVerified: r.isVerified,
          createdAt: r.createdAt,
        }))
        .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt))
        .slice(0, PRERENDERED_REVIEWS),
    );
  }
  // Same order as the store: featured, then rating, then review count.
  businesses.sort(
    (a, b) => Number(b.isFeatured) - Number(a.isFeatured) || Number(b.rating) - Number(a.rating) || b.reviewCount - a.reviewCount,
  );
  return { businesses, reviews, source: "seed" };
}
