/**
 * One star of a rating, drawn alike by every review star row and the review dialog's picker.
 * Always hidden from assistive tech: the caller names the rating once, in words.
 */
import { ICON_PATHS } from "../lib/icons.ts";

interface Props {
  /** Filled (amber) or empty. */
  on: boolean;
  /** Tailwind size class, e.g. "size-4". */
  size: string;
  /** Fill of an empty star: lighter where the star sits on a white dialog. */
  emptyFill?: string;
}

export function StarIcon({ on, size, emptyFill = "fill-slate-200" }: Props) {
  return (
    <svg
      viewBox="0 0 24 24"
      className={`${size} ${on ? "fill-amber-400 text-amber-500" : `${emptyFill} text-slate-300`}`}
      stroke="currentColor"
      strokeWidth="1.5"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d={ICON_PATHS.star} />
    </svg>
  );
}
