/**
 * /directory: the on-demand list without JavaScript (search, city and pages are requests
 * to /directory?q=&city=&page=, rendered by the server), then the island against the real
 * GET /api/businesses (the test server seeds content/directory/businesses.json; every
 * count below is read from it): hydration on intent, searching and filtering with the URL
 * and history, paging, and near-me. The island's loading and error states, and the search
 * debounce, are its component tests' (tests/unit/islands).
 */
import type { Locator, Page, Request } from "@playwright/test";
import seed from "../../content/directory/businesses.json" with { type: "json" };
import { FEATURED_LIMIT } from "../../netlify/lib/directory";
import { CITIES } from "../../src/lib/options";
import { telHref } from "../../src/lib/site";
import {
  DEFAULT_DIRECTORY_STATE,
  NEAR_REQUIRED,
  businessesApiUrl,
  parseDirectoryQuery,
} from "../../src/lib/directory-url";
import { distanceMiles } from "../../src/lib/geo/distance";
import { UNKNOWN_PLACE, findPlace } from "../../src/lib/geo/places";
import { SITE } from "../../src/lib/site";
import { axeBlocking, expect as baseExpect, settled, test } from "./fixtures";

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

// Two browsers share two cores with the server, so waits on an API answer get a margin.
const expect = baseExpect.configure({ timeout: 25_000 });
test.describe.configure({ timeout: 150_000 });

