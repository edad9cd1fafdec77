/**
 * Lead dialogs (issues #4 and #13): every trigger is a button that opens a prebuilt native
 * `<dialog>` through Invoker Commands, with no JavaScript; the island loader (Island.astro)
 * keeps React off the page until a trigger is touched, and the island then hydrates the
 * form already in the dialog (keeping whatever was typed). The quote, audit and assessment
 * dialogs validate with the spec's messages, post the spec's payloads and confirm; toasts
 * follow spec section 4; with JavaScript off the same dialogs open and their forms post to
 * the functions. Mocked routes (page.route) pin the client's side of the contract; the no-JS
 * tests talk to the real functions.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Locator, type Page, type Request } from "@playwright/test";
import { estimate } from "../../src/lib/estimate";
import { ASSESSMENT_FORM, AUDIT_FORM, QUOTE_FORM } from "../../src/lib/forms/fields";
import { CHALLENGES, GOALS } from "../../src/lib/options";
import { MESSAGES } from "../../src/lib/schemas/forms";
import { SITE } from "../../src/lib/site";
import { AUDIT_CONFIRMATION, AUDIT_TOASTS, QUOTE_CONFIRMATION, QUOTE_TOASTS } from "../../src/lib/forms/copy";

/** Chunks that only the dialogs island needs (React, react-dom, Radix, zod, the island). */
const FRAMEWORK_CHUNK = /\/_astro\/(IslandEntry|LeadDialogs|client|react|react-dom|forms)[.-][^/]*\.js$/;
/** The dialogs island's own chunk (the opener is inline). */
const ISLAND_CHUNK = /\/_astro\/LeadDialogs\.[\w-]+\.js$/;

/** Waits until the dialog's island has taken over its form. */
const hydrated = (dialog: Locator) => expect(dialog.locator("form[data-hydrated]")).toHaveCount(1);

const toasts = (page: Page) => page.locator("#notifications > li");

const contact = { name: "Jordan Rivera", email: "jordan@example.com", phone: "(512) 555-0199" };

async function fillContact(dialog: Locator) {
  await dialog.getByLabel("Full Name").fill(contact.name);
  await dialog.getByLabel("Email").fill(contact.email);
  await dialog.getByLabel("Phone").fill(contact.phone);
}

async function fillBusiness(dialog: Locator) {
  await fillContact(dialog);
  await dialog.getByLabel("Company Name").fill("Rivera Tree Care");
  await dialog.getByLabel("Annual Revenue").selectOption("100k-250k");
  await dialog.getByLabel("Years in Business").selectOption("3-5");
  await dialog.getByLabel("Team Size").selectOption("2-5");
  await dialog.getByLabel(CHALLENGES[0].label).check();
  await dialog.getByLabel(CHALLENGES[3].label).check();
  await dialog.getByLabel(GOALS[0].label).check();
}

/** Answers a mocked lead endpoint; `hold` lets a test look at the pending state first. */
async function mockLead(
  page: Page,
  path: string,
  answer: { status: number; body?: unknown } = { status: 201, body: { ok: true, id: "ld_test" } },
) {
  const requests: Request[] = [];
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let hold = false;
  await page.route(`**${path}`, async (route) => {
    requests.push(route.request());
    if (hold) await held;
    await route.fulfill({
      status: answer.status,
      contentType: "application/json",
      body: JSON.stringify(answer.body ?? {}),
    });
  });
  return {
    requests,
    hold: () => (hold = true),
    release: () => release(),
  };
}

