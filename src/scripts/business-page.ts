/**
 * The prerendered business page's only always-on script (no framework): it keeps the
 * header rating in step with the reviews store and swaps broken photos for their
 * placeholder. Both jobs are needed before, or without, any island hydrating.
 */
import { filledStars, ratingLabel, reviewCountText } from "../lib/directory.ts";
import { $reviews } from "../lib/stores/directory.ts";
import "./business-hours.ts";

function hideBroken(img: HTMLImageElement) {
  img.hidden = true;
}

// An image can fail before this module runs (it is deferred), so check what already finished.
for (const img of document.querySelectorAll<HTMLImageElement>("img[data-fallback]")) {
  if (img.complete && img.naturalWidth === 0) hideBroken(img);
  else img.addEventListener("error", () => hideBroken(img), { once: true });
}

$reviews.subscribe((all) => {
  for (const [id, state] of Object.entries(all)) {
    if (!state || state.status === "idle") continue;
    for (const el of document.querySelectorAll<HTMLElement>(`[data-live-summary="${CSS.escape(id)}"]`)) {
      const filled = filledStars(state.rating);
      el.querySelectorAll<SVGElement>("[data-star]").forEach((star, i) => star.setAttribute("data-on", String(i < filled)));
      el.querySelector("[data-live-stars]")?.setAttribute("aria-label", ratingLabel(state.rating));
      const rating = el.querySelector("[data-live-rating]");
      if (rating) rating.textContent = Number(state.rating).toFixed(1);
      const count = el.querySelector("[data-live-count]");
      if (count) count.textContent = reviewCountText(state.reviewCount);
    }
  }
});
