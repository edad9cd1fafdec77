/**
 * A business page after its visitor posts a review (a successful review refreshes the
 * list). The page is server HTML that runs no framework code; the review
 * dialog loads this module once its POST succeeds, and from then on the page follows the
 * reviews store (src/lib/stores/directory.ts): the header's stars, rating and count
 * (RatingSummary's `data-live-*` markup) change in place, and the list is drawn again with
 * the server's own ReviewList.
 *
 * Until the store holds the server's fresh list ("ready"), the page's list stays and the
 * visitor's own review shows above it; a refresh that fails leaves it so and offers to try
 * again.
 */
import { createRoot } from "react-dom/client";
import { filledStars, ratingLabel, reviewCountText } from "../../../lib/directory.ts";
import type { PublicReview } from "../../../lib/schemas/review.ts";
import { $reviews, refreshReviews, type ReviewsState } from "../../../lib/stores/directory.ts";
import { ReviewList } from "./ReviewsPanel.tsx";

const followed = new Set<string>();

function showSummary(businessId: string, state: ReviewsState): void {
  for (const el of document.querySelectorAll<HTMLElement>(`[data-live-summary="${CSS.escape(businessId)}"]`)) {
    const filled = filledStars(state.rating);
    el.querySelectorAll<SVGElement>("[data-star]").forEach((star, i) =>
      star.setAttribute("data-on", String(i < filled)),
    );
    el.querySelector("[data-live-stars]")?.setAttribute("aria-label", ratingLabel(state.rating));
    const rating = el.querySelector("[data-live-rating]");
    if (rating) rating.textContent = Number(state.rating).toFixed(1);
    const count = el.querySelector("[data-live-count]");
    if (count) count.textContent = reviewCountText(state.reviewCount);
    // "No reviews yet" gives way to the stars with the first review.
    el.querySelector<HTMLElement>("[data-live-none]")?.toggleAttribute("hidden", state.reviewCount > 0);
    el.querySelector<HTMLElement>("[data-live-rated]")?.toggleAttribute("hidden", state.reviewCount === 0);
  }
}

function LiveReviews({
  businessId,
  businessName,
  failed,
  reviews,
}: {
  businessId: string;
  businessName: string;
  failed: boolean;
  reviews: readonly PublicReview[] | null;
}) {
  return (
    <>
      {failed ? (
        <p className="mt-3 text-sm text-slate-600" role="status">
          Couldn't load the latest reviews.{" "}
          <button type="button" className="link" onClick={() => void refreshReviews(businessId)}>
            Try again
          </button>
        </p>
      ) : null}
      {reviews ? <ReviewList businessName={businessName} reviews={reviews} /> : null}
    </>
  );
}

/** Starts following `businessId`'s reviews on this page (once; later calls do nothing). */
export function followReviews(businessId: string, businessName: string): void {
  if (followed.has(businessId)) return;
  followed.add(businessId);
  const section = document.getElementById("reviews");
  const list = section?.querySelector<HTMLElement>("[data-reviews]");
  // The server's list (or its empty text), shown until the store has the fresh one.
  let served = list?.firstElementChild instanceof HTMLElement ? list.firstElementChild : null;
  const servedIds = new Set(
    [...(served?.querySelectorAll<HTMLElement>("[data-review-id]") ?? [])].map((el) => el.dataset.reviewId),
  );
  const live = document.createElement("div");
  list?.prepend(live);
  const root = createRoot(live);

  $reviews.subscribe((all) => {
    const state = all[businessId];
    if (!state) return;
    showSummary(businessId, state);
    if (!section) return;
    if (state.status === "loading") section.setAttribute("aria-busy", "true");
    else section.removeAttribute("aria-busy");
    if (state.status === "ready" && served) {
      served.remove();
      served = null;
    }
    const added = served ? state.reviews.filter((r) => !servedIds.has(r.id)) : state.reviews;
    // The empty text goes once the visitor's review is above it.
    if (served && servedIds.size === 0) served.hidden = added.length > 0;
    root.render(
      <LiveReviews
        businessId={businessId}
        businessName={businessName}
        failed={state.status === "error"}
        reviews={served && added.length === 0 ? null : added}
      />,
    );
  });
}