test.describe("with JavaScript", () => {
  test("React is not requested until a dialog trigger is touched", async ({ page }) => {
    const scripts: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.push(request.url());
    });
    await page.goto("/", { waitUntil: "networkidle" });
    await page.mouse.move(5, 5);
    await page.waitForTimeout(500);
    expect(scripts.filter((url) => FRAMEWORK_CHUNK.test(url))).toEqual([]);
    // Scrolling and pressing other links does not load it either.
    await page.mouse.wheel(0, 600);
    await page.getByRole("heading", { name: /Professional tree care/ }).click();
    await page.waitForTimeout(300);
    expect(scripts.filter((url) => FRAMEWORK_CHUNK.test(url))).toEqual([]);

    await page.getByRole("button", { name: "Get Instant Quote" }).click();
    await expect(page.getByRole("dialog", { name: QUOTE_FORM.title })).toBeVisible();
    await expect.poll(() => scripts.some((url) => ISLAND_CHUNK.test(url))).toBe(true);
  });

  test("quote: empty submit shows the spec's messages and focuses the first invalid field", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("button", { name: "Get Instant Quote" }).click();
    const dialog = page.getByRole("dialog", { name: QUOTE_FORM.title });
    await hydrated(dialog);
    await dialog.getByRole("button", { name: QUOTE_FORM.submit }).click();
    for (const field of ["name", "email", "phone", "address", "serviceType", "urgency"] as const) {
      await expect(dialog.getByText(MESSAGES[field], { exact: true })).toBeVisible();
    }
    const name = dialog.getByLabel("Full Name");
    await expect(name).toBeFocused();
    await expect(name).toHaveAttribute("aria-invalid", "true");
    await expect(name).toHaveAccessibleDescription(MESSAGES.name);
    // Fixing a field clears its message.
    await name.fill("Jo");
    await expect(dialog.getByText(MESSAGES.name, { exact: true })).toHaveCount(0);
  });

  test("emergency tree removal: posts the spec payload and confirms $900 - $4,500", async ({ page }) => {
    const api = await mockLead(page, "/api/quote", {
      status: 201,
      body: { ok: true, id: "ld_1", estimatedCost: "$900 - $4,500" },
    });
    await page.goto("/services/emergency");
    await page.getByRole("main").getByRole("button", { name: "Emergency Quote" }).first().click();
    // Unnamed: the confirmation view renames the dialog.
    const dialog = page.getByRole("dialog");
    await hydrated(dialog);
    await expect(dialog).toHaveAccessibleName(QUOTE_FORM.title);
    // The emergency page preselects the emergency service and urgency.
    await expect(dialog.getByLabel("Service Needed")).toHaveValue("emergency");
    await expect(dialog.getByLabel("How Soon?")).toHaveValue("emergency");

    await fillContact(dialog);
    await dialog.getByLabel("Property Address").fill("1200 Barton Springs Rd, Austin, TX");
    await dialog.getByLabel("Service Needed").selectOption("tree-removal");
    await dialog.getByLabel("Approximate Height").fill("40 ft");
    api.hold();
    await dialog.getByRole("button", { name: QUOTE_FORM.submit }).click();
    const pending = dialog.getByRole("button", { name: QUOTE_FORM.pending });
    await expect(pending).toBeDisabled();
    api.release();

    await expect(dialog.getByTestId("quote-estimate")).toHaveText("$900 - $4,500");
    expect(estimate("tree-removal", "emergency").text).toBe("$900 - $4,500");
    expect(api.requests).toHaveLength(1);
    const request = api.requests[0]!;
    expect(request.method()).toBe("POST");
    const headers = await request.allHeaders();
    expect(headers["content-type"]).toBe("application/json");
    expect(headers["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);
    const body = request.postDataJSON();
    expect(body).toEqual({
      name: contact.name,
      email: contact.email,
      phone: contact.phone,
      address: "1200 Barton Springs Rd, Austin, TX",
      serviceType: "tree-removal",
      urgency: "emergency",
      treeDetails: { height: "40 ft" },
      estimatedCost: "$900 - $4,500",
      _started: expect.stringMatching(/^\d{13}$/),
      _source: "/services/emergency",
    });

    // Confirmation: range, variance note, promises, phone.
    await expect(dialog).toHaveAccessibleName(QUOTE_CONFIRMATION.title);
    await expect(dialog).toContainText(QUOTE_CONFIRMATION.variesNote);
    for (const promise of QUOTE_CONFIRMATION.promises) await expect(dialog).toContainText(promise);
    await expect(dialog.getByRole("link", { name: SITE.phone })).toHaveAttribute("href", SITE.phoneHref);
    await expect(toasts(page)).toHaveCount(1);
    await expect(toasts(page)).toContainText(QUOTE_TOASTS.success.title);
    await expect(toasts(page)).toContainText(QUOTE_TOASTS.success.description);
  });

  test("quote: a 500 keeps the form and values and shows the destructive error toast", async ({ page }) => {
    const api = await mockLead(page, "/api/quote", { status: 500, body: { error: "boom" } });
    await page.goto("/services/tree-trimming");
    await page.getByRole("main").getByRole("button", { name: "Get Free Estimate" }).click();
    const dialog = page.getByRole("dialog", { name: QUOTE_FORM.title });
    await hydrated(dialog);
    await expect(dialog.getByLabel("Service Needed")).toHaveValue("tree-trimming");
    await fillContact(dialog);
    await dialog.getByLabel("Property Address").fill("77 Elm St, Austin");
    await dialog.getByLabel("How Soon?").selectOption("within-week");
    await dialog.getByRole("button", { name: QUOTE_FORM.submit }).click();

    await expect(toasts(page)).toHaveCount(1);
    await expect(toasts(page)).toContainText(QUOTE_TOASTS.failure.title);
    await expect(toasts(page)).toContainText(QUOTE_TOASTS.failure.description);
    await expect(toasts(page).first()).toHaveAttribute("data-variant", "destructive");
    await expect(dialog.getByRole("heading", { name: QUOTE_FORM.title })).toBeVisible();
    await expect(dialog.getByLabel("Full Name")).toHaveValue(contact.name);
    await expect(dialog.getByLabel("Property Address")).toHaveValue("77 Elm St, Austin");
    await expect(dialog.getByRole("button", { name: QUOTE_FORM.submit })).toBeEnabled();

    // A retry of the same payload reuses its Idempotency-Key; still one toast on screen.
    await dialog.getByRole("button", { name: QUOTE_FORM.submit }).click();
    await expect.poll(() => api.requests.length).toBe(2);
    const [first, second] = await Promise.all(api.requests.map((r) => r.allHeaders()));
    expect(second!["idempotency-key"]).toBe(first!["idempotency-key"]);
    await expect(toasts(page)).toHaveCount(1);
  });

  test("quote: a 400's field messages show inline", async ({ page }) => {
    await mockLead(page, "/api/quote", {
      status: 400,
      body: { error: "Please correct the highlighted fields.", fields: { address: MESSAGES.address } },
    });
    await page.goto("/");
    await page.getByRole("button", { name: "Get Instant Quote" }).click();
    const dialog = page.getByRole("dialog", { name: QUOTE_FORM.title });
    await hydrated(dialog);
    await fillContact(dialog);
    await dialog.getByLabel("Property Address").fill("12 Oak Lane");
    await dialog.getByLabel("Service Needed").selectOption("stump-grinding");
    await dialog.getByLabel("How Soon?").selectOption("not-urgent");
    await dialog.getByRole("button", { name: QUOTE_FORM.submit }).click();
    await expect(dialog.getByText(MESSAGES.address, { exact: true })).toBeVisible();
    await expect(dialog.getByLabel("Property Address")).toBeFocused();
    await expect(toasts(page)).toContainText(QUOTE_TOASTS.failure.description);
  });

  test("audit: validation, then submit to the confirmation", async ({ page }) => {
    const api = await mockLead(page, "/api/audit");
    await page.goto("/business-growth");
    await page.getByRole("main").getByRole("button", { name: "Get Free Growth Audit" }).first().click();
    const dialog = page.getByRole("dialog");
    await hydrated(dialog);
    await expect(dialog).toHaveAccessibleName(AUDIT_FORM.title);
    await dialog.getByRole("button", { name: AUDIT_FORM.submit }).click();
    for (const field of [
      "name",
      "email",
      "phone",
      "companyName",
      "currentRevenue",
      "yearsInBusiness",
      "employeeCount",
      "currentChallenges",
      "growthGoals",
    ] as const) {
      await expect(dialog.getByText(MESSAGES[field], { exact: true })).toBeVisible();
    }
    // Ten challenge and ten goal checkboxes; the long dialog scrolls inside 80vh.
    await expect(dialog.getByRole("group", { name: /Current Challenges/ }).getByRole("checkbox")).toHaveCount(10);
    await expect(dialog.getByRole("group", { name: /Growth Goals/ }).getByRole("checkbox")).toHaveCount(10);
    const box = await dialog.boundingBox();
    const viewport = page.viewportSize()!;
    expect(box!.height).toBeLessThanOrEqual(viewport.height * 0.8 + 1);
    expect(
      await dialog.evaluate((el) => el.scrollHeight > el.clientHeight && getComputedStyle(el).overflowY === "auto"),
    ).toBe(true);

    await fillBusiness(dialog);
    api.hold();
    await dialog.getByRole("button", { name: AUDIT_FORM.submit }).click();
    await expect(dialog.getByRole("button", { name: AUDIT_FORM.pending })).toBeDisabled();
    api.release();
    await expect(dialog).toHaveAccessibleName(AUDIT_CONFIRMATION.title);
    for (const text of [...AUDIT_CONFIRMATION.nextSteps, ...AUDIT_CONFIRMATION.outcomes])
      await expect(dialog).toContainText(text);
    expect(api.requests[0]!.postDataJSON()).toEqual({
      name: contact.name,
      email: contact.email,
      phone: contact.phone,
      companyName: "Rivera Tree Care",
      currentRevenue: "100k-250k",
      yearsInBusiness: "3-5",
      employeeCount: "2-5",
      currentChallenges: [CHALLENGES[0].value, CHALLENGES[3].value],
      growthGoals: [GOALS[0].value],
      _started: expect.stringMatching(/^\d+$/),
      _source: "/business-growth",
    });
    await expect(toasts(page)).toContainText(AUDIT_TOASTS.success.title);
    await expect(toasts(page)).toContainText(AUDIT_TOASTS.success.description);
  });

  test("audit: a network failure shows the audit error toast", async ({ page }) => {
    await page.route("**/api/audit", (route) => route.abort("failed"));
    await page.goto("/");
    await page.getByRole("button", { name: "Free Growth & Valuation Audit" }).click();
    const dialog = page.getByRole("dialog", { name: AUDIT_FORM.title });
    await hydrated(dialog);
    await fillBusiness(dialog);
    await dialog.getByRole("button", { name: AUDIT_FORM.submit }).click();
    await expect(toasts(page)).toContainText(AUDIT_TOASTS.failure.description);
    await expect(dialog.getByLabel("Company Name")).toHaveValue("Rivera Tree Care");
  });

  test("phase assessment: phase preselected, shown and sent", async ({ page }) => {
    const api = await mockLead(page, "/api/assessment");
    await page.goto("/business-growth/phase-3");
    await page.getByRole("main").getByRole("button", { name: "Get Your Free Assessment" }).click();
    const dialog = page.getByRole("dialog");
    await hydrated(dialog);
    await expect(dialog).toHaveAccessibleName(ASSESSMENT_FORM.title);
    await expect(dialog.getByLabel("Growth Phase")).toHaveValue("phase-3");
    await fillBusiness(dialog);
    await dialog.getByRole("button", { name: ASSESSMENT_FORM.submit }).click();
    await expect(dialog).toHaveAccessibleName(AUDIT_CONFIRMATION.title);
    expect(api.requests[0]!.postDataJSON()).toMatchObject({
      phase: "phase-3",
      companyName: "Rivera Tree Care",
      _source: "/business-growth/phase-3",
    });
  });

  test("phase 6: Start Exit Preparation and Get Exit Valuation open the assessment", async ({ page }) => {
    await page.goto("/business-growth/phase-6");
    for (const label of ["Start Exit Preparation", "Get Exit Valuation"]) {
      await page.getByRole("main").getByRole("button", { name: label }).first().click();
      const dialog = page.getByRole("dialog", { name: ASSESSMENT_FORM.title });
      await expect(dialog.getByLabel("Growth Phase")).toHaveValue("phase-6");
      await dialog.getByRole("button", { name: "Close" }).click();
      await expect(dialog).toBeHidden();
    }
  });

  test("dialog: Escape closes and focus returns to the trigger; header buttons open the dialogs", async ({ page }) => {
    await page.goto("/services/tree-removal");
    const trigger = page.getByRole("main").getByRole("button", { name: "Get Free Estimate" });
    await trigger.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: QUOTE_FORM.title });
    await hydrated(dialog);
    await expect(dialog.getByLabel("Service Needed")).toHaveValue("tree-removal");
    await expect(dialog.getByRole("button", { name: "Close" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(trigger).toBeFocused();

    // The header's buttons open the dialogs too.
    if ((page.viewportSize()?.width ?? 1280) < 1024) await page.getByRole("button", { name: "Open menu" }).click();
    await page.locator('header [commandfor="audit-dialog"]:visible').first().click();
    await expect(page.getByRole("dialog", { name: AUDIT_FORM.title })).toBeVisible();
    expect(new URL(page.url()).hash).toBe("");
  });

  test("a direct visit to /#quote opens the dialog", async ({ page }) => {
    await page.goto("/services/stump-grinding#quote");
    const dialog = page.getByRole("dialog", { name: QUOTE_FORM.title });
    await hydrated(dialog);
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel("Service Needed")).toHaveValue("stump-grinding");
    expect(new URL(page.url()).hash).toBe("");
  });

  test("toasts: one notification region, one toast at a time, dismissible", async ({ page }) => {
    await mockLead(page, "/api/quote", { status: 503, body: { error: "down" } });
    await page.goto("/");
    await expect(page.getByRole("region", { name: "Notifications (F8)" })).toHaveCount(1);
    await page.getByRole("button", { name: "Get Instant Quote" }).click();
    const dialog = page.getByRole("dialog", { name: QUOTE_FORM.title });
    await hydrated(dialog);
    await fillContact(dialog);
    await dialog.getByLabel("Property Address").fill("5 Pine Court, Dallas");
    await dialog.getByLabel("Service Needed").selectOption("tree-trimming");
    await dialog.getByLabel("How Soon?").selectOption("not-urgent");
    await dialog.getByRole("button", { name: QUOTE_FORM.submit }).click();
    await expect(toasts(page)).toHaveCount(1);
    await dialog.getByRole("button", { name: QUOTE_FORM.submit }).click();
    await expect(toasts(page)).toHaveCount(1);

    // Close the dialog (its own Close comes first; the toast has one too), then the page has
    // exactly one region and F8 reaches it.
    await dialog.getByRole("button", { name: "Close" }).first().click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("region", { name: "Notifications (F8)" })).toHaveCount(1);
    await page.keyboard.press("F8");
    await expect(page.locator("#notifications")).toBeFocused();

    // Swipe right past 50 px dismisses.
    const toast = toasts(page).first();
    const box = (await toast.boundingBox())!;
    await page.mouse.move(box.x + 20, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + 60, box.y + box.height / 2, { steps: 4 });
    await page.mouse.move(box.x + 140, box.y + box.height / 2, { steps: 4 });
    await page.mouse.up();
    await expect(toasts(page)).toHaveCount(0);
  });

  test("toasts: the Close button dismisses", async ({ page }) => {
    await mockLead(page, "/api/quote", { status: 429, body: { error: "slow down" } });
    await page.goto("/");
    await page.getByRole("button", { name: "Get Instant Quote" }).click();
    const dialog = page.getByRole("dialog", { name: QUOTE_FORM.title });
    await hydrated(dialog);
    await fillContact(dialog);
    await dialog.getByLabel("Property Address").fill("5 Pine Court, Dallas");
    await dialog.getByLabel("Service Needed").selectOption("tree-trimming");
    await dialog.getByLabel("How Soon?").selectOption("not-urgent");
    await dialog.getByRole("button", { name: QUOTE_FORM.submit }).click();
    await expect(toasts(page)).toHaveCount(1);
    // While the modal is open the toasts live inside it (the page behind is inert).
    await toasts(page).first().locator('button[aria-label="Close"]').click();
    await expect(toasts(page)).toHaveCount(0);
    // The dialog is still open: dismissing a toast does not dismiss the dialog.
    await expect(dialog).toBeVisible();
  });
});

