/**
 * Lead dialogs, each as a person uses it, against the real functions:
 * every trigger opens a prebuilt native `<dialog>` through Invoker Commands with no
 * JavaScript; the island loader keeps React off the page until a trigger is touched, and the
 * island then hydrates the form already in the dialog (keeping whatever was typed). The
 * quote, audit and assessment dialogs validate with the spec's messages, post the spec's
 * payloads and confirm; one toast at a time; with JavaScript off the same dialogs
 * open and their forms post to the functions. How the islands answer each failure of the API
 * is their component tests' (tests/unit/islands); the markup of every trigger is
 * tests/unit/built-dialogs.test.ts.
 */
import type { Locator } from "@playwright/test";
import { estimate } from "../../src/lib/estimate";
import { ASSESSMENT_FORM, AUDIT_FORM, QUOTE_FORM } from "../../src/lib/forms/fields";
import { CHALLENGES, GOALS } from "../../src/lib/options";
import { MESSAGES } from "../../src/lib/schemas/forms";
import { SITE } from "../../src/lib/site";
import {
  AUDIT_CONFIRMATION,
  AUDIT_TOASTS,
  EMERGENCY_CONFIRMATION,
  QUOTE_CONFIRMATION,
  QUOTE_TOASTS,
  quotePromises,
} from "../../src/lib/forms/copy";
import { axeBlocking, expect, expectModal, hold, hydrated, settled, test, toasts } from "./fixtures";

/** Chunks that only the dialogs island needs (React, react-dom, Radix, zod, the island). */
const FRAMEWORK_CHUNK = /\/_astro\/(IslandEntry|LeadDialogs|client|react|react-dom|forms)[.-][^/]*\.js(?:\?|$)/;
/** The dialogs island's own chunk (the opener is inline). */
const ISLAND_CHUNK = /\/_astro\/LeadDialogs\.[\w-]+\.js(?:\?|$)/;

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

