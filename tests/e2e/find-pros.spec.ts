/**
 * /find-a-tree-service: the directory search, the sample providers and the "Get Multiple
 * Quotes Fast" form with and without JavaScript. Mocked tests pin the island's behaviour
 * for each answer of POST /api/find-pros; the "real endpoint" tests run the same flows
 * against the function and skip (saying why) while it is not deployed in the build.
 */
import { expect, test, type Locator, type Page, type Request } from "@playwright/test";
import providers from "../../content/find-pros/providers.json" with { type: "json" };
import { FIND_PROS_FORM } from "../../src/lib/forms/fields";
import { MESSAGES } from "../../src/lib/schemas/forms";

const PAGE = "/find-a-tree-service";
const API = "**/api/find-pros";

/** A request that passes FindProsRequest. */
const VALID = {
  location: "Austin",
  serviceType: "Tree Removal",
  propertyType: "residential",
  description: "Dead live oak leaning toward the garage, about 40 ft.",
  timeline: "within-week",
  name: "Jordan Rivera",
  email: "jordan.rivera@example.com",
  phone: "(512) 555-0199",
} as const;

const MATCHES = [
  {
    name: "Balcones Canopy Works",
    slug: "balcones-canopy-works-austin",
    phone: "(512) 555-0142",
    rating: "4.9",
    reviewCount: 187,
    distanceMiles: 3.24,
  },
  { name: "Eastside Stump & Limb", slug: "eastside-stump-limb-austin", rating: 4.6, reviewCount: 52 },
];

const fieldDef = (name: string) => FIND_PROS_FORM.fields.find((f) => f.name === name)!;
const escapeRe = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A control by its visible label; required fields add an aria-hidden " *" to it. */
function control(form: Locator, name: string): Locator {
  return form.getByLabel(new RegExp(`^${escapeRe(fieldDef(name).label)}( \\*)?$`));
}

/** The quotes form; the React island swaps it in when it hydrates (it sets novalidate). */
function quotesForm(page: Page): Locator {
  return page.locator("#find-pros-form");
}

async function openEnhancedForm(page: Page): Promise<Locator> {
  await page.goto(PAGE);
  await page.locator("#get-quotes").scrollIntoViewIfNeeded();
  const form = quotesForm(page);
  await expect(form).toHaveAttribute("novalidate", "");
  return form;
}

async function fillValid(form: Locator, values: Partial<Record<keyof typeof VALID, string>> = VALID): Promise<void> {
  for (const field of FIND_PROS_FORM.fields) {
    const value = values[field.name as keyof typeof VALID];
    if (value === undefined) continue;
    if (field.kind === "select") await control(form, field.name).selectOption(value);
    else await control(form, field.name).fill(value);
  }
}

/** Reads a multipart body's text parts (enough to check what the island sent). */
function multipartFields(request: Request): Record<string, string> {
  const type = request.headers()["content-type"] ?? "";
  const boundary = /boundary=(.+)$/.exec(type)?.[1];
  const body = request.postDataBuffer()?.toString("latin1") ?? "";
  const out: Record<string, string> = {};
  if (!boundary) return out;
  for (const part of body.split(`--${boundary}`)) {
    const name = /name="([^"]+)"/.exec(part)?.[1];
    if (!name || /filename=/.test(part)) continue;
    out[name] = part.slice(part.indexOf("\r\n\r\n") + 4).replace(/\r\n$/, "");
  }
  return out;
}

/** Whether /api/find-pros exists in this build: a GET gets 405 from it, 404 without it. */
async function endpointExists(page: Page): Promise<boolean> {
  const res = await page.request.get("/api/find-pros", { failOnStatusCode: false, timeout: 90_000 });
  return res.status() !== 404;
}

