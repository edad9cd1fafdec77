/**
 * /directory: the on-demand list without JavaScript (search, city and pages are requests
 * to /directory?q=&city=&page=, rendered by the server), then the island against the real
 * GET /api/businesses (the test server seeds content/directory/businesses.json; every
 * count below is read from it). A few tests hold or fail the API with page.route to see
 * the loading and error states.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect as baseExpect, test, type Locator, type Page, type Request } from "@playwright/test";
import seed from "../../content/directory/businesses.json" with { type: "json" };
import { FEATURED_LIMIT } from "../../netlify/lib/directory";
import { CITIES } from "../../src/lib/options";
import { telHref } from "../../src/lib/site";
import {
  DEFAULT_DIRECTORY_STATE,
  NEAR_REQUIRED,
  SEARCH_DEBOUNCE_MS,
  businessesApiUrl,
  parseDirectoryQuery,
} from "../../src/lib/directory-url";
import { distanceMiles } from "../../src/lib/geo/distance";
import { UNKNOWN_PLACE, findPlace } from "../../src/lib/geo/places";

const PAGE = "/directory";
const TOTAL = seed.length;
const FEATURED = seed.filter((b) => b.isFeatured);
// The section shows what GET /api/businesses/featured answers: the top FEATURED_LIMIT of them.
const FEATURED_SHOWN = Math.min(FEATURED.length, FEATURED_LIMIT);
const byName = new Map(seed.map((b) => [b.name, b]));
const noPhone = seed.find((b) => !b.phone)!;
const manyServices = seed.find((b) => b.services.length > 3)!;
const inCity = (label: string) => seed.filter((b) => b.city === label);
/** "Round Rock, TX" for a suburb's business, "Austin, TX" for the city's own. */
const placeOf = (b: (typeof seed)[number]) => `${"locality" in b && b.locality ? b.locality : b.city}, ${b.state}`;

/** Every card shown belongs to the city (metro) `label`. */
async function expectAllIn(page: Page, label: string) {
  const names = new Set(inCity(label).map((b) => b.name));
  for (const name of await cardNames(page)) expect(names.has(name), name).toBe(true);
}

type Params = Record<string, string>;

// Netlify's local emulation runs each function call in a fresh worker (about 0.6 s; a deploy
// answers in milliseconds) and two browsers share two cores, so waits on an API answer get a
// wider margin.
const expect = baseExpect.configure({ timeout: 25_000 });
test.describe.configure({ timeout: 150_000 });

// The first call also bundles the function (scripts/serve.mjs, once per server): warm both
// reads before timing anything, with a few tries for a machine busy enough to time one out.
test.beforeAll(async ({ request }) => {
  test.setTimeout(150_000);
  for (const path of ["/api/businesses?limit=1", "/api/businesses/featured"]) {
    let status = 0;
    for (let attempt = 0; attempt < 4 && status !== 200; attempt++) {
      status = (await request.get(path, { timeout: 100_000 })).status();
    }
    expect(status, path).toBe(200);
  }
});

function isList(request: Request): boolean {
  return request.method() === "GET" && new URL(request.url()).pathname === "/api/businesses";
}

const paramsOf = (request: Request): Params => Object.fromEntries(new URL(request.url()).searchParams);

/** The next list request whose query matches exactly. */
function listRequest(page: Page, expected: Params): Promise<Request> {
  const want = JSON.stringify(Object.entries(expected).sort());
  return page.waitForRequest((r) => isList(r) && JSON.stringify(Object.entries(paramsOf(r)).sort()) === want);
}

/** Every list request the page makes from now on. */
function recordListRequests(page: Page): Params[] {
  const seen: Params[] = [];
  page.on("request", (r) => {
    if (isList(r)) seen.push(paramsOf(r));
  });
  return seen;
}

/** The island starts when the visitor reaches into the list (a hover will do). */
async function reachIn(page: Page): Promise<void> {
  await page.getByTestId("results-count").hover();
}

