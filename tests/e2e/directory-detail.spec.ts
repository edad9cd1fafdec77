/**
 * Directory detail pages (GitHub issues #5 and #16): profiles rendered on demand from the
 * store with every section of spec section 2 and LocalBusiness JSON-LD, the booking and
 * review dialogs (section 4/5/7/8), live reviews, broken photos, unknown slugs, a review on
 * the very next request without a rebuild, and the page with JavaScript off. Seed data:
 * content/directory/businesses.json.
 */
import { expect, test, type Locator, type Page, type Request } from "@playwright/test";
import seed from "../../content/directory/businesses.json" with { type: "json" };
import { BOOKING_TOASTS, REVIEW_TOASTS } from "../../src/lib/forms/copy";
import { NOT_FOUND, dayLabel } from "../../src/lib/directory";
import { OPEN_TEXT, openState } from "../../src/lib/hours";
import { NO_REVIEWS } from "../../src/islands/directory/detail/ReviewsPanel";
import { telHref } from "../../src/lib/site";
import { WEEKDAYS } from "../../src/lib/options";
import type { BusinessHours } from "../../src/lib/schemas/business";

type SeedBusiness = (typeof seed)[number];
const bySlug = (slug: string) => seed.find((b) => b.slug === slug) as SeedBusiness;

const FULL = bySlug("balcones-canopy-works-austin");
/** No website, licence, insurance, photos or reviews. */
const SPARSE = bySlug("riverside-limb-lot-austin");
/** No phone. */
const NO_PHONE = bySlug("montrose-tree-pruning-co-houston");

const toasts = (page: Page) => page.locator("#notifications > li");

/** Waits until the dialog's island has taken over its prebuilt form (before that a submit posts natively). */
const hydrated = (dialog: Locator) => expect(dialog.locator("form[data-hydrated]")).toHaveCount(1);

/** The page's LocalBusiness block (every page also carries the site's Organization block). */
async function localBusiness(page: Page) {
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  const found = blocks.map((b) => JSON.parse(b)).filter((d) => d["@type"] === "LocalBusiness");
  expect(found).toHaveLength(1);
  return found[0];
}

function ratingOf(b: SeedBusiness): { rating: string; count: number } {
  const sum = b.reviews.reduce((t, r) => t + r.rating, 0);
  const count = b.reviews.length;
  return { rating: count ? (Math.floor((sum * 10) / count + 0.5) / 10).toFixed(1) : "0.0", count };
}

/** Mocks POST `path` and records the requests; `hold()` keeps the answer back. */
async function mockPost(page: Page, path: string | RegExp, answer: { status: number; body?: unknown }) {
  const requests: Request[] = [];
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let hold = false;
  await page.route(path, async (route) => {
    if (route.request().method() !== "POST") return route.fallback();
    requests.push(route.request());
    if (hold) await held;
    await route.fulfill({
      status: answer.status,
      contentType: "application/json",
      body: JSON.stringify(answer.body ?? {}),
    });
  });
  return { requests, hold: () => (hold = true), release: () => release() };
}

