/**
 * What every e2e test shares. The `test` exported here watches each page for what must never
 * happen while a person uses the site, and fails the test when it did: a Content Security
 * Policy violation (the hashed script policy blocking something the site itself runs), an
 * uncaught script error, or a JavaScript dialog (what a stored-XSS payload would open).
 *
 * Projects: `desktop` runs every test but those tagged @mobile-only; `mobile` (Pixel 7) runs
 * only the tests tagged @mobile or @mobile-only, where layout or touch matters
 * (playwright.config.ts).
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, test as base, type Locator, type Page, type Request } from "@playwright/test";

export { expect };

/** The operator token the e2e server runs with. */
export const ADMIN_TOKEN = process.env.E2E_ADMIN_TOKEN || "e2e-admin-token-not-a-secret";

/** `label` made unique to this run, so each test makes its own data. */
export const unique = (label: string) => `${label} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** Signs the operator in on /admin (or `path`, e.g. "/admin#lead=…") with `token`. */
export async function signInAdmin(page: Page, { token = ADMIN_TOKEN, path = "/admin" } = {}): Promise<void> {
  await page.goto(path);
  await page.getByLabel("Operator token").fill(token);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** What the watch saw: each list must stay empty. */
export interface Seen {
  violations: string[];
  errors: string[];
  dialogs: string[];
}

/**
 * Watches one page for CSP violations, uncaught errors and JavaScript dialogs, into `seen`.
 * The fixture does it for `page`; a test that opens another page (a second person, a second
 * tab) passes it here with the test's `watch`, so the same rules hold there.
 */
export async function watchPage(page: Page, seen: Seen): Promise<void> {
  page.on("dialog", async (dialog) => {
    seen.dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  page.on("pageerror", (error) => seen.errors.push(error.message));
  page.on("console", (message) => {
    if (/Content[- ]Security[- ]Policy/i.test(message.text())) seen.violations.push(message.text());
  });
  await page.exposeFunction("__reportCsp", (text: string) => seen.violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      (window as unknown as { __reportCsp: (t: string) => void }).__reportCsp(
        `${event.violatedDirective} blocked ${event.blockedURI || "inline"} (${event.sourceFile}:${event.lineNumber})`,
      );
    });
  });
}

export const test = base.extend<{ watch: Seen }>({
  watch: [
    async ({ page }, use) => {
      const seen: Seen = { violations: [], errors: [], dialogs: [] };
      await watchPage(page, seen);
      await use(seen);
      expect(seen.violations, "no CSP violation").toEqual([]);
      expect(seen.errors, "no uncaught script error").toEqual([]);
      expect(seen.dialogs, "no JavaScript dialog").toEqual([]);
    },
    { auto: true },
  ],
});

/** Serious and critical axe violations on the page as it is now (WCAG 2.1 A/AA and best practice). */
export async function axeBlocking(page: Page, include?: string): Promise<string[]> {
  let builder = new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]);
  if (include) builder = builder.include(include);
  // A page without frames gets one axe.run() in the page: the same rules and results as the
  // default, which runs axe.runPartial() in every frame and then axe.finishRun() in a new blank
  // page (several times as long per page) so that it reaches frames of other origins too.
  if (page.frames().length === 1) builder = builder.setLegacyMode(true);
  const results = await builder.analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${new URL(page.url()).pathname} ${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
    );
}

/** Waits until a dialog's island has taken over its prebuilt form (before that a submit posts natively). */
export const hydrated = (scope: Locator) => expect(scope.locator("form[data-hydrated]")).toHaveCount(1);

/**
 * Holds every request to `url` until `release()`, then lets it through to the real server:
 * to see a pending state without replacing the answer.
 */
export async function hold(page: Page, url: string | RegExp, method = "POST") {
  const requests: Request[] = [];
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route) => {
    if (route.request().method() !== method) return route.fallback();
    requests.push(route.request());
    await gate;
    await route.continue();
  });
  return { requests, release: () => release() };
}

/**
 * Returns once the page has handled everything dispatched so far (a frame, then a task):
 * a script the events asked for has been requested by then.
 */
export async function settled(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
}

/**
 * A modal dialog opened from `trigger` with the keyboard: focus inside, the page behind inert
 * and not scrolling; Escape closes it and gives focus back to the trigger.
 */
export async function expectModal(page: Page, trigger: Locator, dialog: Locator): Promise<void> {
  await trigger.focus();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
  expect(await dialog.evaluate((d) => d.contains(document.activeElement) && d.matches(":modal"))).toBe(true);
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe("hidden");
  // The page behind is inert: its controls cannot take focus.
  expect(await trigger.evaluate((el: HTMLElement) => (el.focus(), document.activeElement === el))).toBe(false);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(trigger).toBeFocused();
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).not.toBe("hidden");
}

/** The notification region's toasts. */
export const toasts = (page: Page) => page.locator("#notifications > li");
