/**
 * A business page's reviews after its visitor posts one: the review dialog (in the site's
 * dialogs island) writes here and the page's live view (live-reviews.tsx, a separate chunk)
 * draws it. A posted review updates the summary at once from the POST answer and then
 * refreshes the list from the server. Until then the page shows the server's HTML and
 * nothing here is loaded.
 */
import { map } from "nanostores";
import { apiGet } from "../api.ts";
import type { PublicReview } from "../schemas/review.ts";

export interface ReviewsState {
  /** Newest first. */
  reviews: readonly PublicReview[];
  /** Business aggregate as the server last reported it. */
  rating: string;
  reviewCount: number;
  status: "loading" | "ready" | "error";
}

/** Per business id. */
export const $reviews = map<Record<string, ReviewsState | undefined>>({});

export interface ReviewsAnswer {
  data: PublicReview[];
  total: number;
  rating: string;
  reviewCount: number;
}

export const reviewsUrl = (businessId: string) => `/api/businesses/${encodeURIComponent(businessId)}/reviews`;

const inflight = new Map<string, Promise<void>>();

/** Fetches the business's reviews and aggregate; concurrent calls share one request. */
export function refreshReviews(businessId: string): Promise<void> {
  const running = inflight.get(businessId);
  if (running) return running;
  const previous = $reviews.get()[businessId];
  $reviews.setKey(businessId, {
    reviews: previous?.reviews ?? [],
    rating: previous?.rating ?? "0.0",
    reviewCount: previous?.reviewCount ?? 0,
    status: "loading",
  });
  const run = apiGet<ReviewsAnswer>(reviewsUrl(businessId))
    .then((answer) => {
      if (!answer) throw new Error("no answer");
      $reviews.setKey(businessId, {
        reviews: answer.data,
        rating: answer.rating,
        reviewCount: answer.reviewCount,
        status: "ready",
      });
    })
    .catch(() => {
      const now = $reviews.get()[businessId];
      // Keep whatever was shown and say the refresh failed.
      $reviews.setKey(businessId, {
        reviews: now?.reviews ?? [],
        rating: now?.rating ?? "0.0",
        reviewCount: now?.reviewCount ?? 0,
        status: "error",
      });
    })
    .finally(() => inflight.delete(businessId));
  inflight.set(businessId, run);
  return run;
}

/** After a successful POST: show the new review and aggregate now, then re-read the list. */
export function reviewAdded(
  businessId: string,
  review: PublicReview,
  summary: { rating: string; reviewCount: number },
): Promise<void> {
  const now = $reviews.get()[businessId];
  $reviews.setKey(businessId, {
    reviews: [review, ...(now?.reviews ?? []).filter((r) => r.id !== review.id)],
    rating: summary.rating,
    reviewCount: summary.reviewCount,
    // "ready" only once `reviews` is the server's list; before that it holds just this review.
    status: now?.status ?? "loading",
  });
  return refreshReviews(businessId).then(() => {
    const after = $reviews.get()[businessId];
    // A cache that has not caught up yet must not make the visitor's own review vanish.
    if (after && !after.reviews.some((r) => r.id === review.id)) {
      $reviews.setKey(businessId, {
        ...after,
        reviews: [review, ...after.reviews],
        rating: summary.rating,
        reviewCount: Math.max(after.reviewCount, summary.reviewCount),
      });
    }
  });
}
