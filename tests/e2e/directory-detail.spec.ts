/**
 * Directory detail pages, rendered on demand from the store:
 * booking and reviewing as a visitor does,
 * against the real functions, with the review on the very next request without a rebuild and
 * markup in it staying text; and both dialogs with JavaScript off. How the islands answer a
 * failed post or a failed refresh is their component tests' (tests/unit/islands); what the
 * server's HTML says (every section, JSON-LD, sparse pages, the 404) is
 * tests/integration/site.test.ts's. Seed data:
 * content/directory/businesses.json.
 */
import type { Locator, Page } from "@playwright/test";
import seed from "../../content/directory/businesses.json" with { type: "json" };
import { BOOKING_CONFIRMATION, BOOKING_TOASTS, RECEIPT_COPY, REVIEW_TOASTS } from "../../src/lib/forms/copy";
import { expect, expectModal, hold, hydrated, settled, test, toasts } from "./fixtures";

type SeedBusiness = (typeof seed)[number];
const bySlug = (slug: string) => seed.find((b) => b.slug === slug) as SeedBusiness;

const FULL = bySlug("balcones-canopy-works-austin");
/** Reviewed by this spec only, so its new reviews change nothing another spec counts. */
const REVIEWED = bySlug("helotes-hill-tree-works-san-antonio");

/** The page's LocalBusiness block (every page also carries the site's Organization block). */
async function localBusiness(page: Page) {
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  const found = blocks.map((b) => JSON.parse(b)).filter((d) => d["@type"] === "LocalBusiness");
  expect(found).toHaveLength(1);
  return found[0];
}

async function fillBooking(dialog: Locator) {
  await dialog.getByLabel("Full Name").fill("Jordan Rivera");
  await dialog.getByLabel("Email").fill("jordan@example.com");
  await dialog.getByLabel("Phone").fill("(512) 555-0199");
}

test.describe("the server's HTML (no JavaScript)", () => {
  test.use({ javaScriptEnabled: false });

  test("Write Review is a real form, stars included, that posts a review; Book Service is a real form that books", async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await page.goto(`/directory/${FULL.slug}`);
    await page.getByRole("button", { name: "Write Review" }).click();
    const review = page.getByRole("dialog", { name: "Write a Review" });
    await expect(review).toBeVisible();
    const reviewer = `No Script Reviewer ${Date.now().toString(36)}`;
    await review.getByLabel("Your Name").fill(reviewer);
    // A tap on the fourth star (its label; the radio itself is visually hidden).
    await review.locator("label", { has: page.getByRole("radio", { name: "4 stars" }) }).click();
    await expect(review.getByRole("radio", { name: "4 stars" })).toBeChecked();
    await review.getByRole("button", { name: "Submit Review" }).click();
    await expect(page.getByRole("heading", { level: 1, name: REVIEW_TOASTS.success.title })).toBeVisible();
    await page.getByRole("link", { name: `Back to ${FULL.name}` }).click();
    await expect(page.getByText(reviewer).first()).toBeVisible();

    await page.getByRole("main").getByRole("button", { name: "Book Service" }).click();
    const form = page.getByRole("dialog", { name: new RegExp(`Book Service with ${FULL.name}`) });
    await expect(form).toBeVisible();
    await fillBooking(form);
    await form.getByLabel("Service Type").selectOption(FULL.services[0]!);
    await form.getByRole("button", { name: "Submit Booking Request" }).click();
    await expect(page.getByText(BOOKING_TOASTS.success.title).first()).toBeVisible({ timeout: 30_000 });
  });
});

