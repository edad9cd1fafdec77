/**
 * The /directory list's state: what the island shows and what the visitor's actions do.
 *
 * Rendering: /directory is rendered on demand for the request's URL state (search, city,
 * page) and passes that page, its state and the featured list in, so the HTML is the working
 * list before (or without) JavaScript: the form is a GET form, the pager links. The first
 * client render must match that HTML, so it shows the props (which the browser reads back
 * from the API before hydrating, see transport.ts); the URL is read after hydration and
 * only a state that differs from the props' is fetched (skeleton meanwhile). The props
 * seed the query cache and are never refetched in the background.
 *
 * Data: the list and Featured are fetcher stores (fetch.ts, @nanostores/query): the hook
 * points them at the state's request and hands over what they hold; the cache and the
 * sharing of a request in flight are the library's.
 *
 * URL and history: the state lives in ?q=&near=&city=&radius=&service=&minRating=&sort=
 * &open=&emergency=&page= (src/lib/directory-url.ts). Filter changes, page changes, form
 * submits, Clear Filters and the empty state's wider radius push an entry; typing pushes one
 * entry per burst and then replaces it (history.ts), so Back goes to the previous committed
 * filter or page, not to every keystroke. Any filter change goes back to page 1. popstate
 * restores the state; seen pages come from the cache. The place box is read on submit or
 * with any other change (a half-typed ZIP is not a place); "Use my location" fills it with
 * the browser's position, rounded, only when tapped, and nothing is stored.
 */
import { useStore } from "@nanostores/react";
import { useCallback, useEffect, useMemo, useRef, useState, type ChangeEvent, type FormEvent } from "react";
import {
  DEFAULT_DIRECTORY_STATE,
  normalizeDirectoryState,
  normalizeSearch,
  pageCount,
  parseDirectoryQuery,
  sameDirectoryState,
  serializeDirectoryQuery,
  SEARCH_DEBOUNCE_MS,
  type DirectoryState,
} from "../../../lib/directory-url.ts";
import { $featured, $listPage, fetchFeatured, seedPage, showState } from "./fetch.ts";
import { directoryUrl, writeHistory, type HistoryEntry } from "./history.ts";
import { countText, resultOf, type Result } from "./result.ts";
import { fillDirectoryForm, readDirectoryForm } from "./SearchForm.tsx";
import type { DirectoryListProps } from "./transport.ts";

const LOCATE_FAILED = "We couldn't get your location. Type a ZIP code or city instead.";

export function useDirectoryList({
  initialPage,
  initialState = DEFAULT_DIRECTORY_STATE,
  initialFields,
  featured: prerenderedFeatured,
  now: renderedAt,
}: DirectoryListProps) {
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

  return {
    /** The state the server rendered: what the form shows first. */
    initialState,
    /** The committed state: what the list, the pager and the empty state show. */
    state,
    hydrated,
    result,
    /** The Featured section's businesses: the prerendered ones, or what the store fetched. */
    featured: prerenderedFeatured ?? featuredList.data ?? [],
    /** The text of the polite live region. */
    announcement,
    now,
    locating,
    /** The place box's message: the failed location, or the API's refusal of the place. */
    nearError: locateError || (result.status === "invalid" ? result.fields.near : undefined),
    formRef,
    headingRef,
    onSearchInput,
    onFilterChange,
    onSubmit,
    /** "Use my location", offered once the island runs in a browser that can locate. */
    locate: canLocate ? locate : undefined,
    goToPage,
    clearFilters,
    widen,
    retry,
  };
}