test.describe("with JavaScript", () => {
  test(
    "quote: nothing loads until a button is touched; the dialog validates, posts the spec payload, confirms and starts fresh",
    { tag: "@mobile" },
    async ({ page }) => {
      test.setTimeout(90_000);
      const scripts: string[] = [];
      page.on("request", (request) => {
        if (request.resourceType() === "script") scripts.push(request.url());
      });
      await page.goto("/services/emergency", { waitUntil: "networkidle" });
      const main = page.getByRole("main");
      // The emergency number is above the fold on every viewport, and big enough to tap.
      const call = main.getByRole("link", { name: `Call Now: ${SITE.phone}` });
      const box = (await call.boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(page.viewportSize()!.height);
      expect(box.height).toBeGreaterThanOrEqual(44);

      // Moving, scrolling and pressing elsewhere loads no framework code.
      await page.mouse.move(5, 5);
      await page.mouse.wheel(0, 600);
      await page.getByRole("heading", { level: 1 }).click();
      await settled(page);
      expect(scripts.filter((url) => FRAMEWORK_CHUNK.test(url))).toEqual([]);

      // The platform's modal: focus inside, page inert, Escape back to the trigger.
      const trigger = main.getByRole("button", { name: "Emergency Quote" }).first();
      const dialog = page.locator("#quote-dialog");
      await expectModal(page, trigger, dialog);
      await expect.poll(() => scripts.some((url) => ISLAND_CHUNK.test(url))).toBe(true);

      await trigger.click();
      await hydrated(dialog);
      await expect(dialog).toHaveAccessibleName(QUOTE_FORM.title);
      // The emergency page preselects the emergency service and urgency.
      await expect(dialog.getByLabel("Service Needed")).toHaveValue("emergency");
      await expect(dialog.getByLabel("How Soon?")).toHaveValue("emergency");

      // Empty: the spec's messages, focus on the first invalid field, then axe with them showing.
      await dialog.getByLabel("Service Needed").selectOption("");
      await dialog.getByLabel("How Soon?").selectOption("");
      await dialog.getByRole("button", { name: QUOTE_FORM.submit }).click();
      for (const field of ["name", "email", "phone", "address", "serviceType", "urgency"] as const)
        await expect(dialog.getByText(MESSAGES[field], { exact: true })).toBeVisible();
      const name = dialog.getByLabel("Full Name");
      await expect(name).toBeFocused();
      await expect(name).toHaveAttribute("aria-invalid", "true");
      await expect(name).toHaveAccessibleDescription(MESSAGES.name);
      expect(await axeBlocking(page)).toEqual([]);
      // Fixing a field clears its message.
      await name.fill("Jo");
      await expect(dialog.getByText(MESSAGES.name, { exact: true })).toHaveCount(0);

      await fillContact(dialog);
      await dialog.getByLabel("Property Address").fill("1200 Barton Springs Rd, Austin, TX");
      await dialog.getByLabel("Service Needed").selectOption("tree-removal");
      await dialog.getByLabel("How Soon?").selectOption("emergency");
      await dialog.getByLabel("Approximate Height").fill("40 ft");
      const api = await hold(page, "**/api/quote");
      await dialog.getByRole("button", { name: QUOTE_FORM.submit }).click();
      await expect(dialog.getByRole("button", { name: QUOTE_FORM.pending })).toBeDisabled();
      api.release();

      await expect(dialog.getByTestId("quote-estimate")).toHaveText("$900 - $4,500");
      expect(estimate("tree-removal", "emergency").text).toBe("$900 - $4,500");
      expect(api.requests).toHaveLength(1);
      const request = api.requests[0]!;
      const headers = await request.allHeaders();
      expect(headers["content-type"]).toBe("application/json");
      expect(headers["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);
      expect(request.postDataJSON()).toEqual({
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

      // Confirmation of an emergency: the hotline, range, variance note, the emergency's promises; one toast.
      await expect(dialog).toHaveAccessibleName(QUOTE_CONFIRMATION.title);
      await expect(dialog).toContainText(QUOTE_CONFIRMATION.variesNote);
      for (const promise of quotePromises("emergency")) await expect(dialog).toContainText(promise);
      await expect(dialog).not.toContainText("24 hours");
      await expect(dialog.getByRole("link", { name: EMERGENCY_CONFIRMATION.call, exact: true })).toHaveAttribute(
        "href",
        SITE.phoneHref,
      );
      await expect(toasts(page)).toHaveCount(1);
      await expect(toasts(page)).toContainText(QUOTE_TOASTS.emergency.title);
      await expect(toasts(page)).toContainText(QUOTE_TOASTS.emergency.description);

      // A swipe right past 50 px dismisses the toast (it lives in the modal while the modal is open).
      const toast = (await toasts(page).first().boundingBox())!;
      await page.mouse.move(toast.x + 20, toast.y + toast.height / 2);
      await page.mouse.down();
      await page.mouse.move(toast.x + 60, toast.y + toast.height / 2, { steps: 4 });
      await page.mouse.move(toast.x + 140, toast.y + toast.height / 2, { steps: 4 });
      await page.mouse.up();
      await expect(toasts(page)).toHaveCount(0);
      await expect(dialog).toBeVisible();

      // Done; the next opening starts from an empty form; one notification region, F8 reaches it.
      await dialog.getByRole("button", { name: "Done" }).click();
      await expect(dialog).toBeHidden();
      await trigger.click();
      await expect(page.getByRole("dialog", { name: QUOTE_FORM.title }).getByLabel("Full Name")).toHaveValue("");
      await dialog.getByRole("button", { name: "Close" }).first().click();
      await expect(dialog).toBeHidden();
      await expect(page.getByRole("region", { name: "Notifications (F8)" })).toHaveCount(1);
      await page.keyboard.press("F8");
      await expect(page.locator("#notifications")).toBeFocused();

      // A link to /#quote opens the dialog for that page's service, and the hash goes.
      await page.goto("/services/stump-grinding#quote");
      const linked = page.getByRole("dialog", { name: QUOTE_FORM.title });
      await hydrated(linked);
      await expect(linked.getByLabel("Service Needed")).toHaveValue("stump-grinding");
      expect(new URL(page.url()).hash).toBe("");
    },
  );

  test(
    "audit: validation, a dialog that scrolls inside 80vh, submit to the confirmation",
    { tag: "@mobile" },
    async ({ page }) => {
      test.setTimeout(90_000);
      await page.goto("/business-growth");
      const trigger = page.getByRole("main").getByRole("button", { name: "Get Free Growth Audit" }).first();
      const dialog = page.locator("#audit-dialog");
      await expectModal(page, trigger, dialog);
      await trigger.click();
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
      ] as const)
        await expect(dialog.getByText(MESSAGES[field], { exact: true })).toBeVisible();
      expect(await axeBlocking(page)).toEqual([]);
      // Ten challenge and ten goal checkboxes; the long dialog scrolls inside 80vh.
      await expect(dialog.getByRole("group", { name: /Current Challenges/ }).getByRole("checkbox")).toHaveCount(10);
      await expect(dialog.getByRole("group", { name: /Growth Goals/ }).getByRole("checkbox")).toHaveCount(10);
      const box = (await dialog.boundingBox())!;
      expect(box.height).toBeLessThanOrEqual(page.viewportSize()!.height * 0.8 + 1);
      expect(
        await dialog.evaluate((el) => el.scrollHeight > el.clientHeight && getComputedStyle(el).overflowY === "auto"),
      ).toBe(true);

      await fillBusiness(dialog);
      const api = await hold(page, "**/api/audit");
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
      await expect(toasts(page)).toHaveCount(1);
      await expect(toasts(page)).toContainText(AUDIT_TOASTS.success.title);
      await expect(toasts(page)).toContainText(AUDIT_TOASTS.success.description);
      // The toast's Close dismisses it, not the dialog behind.
      await toasts(page).first().locator('button[aria-label="Close"]').click();
      await expect(toasts(page)).toHaveCount(0);
      await expect(dialog).toBeVisible();
    },
  );

  test("assessment: typed before the island loads survives hydration, the phase is sent, and it confirms", async ({
    page,
  }) => {
    test.setTimeout(90_000);
    // Hold the island's chunk: what a visitor meets on a slow connection.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked = false;
    await page.route(ISLAND_CHUNK, async (route) => {
      asked = true;
      await held;
      await route.continue();
    });
    await page.goto("/business-growth/phase-3");
    const trigger = page.getByRole("main").getByRole("button", { name: "Get Your Free Assessment" });
    const dialog = page.locator("#assessment-dialog");
    // The prebuilt dialog is the platform's modal before any island code runs.
    await expectModal(page, trigger, dialog);
    await trigger.click();
    await expect(dialog).toHaveAccessibleName(ASSESSMENT_FORM.title);
    await expect.poll(() => asked).toBe(true);
    await expect(dialog.locator("form[data-hydrated]")).toHaveCount(0);
    await expect(dialog.getByLabel("Growth Phase")).toHaveValue("phase-3");
    await dialog.getByLabel("Full Name").fill(contact.name);
    await dialog.getByLabel("Annual Revenue").selectOption("100k-250k");
    await dialog.getByLabel(CHALLENGES[3].label).check();

    release();
    await hydrated(dialog);
    await expect(dialog.getByLabel("Full Name")).toHaveValue(contact.name);
    await expect(dialog.getByLabel("Annual Revenue")).toHaveValue("100k-250k");
    await expect(dialog.getByLabel(CHALLENGES[3].label)).toBeChecked();
    // What is still missing is named, by the island now, and axe finds nothing with the messages showing.
    await dialog.getByRole("button", { name: ASSESSMENT_FORM.submit }).click();
    await expect(dialog.getByText(MESSAGES.companyName, { exact: true })).toBeVisible();
    await expect(dialog.getByText(MESSAGES.name, { exact: true })).toHaveCount(0);
    expect(await axeBlocking(page)).toEqual([]);

    await fillBusiness(dialog);
    const api = await hold(page, "**/api/assessment");
    await dialog.getByRole("button", { name: ASSESSMENT_FORM.submit }).click();
    api.release();
    await expect(dialog).toHaveAccessibleName(AUDIT_CONFIRMATION.title);
    expect(api.requests).toHaveLength(1);
    expect(api.requests[0]!.postDataJSON()).toMatchObject({
      name: contact.name,
      phase: "phase-3",
      companyName: "Rivera Tree Care",
      currentRevenue: "100k-250k",
      currentChallenges: [CHALLENGES[0].value, CHALLENGES[3].value],
      _source: "/business-growth/phase-3",
    });
  });
});

/**
 * No JavaScript: the very same buttons open the very same dialogs (Invoker Commands need
 * no script), whose forms post to the real functions (answered with an HTML page).
 */
test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  const serverAnswer = { timeout: 30_000 };

  test("quote: the button opens the form; empty submit lists the messages; a valid one confirms the estimate", async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await page.goto("/services/emergency");
    const dialog = page.locator("#quote-dialog");
    await expect(dialog).toBeHidden();
    await page.getByRole("main").getByRole("button", { name: "Emergency Quote" }).first().click();
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
    for (const field of ["name", "email", "phone", "address", "serviceType", "urgency"] as const)
      await expect(page.getByText(MESSAGES[field]).first()).toBeVisible(serverAnswer);

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
    for (const promise of quotePromises("emergency"))
      await expect(page.getByText(promise, { exact: true })).toBeVisible();
    await expect(page.getByRole("main")).not.toContainText("24 hours");
  });

  test("audit: the button opens the form, Close hides it, submit confirms", async ({ page }) => {
    test.setTimeout(90_000);
    await page.goto("/");
    await page.getByRole("button", { name: "Free Growth & Valuation Audit" }).click();
    const dialog = page.getByRole("dialog", { name: AUDIT_FORM.title });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toBeHidden();
    await page.getByRole("button", { name: "Free Growth & Valuation Audit" }).click();
    await expect(dialog).toBeVisible();

    await dialog.getByRole("button", { name: AUDIT_FORM.submit }).click();
    for (const field of ["name", "companyName", "currentRevenue", "currentChallenges", "growthGoals"] as const)
      await expect(page.getByText(MESSAGES[field]).first()).toBeVisible(serverAnswer);
    const form = page.locator("form[action='/api/audit']");
    await fillBusiness(form);
    await form.getByRole("button", { name: AUDIT_FORM.submit }).click();
    await expect(page.getByRole("heading", { name: "Audit Request Submitted" })).toBeVisible(serverAnswer);
    for (const step of AUDIT_CONFIRMATION.nextSteps) await expect(page.getByText(step)).toBeVisible();
  });

  test("assessment: the phase pages' buttons open the form with the phase chosen, and it posts", async ({ page }) => {
    test.setTimeout(90_000);
    await page.goto("/business-growth/phase-6");
    for (const label of ["Start Exit Preparation", "Get Exit Valuation"]) {
      await page.getByRole("main").getByRole("button", { name: label }).first().click();
      const dialog = page.getByRole("dialog", { name: ASSESSMENT_FORM.title });
      await expect(dialog.getByLabel("Growth Phase")).toHaveValue("phase-6");
      await dialog.getByRole("button", { name: "Close" }).click();
      await expect(dialog).toBeHidden();
    }
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
