/**
 * The /directory list: search, city filter, Featured, results, pagination (spec sections
 * 2, 7 and 9).
 *
 * Rendering: /directory is rendered on demand for the request's URL state (search, city,
 * page) and passes that page, its state and the featured list in, so the HTML is the working
 * list before (or without) JavaScript: the form is a GET form, the pager links. The first
 * client render must match that HTML, so it shows the props (which the browser reads back
 * from the API before hydrating, see `transport`); the URL is read after hydration and
 * only a state that differs from the props' is fetched (skeleton meanwhile). The props
 * seed the query cache and are never refetched in the background.
 *
 * Data: the list and Featured are fetcher stores (list/fetch.ts, @nanostores/query): the
 * island points them at the state's request and renders what they hold; the cache and the
 * sharing of a request in flight are the library's.
 *
 * URL and history: the state lives in ?q=&near=&city=&radius=&service=&minRating=&sort=
 * &open=&emergency=&page= (src/lib/directory-url.ts). Filter changes, page changes, form
 * submits, Clear Filters and the empty state's wider radius push an entry; typing pushes one entry per burst and then
 * replaces it (list/history.ts), so Back goes to the previous committed filter or page,
 * not to every keystroke. Any filter change goes back to page 1. popstate restores the
 * state; seen pages come from the cache. The place box is read on submit or with any other
 * change (a half-typed ZIP is not a place); "Use my location" fills it with the browser's
 * position, rounded, only when tapped, and nothing is stored.
 */
import { useStore } from "@nanostores/react";
import { useCallback, useEffect, useMemo, useRef, useState, type ChangeEvent, type FormEvent } from "react";
import { ApiError } from "../lib/api.ts";
import type { PropsTransport } from "../lib/islands.ts";
import {
  DEFAULT_DIRECTORY_STATE,
  businessesApiUrl,
  isFiltered,
  normalizeDirectoryState,
  normalizeSearch,
  pageCount,
  parseDirectoryQuery,
  sameDirectoryState,
  serializeDirectoryQuery,
  SEARCH_DEBOUNCE_MS,
  type DirectoryState,
} from "../lib/directory-url.ts";
import { BusinessCard, SkeletonCard } from "./directory/list/BusinessCard.tsx";
import {
  $featured,
  $listPage,
  fetchFeatured,
  fetchFeaturedList,
  fetchListPage,
  seedPage,
  showState,
} from "./directory/list/fetch.ts";
import { directoryUrl, writeHistory, type HistoryEntry } from "./directory/list/history.ts";
import { ClearFilters, NextSteps } from "./directory/list/NextSteps.tsx";
import { Pagination } from "./directory/list/Pagination.tsx";
import { SearchForm, fillDirectoryForm, readDirectoryForm } from "./directory/list/SearchForm.tsx";
import type { ListBusiness, ListPage } from "../lib/directory-list.ts";

/** The loading skeleton has 6 cards. */
const SKELETON_CARDS = 6;

const NETWORK_MESSAGE = "We couldn't reach our server. Check your connection and try again.";
const FAILED_MESSAGE = "We couldn't load tree services just now. Please try again.";
const LOCATE_FAILED = "We couldn't get your location. Type a ZIP code or city instead.";

interface Props {
  /** The page the server rendered for `initialState` (the request's URL). */
  initialPage: ListPage;
  /** The list state of the request's URL; the unfiltered first page when absent. */
  initialState?: DirectoryState;
  /** The server refused `initialState` (e.g. an unknown place): its field messages. */
  initialFields?: Record<string, string>;
  /** Featured businesses, prerendered; when absent the island fetches them after hydration. */
  featured?: ListBusiness[];
  /** When the server drew the cards' Open now / Closed badges (ms); none without it. */
  now?: number;
}

/** What /directory's HTML carries of the props: the state, without the businesses its HTML already shows. */
type SentProps = Omit<Props, "initialPage" | "featured"> & { initialPage?: ListPage };

/**
 * The list and Featured are in the page as HTML; sending them again as JSON made the
 * page too heavy for one round trip (docs/directory-pages.md). The browser reads them back
 * from the same cached API answers the page was rendered from (both carry the `directory`
 * cache tag, so a write purges them together). A page rendered without the store (an
 * outage: no Featured) sends its empty list as it is.
 */