test.describe("hero search", () => {
  test("Find Pros opens the directory near the typed place for the chosen service, nearest first", async ({ page }) => {
    await page.goto(PAGE);
    await expect(page.getByRole("heading", { level: 1, name: "Find a Tree Service Near You" })).toBeVisible();
    const search = page.getByRole("search");
    await search.getByLabel("ZIP code or city").fill(" 78664 ");
    await search.getByLabel("Service").selectOption("Stump Grinding");
    await search.getByRole("button", { name: "Find Pros" }).click();
    await page.waitForURL(/\/directory\?/);
    const url = new URL(page.url());
    expect(url.pathname).toBe("/directory");
    expect(Object.fromEntries(url.searchParams)).toEqual({ near: "78664", service: "Stump Grinding" });
    await expect(page.getByTestId("results-count")).toContainText("within 25 miles of Round Rock, TX 78664");
    const cards = page.getByTestId("results-list").getByTestId("business-card");
    await expect(cards.first()).toBeVisible();
    const miles = (await page.getByTestId("results-list").getByTestId("distance").allTextContents()).map((t) =>
      parseFloat(t),
    );
    expect(miles.length).toBeGreaterThan(0);
    expect(miles.every((m) => m <= 25)).toBe(true);
  });

  test("empty fields stay out of the URL; a suburb by name is passed as typed", async ({ page }) => {
    await page.goto(PAGE);
    const search = page.getByRole("search");
    await search.getByLabel("ZIP code or city").fill("Katy, TX");
    await search.getByRole("button", { name: "Find Pros" }).click();
    await page.waitForURL(/\/directory\?/);
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ near: "Katy, TX" });
    await expect(page.getByTestId("results-count")).toContainText("of Katy, TX");
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });
    test("the search is a plain GET form to /directory?near=&service=", async ({ page }) => {
      await page.goto(PAGE);
      const search = page.getByRole("search");
      await search.getByLabel("ZIP code or city").fill("Austin");
      await search.getByLabel("Service").selectOption("Stump Grinding");
      await search.getByRole("button", { name: "Find Pros" }).click();
      await page.waitForURL(/\/directory\?/);
      const url = new URL(page.url());
      expect(url.pathname).toBe("/directory");
      expect(Object.fromEntries(url.searchParams)).toEqual({ near: "Austin", service: "Stump Grinding" });
    });
  });
});

test("three sample providers with ratings, services and click-to-call", async ({ page }) => {
  await page.goto(PAGE);
  const section = page.locator("section", { has: page.getByRole("heading", { name: "Top-rated tree pros in Texas" }) });
  const cards = section.locator("ul.grid > li");
  await expect(cards).toHaveCount(3);
  for (const [i, pro] of providers.entries()) {
    const card = cards.nth(i);
    await expect(card.getByRole("heading", { level: 3 })).toHaveText(pro.name);
    await expect(card).toContainText(pro.location);
    await expect(card).toContainText(`${pro.rating.toFixed(1)} out of 5 stars`);
    await expect(card).toContainText(`(${pro.reviews} reviews)`);
    await expect(card).toContainText(pro.responseTime);
    for (const service of pro.services)
      await expect(card.getByRole("list", { name: "Services" })).toContainText(service);
    await expect(card.getByText("Certified", { exact: true })).toHaveCount(pro.certified ? 1 : 0);
    const call = card.getByRole("link", { name: `Call ${pro.name} at ${pro.phone}` });
    await expect(call).toHaveAttribute("href", `tel:+1${pro.phone.replace(/\D/g, "")}`);
    expect(pro.phone).toMatch(/555-01\d\d$/);
  }
});

test("How It Works has three steps", async ({ page }) => {
  await page.goto(PAGE);
  const steps = page
    .locator("section", { has: page.getByRole("heading", { name: "Three steps to the right pro" }) })
    .locator("ol > li");
  await expect(steps).toHaveCount(3);
  await expect(steps.nth(0)).toContainText("Tell us about the job");
  await expect(steps.nth(1)).toContainText("up to 3");
  await expect(steps.nth(2)).toContainText("Compare quotes and book");
});

