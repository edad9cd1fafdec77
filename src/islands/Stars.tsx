/**
 * Rating stars in the islands: one star (the review dialog's picker), a row of five, and
 * the directory cards' rating line. components/Stars.astro draws the same star from the
 * same STAR (src/lib/icons.ts) for server-rendered pages.
 *
 * Spec: filled stars = floor of the rating (4.8 shows four). Stars are hidden from assistive
 * tech unless a row is given a label: the rating is said once, in words, so a screen reader
 * does not say "star" five times.
 */
import { NO_REVIEWS_YET, STAR_COUNT, filledStars, ratingLabel, reviewCountText } from "../lib/directory.ts";
import { STAR } from "../lib/icons.ts";

interface StarProps {
  on: boolean;
  /** Tailwind size class, e.g. "size-4". */
  size: string;
  /** Fill of an empty star, for the background it sits on. */
  emptyFill?: string;
}

export function Star({ on, size, emptyFill = "fill-none" }: StarProps) {
  return (
    <svg
      viewBox="0 0 24 24"
      className={`${size} ${emptyFill} ${STAR.class}`}
      stroke="currentColor"
      strokeWidth={STAR.strokeWidth}
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      data-star=""
      data-on={String(on)}
    >
      <path d={STAR.path} />
    </svg>
  );
}

interface StarRowProps {
  rating: string | number;
  /** Hooks for a page script, e.g. the business page's `data-live-stars`. */
  [data: `data-${string}`]: string | undefined;
  size?: string;
  emptyFill?: string;
  /** Names the row as an image ("Rated 4.8 out of 5"); without it the row is decorative. */
  label?: string;
  className?: string;
}

export function StarRow({ rating, size = "size-4", emptyFill, label, className = "", ...data }: StarRowProps) {
  const filled = filledStars(rating);
  return (
    <span
      className={`inline-flex items-center ${className}`}
      role={label ? "img" : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : "true"}
      {...data}
    >
      {Array.from({ length: STAR_COUNT }, (_, i) => (
        <Star key={i} on={i < filled} size={size} emptyFill={emptyFill} />
      ))}
    </span>
  );
}

/** The rating as a number from 0 to 5 (anything unreadable counts as 0). */
function ratingValue(rating: string | number): number {
  const n = typeof rating === "number" ? rating : Number.parseFloat(rating);
  return Number.isFinite(n) ? Math.min(STAR_COUNT, Math.max(0, n)) : 0;
}

/**
 * A card's rating: stars, "4.8" and "(12 reviews)" when `count` is given; "No reviews yet"
 * (no stars, no "0.0") when `count` is 0.
 */
export function Stars({
  rating,
  count,
  className = "",
}: {
  rating: string | number;
  count?: number;
  className?: string;
}) {
  const value = ratingValue(rating);
  if (count === 0)
    return (
      <span className={`inline-flex items-center text-sm text-slate-600 ${className}`} data-testid="no-reviews">
        {NO_REVIEWS_YET}
      </span>
    );
  return (
    <span className={`inline-flex flex-wrap items-center gap-x-1.5 gap-y-0.5 text-sm ${className}`}>
      <StarRow rating={value} />
      <span className="font-semibold text-slate-900" aria-hidden="true">
        {value.toFixed(1)}
      </span>
      <span className="sr-only">{ratingLabel(value)}</span>
      {count !== undefined && <span className="text-slate-600">({reviewCountText(count)})</span>}
    </span>
  );
}
