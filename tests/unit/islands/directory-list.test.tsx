// @vitest-environment happy-dom
/**
 * The /directory island (src/islands/DirectoryList.tsx with directory/list/*): the server's
 * page as props, GET /api/businesses through the shared query store, the URL and history,
 * the search debounce (fake timers), loading, errors and the empty state. The query cache
 * lives for the whole file (as on a page), so each test asks for states of its own.
 */
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent, { type UserEvent } from "@testing-library/user-event";
import { renderToString } from "react-dom/server";
import { beforeEach, describe, expect, it, vi } from "vitest";
import DirectoryList from "../../../src/islands/DirectoryList.tsx";
import { countText } from "../../../src/islands/directory/list/result.ts";
import {
  DEFAULT_DIRECTORY_STATE,
  NEAR_REQUIRED,
  SEARCH_DEBOUNCE_MS,
  parseDirectoryQuery,
  type DirectoryState,
} from "../../../src/lib/directory-url.ts";
import { UNKNOWN_PLACE } from "../../../src/lib/geo/places.ts";
import { $featuredUrl, $listUrl } from "../../../src/islands/directory/list/fetch.ts";
import type { ListBusiness, ListPage } from "../../../src/lib/directory-list.ts";
import { businesses, directoryApi, listBusiness, pageOf } from "../../helpers/businesses.ts";
import { mockFetch, reply, type FetchMock } from "../../helpers/fetch-mock.ts";
import { fakeClock } from "../../helpers/islands.ts";
import { SITE } from "../../../src/lib/site.ts";

/** 30 businesses: three pages, Austin 7, Houston 8, Dallas 8, San Antonio 7. */
const ALL = businesses(30);
const FEATURED = [listBusiness(101, { name: "Featured Oak", isFeatured: true })];
const inCity = (label: string) => ALL.filter((b) => b.city === label);

const FAILED = /couldn't load tree services/;
const NETWORK = /couldn't reach our server/;

let api: FetchMock;
let user: UserEvent;

beforeEach(() => {
  // A fresh page: the stores point nowhere until an island sets them.
  $listUrl.set(null);
  $featuredUrl.set(null);
  api = mockFetch();
  api.on("GET", "/api/businesses", directoryApi(ALL));
  user = userEvent.setup({ delay: null });
  history.replaceState(null, "", "/directory");
});

function mount(
  props: { initialState?: DirectoryState; initialPage?: ListPage; featured?: ListBusiness[] | null } = {},
) {
  const state = props.initialState ?? DEFAULT_DIRECTORY_STATE;
  return render(
    <DirectoryList
      initialState={state}
      initialPage={props.initialPage ?? pageOf(ALL)}
      featured={props.featured === null ? undefined : (props.featured ?? FEATURED)}
      now={Date.UTC(2026, 2, 2, 16)}
    />,
  );
}

const results = () => screen.getByTestId("results");
const heading = () => within(results()).getByRole("heading", { level: 2 });
const count = () => screen.getByTestId("results-count").textContent;
const announced = () => screen.getByTestId("results-announcement").textContent;
const cardNames = () =>
  within(results())
    .queryAllByTestId("business-card")
    .map((c) => within(c).getByRole("heading", { level: 3 }).textContent);
const searchBox = () => screen.getByRole("searchbox", { name: "Search tree services" }) as HTMLInputElement;
const citySelect = () => screen.getByRole("combobox", { name: "City" }) as HTMLSelectElement;
const nearBox = () => screen.getByRole("textbox", { name: "ZIP code or city" }) as HTMLInputElement;
const listCalls = () => api.to("/api/businesses").map((c) => Object.fromEntries(c.url.searchParams));
const featuredSection = () => screen.queryByRole("region", { name: "Featured Tree Services" });

/** Commits a search at once (the form's submit, not the pause). */
async function search(term: string) {
  await user.clear(searchBox());
  await user.type(searchBox(), `${term}{Enter}`);
}