test.describe("quotes form (JavaScript)", () => {
  test("no framework JavaScript loads before the form nears the viewport", async ({ page }) => {
    const scripts: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "script") scripts.push(r.url());
    });
    await page.goto(PAGE);
    await page.waitForLoadState("networkidle");
    expect(scripts.filter((u) => /FindProsForm/.test(u))).toEqual([]);
    await page.locator("#get-quotes").scrollIntoViewIfNeeded();
    await expect(quotesForm(page)).toHaveAttribute("novalidate", "");
  });

  test("empty submit shows the exact messages inline and focuses the first invalid field", async ({ page }) => {
    const form = await openEnhancedForm(page);
    let posted = false;
    await page.route(API, (route) => ((posted = true), route.abort()));
    await form.getByRole("button", { name: FIND_PROS_FORM.submit }).click();
    for (const [name, message] of [
      ["location", MESSAGES.location],
      ["serviceType", MESSAGES.serviceType],
      ["propertyType", MESSAGES.propertyType],
      ["timeline", MESSAGES.timeline],
      ["name", MESSAGES.name],
      ["email", MESSAGES.email],
      ["phone", MESSAGES.phone],
    ] as const) {
      const input = control(form, name);
      await expect(input).toHaveAttribute("aria-invalid", "true");
      const describedBy = await input.getAttribute("aria-describedby");
      await expect(page.locator(`#${describedBy}`)).toHaveText(message);
    }
    await expect(control(form, "description")).not.toHaveAttribute("aria-invalid", "true");
    await expect(control(form, "location")).toBeFocused();
    expect(posted).toBe(false);

    // Corrections clear their message as the visitor types.
    await control(form, "location").fill("Austin");
    await expect(form.getByText(MESSAGES.location)).toHaveCount(0);
    await expect(form.getByText(MESSAGES.name)).toBeVisible();
  });

  test("the photo is checked before upload: images up to 5 MB only", async ({ page }) => {
    const form = await openEnhancedForm(page);
    let posted = false;
    await page.route(API, (route) => ((posted = true), route.abort()));
    await fillValid(form);
    const photo = control(form, "photo");
    const submit = form.getByRole("button", { name: FIND_PROS_FORM.submit });

    await photo.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a picture") });
    await submit.click();
    await expect(form.getByText("Please upload an image up to 5 MB")).toBeVisible();
    await expect(photo).toBeFocused();

    await photo.setInputFiles({ name: "huge.jpg", mimeType: "image/jpeg", buffer: Buffer.alloc(5 * 1024 * 1024 + 1) });
    await submit.click();
    await expect(form.getByText("Please upload an image up to 5 MB")).toBeVisible();
    expect(posted).toBe(false);
  });

  test("a successful submit sends multipart with an Idempotency-Key and shows the matched pros", async ({ page }) => {
    const form = await openEnhancedForm(page);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const requests: Request[] = [];
    await page.route(API, async (route) => {
      requests.push(route.request());
      await held;
      await route.fulfill({ status: 201, json: { ok: true, id: "lead_123", matches: MATCHES } });
    });
    await fillValid(form);
    await control(form, "photo").setInputFiles({
      name: "oak.png",
      mimeType: "image/png",
      buffer: Buffer.from("89504e470d0a1a0a", "hex"),
    });
    await form.getByRole("button", { name: FIND_PROS_FORM.submit }).click();

    const pending = form.getByRole("button", { name: FIND_PROS_FORM.pending });
    await expect(pending).toBeDisabled();
    release();

    const done = page.getByTestId("find-pros-confirmation");
    await expect(done.getByRole("heading", { name: "Request received" })).toBeFocused();
    await expect(done).toContainText("within 24 hours");
    await expect(quotesForm(page)).toHaveCount(0);
    for (const match of MATCHES) {
      await expect(done.getByRole("link", { name: match.name, exact: true })).toHaveAttribute(
        "href",
        `/directory/${match.slug}`,
      );
      await expect(done).toContainText(
        `${Number(match.rating).toFixed(1)} out of 5 stars (${match.reviewCount} reviews)`,
      );
    }
    await expect(done.getByRole("link", { name: `Call ${MATCHES[0].name} at ${MATCHES[0].phone}` })).toHaveAttribute(
      "href",
      "tel:+15125550142",
    );
    await expect(done.getByTestId("match-distance")).toHaveText("3.2 mi away");

    expect(requests).toHaveLength(1);
    const request = requests[0];
    expect(request.method()).toBe("POST");
    expect(request.headers()["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(request.headers()["idempotency-key"]).toMatch(/^[0-9a-f-]{16,}$/i);
    expect(request.headers()["accept"]).toContain("application/json");
    const fields = multipartFields(request);
    expect(fields).toMatchObject({ ...VALID, _source: PAGE, company_website: "" });
    expect(Number(fields._started)).toBeGreaterThan(Date.now() - 10 * 60_000);
    expect(request.postDataBuffer()!.toString("latin1")).toContain('name="photo"; filename="oak.png"');
  });

  test("no match: the confirmation says what happens next", async ({ page }) => {
    const form = await openEnhancedForm(page);
    const message = "We'll match you with local pros by phone within 24 hours.";
    await page.route(API, (route) =>
      route.fulfill({ status: 201, json: { ok: true, id: "lead_124", matches: [], message } }),
    );
    await fillValid(form);
    await form.getByRole("button", { name: FIND_PROS_FORM.submit }).click();
    const done = page.getByTestId("find-pros-confirmation");
    await expect(done.getByRole("heading", { name: "Request received" })).toBeVisible();
    await expect(done).toContainText(message);
    await expect(done.getByRole("link")).toHaveCount(0);
  });

  test("a failure keeps every value and shows the error inline; a retry reuses the key", async ({ page }) => {
    const form = await openEnhancedForm(page);
    const keys: string[] = [];
    await page.route(API, (route) => {
      keys.push(route.request().headers()["idempotency-key"]);
      return route.fulfill({
        status: 503,
        json: { error: "Quote requests are paused for a moment. Please try again." },
      });
    });
    await fillValid(form);
    const submit = form.getByRole("button", { name: FIND_PROS_FORM.submit });
    await submit.click();
    await expect(form.getByRole("alert")).toHaveText("Quote requests are paused for a moment. Please try again.");
    for (const field of FIND_PROS_FORM.fields) {
      const value = VALID[field.name as keyof typeof VALID];
      if (value !== undefined) await expect(control(form, field.name)).toHaveValue(value);
    }
    await expect(submit).toBeEnabled();
    await submit.click();
    await expect.poll(() => keys.length).toBe(2);
    expect(keys[1]).toBe(keys[0]);
  });

  test("a network failure says so and keeps the form", async ({ page }) => {
    const form = await openEnhancedForm(page);
    await page.route(API, (route) => route.abort("internetdisconnected"));
    await fillValid(form);
    await form.getByRole("button", { name: FIND_PROS_FORM.submit }).click();
    await expect(form.getByRole("alert")).toContainText("couldn't reach our server");
    await expect(control(form, "email")).toHaveValue(VALID.email);
  });

  test("a 400 from the server puts its messages on the fields", async ({ page }) => {
    const form = await openEnhancedForm(page);
    await page.route(API, (route) =>
      route.fulfill({ status: 400, json: { error: "Invalid request", fields: { email: MESSAGES.email } } }),
    );
    await fillValid(form);
    await form.getByRole("button", { name: FIND_PROS_FORM.submit }).click();
    const email = control(form, "email");
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await expect(email).toBeFocused();
    await expect(form.getByText(MESSAGES.email)).toBeVisible();
  });

  test("413 from the server is reported on the photo", async ({ page }) => {
    const form = await openEnhancedForm(page);
    await page.route(API, (route) => route.fulfill({ status: 413, json: { error: "Too large" } }));
    await fillValid(form);
    await form.getByRole("button", { name: FIND_PROS_FORM.submit }).click();
    await expect(form.getByText("Please upload an image up to 5 MB")).toBeVisible();
  });

  test("what was typed before hydration is carried into the enhanced form", async ({ page }) => {
    // Hold the island's module back, type into the static form, then let it hydrate.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/FindProsForm\.[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(PAGE);
    const form = quotesForm(page);
    await form.scrollIntoViewIfNeeded();
    await expect(form).not.toHaveAttribute("novalidate", "");
    await control(form, "location").fill("Dallas");
    await control(form, "timeline").selectOption("flexible");
    release();
    await expect(form).toHaveAttribute("novalidate", "", { timeout: 20_000 });
    await expect(control(form, "location")).toHaveValue("Dallas");
    await expect(control(form, "timeline")).toHaveValue("flexible");
  });
});