test.describe("profile", () => {
  test("shows every section of a complete business", async ({ page }) => {
    const response = await page.goto(`/directory/${FULL.slug}`);
    expect(response?.status()).toBe(200);
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1, name: FULL.name })).toBeVisible();
    await expect(main.getByText("Featured", { exact: true }).first()).toBeVisible();
    const { rating, count } = ratingOf(FULL);
    const summary = page.locator(`[data-live-summary="${FULL.id}"]`);
    await expect(summary.locator("[data-live-rating]")).toHaveText(rating);
    await expect(summary.locator("[data-live-count]")).toHaveText(`${count} reviews`);
    await expect(summary.getByRole("img", { name: `Rated ${rating} out of 5` })).toBeVisible();
    await expect(summary.locator('[data-star][data-on="true"]')).toHaveCount(Math.floor(Number(rating)));
    await expect(main.getByText(`${FULL.city}, ${FULL.state}`).first()).toBeVisible();
    for (const s of FULL.specialties)
      await expect(main.getByRole("list", { name: "Specialties" }).getByText(s)).toBeVisible();
    await expect(main.getByRole("link", { name: /Call Now/ })).toHaveAttribute("href", telHref(FULL.phone!));
    await expect(main.getByRole("button", { name: "Book Service" })).toBeVisible();

    const about = main.getByRole("region", { name: "About" });
    await expect(about).toContainText(FULL.description.slice(0, 60));
    await expect(about).toContainText(`${FULL.yearsInBusiness} years in business`);
    const photos = main.getByRole("region", { name: "Photos" });
    await expect(photos).toContainText(`${FULL.images.length} photos`);
    await expect(photos.getByRole("img", { name: /photo \d of/ })).toHaveCount(FULL.images.length);
    const services = main.getByRole("region", { name: "Services Offered" });
    for (const s of FULL.services) await expect(services.getByText(s, { exact: true })).toBeVisible();
    const reviews = main.getByRole("region", { name: "Customer Reviews" });
    await expect(reviews.getByRole("button", { name: "Write Review" })).toBeVisible();
    await expect(reviews.locator("[data-review-id]")).toHaveCount(FULL.reviews.length);
    const newest = [...FULL.reviews].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt))[0]!;
    const first = reviews.locator("[data-review-id]").first();
    await expect(first).toContainText(newest.customerName);
    if (newest.title) await expect(first).toContainText(newest.title);
    if (newest.isVerified) await expect(first.getByText("Verified")).toBeVisible();
    await expect(reviews.getByText("Verified")).toHaveCount(FULL.reviews.filter((r) => r.isVerified).length);

    const contact = main.getByRole("region", { name: "Contact Information" });
    await expect(contact.getByRole("link", { name: FULL.phone! })).toHaveAttribute("href", telHref(FULL.phone!));
    await expect(contact.getByRole("link", { name: FULL.email! })).toHaveAttribute("href", `mailto:${FULL.email}`);
    const site = contact.getByRole("link", { name: /opens in a new tab/ });
    await expect(site).toHaveAttribute("href", FULL.website!);
    await expect(site).toHaveAttribute("target", "_blank");
    await expect(site).toHaveAttribute("rel", /noopener/);
    await expect(contact).toContainText(`${FULL.address}`);
    await expect(contact).toContainText(`${FULL.city}, ${FULL.state} ${FULL.zipCode}`);

    const hours = main.getByRole("region", { name: "Business Hours" });
    const hourItems = hours.locator("dd");
    await expect(hourItems).toHaveCount(7);
    for (const [i, day] of WEEKDAYS.entries()) {
      const value = (FULL.businessHours as Record<string, string>)[day];
      await expect(hourItems.nth(i)).toHaveText(value ? value : "Closed");
    }
    const areas = main.getByRole("region", { name: "Service Areas" });
    for (const a of FULL.serviceAreas) await expect(areas.getByText(a, { exact: true })).toBeVisible();
    const credentials = main.getByRole("region", { name: "Credentials" });
    await expect(credentials).toContainText(FULL.licenseNumber!);
    await expect(credentials).toContainText(FULL.insuranceDetails!);
  });

  test("LocalBusiness JSON-LD carries the rating and the reviews", async ({ page }) => {
    await page.goto(`/directory/${FULL.slug}`);
    const data = await localBusiness(page);
    const { rating, count } = ratingOf(FULL);
    expect(data["@type"]).toBe("LocalBusiness");
    expect(data.name).toBe(FULL.name);
    expect(data.telephone).toBe(FULL.phone);
    expect(data.address).toMatchObject({
      addressLocality: FULL.city,
      addressRegion: FULL.state,
      postalCode: FULL.zipCode,
    });
    expect(data.aggregateRating).toMatchObject({ "@type": "AggregateRating", ratingValue: rating, reviewCount: count });
    expect(data.review).toHaveLength(count);
    expect(data.openingHoursSpecification[0]).toMatchObject({ dayOfWeek: "Monday", opens: "07:00", closes: "17:00" });
  });

  test("a business without optional fields leaves those parts out", async ({ page }) => {
    await page.goto(`/directory/${SPARSE.slug}`);
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1, name: SPARSE.name })).toBeVisible();
    await expect(main.getByRole("region", { name: "Credentials" })).toHaveCount(0);
    await expect(main.getByRole("link", { name: /opens in a new tab/ })).toHaveCount(0);
    await expect(main.getByRole("region", { name: "Photos" })).toContainText("0 photos");
    await expect(main.getByRole("region", { name: "Customer Reviews" }).getByText(NO_REVIEWS)).toBeVisible();
    const data = await localBusiness(page);
    expect(data.aggregateRating).toBeUndefined();

    await page.goto(`/directory/${NO_PHONE.slug}`);
    await expect(page.getByRole("main").getByRole("link", { name: /Call Now/ })).toHaveCount(0);
  });

  test("a broken photo falls back to its placeholder", async ({ page }) => {
    await page.route(`**${FULL.images[1]}`, (route) => route.fulfill({ status: 404, body: "" }));
    await page.goto(`/directory/${FULL.slug}`);
    const photos = page.getByRole("region", { name: "Photos" });
    await photos.scrollIntoViewIfNeeded();
    await expect(photos.getByRole("img", { name: /photo 2 of/ })).toBeHidden();
    await expect(photos.getByText("Photo unavailable").nth(1)).toBeVisible();
    await expect(photos.getByRole("img", { name: /photo 1 of/ })).toBeVisible();
  });

  test("an unknown slug is 'Business Not Found' with HTTP 404", async ({ page }) => {
    const response = await page.goto("/directory/no-such-tree-service");
    expect(response?.status()).toBe(404);
    // Rendered by the server: no skeleton, no request from the browser to find out.
    await expect(page.getByTestId("business-skeleton")).toHaveCount(0);
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
    await expect(page).toHaveTitle(`${NOT_FOUND.title} | Treeline`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
    await expect(page.getByRole("heading", { level: 1, name: NOT_FOUND.title })).toBeVisible();
    await expect(page.getByText(NOT_FOUND.text)).toBeVisible();
    await page.getByRole("link", { name: NOT_FOUND.link }).click();
    await expect(page).toHaveURL(/\/directory$/);
  });
});