describe("directory list: failures", () => {
  it.each([
    ["a network failure", reply.networkError(), NETWORK, "qa"],
    ["an aborted request", reply.aborted(), NETWORK, "qb"],
    ["a 503", reply.json(503, { error: "down" }), FAILED, "qc"],
    ["a 429 with Retry-After", reply.json(429, { error: "slow down" }, { "retry-after": "30" }), FAILED, "qd"],
  ])("%s shows an inline message with Retry, and the heading stays", async (_, answer, message, term) => {
    api.on("GET", "/api/businesses", answer);
    mount();
    await search(term);
    const alert = await within(results()).findByRole("alert");
    expect(alert.textContent).toMatch(message);
    expect(within(alert).getByRole("button", { name: "Retry" })).toBeTruthy();
    expect(heading().textContent).toBe("Search Results");
    expect(within(results()).queryAllByTestId("business-card")).toEqual([]);
  });

  it("a 500 offers Retry, which asks again, moves focus to the results and announces them", async () => {
    api.on("GET", "/api/businesses", reply.json(500, { error: "boom" }));
    mount();
    await user.selectOptions(citySelect(), "dallas");
    const alert = await within(results()).findByRole("alert");
    expect(alert.textContent).toMatch(FAILED);

    api.on("GET", "/api/businesses", directoryApi(ALL));
    await user.click(within(alert).getByRole("button", { name: "Retry" }));
    const dallas = inCity("Dallas").length;
    await waitFor(() => expect(count()).toBe(countText(dallas)));
    expect(within(results()).queryByRole("alert")).toBeNull();
    expect(document.activeElement).toBe(heading());
    expect(announced()).toBe(`${countText(dallas)}.`);
    expect(listCalls().filter((q) => q.city === "dallas")).toHaveLength(2);
  });

  it("an answer that is not JSON is a failure with Retry, not an empty list", async () => {
    api.on("GET", "/api/businesses", reply.malformed(200));
    mount();
    await search("qe");
    const alert = await within(results()).findByRole("alert");
    expect(within(alert).getByRole("button", { name: "Retry" })).toBeTruthy();
    expect(screen.queryByText("No businesses found matching your criteria.")).toBeNull();
  });

  it("a 400 about the place is shown at the place box and in the list; Clear Filters starts over", async () => {
    api.on(
      "GET",
      "/api/businesses",
      reply.json(400, { error: "Please check the search.", fields: { near: UNKNOWN_PLACE } }),
    );
    mount();
    await user.type(nearBox(), "Atlantis{Enter}");
    const error = await screen.findByTestId("near-error");
    expect(error.textContent).toBe(UNKNOWN_PLACE);
    expect(error.getAttribute("role")).toBe("alert");
    expect(nearBox().getAttribute("aria-invalid")).toBe("true");
    expect(nearBox().getAttribute("aria-describedby")).toBe(error.id);
    expect(screen.getByTestId("query-error").textContent).toContain(UNKNOWN_PLACE);
    await waitFor(() => expect(announced()).toBe(UNKNOWN_PLACE));

    await user.click(within(screen.getByTestId("query-error")).getByRole("link", { name: "Clear Filters" }));
    await waitFor(() => expect(count()).toBe(countText(ALL.length)));
    expect(location.search).toBe("");
    expect(nearBox().value).toBe("");
    expect(nearBox().hasAttribute("aria-invalid")).toBe(false);
    expect(document.activeElement).toBe(searchBox());
    expect(heading().textContent).toBe("All Tree Services");
  });

  it("a state the server refused (initialFields) keeps its message through hydration and is not asked again", async () => {
    history.replaceState(null, "", "/directory?open=now");
    const state = parseDirectoryQuery("?open=now");
    render(
      <DirectoryList
        initialState={state}
        initialPage={{ data: [], total: 0 }}
        initialFields={{ near: NEAR_REQUIRED }}
        featured={FEATURED}
      />,
    );
    expect(screen.getByTestId("directory").dataset.hydrated).toBe("true");
    expect((screen.getByRole("checkbox", { name: /Open now/ }) as HTMLInputElement).checked).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 30));
    // The API would refuse it again: no request, no skeleton in place of the explanation.
    expect(listCalls()).toEqual([]);
    expect(within(results()).queryAllByTestId("skeleton-card")).toEqual([]);
    expect(screen.getByTestId("near-error").textContent).toBe(NEAR_REQUIRED);
    expect(screen.getByTestId("query-error").textContent).toContain(NEAR_REQUIRED);
    expect(announced()).toBe(NEAR_REQUIRED);

    // The next change is asked for as usual.
    await user.type(nearBox(), "78664{Enter}");
    await waitFor(() => expect(listCalls()).toEqual([{ near: "78664", open: "now", limit: "12", offset: "0" }]));
    expect(screen.queryByTestId("near-error")).toBeNull();
  });

  it("without prerendered Featured it is fetched, and a failure only hides the section", async () => {
    api.on("GET", "/api/businesses/featured", reply.json(503, { error: "unavailable" }));
    mount({ featured: null });
    await waitFor(() => expect(api.to("/api/businesses/featured")).toHaveLength(1));
    expect(featuredSection()).toBeNull();
    expect(cardNames()).toHaveLength(12);
  });
});