export const transport: PropsTransport<Props, SentProps> = {
  send: ({ initialPage, featured, initialState, ...rest }) => {
    // The plain /directory, the page most visitors land on, sends no state at all.
    const sent =
      initialState && !sameDirectoryState(initialState, DEFAULT_DIRECTORY_STATE) ? { ...rest, initialState } : rest;
    return featured ? sent : { ...sent, initialPage };
  },
  async restore(sent) {
    if (sent.initialPage) return { ...sent, initialPage: sent.initialPage };
    const [initialPage, featured] = await Promise.all([
      // A refused state (initialFields) rendered an empty list; the API would refuse it again.
      sent.initialFields
        ? { data: [], total: 0 }
        : fetchListPage(businessesApiUrl(sent.initialState ?? DEFAULT_DIRECTORY_STATE)),
      fetchFeaturedList(),
    ]);
    return { ...sent, initialPage, featured };
  },
};

type Result =
  | { status: "ready"; page: ListPage }
  | { status: "loading" }
  | { status: "error"; message: string }
  /** The API refused the query (400): its field messages, e.g. an unknown place. */
  | { status: "invalid"; fields: Record<string, string> };

/** What the list store holds, as the list shows it; `shown` while it holds nothing yet. */
function resultOf(
  { data, error, loading }: { data?: ListPage; error?: unknown; loading: boolean },
  shown: Result,
): Result {
  if (loading) return { status: "loading" };
  if (error !== undefined) {
    const fields = error instanceof ApiError && error.status === 400 ? error.fields : undefined;
    if (fields && Object.keys(fields).length > 0) return { status: "invalid", fields };
    return { status: "error", message: error instanceof ApiError ? FAILED_MESSAGE : NETWORK_MESSAGE };
  }
  return data ? { status: "ready", page: data } : shown;
}

export function countText(total: number, near?: ListPage["near"]): string {
  const found = `${total} ${total === 1 ? "business" : "businesses"} found`;
  return near ? `${found} within ${near.radius} miles of ${near.label}` : found;
}

const grid = "grid gap-5 md:grid-cols-2 lg:grid-cols-3";