test("the page runs no framework code and downloads no script of its own until the visitor interacts", async ({
  page,
}) => {
  const scripts: string[] = [];
  page.on("request", (r) => {
    if (r.resourceType() === "script") scripts.push(r.url());
  });
  await page.goto(`/directory/${FULL.slug}`);
  // Every section has been on screen, the reviews included.
  await page.getByRole("region", { name: "Credentials" }).scrollIntoViewIfNeeded();
  await page.getByRole("region", { name: "Customer Reviews" }).scrollIntoViewIfNeeded();
  await page.waitForLoadState("networkidle");
  for (const url of scripts) {
    const body = await (await page.request.get(url)).text();
    expect(body, `${url} must not contain React`).not.toMatch(/react-dom|__REACT_DEVTOOLS|createRoot/);
    expect(url, "the business page's own script is inlined").not.toMatch(/_slug_|ReviewsPanel|business/i);
  }
  await page.getByRole("main").getByRole("button", { name: "Book Service" }).click();
  await hydrated(page.getByRole("dialog"));
});

test.describe("booking dialog", () => {
  test("Book Service and Write Review are buttons; each dialog takes focus, Escape closes, focus returns", async ({
    page,
  }) => {
    await page.goto(`/directory/${FULL.slug}`);
    for (const [name, title] of [
      ["Book Service", new RegExp(`Book Service with ${FULL.name}`)],
      ["Write Review", /Write a Review/],
    ] as const) {
      await expect(page.getByRole("link", { name })).toHaveCount(0);
      const trigger = page.getByRole("main").getByRole("button", { name });
      await trigger.focus();
      await page.keyboard.press("Enter");
      const dialog = page.getByRole("dialog", { name: title });
      await expect(dialog).toBeVisible();
      expect(await dialog.evaluate((d) => d.contains(document.activeElement) && d.matches(":modal"))).toBe(true);
      await page.keyboard.press("Escape");
      await expect(dialog).toBeHidden();
      await expect(trigger).toBeFocused();
    }
  });

  test("offers the business's services, validates, sends the spec payload and confirms", async ({ page }) => {
    const api = await mockPost(page, "**/api/booking-request", {
      status: 201,
      body: { ok: true, id: "ld_1", businessName: FULL.name },
    });
    await page.goto(`/directory/${FULL.slug}`);
    await page.getByRole("main").getByRole("button", { name: "Book Service" }).click();
    const dialog = page.getByRole("dialog");
    await hydrated(dialog);
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("heading", { name: new RegExp(FULL.name) })).toBeVisible();
    const options = await dialog.getByLabel("Service Type").locator("option").allTextContents();
    expect(options.slice(1)).toEqual(FULL.services);
    await expect(dialog.getByLabel("Urgency")).toHaveValue("normal");

    await dialog.getByRole("button", { name: "Submit Booking Request" }).click();
    await expect(dialog.getByLabel("Full Name")).toBeFocused();
    await expect(dialog.getByLabel("Full Name")).toHaveAttribute("aria-invalid", "true");
    expect(api.requests).toHaveLength(0);

    await dialog.getByLabel("Full Name").fill("Jordan Rivera");
    await dialog.getByLabel("Email").fill("jordan@example.com");
    await dialog.getByLabel("Phone").fill("(512) 555-0199");
    await dialog.getByLabel("Service Type").selectOption(FULL.services[1]!);
    api.hold();
    await dialog.getByRole("button", { name: "Submit Booking Request" }).click();
    await expect(dialog.getByRole("button", { name: "Submitting..." })).toBeDisabled();
    api.release();
    await expect(dialog).toBeHidden();
    await expect(toasts(page).first()).toContainText(BOOKING_TOASTS.success.title);
    await expect(toasts(page).first()).toContainText(BOOKING_TOASTS.success.description);

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

    // Reopening starts from an empty form.
    await page.getByRole("main").getByRole("button", { name: "Book Service" }).click();
    await expect(page.getByRole("dialog").getByLabel("Full Name")).toHaveValue("");
  });

  test("a failure keeps the dialog open with what was typed and shows the error toast", async ({ page }) => {
    await mockPost(page, "**/api/booking-request", { status: 500, body: { error: "boom" } });
    await page.goto(`/directory/${FULL.slug}`);
    await page.getByRole("main").getByRole("button", { name: "Book Service" }).click();
    const dialog = page.getByRole("dialog");
    await hydrated(dialog);
    await dialog.getByLabel("Full Name").fill("Jordan Rivera");
    await dialog.getByLabel("Email").fill("jordan@example.com");
    await dialog.getByLabel("Phone").fill("(512) 555-0199");
    await dialog.getByRole("button", { name: "Submit Booking Request" }).click();
    await expect(toasts(page).first()).toContainText(BOOKING_TOASTS.failure.description);
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel("Full Name")).toHaveValue("Jordan Rivera");
  });

  test("a real booking is stored by the function", { tag: "@server" }, async ({ page }) => {
    test.setTimeout(90_000);
    await page.goto(`/directory/${FULL.slug}`);
    await page.getByRole("main").getByRole("button", { name: "Book Service" }).click();
    const dialog = page.getByRole("dialog");
    await hydrated(dialog);
    await dialog.getByLabel("Full Name").fill("Jordan Rivera");
    await dialog.getByLabel("Email").fill("jordan@example.com");
    await dialog.getByLabel("Phone").fill("(512) 555-0199");
    await dialog.getByLabel("Urgency").selectOption("urgent");
    // The function drops submissions made faster than a person could.
    await page.waitForTimeout(2_600);
    const answer = page.waitForResponse((r) => r.url().endsWith("/api/booking-request"), { timeout: 60_000 });
    await dialog.getByRole("button", { name: "Submit Booking Request" }).click();
    expect((await answer).status()).toBe(201);
    await expect(toasts(page).first()).toContainText(BOOKING_TOASTS.success.title);
  });
});

