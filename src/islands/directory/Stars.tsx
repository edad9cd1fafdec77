/**
 * A business's star rating, shared by the directory cards and the detail page.
 *
 * Spec: filled stars = floor of the rating (4.8 shows four). The stars and the visible
 * number are decorative for assistive tech, which reads one sentence instead
 * ("Rated 4.8 out of 5"), so a screen reader does not say "star" five times.
 */
import { StarIcon } from "../StarIcon.tsx";
import { STAR_COUNT, filledStars, ratingLabel, reviewCountText } from "../../lib/directory.ts";

const SIZES = {
  sm: { star: "size-4", text: "text-sm" },
  md: { star: "size-5", text: "text-base" },
  lg: { star: "size-6", text: "text-lg" },
} as const;

export interface StarsProps {
  /** Average rating, as the API sends it ("4.8") or as a number. */
  rating: string | number;
  /** Number of reviews; shown as "(12 reviews)" when given. */
  count?: number;
  size?: keyof typeof SIZES;
  className?: string;
}

/** The rating as a number from 0 to 5 (anything unreadable counts as 0). */
export function ratingValue(rating: string | number): number {
  const n = typeof rating === "number" ? rating : Number.parseFloat(rating);
  return Number.isFinite(n) ? Math.min(STAR_COUNT, Math.max(0, n)) : 0;
}

/** The five stars alone, hidden from assistive tech (the caller says the rating in words). */
export function StarRow({ rating, size = "sm" }: { rating: string | number; size?: keyof typeof SIZES }) {
  const filled = filledStars(ratingValue(rating));
  return (
    <span className="inline-flex items-center" aria-hidden="true">
      {Array.from({ length: STAR_COUNT }, (_, i) => (
        <StarIcon key={i} on={i < filled} size={SIZES[size].star} emptyFill="fill-none" />
      ))}
    </span>
  );
}

export function Stars({ rating, count, size = "sm", className = "" }: StarsProps) {
  const value = ratingValue(rating);
  const shown = value.toFixed(1);
  const { text } = SIZES[size];

  return (
    <span className={`inline-flex flex-wrap items-center gap-x-1.5 gap-y-0.5 ${text} ${className}`}>
      <StarRow rating={value} size={size} />
      <span className="font-semibold text-slate-900" aria-hidden="true">
        {shown}
      </span>
      <span className="sr-only">{ratingLabel(value)}</span>
      {count !== undefined && <span className="text-slate-600">({reviewCountText(count)})</span>}
    </span>
  );
}

export default Stars;