export default function DirectoryList({
  initialPage,
  initialState = DEFAULT_DIRECTORY_STATE,
  initialFields,
  featured: prerenderedFeatured,
  now: renderedAt,
}: Props) {
  const list = useStore($listPage);
  const featuredList = useStore($featured);
  const [state, setState] = useState<DirectoryState>(initialState);
  const [typed, setTyped] = useState(initialState.search);
  const [hydrated, setHydrated] = useState(false);
  const [announcement, setAnnouncement] = useState("");
  // The clock for the cards' Open now / Closed badges: the server's render, then the visitor's.
  const [now, setNow] = useState(renderedAt);
  const [locating, setLocating] = useState(false);
  const [locateError, setLocateError] = useState("");

  // The committed state for event handlers, which must not wait for a re-render.
  const stateRef = useRef(state);
  // Set by every change the visitor makes; the next completed load is then announced.
  const announceNext = useRef(false);
  const formRef = useRef<HTMLFormElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  const commit = useCallback((next: DirectoryState, entry: HistoryEntry) => {
    const normalized = normalizeDirectoryState(next);
    if (sameDirectoryState(normalized, stateRef.current)) return;
    writeHistory(normalized, entry);
    stateRef.current = normalized;
    announceNext.current = true;
    setState(normalized);
    showState(normalized);
  }, []);

  /** Puts the controls and the list in line with a state that did not come from them. */
  const adopt = useCallback((next: DirectoryState) => {
    if (formRef.current) fillDirectoryForm(formRef.current, next);
    setTyped(next.search);
    if (sameDirectoryState(next, stateRef.current)) return;
    stateRef.current = next;
    announceNext.current = true;
    setState(next);
    showState(next);
  }, []);

  // Hydration: seed the cache with the props, take the URL's state, carry over anything
  // typed or chosen before the island was ready, and follow Back/Forward from now on.
  useEffect(() => {
    if (!initialFields) seedPage(initialState, initialPage);
    const fromUrl = parseDirectoryQuery(window.location.search);
    // Canonical URL: the no-JS form sends ?q=&city=all, Find Pros may send a city label.
    if (window.location.search !== serializeDirectoryQuery(fromUrl)) {
      window.history.replaceState(window.history.state, "", `${directoryUrl(fromUrl)}${window.location.hash}`);
    }
    if (!sameDirectoryState(fromUrl, initialState)) {
      // eslint-disable-next-line react-hooks/set-state-in-effect -- hydration: the URL and the typed-in form exist only now
      adopt(fromUrl);
    } else if (formRef.current) {
      // Whatever was changed in the server-rendered form before hydration is kept.
      const early = readDirectoryForm(formRef.current);
      // The box's text is the search from now on: left at the props' it would undo a typed search after the pause.
      if (normalizeSearch(early.search) !== initialState.search) setTyped(early.search);
      if (!sameDirectoryState({ ...early, search: "", page: initialState.page }, { ...initialState, search: "" }))
        commit(early, "push");
    }
    // The store takes its key on the next task; until it holds something the list shows
    // the server's render (resultOf's fallback), so hydration changes nothing on screen.
    // A state the API refused (initialFields) is not asked again: it would be refused again,
    // after a skeleton in place of the explanation.
    if (!initialFields || !sameDirectoryState(stateRef.current, initialState)) showState(stateRef.current);
    // Featured is prerendered; it is fetched only when a page renders the island without it.
    // A failure only hides the section: the full list below still has every business.
    if (!prerenderedFeatured) fetchFeatured();
    setNow(Date.now());
    setHydrated(true);

    const onPopState = () => adopt(parseDirectoryQuery(window.location.search));
    window.addEventListener("popstate", onPopState);
    return () => window.removeEventListener("popstate", onPopState);
    // Runs once: the props are the server's render and never change while the page is open.
  }, [adopt, commit, initialFields, initialPage, initialState, prerenderedFeatured]);

  // Typing commits after a pause; a Back/Forward or Clear Filters that set the box to the
  // committed search has nothing to commit.
  useEffect(() => {
    if (!hydrated || normalizeSearch(typed) === stateRef.current.search) return;
    const timer = window.setTimeout(
      () => commit({ ...stateRef.current, search: typed, page: 1 }, "typing"),
      SEARCH_DEBOUNCE_MS,
    );
    return () => window.clearTimeout(timer);
  }, [typed, hydrated, commit]);

  // The server's render (the first client render must match it), and what the list shows
  // until the store holds something.
  const initialResult = useMemo<Result>(
    () => (initialFields ? { status: "invalid", fields: initialFields } : { status: "ready", page: initialPage }),
    [initialFields, initialPage],
  );
  const result = hydrated ? resultOf(list, initialResult) : initialResult;

  // What a new result brings besides itself: the page clamp, the cards' clock, the announcement.
  useEffect(() => {
    if (!hydrated) return;
    const result = resultOf(list, initialResult);
    if (result.status === "invalid") {
      // eslint-disable-next-line react-hooks/set-state-in-effect -- the list store (outside React) has a new answer to announce
      setAnnouncement(Object.values(result.fields).join(". "));
      announceNext.current = false;
    } else if (result.status === "error") announceNext.current = false;
    if (result.status !== "ready") return;
    const { page } = result;
    const current = stateRef.current;
    // A ?page= past the end (an old link, a shrunken result) goes to the last page.
    if (page.data.length === 0 && current.page > pageCount(page.total)) {
      commit({ ...current, page: pageCount(page.total) }, "replace");
      return;
    }
    setNow(Date.now());
    if (announceNext.current) {
      announceNext.current = false;
      const pages = pageCount(page.total);
      setAnnouncement(`${countText(page.total, page.near)}${pages > 1 ? `. Page ${current.page} of ${pages}` : ""}.`);
    }
    // Keyed by what the store holds: each answer, cached or fetched, is a new value.
  }, [list, hydrated, initialResult, commit]);

  const focusResults = () => {
    const heading = headingRef.current;
    if (!heading) return;
    const smooth = !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    heading.scrollIntoView({ block: "start", behavior: smooth ? "smooth" : "auto" });
    heading.focus({ preventScroll: true });
  };

  const onSearchInput = (event: ChangeEvent<HTMLInputElement>) => setTyped(event.currentTarget.value);

  // Whatever is in the boxes goes with it, even if the search box's pause has not passed yet.
  const onFilterChange = () => {
    setLocateError("");
    if (formRef.current) commit(readDirectoryForm(formRef.current), "push");
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setLocateError("");
    commit(readDirectoryForm(event.currentTarget), "push");
  };

  const canLocate = hydrated && typeof navigator !== "undefined" && "geolocation" in navigator;
  const locate = () => {
    setLocating(true);
    setLocateError("");
    navigator.geolocation.getCurrentPosition(
      ({ coords }) => {
        setLocating(false);
        const form = formRef.current;
        const near = form?.elements.namedItem("near");
        if (!form || !(near instanceof HTMLInputElement)) return;
        // About 100 m: enough for distances, and the search URL does not pinpoint a house.
        near.value = `${coords.latitude.toFixed(3)},${coords.longitude.toFixed(3)}`;
        commit(readDirectoryForm(form), "push");
      },
      () => {
        setLocating(false);
        setLocateError(LOCATE_FAILED);
      },
      { maximumAge: 600_000, timeout: 15_000 },
    );
  };

  const goToPage = (page: number) => {
    commit({ ...stateRef.current, page }, "push");
    focusResults();
  };

  const clearFilters = () => {
    if (formRef.current) fillDirectoryForm(formRef.current, DEFAULT_DIRECTORY_STATE);
    setTyped("");
    setLocateError("");
    commit(DEFAULT_DIRECTORY_STATE, "push");
    // The button disappears with the empty state; the search box is where people go next.
    const search = formRef.current?.elements.namedItem("q");
    if (search instanceof HTMLInputElement) search.focus();
  };

  /** The empty state's "Search within N miles": the same search, the next radius. */
  const widen = (next: DirectoryState) => {
    if (formRef.current) fillDirectoryForm(formRef.current, next);
    commit(next, "push");
    focusResults();
  };

  const retry = () => {
    announceNext.current = true;
    $listPage.invalidate();
    headingRef.current?.focus({ preventScroll: true });
  };

  const filtered = isFiltered(state);
  const featured = prerenderedFeatured ?? featuredList.data ?? [];
  const showFeatured = featured.length > 0 && !filtered;
  const loading = result.status === "loading";
  const page = result.status === "ready" ? result.page : undefined;
  const pages = page ? pageCount(page.total) : 1;
  const invalid = result.status === "invalid" ? result.fields : undefined;
  const nearError = locateError || invalid?.near;

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
          onLocate={canLocate ? locate : undefined}
          locating={locating}
        />
      </div>

      {showFeatured && (
        <section className="container-page pt-10 sm:pt-14" aria-labelledby="featured-heading">
          <h2 id="featured-heading" className="text-2xl font-bold sm:text-3xl">
            Featured Tree Services
          </h2>
          <p className="mt-1 text-slate-600">Highlighted local companies with strong customer reviews.</p>
          {/*
            Phones: one swipeable row, so eight featured cards do not stand between the
            visitor and the full list (which starts with them anyway). Grid from md.
            `relative` makes the row the containing block of the cards' sr-only text, which
            is absolutely positioned: otherwise it escapes the row's clipping and widens the
            page, and phones zoom the whole page out to fit it.
          */}
          <ul
            className="relative -mx-4 mt-6 flex snap-x snap-mandatory scroll-px-4 gap-4 overflow-x-auto px-4 pb-4 sm:-mx-6 sm:scroll-px-6 sm:px-6 md:mx-0 md:grid md:snap-none md:grid-cols-2 md:gap-5 md:overflow-visible md:px-0 md:pb-0 lg:grid-cols-3"
            data-testid="featured-list"
          >
            {featured.map((business) => (
              <BusinessCard
                key={business.id}
                business={business}
                now={now}
                className="w-[85%] max-w-sm shrink-0 snap-start md:w-auto md:max-w-none"
              />
            ))}
          </ul>
        </section>
      )}

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
          {invalid ? (
            <div
              className="rounded-card border border-dashed border-red-200 bg-red-50/50 px-6 py-12 text-center"
              data-testid="query-error"
            >
              {Object.entries(invalid).map(([field, message]) => (
                <p key={field} className="text-lg font-semibold text-red-800">
                  {message}
                </p>
              ))}
              <div className="mt-6">
                <ClearFilters onClear={clearFilters} />
              </div>
            </div>
          ) : result.status === "error" ? (
            <div
              role="alert"
              className="flex flex-col items-start gap-3 rounded-lg border border-red-200 bg-red-50 px-4 py-4 text-red-800 sm:flex-row sm:items-center sm:justify-between"
            >
              <p className="font-medium">{result.message}</p>
              <button type="button" className="btn-outline shrink-0" onClick={retry}>
                Retry
              </button>
            </div>
          ) : loading ? (
            <ul className={grid}>
              {Array.from({ length: SKELETON_CARDS }, (_, i) => (
                <SkeletonCard key={i} />
              ))}
            </ul>
          ) : page && page.data.length > 0 ? (
            <ul className={grid} data-testid="results-list">
              {page.data.map((business) => (
                <BusinessCard
                  key={business.id}
                  business={business}
                  now={now}
                  near={page.near ? state.near : undefined}
                />
              ))}
            </ul>
          ) : (
            <NextSteps state={state} onState={widen} onClear={clearFilters} />
          )}
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
