/**
 * The /directory list: search, city filter, Featured, results, pagination. Its state (the
 * URL, history, the list and Featured stores, hydration) is useDirectoryList's; this is
 * the markup, the same before hydration, after it and without JavaScript.
 */
import { isFiltered, pageCount, serializeDirectoryQuery } from "../lib/directory-url.ts";
import { Featured } from "./directory/list/Featured.tsx";
import { Pagination } from "./directory/list/Pagination.tsx";
import { countText } from "./directory/list/result.ts";
import { Results } from "./directory/list/Results.tsx";
import { SearchForm } from "./directory/list/SearchForm.tsx";
import type { DirectoryListProps } from "./directory/list/transport.ts";
import { useDirectoryList } from "./directory/list/useDirectoryList.ts";
import { StormNotice } from "../views/storm/StormNotice.tsx";
import { TAKING_FIRST } from "../lib/storm-routing.ts";

// The island registry reads an island module's `transport` (src/islands/index.ts).
export { transport } from "./directory/list/transport.ts";

export default function DirectoryList(props: DirectoryListProps) {
  const {
    initialState,
    state,
    hydrated,
    result,
    featured,
    announcement,
    now,
    locating,
    nearError,
    formRef,
    headingRef,
    onSearchInput,
    onFilterChange,
    onSubmit,
    locate,
    goToPage,
    clearFilters,
    widen,
    retry,
  } = useDirectoryList(props);
  const filtered = isFiltered(state);
  const loading = result.status === "loading";
  const page = result.status === "ready" ? result.page : undefined;
  const pages = page ? pageCount(page.total) : 1;

  return (
    <div data-testid="directory" data-hydrated={hydrated ? "true" : undefined}>
      <div className="container-page relative -mt-6 sm:-mt-10">
        <SearchForm
          state={initialState}
          formRef={formRef}
          onSearchInput={onSearchInput}
          onFilterChange={onFilterChange}
          onSubmit={onSubmit}
          nearError={nearError}
          onLocate={locate}
          locating={locating}
        />
      </div>

      {page?.storm ? (
        <div className="container-page pt-8">
          <StormNotice notice={page.storm} />
          {page.takingFirst ? <p className="mt-3 font-semibold text-slate-900">{TAKING_FIRST.directory}</p> : null}
        </div>
      ) : null}

      {featured.length > 0 && !filtered && <Featured featured={featured} now={now} />}

      <section
        className="container-page pt-10 pb-16 sm:pt-14 sm:pb-20"
        aria-labelledby="results-heading"
        aria-busy={loading}
        data-testid="results"
      >
        <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 border-b border-forest-100 pb-4">
          <h2
            id="results-heading"
            ref={headingRef}
            tabIndex={-1}
            className="text-2xl font-bold outline-none sm:text-3xl"
          >
            {filtered ? "Search Results" : "All Tree Services"}
          </h2>
          <p className="text-slate-600" data-testid="results-count">
            {page ? countText(page.total, page.near) : loading ? "Loading tree services…" : ""}
          </p>
        </div>

        <div className="mt-6">
          <Results result={result} state={state} now={now} onClear={clearFilters} onRetry={retry} onWiden={widen} />
        </div>

        {page && pages > 1 && (
          <Pagination
            page={state.page}
            pages={pages}
            hrefFor={(n) => `/directory${serializeDirectoryQuery({ ...state, page: n })}`}
            onPage={goToPage}
          />
        )}
      </section>

      {/* Outside the busy region, so the result is announced as soon as it is there. */}
      <p className="sr-only" aria-live="polite" aria-atomic="true" data-testid="results-announcement">
        {announcement}
      </p>
    </div>
  );
}
