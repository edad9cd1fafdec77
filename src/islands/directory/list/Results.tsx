/**
 * The list's body for one result: the API's refusal with Clear Filters, the error with
 * Retry, the loading skeleton, the cards, or the empty state's next steps.
 */
import type { DirectoryState } from "../../../lib/directory-url.ts";
import { BusinessCard, SkeletonCard } from "./BusinessCard.tsx";
import { ClearFilters, NextSteps } from "./NextSteps.tsx";
import type { Result } from "./result.ts";

/** How many cards the loading skeleton shows. */
const SKELETON_CARDS = 6;

const grid = "grid gap-5 md:grid-cols-2 lg:grid-cols-3";

interface Props {
  result: Result;
  /** The committed state: the cards' distances and the empty state's suggestions. */
  state: DirectoryState;
  /** The clock for the cards' Open now / Closed badges (ms). */
  now?: number;
  onClear: () => void;
  onRetry: () => void;
  /** The empty state's wider search. */
  onWiden: (next: DirectoryState) => void;
}

export function Results({ result, state, now, onClear, onRetry, onWiden }: Props) {
  if (result.status === "invalid")
    return (
      <div
        className="rounded-card border border-dashed border-red-200 bg-red-50/50 px-6 py-12 text-center"
        data-testid="query-error"
      >
        {Object.entries(result.fields).map(([field, message]) => (
          <p key={field} className="text-lg font-semibold text-red-800">
            {message}
          </p>
        ))}
        <div className="mt-6">
          <ClearFilters onClear={onClear} />
        </div>
      </div>
    );
  if (result.status === "error")
    return (
      <div
        role="alert"
        className="flex flex-col items-start gap-3 rounded-lg border border-red-200 bg-red-50 px-4 py-4 text-red-800 sm:flex-row sm:items-center sm:justify-between"
      >
        <p className="font-medium">{result.message}</p>
        <button type="button" className="btn-outline shrink-0" onClick={onRetry}>
          Retry
        </button>
      </div>
    );
  if (result.status === "loading")
    return (
      <ul className={grid}>
        {Array.from({ length: SKELETON_CARDS }, (_, i) => (
          <SkeletonCard key={i} />
        ))}
      </ul>
    );
  const { page } = result;
  if (page.data.length === 0) return <NextSteps state={state} onState={onWiden} onClear={onClear} />;
  return (
    <ul className={grid} data-testid="results-list">
      {page.data.map((business) => (
        <BusinessCard key={business.id} business={business} now={now} near={page.near ? state.near : undefined} />
      ))}
    </ul>
  );
}