test(
  "booking: no framework code until the visitor reaches for it; a broken photo falls back; the dialog validates, books, keeps the receipt on screen and starts fresh",
  { tag: "@mobile" },
  async ({ page }) => {
    test.setTimeout(90_000);
    const scripts: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "script") scripts.push(r.url());
    });
    await page.route(`**${FULL.images[1]}`, (route) => route.fulfill({ status: 404, body: "" }));
    await page.goto(`/directory/${FULL.slug}`);
    const photos = page.getByRole("region", { name: "Photos" });
    await photos.scrollIntoViewIfNeeded();
    await expect(photos.getByRole("img", { name: /photo 2 of/ })).toBeHidden();
    await expect(photos.getByText("Photo unavailable").nth(1)).toBeVisible();
    await expect(photos.getByRole("img", { name: /photo 1 of/ })).toBeVisible();
    // Every section has been on screen, the reviews included: still no framework code.
    await page.getByRole("region", { name: "Credentials" }).scrollIntoViewIfNeeded();
    await page.getByRole("region", { name: "Customer Reviews" }).scrollIntoViewIfNeeded();
    await page.waitForLoadState("networkidle");
    await settled(page);
    for (const url of scripts) {
      const body = await (await page.request.get(url)).text();
      expect(body, `${url} must not contain React`).not.toMatch(/react-dom|__REACT_DEVTOOLS|createRoot/);
      expect(url, "the business page's own script is inlined").not.toMatch(/_slug_|ReviewsPanel|business/i);
    }

    // Book Service and Write Review are buttons opening the platform's modal dialogs.
    for (const [name, title] of [
      ["Write Review", /Write a Review/],
      ["Book Service", new RegExp(`Book Service with ${FULL.name}`)],
    ] as const) {
      await expect(page.getByRole("link", { name })).toHaveCount(0);
      await expectModal(
        page,
        page.getByRole("main").getByRole("button", { name }),
        page.getByRole("dialog", { name: title }),
      );
    }

    await page.getByRole("main").getByRole("button", { name: "Book Service" }).click();
    const dialog = page.getByRole("dialog");
    await hydrated(dialog);
    await expect(dialog.getByRole("heading", { name: new RegExp(FULL.name) })).toBeVisible();
    const options = await dialog.getByLabel("Service Type").locator("option").allTextContents();
    expect(options.slice(1)).toEqual(FULL.services);
    await expect(dialog.getByLabel("Urgency")).toHaveValue("normal");

    const api = await hold(page, "**/api/booking-request");
    await dialog.getByRole("button", { name: "Submit Booking Request" }).click();
    await expect(dialog.getByLabel("Full Name")).toBeFocused();
    await expect(dialog.getByLabel("Full Name")).toHaveAttribute("aria-invalid", "true");
    expect(api.requests).toHaveLength(0);

    await fillBooking(dialog);
    await dialog.getByLabel("Service Type").selectOption(FULL.services[1]!);
    await dialog.getByRole("button", { name: "Submit Booking Request" }).click();
    await expect(dialog.getByRole("button", { name: "Submitting..." })).toBeDisabled();
    api.release();
    await expect(dialog).toBeHidden();
    await expect(toasts(page).first()).toContainText(BOOKING_TOASTS.success.title);
    await expect(toasts(page).first()).toContainText(BOOKING_TOASTS.success.description);
    expect(api.requests).toHaveLength(1);
    const body = api.requests[0]!.postDataJSON();
    expect(body).toMatchObject({
      customerName: "Jordan Rivera",
      customerEmail: "jordan@example.com",
      customerPhone: "(512) 555-0199",
      serviceType: FULL.services[1],
      urgency: "normal",
      requestType: "consultation",
      businessId: FULL.id,
    });
    expect(body).not.toHaveProperty("preferredDate");

    // The receipt stays on screen, focused, until the visitor closes it; the toast comes and goes.
    const receipt = page.getByRole("region", { name: BOOKING_CONFIRMATION.receiptTitle });
    await expect(receipt.getByRole("heading", { name: BOOKING_CONFIRMATION.receiptTitle })).toBeFocused();
    await expect(receipt.getByRole("link", { name: RECEIPT_COPY.track })).toHaveAttribute("href", /^\/requests\//);
    await toasts(page).first().getByRole("button", { name: "Close" }).click();
    await expect(toasts(page)).toHaveCount(0);
    await expect(receipt).toBeInViewport();
    await receipt.getByRole("button", { name: BOOKING_CONFIRMATION.close }).click();
    await expect(receipt).toHaveCount(0);

    // Reopening starts from an empty form.
    await page.getByRole("main").getByRole("button", { name: "Book Service" }).click();
    await expect(page.getByRole("dialog").getByLabel("Full Name")).toHaveValue("");
  },
);