test.describe("buttons, native dialogs, hydration", () => {
  const triggers: [path: string, name: string, dialogTitle: string][] = [
    ["/", "Get Instant Quote", QUOTE_FORM.title],
    ["/", "Get Free Estimate", QUOTE_FORM.title],
    ["/", "Free Growth & Valuation Audit", AUDIT_FORM.title],
    ["/services/tree-removal", "Get Free Estimate", QUOTE_FORM.title],
    ["/services/emergency", "Emergency Quote", QUOTE_FORM.title],
    ["/business-growth", "Get Free Growth Audit", AUDIT_FORM.title],
    ["/business-growth/phase-3", "Get Your Free Assessment", ASSESSMENT_FORM.title],
    ["/business-growth/phase-6", "Start Exit Preparation", ASSESSMENT_FORM.title],
    ["/business-growth/phase-6", "Get Exit Valuation", ASSESSMENT_FORM.title],
  ];

  test("every trigger is a button with its spec name; no link stands in for one", async ({ page }) => {
    for (const [path, name, title] of triggers) {
      await page.goto(path);
      const main = page.getByRole("main");
      await expect(main.getByRole("button", { name }).first(), `${path} ${name}`).toBeVisible();
      await expect(main.getByRole("link", { name })).toHaveCount(0);
      await main.getByRole("button", { name }).first().click();
      await expect(page.getByRole("dialog", { name: title })).toBeVisible();
    }
    // The header's Free Quote and Growth Audit (desktop bar or mobile menu).
    await page.goto("/about");
    if ((page.viewportSize()?.width ?? 1280) < 1024) await page.getByRole("button", { name: "Open menu" }).click();
    for (const [name, title] of [
      ["Free Quote", QUOTE_FORM.title],
      ["Growth Audit", AUDIT_FORM.title],
    ] as const) {
      const button = page.getByRole("banner").getByRole("button", { name, exact: true }).locator("visible=true");
      await expect(button).toHaveCount(1);
      await button.click();
      const dialog = page.getByRole("dialog", { name: title });
      await expect(dialog).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(dialog).toBeHidden();
      if ((page.viewportSize()?.width ?? 1280) < 1024 && name === "Free Quote")
        await page.getByRole("button", { name: "Open menu" }).click();
    }
  });

  for (const [path, name, title] of [triggers[0]!, triggers[5]!, triggers[6]!]) {
    test(`${title}: opens with focus inside, page inert and not scrolling, Escape closes, focus returns`, async ({
      page,
    }) => {
      await page.goto(path);
      const trigger = page.getByRole("main").getByRole("button", { name }).first();
      await trigger.focus();
      await page.keyboard.press("Enter");
      const dialog = page.getByRole("dialog", { name: title });
      await expect(dialog).toBeVisible();
      expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
      expect(await dialog.evaluate((d) => d.matches(":modal"))).toBe(true);
      expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe("hidden");
      // The page behind is inert: its controls cannot take focus.
      expect(await trigger.evaluate((el: HTMLElement) => (el.focus(), document.activeElement === el))).toBe(false);
      await page.keyboard.press("Escape");
      await expect(dialog).toBeHidden();
      await expect(trigger).toBeFocused();
      expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).not.toBe("hidden");
    });
  }

  test("typing before the island loads survives hydration, and the submit then goes through the island", async ({
    page,
  }) => {
    const api = await mockLead(page, "/api/audit");
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked = false;
    await page.route(ISLAND_CHUNK, async (route) => {
      asked = true;
      await held;
      await route.continue();
    });
    await page.goto("/");
    await page.getByRole("button", { name: "Free Growth & Valuation Audit" }).click();
    const dialog = page.getByRole("dialog", { name: AUDIT_FORM.title });
    await expect(dialog).toBeVisible();
    await expect.poll(() => asked).toBe(true);
    // The island is still on its way: this is the prebuilt form.
    await expect(dialog.locator("form[data-hydrated]")).toHaveCount(0);
    await fillBusiness(dialog);
    release();
    await hydrated(dialog);
    await expect(dialog.getByLabel("Full Name")).toHaveValue(contact.name);
    await expect(dialog.getByLabel("Annual Revenue")).toHaveValue("100k-250k");
    await expect(dialog.getByLabel(CHALLENGES[3].label)).toBeChecked();
    await expect(dialog.getByLabel(GOALS[0].label)).toBeChecked();
    await dialog.getByRole("button", { name: AUDIT_FORM.submit }).click();
    await expect(page.locator("#audit-dialog")).toHaveAccessibleName(AUDIT_CONFIRMATION.title);
    expect(api.requests[0]!.postDataJSON()).toMatchObject({
      name: contact.name,
      currentRevenue: "100k-250k",
      currentChallenges: [CHALLENGES[0].value, CHALLENGES[3].value],
    });
  });

  test("a reopened dialog starts fresh after a confirmation", async ({ page }) => {
    await mockLead(page, "/api/quote", { status: 201, body: { ok: true, id: "ld_2", estimatedCost: "$150 - $400" } });
    await page.goto("/");
    await page.getByRole("button", { name: "Get Instant Quote" }).click();
    const dialog = page.getByRole("dialog");
    await hydrated(dialog);
    await fillContact(dialog);
    await dialog.getByLabel("Property Address").fill("5 Pine Court, Dallas");
    await dialog.getByLabel("Service Needed").selectOption("stump-grinding");
    await dialog.getByLabel("How Soon?").selectOption("not-urgent");
    await dialog.getByRole("button", { name: QUOTE_FORM.submit }).click();
    await expect(dialog.getByTestId("quote-estimate")).toHaveText(estimate("stump-grinding", "not-urgent").text);
    await dialog.getByRole("button", { name: "Done" }).click();
    await expect(dialog).toBeHidden();
    await page.getByRole("button", { name: "Get Instant Quote" }).click();
    await expect(page.getByRole("dialog", { name: QUOTE_FORM.title }).getByLabel("Full Name")).toHaveValue("");
  });

  test("axe: no serious or critical violations with each dialog open", async ({ page }) => {
    for (const [path, name, title] of [triggers[0]!, triggers[2]!, triggers[6]!]) {
      await page.goto(path);
      await page.getByRole("main").getByRole("button", { name }).first().click();
      const dialog = page.getByRole("dialog", { name: title });
      await hydrated(dialog);
      // With the messages showing too.
      await dialog.getByRole("button", { name: /Get My Free Quote|Request My/ }).click();
      await expect(dialog.locator('[aria-invalid="true"]').first()).toBeVisible();
      const results = await new AxeBuilder({ page })
        .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
        .analyze();
      const blocking = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
      expect(
        blocking.map((v) => `${path} ${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
      ).toEqual([]);
    }
  });
});

/**
 * No JavaScript: the very same buttons open the very same dialogs (Invoker Commands need
 * no script), whose forms post to the real functions (answered with an HTML page). Tagged
 * @server: these need the lead functions running behind scripts/serve.mjs
 * (`--grep-invert @server` runs the rest).
 */
test.describe("without JavaScript", { tag: "@server" }, () => {
  test.use({ javaScriptEnabled: false });
  // The first post to each function bundles it on the local server, which can take a while.
  test.describe.configure({ timeout: 90_000 });
  const serverAnswer = { timeout: 45_000 };

  test("quote: the button opens the form; empty submit lists the messages; a valid one confirms the estimate", async ({
    page,
  }) => {
    await page.goto("/services/emergency");
    const dialog = page.locator("#quote-dialog");
    await expect(dialog).toBeHidden();
    await page.getByRole("main").getByRole("button", { name: "Emergency Quote" }).first().click();
    await expect(dialog).toBeVisible();
    await expect(page.getByRole("dialog", { name: QUOTE_FORM.title })).toBeVisible();
    await expect(dialog.getByLabel("Service Needed")).toHaveValue("emergency");
    await expect(dialog.getByLabel("How Soon?")).toHaveValue("emergency");
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await page.getByRole("main").getByRole("button", { name: "Emergency Quote" }).first().click();

    // Empty the preselected choices too, then submit: the server answers with the messages.
    await dialog.getByLabel("Service Needed").selectOption("");
    await dialog.getByLabel("How Soon?").selectOption("");
    await dialog.getByRole("button", { name: QUOTE_FORM.submit }).click();
    for (const field of ["name", "email", "phone", "address", "serviceType", "urgency"] as const) {
      await expect(page.getByText(MESSAGES[field]).first()).toBeVisible(serverAnswer);
    }

    const form = page.locator("form[action='/api/quote']");
    await form.getByLabel("Full Name").fill(contact.name);
    await form.getByLabel("Email").fill(contact.email);
    await form.getByLabel("Phone").fill(contact.phone);
    await form.getByLabel("Property Address").fill("1200 Barton Springs Rd, Austin, TX");
    await form.getByLabel("Service Needed").selectOption("tree-removal");
    await form.getByLabel("How Soon?").selectOption("emergency");
    await form.getByRole("button", { name: QUOTE_FORM.submit }).click();
    await expect(page.getByRole("heading", { name: QUOTE_TOASTS.success.title })).toBeVisible(serverAnswer);
    await expect(page.getByTestId("quote-estimate")).toHaveText("$900 - $4,500");
    for (const promise of QUOTE_CONFIRMATION.promises)
      await expect(page.getByText(promise, { exact: true })).toBeVisible();
  });

  test("audit: the button opens the form, Close hides it, submit confirms", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("button", { name: "Free Growth & Valuation Audit" }).click();
    const dialog = page.getByRole("dialog", { name: AUDIT_FORM.title });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toBeHidden();
    await page.getByRole("button", { name: "Free Growth & Valuation Audit" }).click();
    await expect(dialog).toBeVisible();

    await dialog.getByRole("button", { name: AUDIT_FORM.submit }).click();
    for (const field of ["name", "companyName", "currentRevenue", "currentChallenges", "growthGoals"] as const) {
      await expect(page.getByText(MESSAGES[field]).first()).toBeVisible(serverAnswer);
    }
    const form = page.locator("form[action='/api/audit']");
    await fillBusiness(form);
    await form.getByRole("button", { name: AUDIT_FORM.submit }).click();
    await expect(page.getByRole("heading", { name: "Audit Request Submitted" })).toBeVisible(serverAnswer);
    for (const step of AUDIT_CONFIRMATION.nextSteps) await expect(page.getByText(step)).toBeVisible();
  });

  test("assessment: phase pages carry the assessment form with the phase chosen", async ({ page }) => {
    await page.goto("/business-growth/phase-2");
    await page.getByRole("main").getByRole("button", { name: "Get Your Free Assessment" }).click();
    const dialog = page.getByRole("dialog", { name: ASSESSMENT_FORM.title });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel("Growth Phase")).toHaveValue("phase-2");
    await fillBusiness(dialog);
    await dialog.getByRole("button", { name: ASSESSMENT_FORM.submit }).click();
    await expect(page.getByRole("heading", { name: /Request Submitted/ })).toBeVisible(serverAnswer);
  });
});