describe("directory list: first render and loading", () => {
  it("shows the server's page without asking for it again, with Featured and the count", async () => {
    mount();
    expect(screen.getByTestId("directory").dataset.hydrated).toBe("true");
    expect(heading().textContent).toBe("All Tree Services");
    expect(count()).toBe(countText(30));
    expect(cardNames()).toEqual(ALL.slice(0, 12).map((b) => b.name));
    expect(within(featuredSection()!).getAllByTestId("business-card")).toHaveLength(1);
    expect(screen.getByTestId("page-status").textContent).toBe("Page 1 of 3");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(api.calls).toEqual([]);
  });

  it("fetches Featured when the page did not bring it", async () => {
    api.on("GET", "/api/businesses/featured", reply.json(200, { data: FEATURED }));
    mount({ featured: null });
    const section = await screen.findByRole("region", { name: "Featured Tree Services" });
    expect(within(section).getByRole("heading", { level: 3 }).textContent).toBe("Featured Oak");
  });

  it("loading shows 6 skeleton cards in a busy region, then the result, announced", async () => {
    mount();
    const release = api.hold();
    await user.selectOptions(citySelect(), "austin");
    const skeletons = within(results()).getAllByTestId("skeleton-card");
    expect(skeletons).toHaveLength(6);
    expect(skeletons.every((s) => s.getAttribute("aria-hidden") === "true")).toBe(true);
    expect(results().getAttribute("aria-busy")).toBe("true");
    expect(count()).toBe("Loading tree services…");
    await act(async () => release());
    await waitFor(() => expect(within(results()).queryAllByTestId("skeleton-card")).toEqual([]));
    expect(results().getAttribute("aria-busy")).toBe("false");
    const austin = inCity("Austin").length;
    expect(count()).toBe(countText(austin));
    expect(announced()).toBe(`${countText(austin)}.`);
  });
});

describe("directory list: search debounce", () => {
  it("one request a pause after the last keystroke, for the whole word, with no city", async () => {
    fakeClock();
    const typist = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    mount();
    const term = "Crew 1";
    await typist.type(searchBox(), term);
    await act(async () => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 1));
    expect(location.search).toBe("");
    expect(listCalls()).toEqual([]);
    // The commit (and the URL) comes at the pause's end; the store then fetches on a timer of its own.
    await act(async () => vi.advanceTimersByTime(1));
    expect(location.search).toBe(`?q=${encodeURIComponent(term).replace(/%20/g, "+")}`);
    await act(async () => vi.advanceTimersByTimeAsync(50));
    vi.useRealTimers();
    await waitFor(() => expect(heading().textContent).toBe("Search Results"));
    expect(listCalls()).toEqual([{ search: term, limit: "12", offset: "0" }]);
    const found = ALL.filter((b) => b.name.includes(term));
    await waitFor(() => expect(count()).toBe(countText(found.length)));
    expect(featuredSection()).toBeNull();
  });

  it("typing is one history entry per burst: later pauses replace it", async () => {
    fakeClock();
    const typist = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    mount();
    const before = history.length;
    await typist.type(searchBox(), "Oak");
    await act(async () => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS));
    await typist.type(searchBox(), " Crew 2");
    await act(async () => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS));
    vi.useRealTimers();
    expect(location.search).toBe("?q=Oak+Crew+2");
    expect(history.length).toBe(before + 1);
  });
});