test.describe("quotes form against the real endpoint", () => {
  // Netlify's local emulation bundles and cold-starts the function on first use, which can
  // take tens of seconds on a busy machine; a real deploy answers in well under a second.
  const SLOW = 90_000;
  test.beforeEach(() => test.setTimeout(SLOW + 60_000));
  test("a valid request is stored and confirmed", async ({ page }) => {
    test.skip(!(await endpointExists(page)), "POST /api/find-pros is not in this build yet");
    const form = await openEnhancedForm(page);
    await fillValid(form, { ...VALID, email: `e2e-${Date.now()}@example.com` });
    await form.getByRole("button", { name: FIND_PROS_FORM.submit }).click();
    const done = page.getByTestId("find-pros-confirmation");
    await expect(done.getByRole("heading", { name: "Request received" })).toBeVisible({ timeout: SLOW });
    await expect(done).toContainText("within 24 hours");
    // The seeded directory has Austin pros offering tree removal.
    await expect(done.locator('a[href^="/directory/"]').first()).toBeVisible();
    expect(await done.locator('a[href^="tel:"]').count()).toBeGreaterThan(0);
  });

  test("a suburb ZIP (Round Rock 78664) is matched to up to 3 pros nearby, nearest first", async ({ page }) => {
    test.skip(!(await endpointExists(page)), "POST /api/find-pros is not in this build yet");
    const form = await openEnhancedForm(page);
    await fillValid(form, { ...VALID, location: "78664", email: `e2e-rr-${Date.now()}@example.com` });
    await form.getByRole("button", { name: FIND_PROS_FORM.submit }).click();
    const done = page.getByTestId("find-pros-confirmation");
    await expect(done.getByRole("heading", { name: "Request received" })).toBeVisible({ timeout: SLOW });
    const miles = (await done.getByTestId("match-distance").allTextContents()).map((t) => parseFloat(t));
    expect(miles).toHaveLength(3);
    expect(miles.every((m) => m <= 50)).toBe(true);
    expect([...miles].sort((a, b) => a - b)).toEqual(miles);
    expect(await done.locator('a[href^="tel:"]').count()).toBeGreaterThan(0);
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });
    test("the static form posts to /api/find-pros and the server's confirmation page appears", async ({ page }) => {
      test.skip(!(await endpointExists(page)), "POST /api/find-pros is not in this build yet");
      await page.goto(PAGE);
      const form = quotesForm(page);
      await expect(form).toHaveAttribute("action", FIND_PROS_FORM.action);
      await expect(form).toHaveAttribute("method", "post");
      await expect(form).toHaveAttribute("enctype", "multipart/form-data");
      await fillValid(form, { ...VALID, email: `e2e-nojs-${Date.now()}@example.com` });
      await Promise.all([
        page.waitForURL(/\/api\/find-pros/, { timeout: SLOW }),
        form.getByRole("button", { name: FIND_PROS_FORM.submit }).click(),
      ]);
      await expect(page.getByRole("heading", { level: 1 })).toContainText(/received|thank/i);
    });
  });
});