// The list's two read-backs answer before any test starts measuring (the server's first calls).
test.beforeAll(async ({ request }) => {
  test.setTimeout(150_000);
  for (const path of ["/api/businesses?limit=1", "/api/businesses/featured"])
    expect((await request.get(path, { timeout: 120_000 })).status(), path).toBe(200);
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
    const response = await page.goto(PAGE);
    expect(response?.status()).toBe(200);
    // The route table's page checks, for this page rendered on demand.
    await expect(page).toHaveTitle(new RegExp(SITE.name));
    await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Tree Service Directory");
    await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /.{40,}/);
    const canonical = await page.locator('link[rel="canonical"]').getAttribute("href");
    expect(new URL(canonical!).pathname).toBe(PAGE);
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", /.+/);
    await expect(page.locator('meta[property="og:image"]')).toHaveAttribute("content", /^https?:\/\//);
    await expect(page.locator("header").first()).toBeVisible();
    await expect(page.locator("main#main")).toHaveCount(1);
    await expect(page.locator("footer")).toBeVisible();
    await expect(page.getByRole("region", { name: "Notifications (F8)" })).toBeAttached();

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

    // Every card is the right business with its link, place and rating.
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

  test("paging, the city and the search are plain GET requests; the last page has no Next; a business opens", async ({
    page,
  }) => {
    await page.goto(PAGE);
    const form = page.getByRole("search", { name: "Search the tree service directory" });
    await expect(form).toHaveAttribute("method", "get");
    await expect(form).toHaveAttribute("action", "/directory");
    await expect(searchBox(page)).toHaveAttribute("name", "q");
    await expect(citySelect(page)).toHaveAttribute("name", "city");
    await expect(citySelect(page).locator("option")).toHaveText(["All Cities", ...CITIES.map((c) => c.label)]);

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

    await page.goto(`${PAGE}?page=${pages}`);
    await expect(page.getByTestId("page-status")).toHaveText(`Page ${pages} of ${pages}`);
    await expect(cards(page)).toHaveCount(TOTAL - (pages - 1) * 12);
    await expect(pagination.getByRole("link", { name: "Next" })).toHaveCount(0);
    await expect(pagination.getByTestId("page-next")).toHaveAttribute("aria-disabled", "true");
    await expect(pagination.getByRole("link", { name: "Previous" })).toHaveAttribute(
      "href",
      `${PAGE}?page=${pages - 1}`,
    );

    // The city filter alone: every card is in that city, and the count is the seed's.
    await citySelect(page).selectOption("houston");
    await form.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/city=houston/);
    const houston = inCity("Houston");
    await expect(heading(page)).toHaveText("Search Results");
    await expect(count(page)).toHaveText(countFor(houston.length));
    await expect(citySelect(page)).toHaveValue("houston");
    // A card shows the business's own town (Katy, Sugar Land...) within the Houston metro.
    const places = [...new Set(houston.map(placeOf))];
    for (const card of await cards(page).all())
      expect(places).toContain(await card.getByRole("listitem").first().innerText());

    // A search within the city keeps both; the form sends every control, the defaults read as "not set".
    const target = houston.find((b) => b.name.split(" ").some((w) => w.length > 5))!;
    const word = target.name.split(" ").find((w) => w.length > 5)!;
    await searchBox(page).fill(word);
    await form.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(word)}`));
    const url = new URL(page.url());
    expect(url.pathname).toBe(PAGE);
    expect(parseDirectoryQuery(url.searchParams)).toEqual({
      ...DEFAULT_DIRECTORY_STATE,
      search: word,
      city: "houston",
    });
    await expect(searchBox(page)).toHaveValue(word);
    await expect(cardNamed(page, target.name)).toBeVisible();

    await cardNamed(page, target.name)
      .getByRole("link", { name: /^View Details/ })
      .click();
    await expect(page).toHaveURL(new RegExp(`/directory/${target.slug}$`));
    await expect(page.getByRole("heading", { level: 1, name: target.name })).toBeVisible();
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
  await page.goto(PAGE);
  await page.waitForLoadState("networkidle");
  await page.mouse.move(5, 5);
  await settled(page);
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

test(
  "searching and filtering: the URL holds the state, Back/Forward restore it, an empty result clears, a shared link opens its state",
  { tag: "@mobile" },
  async ({ page }) => {
    await open(page);
    const request = listRequest(page, { city: "houston", limit: "12", offset: "0" });
    await citySelect(page).selectOption("houston");
    await request;
    await expect(heading(page)).toHaveText("Search Results");
    await expect(count(page)).toHaveText(countFor(inCity("Houston").length));
    await expect(cards(page)).toHaveCount(12);
    await expectAllIn(page, "Houston");
    expect(new URL(page.url()).search).toBe("?city=houston");

    // Two pauses while typing: the second commit replaces the first history entry.
    await searchBox(page).fill("tree");
    await expect(page).toHaveURL(/\?q=tree&city=houston$/);
    await searchBox(page).fill("tree removal");
    await expect(page).toHaveURL(/\?q=tree\+removal&city=houston$/);
    await expect(heading(page)).toHaveText("Search Results");
    await expect(page.getByRole("region", { name: "Featured Tree Services" })).toHaveCount(0);

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

    // Nothing found: the empty state (which passes axe), and Clear Filters restores everything.
    await citySelect(page).selectOption("dallas");
    await expect(count(page)).toHaveText(countFor(inCity("Dallas").length));
    await searchBox(page).fill("zzqxnotatree");
    await expect(results(page).getByText("No businesses found matching your criteria.")).toBeVisible();
    await expect(cards(page)).toHaveCount(0);
    await expect(page.getByTestId("results-announcement")).toHaveText(/^0 businesses found/);
    expect(await axeBlocking(page, "main")).toEqual([]);
    await results(page).getByRole("link", { name: "Clear Filters" }).click();
    await expect(heading(page)).toHaveText("All Tree Services");
    await expect(count(page)).toHaveText(countFor(TOTAL));
    await expect(cards(page)).toHaveCount(12);
    await expect(searchBox(page)).toHaveValue("");
    await expect(citySelect(page)).toHaveValue("all");
    await expect(searchBox(page)).toBeFocused();
    expect(new URL(page.url()).search).toBe("");

    // A shared link with ?q=&city=&page=: the server renders its state, hydration reads that page back once.
    const requests = recordListRequests(page);
    await page.goto(`${PAGE}?city=San%20Antonio&q=%20tree%20&page=1`);
    await expect(searchBox(page)).toHaveValue("tree");
    await reachIn(page);
    await expect(page.getByTestId("directory")).toHaveAttribute("data-hydrated", "true", { timeout: 30_000 });
    await page.waitForLoadState("networkidle");
    expect(requests).toEqual([{ search: "tree", city: "san-antonio", limit: "12", offset: "0" }]);
    await expect(page).toHaveURL(/\/directory\?q=tree&city=san-antonio$/);
    await expect(citySelect(page)).toHaveValue("san-antonio");
    await expect(heading(page)).toHaveText("Search Results");
    await expectAllIn(page, "San Antonio");
  },
);

test("the cards and the pages: services, Call Now, Next and Previous with focus, the last page, View Details", async ({
  page,
}) => {
  await open(page);
  expect(await axeBlocking(page, "main")).toEqual([]);
  // At most 3 services plus "+N more".
  let checked = 0;
  for (const name of await cardNames(page)) {
    const business = byName.get(name)!;
    const services = cardNamed(page, name).getByRole("list", { name: "Services" }).getByRole("listitem");
    const shown = Math.min(3, business.services.length);
    const more = business.services.length - shown;
    await expect(services).toHaveCount(shown + (more > 0 ? 1 : 0));
    await expect(services.first()).toHaveText(business.services[0]!);
    if (more > 0) {
      await expect(services.last()).toHaveText(new RegExp(`^\\+${more} more`));
      checked++;
    }
  }
  expect(checked).toBeGreaterThan(0);
  // Call Now only when the business has a phone.
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
  // And "+N more" on a card that had to be searched for.
  await searchBox(page).fill(manyServices.name);
  await expect(cardNamed(page, manyServices.name)).toContainText(`+${manyServices.services.length - 3} more`);

  // Next and Previous page through with offset=12 and move focus to the results.
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

  // A page past the end goes to the last page, whose Next is disabled.
  await open(page, `${PAGE}?page=99`);
  await expect(page).toHaveURL(new RegExp(`\\?page=${pages}$`));
  await expect(page.getByTestId("page-status")).toHaveText(`Page ${pages} of ${pages}`);
  await expect(pagination.getByTestId("page-next")).toHaveAttribute("aria-disabled", "true");
  await expect(cards(page)).toHaveCount(TOTAL - (pages - 1) * 12);

  // View Details opens the business page.
  const first = cards(page).first();
  const opened = (await first.getByRole("heading", { level: 3 }).textContent())!;
  await first.getByRole("link", { name: /^View Details/ }).click();
  await page.waitForURL(`**/directory/${byName.get(opened)!.slug}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(opened);
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

  test("a ZIP finds its neighbors with distances; sort, toggles and pages live in the URL; Back/Forward restore them", async ({
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

  test("a link with a place, a service and Open now; an unknown place or a filter without one explained; Use my location", async ({
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

    await open(page);
    await nearBox(page).fill("99999");
    await nearBox(page).press("Enter");
    await expect(page.getByTestId("near-error")).toHaveText(UNKNOWN_PLACE);
    await expect(nearBox(page)).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByTestId("query-error")).toContainText(UNKNOWN_PLACE);
    await nearBox(page).fill("");
    await toggle(page, "Open now").check();
    await expect(page.getByTestId("near-error")).toHaveText(NEAR_REQUIRED);
    await page.getByTestId("query-error").getByRole("link", { name: "Clear Filters" }).click();
    await expect(toggle(page, "Open now")).not.toBeChecked();
    await expect(count(page)).toHaveText(countFor(TOTAL));

    // The browser's position, rounded, is the place.
    await page.context().grantPermissions(["geolocation"]);
    await page.context().setGeolocation({ latitude: 30.5145, longitude: -97.668 });
    await page.getByRole("button", { name: "Use my location" }).click();
    await expect(nearBox(page)).toHaveValue("30.515,-97.668");
    await expect(count(page)).toHaveText(
      `${countFor(around("30.515,-97.668", 25).length)} within 25 miles of your location`,
    );
    await expect(results(page).getByTestId("distance").first()).toBeVisible();
  });
});
