/**
 * What an empty /directory offers instead of a dead end: the same search with
 * the next radius, the find-pros quote form for that place, the hotline, and Clear Filters.
 * Every one is a link, so it works on the first tap before the island has started (the
 * list island starts on intent: a tap on a button it had not wired yet did nothing) and
 * without JavaScript. With the island running, a plain click on Wider radius or Clear
 * Filters is taken over and the list loads through the API (`onState`).
 */
import type { MouseEvent } from "react";
import {
  DEFAULT_DIRECTORY_STATE,
  RADIUS_OPTIONS,
  isFiltered,
  serializeDirectoryQuery,
  type DirectoryState,
  type Radius,
} from "../../../lib/directory-url.ts";
import { findProsUrl } from "../../../lib/find-pros-link.ts";
import { SITE } from "../../../lib/site.ts";
import { Icon } from "../../../views/Icon.tsx";

/** What the list says when no business matches. */
export const EMPTY_TEXT = "No businesses found matching your criteria.";

/** The next radius after `radius`, or undefined at the widest. */
export function widerRadius(radius: Radius): Radius | undefined {
  return RADIUS_OPTIONS.find((o) => o.value > radius)?.value;
}

/** The unfiltered list: what Clear Filters leads to. */
export const CLEAR_FILTERS_HREF = `/directory${serializeDirectoryQuery(DEFAULT_DIRECTORY_STATE)}`;

/** A plain left click, which the island may take over (not a new tab, window or download). */
export function isPlainClick(event: MouseEvent<HTMLAnchorElement>): boolean {
  return !(
    event.defaultPrevented ||
    event.button !== 0 ||
    event.metaKey ||
    event.ctrlKey ||
    event.shiftKey ||
    event.altKey
  );
}

/** Clear Filters: a link to /directory; the island's click handler, when there is one, clears in place. */
export function ClearFilters({ onClear }: { onClear?: () => void }) {
  return (
    <a
      href={CLEAR_FILTERS_HREF}
      className="btn-secondary"
      data-testid="clear-filters"
      onClick={(event) => {
        if (!onClear || !isPlainClick(event)) return;
        event.preventDefault();
        onClear();
      }}
    >
      Clear Filters
    </a>
  );
}

export function NextSteps({
  state,
  onState,
  onClear,
}: {
  state: DirectoryState;
  /** The island's: show this state in place (the wider radius). */
  onState?: (next: DirectoryState) => void;
  onClear?: () => void;
}) {
  const wider = state.near ? widerRadius(state.radius) : undefined;
  const widerState = wider ? { ...state, radius: wider, page: 1 } : undefined;
  const clearable = isFiltered(state) || state.page > 1;
  return (
    <div
      className="rounded-card border border-dashed border-forest-200 bg-forest-50/50 px-6 py-12 text-center"
      data-testid="empty-state"
    >
      <p className="text-lg font-semibold text-forest-950">{EMPTY_TEXT}</p>
      {clearable && (
        <p className="mt-2 text-slate-600">
          {state.near
            ? wider
              ? "Try a wider radius or fewer filters."
              : "Try fewer filters, or let us find a pro for you."
            : "Try a different word or another city."}
        </p>
      )}
      <div className="mt-6 flex flex-col items-stretch justify-center gap-3 sm:flex-row sm:flex-wrap sm:items-center">
        {widerState && (
          <a
            href={`/directory${serializeDirectoryQuery(widerState)}`}
            className="btn-primary"
            data-testid="wider-radius"
            onClick={(event) => {
              if (!onState || !isPlainClick(event)) return;
              event.preventDefault();
              onState(widerState);
            }}
          >
            Search within {wider} miles
          </a>
        )}
        <a
          href={findProsUrl({ location: state.near, service: state.service })}
          className={widerState ? "btn-outline" : "btn-primary"}
          data-testid="find-pros-link"
        >
          {state.near ? `Get quotes from pros near ${state.near}` : "Get quotes from local pros"}
        </a>
        {clearable && <ClearFilters onClear={onClear} />}
      </div>
      <p className="mt-5 text-slate-600">
        Or call us, 24/7:{" "}
        <a href={SITE.phoneHref} className="link font-semibold whitespace-nowrap" data-testid="empty-hotline">
          <Icon name="phone" className="mr-1 inline size-4 align-[-2px]" />
          {SITE.phone}
        </a>
      </p>
    </div>
  );
}