test("a review: stars by keyboard, the name required; posted, it tops the list and the rating, markup stays text, and the next request's HTML has it", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const SCRIPT = "<script>window.__xss='script';alert('script')</script>";
  const IMG = `<img src=x onerror="window.__xss='img';alert('img')">`;
  const JS_URL = "javascript:window.__xss='url';alert('url')";
  await page.goto(`/directory/${REVIEWED.slug}`);
  const panel = page.getByRole("region", { name: "Customer Reviews" });
  await panel.scrollIntoViewIfNeeded();
  const count = page.locator(`[data-live-summary="${REVIEWED.id}"] [data-live-count]`);
  // The page is rendered on request, so its count is the server's.
  const before = Number((await count.textContent())!.split(" ")[0]);

  await panel.getByRole("button", { name: "Write Review" }).click();
  const dialog = page.getByRole("dialog", { name: "Write a Review" });
  await hydrated(dialog);
  // A radio group defaulting to 5, operable with the arrow keys.
  await expect(dialog.getByRole("radio", { name: "5 stars" })).toBeChecked();
  await dialog.getByRole("radio", { name: "5 stars" }).focus();
  await page.keyboard.press("ArrowLeft");
  await expect(dialog.getByRole("radio", { name: "4 stars" })).toBeChecked();
  await dialog.getByRole("radio", { name: "2 stars" }).check({ force: true });
  await expect(dialog.getByRole("radio", { name: "2 stars" })).toBeChecked();
  // The name is the only required field.
  await dialog.getByRole("button", { name: "Submit Review" }).click();
  await expect(dialog.getByLabel("Your Name")).toHaveAttribute("aria-invalid", "true");
  await expect(dialog.getByLabel("Your Name")).toBeFocused();

  const marker = `E2E ${Date.now().toString(36)}`;
  await dialog.getByLabel("Your Name").fill(`${marker} ${IMG}`);
  await dialog.getByRole("radio", { name: "4 stars" }).check({ force: true });
  await dialog.getByLabel("Title").fill(SCRIPT);
  await dialog.getByLabel("Your Review").fill(`See ${JS_URL} and ${IMG}`);
  await dialog.getByLabel("Service Type").selectOption(REVIEWED.services[0]!);
  const posted = page.waitForResponse(
    (r) => r.url().endsWith(`/api/businesses/${REVIEWED.id}/reviews`) && r.request().method() === "POST",
  );
  await dialog.getByRole("button", { name: "Submit Review" }).click();
  const answer = await posted;
  expect(answer.status()).toBe(201);
  expect(answer.request().postDataJSON()).toMatchObject({
    customerName: `${marker} ${IMG}`,
    rating: 4,
    businessId: REVIEWED.id,
    serviceType: REVIEWED.services[0],
  });
  const { business } = (await answer.json()) as { business: { rating: string; reviewCount: number } };
  await expect(dialog).toBeHidden();
  await expect(toasts(page).first()).toContainText(REVIEW_TOASTS.success.title);
  await expect(toasts(page).first()).toContainText(REVIEW_TOASTS.success.description);

  const mine = panel.locator("[data-review-id]").filter({ hasText: marker });
  await expect(mine).toHaveCount(1);
  await expect(panel.locator("[data-review-id]").first()).toContainText(marker);
  // Text, not elements: no <img>/<script> from the payload, no link made of the URL.
  await expect(mine).toContainText(`${marker} ${IMG}`);
  await expect(mine).toContainText(SCRIPT);
  await expect(mine).toContainText(JS_URL);
  await expect(mine.locator("img[src='x'], script")).toHaveCount(0);
  await expect(mine.locator("a[href^='javascript:']")).toHaveCount(0);
  await expect(count).toHaveText(`${before + 1} ${before + 1 === 1 ? "review" : "reviews"}`);
  expect(business.reviewCount).toBe(before + 1);
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();

  // The next request's HTML, with no script at all, has it: list, count and JSON-LD.
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL: test.info().project.use.baseURL });
  const fresh = await context.newPage();
  await fresh.goto(`/directory/${REVIEWED.slug}`);
  const reviews = fresh.getByRole("region", { name: "Customer Reviews" });
  await expect(reviews.locator("[data-review-id]").filter({ hasText: marker })).toHaveCount(1);
  await expect(fresh.locator(`[data-live-summary="${REVIEWED.id}"] [data-live-count]`)).toHaveText(
    `${business.reviewCount} ${business.reviewCount === 1 ? "review" : "reviews"}`,
  );
  // A sample business (the demo directory) gives search engines no rating or reviews, even a visitor's.
  const ld = await localBusiness(fresh);
  expect(ld.aggregateRating).toBeUndefined();
  expect(ld.review).toBeUndefined();
  await context.close();
});