describe("directory list: filters, URL and history", () => {
  it("the city filter sends city=houston and no search, and writes the URL", async () => {
    mount();
    await user.selectOptions(citySelect(), "houston");
    await waitFor(() => expect(count()).toBe(countText(inCity("Houston").length)));
    expect(listCalls()).toEqual([{ city: "houston", limit: "12", offset: "0" }]);
    expect(location.search).toBe("?city=houston");
    expect(heading().textContent).toBe("Search Results");
    expect(featuredSection()).toBeNull();
  });

  it("a search with no match shows the empty state; Clear Filters restores everything", async () => {
    mount();
    await search("zzzz");
    await waitFor(() => expect(screen.getByText("No businesses found matching your criteria.")).toBeTruthy());
    expect(screen.getByText("Try a different word or another city.")).toBeTruthy();
    await user.click(screen.getByRole("link", { name: "Clear Filters" }));
    await waitFor(() => expect(count()).toBe(countText(30)));
    expect(location.search).toBe("");
    expect(searchBox().value).toBe("");
    expect(document.activeElement).toBe(searchBox());
    expect(heading().textContent).toBe("All Tree Services");
    expect(featuredSection()).toBeTruthy();
  });

  it("a place search with no match: a wider radius in one tap, find-pros for that place, the hotline", async () => {
    api.on("GET", "/api/businesses", (call) => {
      const radius = Number(call.url.searchParams.get("radius") ?? 25);
      const data = radius >= 50 ? [listBusiness(201, { name: "Far Oak" })] : [];
      return reply.json(200, { data, total: data.length, near: { label: "Marfa, TX 79843", radius } })(call);
    });
    mount();
    await user.type(nearBox(), "79843{Enter}");
    await waitFor(() => expect(screen.getByText("Try a wider radius or fewer filters.")).toBeTruthy());
    expect(count()).toBe("0 businesses found within 25 miles of Marfa, TX 79843");
    const empty = screen.getByTestId("empty-state");
    const wider = within(empty).getByRole("link", { name: "Search within 50 miles" });
    expect(wider.getAttribute("href")).toBe("/directory?near=79843&radius=50");
    expect(within(empty).getByRole("link", { name: "Get quotes from pros near 79843" }).getAttribute("href")).toBe(
      "/find-a-tree-service?location=79843#get-quotes",
    );
    expect(within(empty).getByRole("link", { name: SITE.phone }).getAttribute("href")).toBe(SITE.phoneHref);
    expect(within(empty).getByRole("link", { name: "Clear Filters" }).getAttribute("href")).toBe("/directory");

    // One tap: the same search, 50 miles, in place.
    await user.click(wider);
    await waitFor(() => expect(cardNames()).toEqual(["Far Oak"]));
    expect(location.search).toBe("?near=79843&radius=50");
    expect((screen.getByRole("combobox", { name: "Within" }) as HTMLSelectElement).value).toBe("50");
    expect(count()).toBe("1 business found within 50 miles of Marfa, TX 79843");
  });

  it("at 100 miles there is no wider radius; find-pros carries the service too", async () => {
    const state = parseDirectoryQuery("?near=33101&radius=100&service=Stump+Grinding");
    api.on("GET", "/api/businesses", reply.json(200, { data: [], total: 0 }));
    history.replaceState(null, "", "/directory?near=33101&radius=100&service=Stump+Grinding");
    mount({ initialState: state, initialPage: { data: [], total: 0 } });
    const empty = screen.getByTestId("empty-state");
    expect(within(empty).queryByTestId("wider-radius")).toBeNull();
    expect(within(empty).getByTestId("find-pros-link").getAttribute("href")).toBe(
      "/find-a-tree-service?location=33101&service=Stump+Grinding#get-quotes",
    );
  });

  it("opened on a filtered URL (as from Find Pros), Clear Filters works on the first tap", async () => {
    // The cause of the old bug: the list island starts on intent, and the server's Clear
    // Filters was a button with nothing behind it until then, so the tap that woke the
    // island was lost (and without JavaScript every tap was). It is a link now.
    const url = "/directory?near=60601&service=Tree+Removal";
    const state = parseDirectoryQuery(url.slice("/directory".length));
    const html = renderToString(<DirectoryList initialState={state} initialPage={{ data: [], total: 0 }} />);
    const container = document.createElement("div");
    container.innerHTML = html;
    const serverLink = container.querySelector<HTMLAnchorElement>('[data-testid="clear-filters"]')!;
    expect(serverLink.tagName).toBe("A");
    expect(serverLink.getAttribute("href")).toBe("/directory");

    history.replaceState(null, "", url);
    mount({ initialState: state, initialPage: { data: [], total: 0 }, featured: FEATURED });
    await waitFor(() => expect(screen.getByTestId("directory").dataset.hydrated).toBe("true"));
    expect(screen.getByText("No businesses found matching your criteria.")).toBeTruthy();
    await user.click(screen.getByRole("link", { name: "Clear Filters" }));
    await waitFor(() => expect(count()).toBe(countText(ALL.length)));
    expect(location.search).toBe("");
    expect(nearBox().value).toBe("");
    expect((screen.getByRole("combobox", { name: "Service" }) as HTMLSelectElement).value).toBe("");
    expect(heading().textContent).toBe("All Tree Services");
  });

  it("the server's empty state is the island's: the same links, without JavaScript", () => {
    const state = parseDirectoryQuery("?near=79843&service=Tree+Removal");
    const html = renderToString(<DirectoryList initialState={state} initialPage={{ data: [], total: 0 }} />);
    const container = document.createElement("div");
    container.innerHTML = html;
    const links = [...container.querySelectorAll('[data-testid="empty-state"] a')].map((a) => a.getAttribute("href"));
    expect(links).toEqual([
      "/directory?near=79843&radius=50&service=Tree+Removal",
      "/find-a-tree-service?location=79843&service=Tree+Removal#get-quotes",
      "/directory",
      SITE.phoneHref,
    ]);
    expect(container.querySelector('[data-testid="empty-state"] button')).toBeNull();
  });

  it("Back restores the previous committed filter from the cache, controls included", async () => {
    mount();
    await user.selectOptions(citySelect(), "san-antonio");
    await waitFor(() => expect(count()).toBe(countText(inCity("San Antonio").length)));
    await search("Oak Crew 1");
    await waitFor(() => expect(location.search).toBe("?q=Oak+Crew+1&city=san-antonio"));
    await waitFor(() => expect(within(results()).queryAllByTestId("skeleton-card")).toEqual([]));
    const asked = api.calls.length;

    await act(async () => {
      history.back();
      await new Promise((resolve) => setTimeout(resolve, 10));
    });
    await waitFor(() => expect(searchBox().value).toBe(""));
    expect(citySelect().value).toBe("san-antonio");
    await waitFor(() => expect(count()).toBe(countText(inCity("San Antonio").length)));
    expect(api.calls).toHaveLength(asked);
  });

  it("a link with a non-canonical query is rewritten in place; the server rendered that state, so nothing is fetched", async () => {
    history.replaceState(null, "", "/directory?q=&city=Houston#top");
    const state = parseDirectoryQuery(location.search);
    mount({ initialState: state, initialPage: pageOf(inCity("Houston")) });
    expect(location.search).toBe("?city=houston");
    expect(location.hash).toBe("#top");
    expect(citySelect().value).toBe("houston");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(listCalls()).toEqual([]);
  });

  it("a URL that differs from the props is read after hydration and fetched", async () => {
    history.replaceState(null, "", "/directory?minRating=4");
    mount();
    await waitFor(() => expect(listCalls()).toEqual([{ minRating: "4", limit: "12", offset: "0" }]));
    expect((screen.getByRole("combobox", { name: "Rating" }) as HTMLSelectElement).value).toBe("4");
  });

  it("what was chosen and typed before hydration is kept and committed, and stays", async () => {
    fakeClock();
    const container = document.createElement("div");
    container.innerHTML = renderToString(
      <DirectoryList initialState={DEFAULT_DIRECTORY_STATE} initialPage={pageOf(ALL)} featured={FEATURED} />,
    );
    document.body.append(container);
    (container.querySelector('select[name="sort"]') as HTMLSelectElement).value = "rating";
    (container.querySelector('input[name="q"]') as HTMLInputElement).value = "Oak";
    render(<DirectoryList initialState={DEFAULT_DIRECTORY_STATE} initialPage={pageOf(ALL)} featured={FEATURED} />, {
      container,
      hydrate: true,
    });
    // Well past the search box's pause: nothing typed since, so nothing more to commit.
    await act(async () => vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS * 2));
    expect(listCalls()).toEqual([{ search: "Oak", sort: "rating", limit: "12", offset: "0" }]);
    expect(location.search).toBe("?q=Oak&sort=rating");
    expect(searchBox().value).toBe("Oak");
    expect(heading().textContent).toBe("Search Results");
  });
});

