/**
 * Customer Reviews, drawn by the server into the cached page, which every
 * review purges: the newest reviews are in the HTML and no script runs for them. Only after
 * a visitor posts a review does the page draw the list again, with these same components
 * (live-reviews.tsx, loaded by the review dialog).
 *
 * Review text, and the owner's reply under a review, are rendered as text by React: nothing a
 * visitor or an owner writes is ever HTML.
 */
import { formatReviewDate, ratingLabel } from "../../../lib/directory.ts";
import type { Business } from "../../../lib/schemas/business.ts";
import { hiddenLine, type OwnerReply, type PublicReview } from "../../../lib/schemas/review.ts";
import { Icon } from "../../../views/Icon.tsx";
import { StarRow } from "../../Stars.tsx";
import { invokerProps } from "../../../lib/dialogs.ts";

export const NO_REVIEWS = "No reviews yet. Be the first to review this business!";

/** The owner's one public reply under a review: who answered, when, and whether it was edited since. */
export function OwnerReplyView({ reply, businessName }: { reply: OwnerReply; businessName?: string }) {
  const at = reply.editedAt ?? reply.createdAt;
  return (
    <div className="mt-3 border-l-2 border-forest-200 pl-3" data-owner-reply="">
      <p className="text-sm font-semibold text-forest-900">Response from {businessName || "the owner"}</p>
      <p className="mt-1 whitespace-pre-line break-words text-sm text-slate-700">{reply.text}</p>
      <p className="mt-1 text-xs text-slate-500">
        <time dateTime={at}>{formatReviewDate(at)}</time>
        {reply.editedAt ? " (edited)" : null}
      </p>
    </div>
  );
}

export function ReviewItem({ review, businessName }: { review: PublicReview; businessName?: string }) {
  // A hidden review keeps its place with its public reason only: no name, no text, no stars.
  if (review.hidden)
    return (
      <li
        className="border-t border-slate-200 pt-4 text-sm italic text-slate-500 first:border-t-0 first:pt-0"
        data-review-id={review.id}
        data-hidden-review=""
      >
        {hiddenLine(review.hiddenReason)}
      </li>
    );
  return (
    <li className="border-t border-slate-200 pt-4 first:border-t-0 first:pt-0" data-review-id={review.id}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <StarRow rating={review.rating} emptyFill="fill-slate-200" label={ratingLabel(review.rating)} />
        <span className="font-semibold text-slate-900">{review.customerName}</span>
        {/* Unverified reviews count all the same: the line only says how the review came in. */}
        {review.isVerified ? (
          <span className="badge bg-forest-100 text-forest-800">
            <Icon name="check" className="size-3.5" /> Verified
          </span>
        ) : (
          <span className="text-xs text-slate-500">Unverified</span>
        )}
      </div>
      {review.serviceType ? <p className="mt-1 text-sm text-slate-600">{review.serviceType}</p> : null}
      {review.title ? <h3 className="mt-2 font-semibold text-slate-900">{review.title}</h3> : null}
      {review.reviewText ? (
        <p className="mt-1 whitespace-pre-line break-words text-slate-700">{review.reviewText}</p>
      ) : null}
      <p className="mt-2 text-xs text-slate-500">
        <time dateTime={review.createdAt}>{formatReviewDate(review.createdAt)}</time>
      </p>
      {review.reply ? <OwnerReplyView reply={review.reply} businessName={businessName} /> : null}
    </li>
  );
}

/** The reviews newest first, or the empty text. */
export function ReviewList({ businessName, reviews }: { businessName: string; reviews: readonly PublicReview[] }) {
  return reviews.length === 0 ? (
    <p className="mt-4 text-slate-600">{NO_REVIEWS}</p>
  ) : (
    <ul className="mt-4 space-y-4" aria-label={`Reviews of ${businessName}`}>
      {reviews.map((review) => (
        <ReviewItem key={review.id} review={review} businessName={businessName} />
      ))}
    </ul>
  );
}

export default function ReviewsPanel({
  business,
  reviews,
}: {
  business: Pick<Business, "name">;
  reviews: readonly PublicReview[];
}) {
  return (
    <section className="card" aria-labelledby="reviews-heading" id="reviews">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="reviews-heading" className="text-xl font-semibold text-forest-950">
          Customer Reviews
        </h2>
        <button type="button" className="btn-outline btn-sm" {...invokerProps("review")}>
          <Icon name="star" className="size-4" /> Write Review
        </button>
      </div>
      <div data-reviews="">
        <ReviewList businessName={business.name} reviews={reviews} />
      </div>
      <p className="mt-4 text-sm text-slate-600">
        <a className="link" href="/how-reviews-work">
          How reviews work
        </a>
        : one per e-mail per business, what Verified means, owners' replies, and why a review may be hidden (never for
        its rating).
      </p>
    </section>
  );
}