async function open(page: Page, path = PAGE): Promise<void> {
  await page.goto(path);
  await reachIn(page);
  // Wait until the island has taken over before interacting.
  await expect(page.getByTestId("directory")).toHaveAttribute("data-hydrated", "true", { timeout: 30_000 });
}

const results = (page: Page) => page.getByTestId("results");
const cards = (page: Page) => results(page).getByTestId("business-card");
const heading = (page: Page) => results(page).getByRole("heading", { level: 2 });
const count = (page: Page) => page.getByTestId("results-count");
const searchBox = (page: Page) => page.getByRole("searchbox", { name: "Search tree services" });
const citySelect = (page: Page) => page.getByRole("combobox", { name: "City" });
const cardNamed = (page: Page, name: string): Locator =>
  page
    .getByTestId("business-card")
    .filter({ has: page.getByRole("heading", { level: 3, name, exact: true }) })
    .first();
const countFor = (n: number) => `${n} ${n === 1 ? "business" : "businesses"} found`;

async function cardNames(page: Page): Promise<string[]> {
  return cards(page).getByRole("heading", { level: 3 }).allTextContents();
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the page already lists the first 12 businesses, the featured ones and the count", async ({ page }) => {
    await page.goto(PAGE);
    await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Tree Service Directory");
    await expect(heading(page)).toHaveText("All Tree Services");
    await expect(count(page)).toHaveText(countFor(TOTAL));
    await expect(cards(page)).toHaveCount(12);
    await expect(page.getByTestId("skeleton-card")).toHaveCount(0);
    await expect(page.getByTestId("page-status")).toHaveText(`Page 1 of ${Math.ceil(TOTAL / 12)}`);

    const featured = page.getByRole("region", { name: "Featured Tree Services" });
    await expect(featured.getByTestId("business-card")).toHaveCount(FEATURED_SHOWN);
    for (const name of await featured.getByRole("heading", { level: 3 }).allTextContents()) {
      expect(byName.get(name)?.isFeatured, name).toBe(true);
    }
    await expect(featured.getByText("Featured", { exact: true })).toHaveCount(FEATURED_SHOWN);
    // Open now / Closed / 24/7 are drawn by the server for the moment of the request.
    await expect(results(page).getByTestId("open-badge")).toHaveCount(12);

    // Every card is the right business with its link, phone and services.
    for (const name of await cardNames(page)) {
      const business = byName.get(name)!;
      expect(business, name).toBeDefined();
      const card = results(page)
        .getByTestId("business-card")
        .filter({ has: page.getByRole("heading", { name, exact: true }) });
      await expect(card.getByRole("link", { name: /^View Details/ })).toHaveAttribute(
        "href",
        `/directory/${business.slug}`,
      );
      await expect(card).toContainText(placeOf(business));
      await expect(card).toContainText(/Rated \d\.\d out of 5/);
    }

    // No list of every business: the pager links reach them, page by page.
    await expect(page.getByRole("region", { name: "Every tree service, A to Z" })).toHaveCount(0);
    expect(await page.locator('a[href^="/directory/"]').count()).toBeLessThanOrEqual(12 + FEATURED_SHOWN);
  });

  test("searching, filtering and paging work as plain requests, and a business opens", async ({ page }) => {
    await page.goto(PAGE);
    const pages = Math.ceil(TOTAL / 12);
    const pagination = page.getByRole("navigation", { name: "Pagination" });
    const first = await cardNames(page);
    await pagination.getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/\/directory\?page=2$/);
    await expect(page.getByTestId("page-status")).toHaveText(`Page 2 of ${pages}`);
    await expect(cards(page)).toHaveCount(12);
    const second = await cardNames(page);
    expect(second.some((name) => first.includes(name))).toBe(false);
    await pagination.getByRole("link", { name: "Previous" }).click();
    await expect(page).toHaveURL(/\/directory$/);
    expect(await cardNames(page)).toEqual(first);

    // The city filter alone: every card is in that city, and the count is the seed's.
    await citySelect(page).selectOption("houston");
    await page
      .getByRole("search", { name: "Search the tree service directory" })
      .getByRole("button", { name: "Search" })
      .click();
    await expect(page).toHaveURL(/city=houston/);
    const houston = seed.filter((b) => b.city === "Houston");
    await expect(heading(page)).toHaveText("Search Results");
    await expect(count(page)).toHaveText(countFor(houston.length));
    await expect(citySelect(page)).toHaveValue("houston");
    // A card shows the business's own town (Katy, Sugar Land...) within the Houston metro.
    const places = [...new Set(houston.map(placeOf))];
    for (const card of await cards(page).all())
      expect(places).toContain(await card.getByRole("listitem").first().innerText());

    // A search within the city keeps both in the form and in the pager's links.
    const target = houston.find((b) => b.name.split(" ").some((w) => w.length > 5))!;
    const word = target.name.split(" ").find((w) => w.length > 5)!;
    await searchBox(page).fill(word);
    await page
      .getByRole("search", { name: "Search the tree service directory" })
      .getByRole("button", { name: "Search" })
      .click();
    await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(word)}`));
    await expect(searchBox(page)).toHaveValue(word);
    await expect(cardNamed(page, target.name)).toBeVisible();

    await cardNamed(page, target.name)
      .getByRole("link", { name: /^View Details/ })
      .click();
    await expect(page).toHaveURL(new RegExp(`/directory/${target.slug}$`));
    await expect(page.getByRole("heading", { level: 1, name: target.name })).toBeVisible();
  });

  test("the last page has no Next link; a city's pages are links that keep the city", async ({ page }) => {
    const pages = Math.ceil(TOTAL / 12);
    await page.goto(`${PAGE}?page=${pages}`);
    await expect(page.getByTestId("page-status")).toHaveText(`Page ${pages} of ${pages}`);
    await expect(cards(page)).toHaveCount(TOTAL - (pages - 1) * 12);
    const pagination = page.getByRole("navigation", { name: "Pagination" });
    await expect(pagination.getByRole("link", { name: "Next" })).toHaveCount(0);
    await expect(pagination.getByText("Next")).toHaveAttribute("aria-disabled", "true");
    await expect(pagination.getByRole("link", { name: "Previous" })).toHaveAttribute(
      "href",
      `${PAGE}?page=${pages - 1}`,
    );
  });

  test("search and city are a plain GET form to /directory", async ({ page }) => {
    await page.goto(PAGE);
    const form = page.getByRole("search", { name: "Search the tree service directory" });
    await expect(form).toHaveAttribute("method", "get");
    await expect(form).toHaveAttribute("action", "/directory");
    await expect(searchBox(page)).toHaveAttribute("name", "q");
    await expect(citySelect(page)).toHaveAttribute("name", "city");
    await expect(citySelect(page).locator("option")).toHaveText(["All Cities", ...CITIES.map((c) => c.label)]);
    await searchBox(page).fill("oak");
    await citySelect(page).selectOption("houston");
    await form.getByRole("button", { name: "Search" }).click();
    await page.waitForURL(/\/directory\?/);
    const url = new URL(page.url());
    expect(url.pathname).toBe(PAGE);
    // The form sends every control; the defaults read as "not set".
    expect(url.searchParams.get("q")).toBe("oak");
    expect(url.searchParams.get("city")).toBe("houston");
    expect(parseDirectoryQuery(url.searchParams)).toEqual({
      ...DEFAULT_DIRECTORY_STATE,
      search: "oak",
      city: "houston",
    });
  });
});

test("the list starts only when the visitor reaches into it: it reads its page and Featured back once, and keeps every node", async ({
  page,
}) => {
  const requests: string[] = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith("/api/businesses") || url.pathname.endsWith(".js"))
      requests.push(`${url.pathname}${url.search}`);
  });
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(PAGE);
  await page.waitForLoadState("networkidle");
  // Nothing but server HTML until then: no framework code, no API read.
  expect(requests).toEqual([]);
  await expect(page.getByTestId("directory")).not.toHaveAttribute("data-hydrated", "true");
  // Tag the server's nodes: a hydration that did not match would replace them with
  // client-rendered ones, and the tags would be gone.
  await page.evaluate(() => {
    for (const el of document.querySelectorAll(
      "[data-testid=business-card], [data-testid=results-count], [data-testid=open-badge]",
    ))
      (el as HTMLElement & { serverNode?: true }).serverNode = true;
  });
  await reachIn(page);
  await expect(page.getByTestId("directory")).toHaveAttribute("data-hydrated", "true", { timeout: 30_000 });
  await page.waitForLoadState("networkidle");
  // The page carries only the state; the businesses come back from the cached API answers.
  expect(requests.filter((r) => r.startsWith("/api/")).sort()).toEqual(
    [businessesApiUrl(DEFAULT_DIRECTORY_STATE), "/api/businesses/featured"].sort(),
  );
  const kept = await page.evaluate(() =>
    [...document.querySelectorAll("[data-testid=business-card], [data-testid=results-count]")].every(
      (el) => (el as HTMLElement & { serverNode?: true }).serverNode,
    ),
  );
  expect(kept).toBe(true);
  expect(errors).toEqual([]);
  await expect(cards(page)).toHaveCount(12);
  await expect(results(page).getByTestId("open-badge")).toHaveCount(12);
  await expect(count(page)).toHaveText(countFor(TOTAL));
});

test("when the list cannot be read back, the server's list keeps working and the island starts on the next touch", async ({
  page,
}) => {
  let fail = true;
  await page.route("**/api/businesses/featured", (route) =>
    fail
      ? route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ error: "unavailable" }) })
      : route.continue(),
  );
  const failed = page.waitForEvent(
    "console",
    (m) => m.type() === "error" && m.text().includes("[islands] DirectoryList could not load"),
  );
  await page.goto(PAGE);
  await reachIn(page);
  await failed;
  await expect(page.getByTestId("directory")).not.toHaveAttribute("data-hydrated", "true");
  await expect(cards(page)).toHaveCount(12);
  fail = false;
  await searchBox(page).focus();
  await expect(page.getByTestId("directory")).toHaveAttribute("data-hydrated", "true", { timeout: 30_000 });
  await citySelect(page).selectOption("dallas");
  await expect(count(page)).toHaveText(countFor(inCity("Dallas").length));
});

test("search is debounced: one request a pause after the last keystroke, with search, limit and offset but no city", async ({
  page,
}) => {
  // The page's clock, not the machine's: a busy test machine can pause longer between two
  // keystrokes than the debounce, which a visitor typing at 25 keys a second never does.
  await page.clock.install();
  await open(page);
  const seen = recordListRequests(page);
  const term = "Balcones";
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
  await searchBox(page).pressSequentially(term, { delay: 40 });
  await page.clock.runFor(SEARCH_DEBOUNCE_MS - 1);
  expect(new URL(page.url()).search).toBe("");
  // The search commits (and writes the URL) at the pause's end; the store then fetches on a
  // timer of its own, so the clock runs on from here.
  const request = listRequest(page, { search: term, limit: "12", offset: "0" });
  await page.clock.runFor(1);
  await expect.poll(() => new URL(page.url()).search).toBe(`?q=${term}`);
  await page.clock.resume();
  await request;
  await expect(heading(page)).toHaveText("Search Results");
  await expect(cardNamed(page, "Balcones Canopy Works")).toBeVisible();
  await expect(count(page)).toHaveText(/^\d+ business(es)? found$/);
  await expect(page.getByRole("region", { name: "Featured Tree Services" })).toHaveCount(0);
  expect(new URL(page.url()).search).toBe(`?q=${term}`);
  // One request for the whole word, none per keystroke.
  expect(seen).toEqual([{ search: term, limit: "12", offset: "0" }]);
});

test("the city filter sends city=houston and no search", async ({ page }) => {
  await open(page);
  const request = listRequest(page, { city: "houston", limit: "12", offset: "0" });
  await citySelect(page).selectOption("houston");
  await request;
  await expect(heading(page)).toHaveText("Search Results");
  await expect(count(page)).toHaveText(countFor(inCity("Houston").length));
  await expect(cards(page)).toHaveCount(12);
  await expectAllIn(page, "Houston");
  expect(new URL(page.url()).search).toBe("?city=houston");

  await citySelect(page).selectOption("all");
  await expect(heading(page)).toHaveText("All Tree Services");
  await expect(count(page)).toHaveText(countFor(TOTAL));
  expect(new URL(page.url()).search).toBe("");
});

test("a nonsense search shows the empty state; Clear Filters restores everything", async ({ page }) => {
  await open(page);
  await citySelect(page).selectOption("dallas");
  await expect(count(page)).toHaveText(countFor(inCity("Dallas").length));
  await searchBox(page).fill("zzqxnotatree");
  await expect(results(page).getByText("No businesses found matching your criteria.")).toBeVisible();
  await expect(cards(page)).toHaveCount(0);
  await expect(page.getByTestId("results-announcement")).toHaveText(/^0 businesses found/);

  await results(page).getByRole("button", { name: "Clear Filters" }).click();
  await expect(heading(page)).toHaveText("All Tree Services");
  await expect(count(page)).toHaveText(countFor(TOTAL));
  await expect(cards(page)).toHaveCount(12);
  await expect(searchBox(page)).toHaveValue("");
  await expect(citySelect(page)).toHaveValue("all");
  await expect(searchBox(page)).toBeFocused();
  expect(new URL(page.url()).search).toBe("");
});

test("the URL holds the state and Back/Forward restore earlier results (typing is one entry)", async ({ page }) => {
  await open(page);
  await citySelect(page).selectOption("houston");
  await expect(page).toHaveURL(/\?city=houston$/);
  await expect(count(page)).toHaveText(countFor(inCity("Houston").length));

  // Two pauses while typing: the second commit replaces the first entry.
  await searchBox(page).fill("tree");
  await expect(page).toHaveURL(/\?q=tree&city=houston$/);
  await searchBox(page).fill("tree removal");
  await expect(page).toHaveURL(/\?q=tree\+removal&city=houston$/);
  await expect(heading(page)).toHaveText("Search Results");

  await page.goBack();
  await expect(page).toHaveURL(/\/directory\?city=houston$/);
  await expect(searchBox(page)).toHaveValue("");
  await expect(citySelect(page)).toHaveValue("houston");
  await expect(count(page)).toHaveText(countFor(inCity("Houston").length));
  await expectAllIn(page, "Houston");

  await page.goBack();
  await expect(page).toHaveURL(/\/directory$/);
  await expect(citySelect(page)).toHaveValue("all");
  await expect(heading(page)).toHaveText("All Tree Services");
  await expect(count(page)).toHaveText(countFor(TOTAL));

  await page.goForward();
  await expect(page).toHaveURL(/\?city=houston$/);
  await expect(citySelect(page)).toHaveValue("houston");
  await expect(count(page)).toHaveText(countFor(inCity("Houston").length));
});

test("a link with ?q=&city=&page= opens that state, canonicalised, rendered by the server", async ({ page }) => {
  // The server renders the URL's state; hydration reads that state's page back, once.
  const requests = recordListRequests(page);
  await page.goto(`${PAGE}?city=San%20Antonio&q=%20tree%20&page=1`);
  await expect(searchBox(page)).toHaveValue("tree");
  await reachIn(page);
  await expect(page.getByTestId("directory")).toHaveAttribute("data-hydrated", "true", { timeout: 30_000 });
  await page.waitForLoadState("networkidle");
  expect(requests).toEqual([{ search: "tree", city: "san-antonio", limit: "12", offset: "0" }]);
  await expect(page).toHaveURL(/\/directory\?q=tree&city=san-antonio$/);
  await expect(searchBox(page)).toHaveValue("tree");
  await expect(citySelect(page)).toHaveValue("san-antonio");
  await expect(heading(page)).toHaveText("Search Results");
  await expectAllIn(page, "San Antonio");
});

test("Next and Previous page through with offset=12 and move focus to the results", async ({ page }) => {
  await open(page);
  const firstPage = await cardNames(page);
  const pages = Math.ceil(TOTAL / 12);
  const pagination = page.getByRole("navigation", { name: "Pagination" });
  await expect(pagination.getByRole("link", { name: "Previous" })).toHaveCount(0);

  const request = listRequest(page, { limit: "12", offset: "12" });
  await pagination.getByRole("link", { name: "Next" }).click();
  const answer = await (await request).response();
  // Page 2 is what the API answers now: other tests' reviews may have reordered the live
  // directory since the server rendered page 1.
  const apiNames = ((await answer!.json()) as { data: { name: string }[] }).data.map((b) => b.name);
  await expect(page.getByTestId("page-status")).toHaveText(`Page 2 of ${pages}`);
  await expect(page).toHaveURL(/\/directory\?page=2$/);
  await expect(page.locator("#results-heading")).toBeFocused();
  await expect(cards(page)).toHaveCount(12);
  const secondPage = await cardNames(page);
  expect(secondPage).toEqual(apiNames);
  expect(secondPage).not.toEqual(firstPage);

  await pagination.getByRole("link", { name: "Previous" }).click();
  await expect(page.getByTestId("page-status")).toHaveText(`Page 1 of ${pages}`);
  await expect(page).toHaveURL(/\/directory$/);
  expect(await cardNames(page)).toEqual(firstPage);

  await page.goBack();
  await expect(page.getByTestId("page-status")).toHaveText(`Page 2 of ${pages}`);
  expect(await cardNames(page)).toEqual(secondPage);
});

test("the last page disables Next; a page past the end goes to the last page", async ({ page }) => {
  const pages = Math.ceil(TOTAL / 12);
  await open(page, `${PAGE}?page=99`);
  await expect(page).toHaveURL(new RegExp(`\\?page=${pages}$`));
  await expect(page.getByTestId("page-status")).toHaveText(`Page ${pages} of ${pages}`);
  await expect(page.getByRole("navigation", { name: "Pagination" }).getByText("Next")).toHaveAttribute(
    "aria-disabled",
    "true",
  );
  await expect(cards(page)).toHaveCount(TOTAL - (pages - 1) * 12);
});

test("loading shows 6 skeleton cards in a busy region", async ({ page }) => {
  await open(page);
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/businesses?*", async (route) => {
    await held;
    await route.continue();
  });
  await citySelect(page).selectOption("austin");
  await expect(page.getByTestId("skeleton-card")).toHaveCount(6);
  await expect(results(page)).toHaveAttribute("aria-busy", "true");
  await expect(page.getByTestId("skeleton-card").first()).toHaveAttribute("aria-hidden", "true");
  release();
  await expect(page.getByTestId("skeleton-card")).toHaveCount(0);
  await expect(results(page)).toHaveAttribute("aria-busy", "false");
  const austin = inCity("Austin").length;
  await expect(count(page)).toHaveText(countFor(austin));
  await expect(page.getByTestId("results-announcement")).toHaveText(
    `${countFor(austin)}. Page 1 of ${Math.ceil(austin / 12)}.`,
  );
});

test("a failed request shows an inline message with Retry", async ({ page }) => {
  await open(page);
  let fail = true;
  await page.route("**/api/businesses?*", (route) =>
    fail
      ? route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ error: "boom" }) })
      : route.continue(),
  );
  await citySelect(page).selectOption("dallas");
  const alert = results(page).getByRole("alert");
  await expect(alert).toContainText("couldn't load tree services");
  await expect(heading(page)).toBeVisible();
  fail = false;
  await alert.getByRole("button", { name: "Retry" }).click();
  await expect(count(page)).toHaveText(countFor(inCity("Dallas").length));
  await expect(alert).toHaveCount(0);
});

test("cards show at most 3 services plus +N more", async ({ page }) => {
  await open(page);
  let checked = 0;
  for (const name of await cardNames(page)) {
    const business = byName.get(name)!;
    const services = cardNamed(page, name).getByRole("list", { name: "Services" }).getByRole("listitem");
    const shown = Math.min(3, business.services.length);
    const more = business.services.length - shown;
    await expect(services).toHaveCount(shown + (more > 0 ? 1 : 0));
    await expect(services.first()).toHaveText(business.services[0]);
    if (more > 0) {
      await expect(services.last()).toHaveText(new RegExp(`^\\+${more} more`));
      checked++;
    }
  }
  expect(checked).toBeGreaterThan(0);

  // And on a card that had to be searched for.
  await searchBox(page).fill(manyServices.name);
  await expect(cardNamed(page, manyServices.name)).toContainText(`+${manyServices.services.length - 3} more`);
});

test("Call Now only when the business has a phone", async ({ page }) => {
  await open(page);
  const withPhone = cards(page)
    .filter({ has: page.locator('a[href^="tel:"]') })
    .first();
  const name = (await withPhone.getByRole("heading", { level: 3 }).textContent())!;
  const phone = byName.get(name)!.phone!;
  await expect(withPhone.getByRole("link", { name: `Call Now ${name} at ${phone}` })).toHaveAttribute(
    "href",
    telHref(phone),
  );
  await expect(withPhone).toContainText(phone);

  await searchBox(page).fill(noPhone.name);
  const card = cardNamed(page, noPhone.name);
  await expect(card).toBeVisible();
  await expect(card.getByRole("link", { name: /^View Details/ })).toBeVisible();
  await expect(card.getByRole("link", { name: /^Call Now/ })).toHaveCount(0);
  await expect(card.locator('a[href^="tel:"]')).toHaveCount(0);
});

test("View Details opens the business page", async ({ page }) => {
  await open(page);
  const first = cards(page).first();
  const name = (await first.getByRole("heading", { level: 3 }).textContent())!;
  await first.getByRole("link", { name: /^View Details/ }).click();
  await page.waitForURL(`**/directory/${byName.get(name)!.slug}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(name);
});