describe("directory list: pages", () => {
  it("Next and Previous page through with offset=12, move focus to the results, and come back from the cache", async () => {
    mount();
    await user.click(screen.getByRole("link", { name: "Next" }));
    await waitFor(() => expect(screen.getByTestId("page-status").textContent).toBe("Page 2 of 3"));
    expect(listCalls()).toEqual([{ limit: "12", offset: "12" }]);
    expect(location.search).toBe("?page=2");
    expect(document.activeElement).toBe(heading());
    await waitFor(() => expect(cardNames()).toEqual(ALL.slice(12, 24).map((b) => b.name)));
    expect(announced()).toBe(`${countText(30)}. Page 2 of 3.`);

    await user.click(screen.getByRole("link", { name: "Previous" }));
    await waitFor(() => expect(screen.getByTestId("page-status").textContent).toBe("Page 1 of 3"));
    expect(cardNames()).toEqual(ALL.slice(0, 12).map((b) => b.name));
    expect(listCalls()).toHaveLength(1);
  });

  it("the last page offers no Next; a modified click is left to the browser", async () => {
    history.replaceState(null, "", "/directory?page=3");
    mount({ initialState: parseDirectoryQuery("?page=3"), initialPage: pageOf(ALL, 3) });
    const next = screen.getByTestId("page-next");
    expect(next.tagName).toBe("SPAN");
    expect(next.getAttribute("aria-disabled")).toBe("true");
    const previous = screen.getByRole("link", { name: "Previous" });
    expect(previous.getAttribute("href")).toBe("/directory?page=2");
    const click = new MouseEvent("click", { bubbles: true, cancelable: true, ctrlKey: true });
    // The browser opens a new tab itself; the island keeps out of it.
    previous.addEventListener("click", (e) => e.preventDefault(), { once: true });
    fireEvent(previous, click);
    expect(location.search).toBe("?page=3");
  });

  it("a page past the end goes to the last page, replacing the entry", async () => {
    history.replaceState(null, "", "/directory?service=Tree+Removal&page=9");
    const state = parseDirectoryQuery(location.search);
    const before = history.length;
    mount({ initialState: state, initialPage: { data: [], total: 30 } });
    await waitFor(() => expect(location.search).toBe("?service=Tree+Removal&page=3"));
    expect(history.length).toBe(before);
    await waitFor(() => expect(listCalls()).toEqual([{ service: "Tree Removal", limit: "12", offset: "24" }]));
  });
});