test.describe("reviews", () => {
  // Each project writes to its own business so parallel runs do not change each other's counts.
  const target = (project: string) =>
    project === "mobile" ? bySlug("cedar-ridge-tree-trimming-dallas") : bySlug("helotes-hill-tree-works-san-antonio");

  test("stars are a keyboard-operable radio group defaulting to 5", async ({ page }) => {
    await page.goto(`/directory/${FULL.slug}`);
    await page.getByRole("button", { name: "Write Review" }).click();
    const dialog = page.getByRole("dialog", { name: "Write a Review" });
    await hydrated(dialog);
    await expect(dialog.getByRole("radio", { name: "5 stars" })).toBeChecked();
    await dialog.getByRole("radio", { name: "5 stars" }).focus();
    await page.keyboard.press("ArrowLeft");
    await expect(dialog.getByRole("radio", { name: "4 stars" })).toBeChecked();
    await dialog.getByRole("radio", { name: "2 stars" }).check({ force: true });
    await expect(dialog.getByRole("radio", { name: "2 stars" })).toBeChecked();
    // Name is the only required field.
    await dialog.getByRole("button", { name: "Submit Review" }).click();
    await expect(dialog.getByLabel("Your Name")).toHaveAttribute("aria-invalid", "true");
    await expect(dialog.getByLabel("Your Name")).toBeFocused();
  });

  test(
    "posting a review refreshes the list and the header rating; text stays text",
    { tag: "@server" },
    async ({ page }, info) => {
      test.setTimeout(90_000);
      const business = target(info.project.name);
      await page.goto(`/directory/${business.slug}`);
      const panel = page.getByRole("region", { name: "Customer Reviews" });
      await panel.scrollIntoViewIfNeeded();
      const count = page.locator(`[data-live-summary="${business.id}"] [data-live-count]`);
      // The page is rendered on request, so its count is the server's.
      const before = Number((await count.textContent())!.split(" ")[0]);

      await panel.getByRole("button", { name: "Write Review" }).click();
      const dialog = page.getByRole("dialog", { name: "Write a Review" });
      await hydrated(dialog);
      const marker = `E2E ${info.project.name} ${Date.now()}`;
      await dialog.getByLabel("Your Name").fill(marker);
      await dialog.getByRole("radio", { name: "4 stars" }).check({ force: true });
      await dialog.getByLabel("Title").fill("Careful crew");
      await dialog.getByLabel("Your Review").fill('<img src=x onerror="window.__xss=1"> Great job');
      await dialog.getByLabel("Service Type").selectOption(business.services[0]!);
      const posted = page.waitForResponse(
        (r) => r.url().endsWith(`/api/businesses/${business.id}/reviews`) && r.request().method() === "POST",
        { timeout: 60_000 },
      );
      await dialog.getByRole("button", { name: "Submit Review" }).click();
      const answer = await posted;
      expect(answer.status()).toBe(201);
      expect(answer.request().postDataJSON()).toMatchObject({
        customerName: marker,
        rating: 4,
        businessId: business.id,
        serviceType: business.services[0],
      });
      await expect(dialog).toBeHidden();
      await expect(toasts(page).first()).toContainText(REVIEW_TOASTS.success.title);
      await expect(toasts(page).first()).toContainText(REVIEW_TOASTS.success.description);

      const mine = panel.locator("[data-review-id]").filter({ hasText: marker });
      await expect(mine).toHaveCount(1);
      await expect(mine).toContainText('<img src=x onerror="window.__xss=1"> Great job');
      await expect(mine.getByText("Verified")).toHaveCount(0);
      await expect(count).toHaveText(`${before + 1} ${before + 1 === 1 ? "review" : "reviews"}`);
      expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    },
  );

  test("if the list cannot be refreshed after posting, the page's reviews stay with the new one on top", async ({
    page,
  }) => {
    const review = {
      id: "rev_e2e",
      customerName: "Casey Lane",
      rating: 4,
      title: "On time",
      reviewText: "Tidy work.",
      serviceType: "",
      isVerified: false,
      createdAt: new Date().toISOString(),
    };
    const { count } = ratingOf(FULL);
    await mockPost(page, /\/api\/businesses\/[^/]+\/reviews$/, {
      status: 201,
      body: { data: review, business: { id: FULL.id, rating: "4.2", reviewCount: count + 1 } },
    });
    let gets = 0;
    await page.route(/\/api\/businesses\/[^/]+\/reviews(\?.*)?$/, (route) => {
      if (route.request().method() !== "GET") return route.fallback();
      gets++;
      return route.fulfill({ status: 500, contentType: "application/json", body: "{}" });
    });
    await page.goto(`/directory/${FULL.slug}`);
    const panel = page.getByRole("region", { name: "Customer Reviews" });
    await panel.getByRole("button", { name: "Write Review" }).click();
    const dialog = page.getByRole("dialog", { name: "Write a Review" });
    await hydrated(dialog);
    await dialog.getByLabel("Your Name").fill(review.customerName);
    await dialog.getByRole("button", { name: "Submit Review" }).click();
    await expect(dialog).toBeHidden();

    await expect(panel.getByRole("status")).toContainText("Couldn't load the latest reviews.");
    expect(gets).toBeGreaterThan(0);
    const items = panel.locator("[data-review-id]");
    await expect(items).toHaveCount(FULL.reviews.length + 1);
    await expect(items.first()).toContainText(review.customerName);
    const summary = page.locator(`[data-live-summary="${FULL.id}"]`);
    await expect(summary.locator("[data-live-count]")).toHaveText(`${count + 1} reviews`);
    await expect(summary.locator("[data-live-rating]")).toHaveText("4.2");
    await expect(summary.locator('[data-star][data-on="true"]')).toHaveCount(4);
  });

  test("a failed review keeps the dialog and shows the error toast", async ({ page }) => {
    await mockPost(page, /\/api\/businesses\/[^/]+\/reviews$/, { status: 500, body: { error: "boom" } });
    await page.goto(`/directory/${FULL.slug}`);
    await page.getByRole("button", { name: "Write Review" }).click();
    const dialog = page.getByRole("dialog", { name: "Write a Review" });
    await hydrated(dialog);
    await dialog.getByLabel("Your Name").fill("Sam");
    await dialog.getByRole("button", { name: "Submit Review" }).click();
    await expect(toasts(page).first()).toContainText(REVIEW_TOASTS.failure.description);
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel("Your Name")).toHaveValue("Sam");
  });
});

