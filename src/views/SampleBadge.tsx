/**
 * The "Sample listing" mark on a demo business (`Business.isSample`, src/lib/sample.ts):
 * directory cards, the business page, find-pros matches and the owner's and operator's views.
 */
import { SAMPLE_LISTING } from "../lib/sample.ts";

export function SampleBadge({ className = "" }: { className?: string }) {
  return (
    <span
      className={`badge shrink-0 border border-dashed border-slate-400 bg-slate-50 text-slate-700 ${className}`}
      data-testid="sample-badge"
    >
      {SAMPLE_LISTING}
    </span>
  );
}