describe("directory list: use my location", () => {
  /** The browser's geolocation, answering as the test says. */
  function locator(
    getCurrentPosition: (ok: (p: GeolocationPosition) => void, fail: (e: GeolocationPositionError) => void) => void,
  ) {
    Object.defineProperty(navigator, "geolocation", { configurable: true, value: { getCurrentPosition } });
  }

  it("fills the place box with the rounded position and searches around it", async () => {
    let answer!: (position: GeolocationPosition) => void;
    locator((ok) => void (answer = ok));
    mount();
    await user.click(screen.getByTestId("use-my-location"));
    expect(screen.getByTestId("use-my-location").textContent).toBe("Locating…");
    expect((screen.getByTestId("use-my-location") as HTMLButtonElement).disabled).toBe(true);
    await act(async () => answer({ coords: { latitude: 30.51512, longitude: -97.66811 } } as GeolocationPosition));
    expect(nearBox().value).toBe("30.515,-97.668");
    await waitFor(() => expect(listCalls()).toEqual([{ near: "30.515,-97.668", limit: "12", offset: "0" }]));
    expect(screen.getByTestId("use-my-location").textContent).toBe("Use my location");
  });

  it("says so at the place box when the position cannot be had (denied or timed out)", async () => {
    locator((_, fail) => fail({ code: 3, message: "Timeout expired" } as GeolocationPositionError));
    mount();
    await user.click(screen.getByTestId("use-my-location"));
    expect(screen.getByTestId("near-error").textContent).toMatch(/couldn't get your location/);
    expect(listCalls()).toEqual([]);
    // Any other change clears it.
    await user.selectOptions(citySelect(), "austin");
    expect(screen.queryByTestId("near-error")).toBeNull();
  });
});