test.describe("on demand", () => {
  /** Not asserted on elsewhere, so extra reviews change nothing in other specs. */
  const LATE = bySlug("redbird-limb-stump-dallas");

  test(
    "a review posted through the API is in the next request's HTML and JSON-LD",
    { tag: "@server" },
    async ({ page, request }, info) => {
      test.setTimeout(90_000);
      const marker = `On demand ${info.project.name} ${Date.now().toString(36)}`;
      const before = await request.get(`/directory/${LATE.slug}`);
      expect(before.status()).toBe(200);
      expect(await before.text()).not.toContain(marker);

      const posted = await request.post(`/api/businesses/${LATE.id}/reviews`, {
        data: {
          customerName: "Dana Ortiz",
          rating: 4,
          title: marker,
          reviewText: "Quick, careful, cleaned up.",
          serviceType: LATE.services[0],
        },
        timeout: 60_000,
      });
      expect(posted.status()).toBe(201);
      const { business } = (await posted.json()) as { business: { rating: string; reviewCount: number } };

      // JavaScript off: only the server's HTML counts, no island refreshes anything.
      await page.context().route("**/*.js", (route) => route.abort());
      await page.goto(`/directory/${LATE.slug}`);
      const reviews = page.getByRole("region", { name: "Customer Reviews" });
      await expect(reviews.locator("[data-review-id]").filter({ hasText: marker })).toHaveCount(1);
      await expect(page.locator(`[data-live-summary="${LATE.id}"] [data-live-count]`)).toHaveText(
        `${business.reviewCount} reviews`,
      );
      const ld = await localBusiness(page);
      expect(ld.aggregateRating).toMatchObject({ ratingValue: business.rating, reviewCount: business.reviewCount });
      expect(
        (ld.review as { name?: string; reviewBody?: string }[]).some((r) => JSON.stringify(r).includes(marker)),
      ).toBe(true);
    },
  );
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the profile, hours, reviews and JSON-LD are all in the HTML", async ({ page }) => {
    const before = openState(FULL.businessHours as BusinessHours, (FULL as { timeZone?: string }).timeZone, Date.now());
    await page.goto(`/directory/${FULL.slug}`);
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1, name: FULL.name })).toBeVisible();
    await expect(main.getByRole("region", { name: "Contact Information" })).toContainText(FULL.phone!);
    const hours = main.getByRole("region", { name: "Business Hours" });
    await expect(hours).toContainText("Closed");
    // Drawn for the moment of the render, on the business's clock.
    const states = [
      before,
      openState(FULL.businessHours as BusinessHours, (FULL as { timeZone?: string }).timeZone, Date.now()),
    ];
    const texts = states.map((st) => (st.always ? OPEN_TEXT.always : st.open ? OPEN_TEXT.open : OPEN_TEXT.closed));
    expect(texts).toContain(await hours.locator("[data-open-status]").textContent());
    await expect(hours.locator("[data-today]")).toHaveCount(1);
    expect(states.map((st) => `${dayLabel(st.today)} (today)`)).toContain(
      await hours.locator("[data-today] dt").textContent(),
    );
    await expect(main.getByRole("region", { name: "Customer Reviews" }).locator("[data-review-id]")).toHaveCount(
      FULL.reviews.length,
    );
    expect((await localBusiness(page)).name).toBe(FULL.name);
  });

  test("Write Review opens its dialog, which explains that reviews need JavaScript", async ({ page }) => {
    await page.goto(`/directory/${FULL.slug}`);
    await page.getByRole("button", { name: "Write Review" }).click();
    const dialog = page.getByRole("dialog", { name: "Write a Review" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("link", { name: /\(\d{3}\)/ })).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Submit Review" })).toBeHidden();
  });

  test("Book Service opens a real form that books through the function", { tag: "@server" }, async ({ page }) => {
    test.setTimeout(90_000);
    await page.goto(`/directory/${FULL.slug}`);
    await page.getByRole("main").getByRole("button", { name: "Book Service" }).click();
    const form = page.getByRole("dialog", { name: new RegExp(`Book Service with ${FULL.name}`) });
    await expect(form).toBeVisible();
    await form.getByLabel("Full Name").fill("Jordan Rivera");
    await form.getByLabel("Email").fill("jordan@example.com");
    await form.getByLabel("Phone").fill("(512) 555-0199");
    await form.getByLabel("Service Type").selectOption(FULL.services[0]!);
    await form.getByRole("button", { name: "Submit Booking Request" }).click();
    await expect(page.getByText(BOOKING_TOASTS.success.title).first()).toBeVisible({ timeout: 45_000 });
  });
});