test("axe: no serious or critical violations in the results and the empty state", async ({ page }) => {
  const check = async () => {
    const report = await new AxeBuilder({ page })
      .include("main")
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
      .analyze();
    const blocking = report.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(blocking.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  };
  await open(page);
  await check();
  await searchBox(page).fill("zzqxnotatree");
  await expect(results(page).getByText("No businesses found matching your criteria.")).toBeVisible();
  await check();
});

test.describe("near me", () => {
  const nearBox = (page: Page) => page.getByRole("textbox", { name: "ZIP code or city" });
  const control = (page: Page, name: string) => page.getByRole("combobox", { name });
  const toggle = (page: Page, name: string) => page.getByRole("checkbox", { name });
  const around = (place: string, miles: number) => {
    const center = findPlace(place)!;
    return seed.filter((b) => "location" in b && b.location && distanceMiles(center, b.location) <= miles);
  };
  const miles = async (page: Page) =>
    (await results(page).getByTestId("distance").allTextContents()).map((t) => parseFloat(t));

  test("a ZIP finds its neighbours with distances; sort, toggles and pages live in the URL; Back/Forward restore them", async ({
    page,
  }) => {
    await open(page);
    const near = around("78664", 25);
    const first = listRequest(page, { near: "78664", limit: "12", offset: "0" });
    await nearBox(page).fill("78664");
    await nearBox(page).press("Enter");
    await first;
    await expect(count(page)).toHaveText(`${countFor(near.length)} within 25 miles of Round Rock, TX 78664`);
    await expect(page).toHaveURL(/\/directory\?near=78664$/);
    expect((await miles(page)).every((m) => m <= 25)).toBe(true);

    await control(page, "Sort by").selectOption("distance");
    await expect(page).toHaveURL(/\?near=78664&sort=distance$/);
    await expect(async () => {
      const shown = await miles(page);
      expect(shown.length).toBe(Math.min(12, near.length));
      expect([...shown].sort((a, b) => a - b)).toEqual(shown);
    }).toPass();

    // Page 2, then a filter: back to page 1.
    await page.getByRole("navigation", { name: "Pagination" }).getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/\?near=78664&sort=distance&page=2$/);
    await control(page, "Within").selectOption("10");
    await expect(page).toHaveURL(/\?near=78664&radius=10&sort=distance$/);
    await expect(count(page)).toHaveText(
      `${countFor(around("78664", 10).length)} within 10 miles of Round Rock, TX 78664`,
    );
    await toggle(page, "24/7 emergency").check();
    await expect(page).toHaveURL(/\?near=78664&radius=10&emergency=1&sort=distance$/);
    const emergency = around("78664", 10).filter((b) => "emergency247" in b && b.emergency247);
    await expect(count(page)).toHaveText(`${countFor(emergency.length)} within 10 miles of Round Rock, TX 78664`);
    for (const card of await cards(page).all()) await expect(card.getByText("24/7 emergency")).toBeVisible();

    await page.goBack();
    await expect(page).toHaveURL(/\?near=78664&radius=10&sort=distance$/);
    await expect(toggle(page, "24/7 emergency")).not.toBeChecked();
    await expect(control(page, "Within")).toHaveValue("10");
    await page.goBack();
    await expect(page).toHaveURL(/\?near=78664&sort=distance&page=2$/);
    await expect(control(page, "Within")).toHaveValue("25");
    await expect(page.getByTestId("page-status")).toHaveText(`Page 2 of ${Math.ceil(near.length / 12)}`);
    await page.goForward();
    await page.goForward();
    await expect(toggle(page, "24/7 emergency")).toBeChecked();
    await expect(nearBox(page)).toHaveValue("78664");
  });

  test("a link with a place, a service and Open now opens that state; every card shows its open state", async ({
    page,
  }) => {
    await open(page, `${PAGE}?near=Katy%2C%20TX&service=Tree%20Removal&open=now&radius=50`);
    await expect(page).toHaveURL(/\?near=Katy%2C\+TX&radius=50&service=Tree\+Removal&open=now$/);
    await expect(nearBox(page)).toHaveValue("Katy, TX");
    await expect(control(page, "Service")).toHaveValue("Tree Removal");
    await expect(toggle(page, "Open now")).toBeChecked();
    await expect(count(page)).toContainText("within 50 miles of Katy, TX");
    for (const card of await cards(page).all()) {
      await expect(card.getByTestId("open-badge")).toHaveText(/^(Open now|24\/7)$/);
      await expect(card.getByRole("list", { name: "Services" })).toBeVisible();
    }
  });

  test("an unknown place or a filter without a place is explained at the place box", async ({ page }) => {
    await open(page);
    await nearBox(page).fill("99999");
    await nearBox(page).press("Enter");
    await expect(page.getByTestId("near-error")).toHaveText(UNKNOWN_PLACE);
    await expect(nearBox(page)).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByTestId("query-error")).toContainText(UNKNOWN_PLACE);

    await nearBox(page).fill("");
    await toggle(page, "Open now").check();
    await expect(page.getByTestId("near-error")).toHaveText(NEAR_REQUIRED);
    await page.getByTestId("query-error").getByRole("button", { name: "Clear Filters" }).click();
    await expect(toggle(page, "Open now")).not.toBeChecked();
    await expect(count(page)).toHaveText(countFor(TOTAL));
  });

  test.describe("with the browser's position", () => {
    test.use({ geolocation: { latitude: 30.5145, longitude: -97.668 }, permissions: ["geolocation"] });
    test("Use my location searches around it, rounded", async ({ page }) => {
      await open(page);
      await page.getByRole("button", { name: "Use my location" }).click();
      await expect(nearBox(page)).toHaveValue("30.515,-97.668");
      await expect(count(page)).toHaveText(
        `${countFor(around("30.515,-97.668", 25).length)} within 25 miles of your location`,
      );
      await expect(results(page).getByTestId("distance").first()).toBeVisible();
    });
  });
});
