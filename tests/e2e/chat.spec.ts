/**
 * The chat widget (issues #7 and #13) with POST /api/chat mocked (page.route) when
 * JavaScript runs: the launcher is a button that opens the prebuilt panel (title,
 * greeting, call link, e-mail, message box) before the island has loaded, text typed
 * meanwhile survives hydration, then Enter vs Shift+Enter, the request body (history
 * without system messages plus the new message), pending and blank states, the reply
 * and the spec's failure text, minimise and close, Escape, the hand-over to the quote
 * dialog, and the conversation surviving a page navigation. Without JavaScript the panel
 * still opens and its form posts to the real function, which answers with a page. The
 * function itself is covered by tests/integration/functions/chat.test.ts.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page, type Request } from "@playwright/test";
import { HYDRATED } from "../../src/lib/dialogs";
import { CHAT_FAILURE, CHAT_GREETING, CHAT_IDS, CHAT_TITLE, QUOTE_ACTION_LABEL } from "../../src/lib/chat";
import { QUOTE_FORM } from "../../src/lib/forms/fields";
import { SITE } from "../../src/lib/site";

/** Chunks nobody needs before a tap: the chat island, the dialogs island, React and its renderer. */
const INTERACTIVE_CHUNK =
  /\/_astro\/(IslandEntry|ChatWidget|ChatPanel|LeadDialogs|client|react|react-dom|chat)[.-][^/]*\.js$/;
const CHAT_CHUNK = /\/_astro\/ChatWidget[.-][^/]*\.js$/;

const launcher = (page: Page) => page.getByRole("button", { name: `Chat with our ${CHAT_TITLE}` });
const panel = (page: Page) => page.getByRole("dialog", { name: CHAT_TITLE });
const input = (page: Page) => panel(page).getByRole("textbox", { name: "Message" });
const log = (page: Page) => panel(page).getByRole("log");
/** The island marks the panel's form once it has taken it over. */
const hydrated = (page: Page) => expect(page.locator(`#${CHAT_IDS.panel} form[${HYDRATED}]`)).toHaveCount(1);

async function axeBlocking(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}
/** Answers /api/chat; `hold` keeps the next answer back until `release`. */
async function mockChat(
  page: Page,
  answer: { status: number; body: unknown } = { status: 200, body: { message: "Which service do you need?" } },
) {
  const requests: Request[] = [];
  let release = () => {};
  let held: Promise<void> | null = null;
  let current = answer;
  await page.route("**/api/chat", async (route) => {
    requests.push(route.request());
    if (held) await held;
    await route.fulfill({
      status: current.status,
      contentType: "application/json",
      body: JSON.stringify(current.body),
    });
  });
  return {
    requests,
    answer: (next: typeof answer) => (current = next),
    hold: () => {
      held = new Promise<void>((resolve) => (release = resolve));
    },
    release: () => {
      release();
      held = null;
    },
  };
}

async function openChat(page: Page) {
  await launcher(page).click();
  await expect(panel(page)).toBeVisible();
}

const finePointer = (page: Page) => page.evaluate(() => matchMedia("(pointer: fine)").matches);

test("no chat or React code loads before the launcher is touched", async ({ page }) => {
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(request.url());
  });
  await page.goto("/", { waitUntil: "networkidle" });
  await page.mouse.move(5, 5);
  await page.mouse.wheel(0, 800);
  await page.waitForTimeout(400);
  expect(scripts.filter((url) => INTERACTIVE_CHUNK.test(url))).toEqual([]);
  // A real button, with the platform's own link to the panel (no script needed to open it).
  await expect(launcher(page)).toHaveAttribute("id", CHAT_IDS.launcher);
  await expect(launcher(page)).toHaveAttribute("type", "button");
  await expect(launcher(page)).toHaveAttribute("popovertarget", CHAT_IDS.panel);
  await expect(panel(page)).toBeHidden();

  await openChat(page);
  await expect.poll(() => scripts.some((url) => CHAT_CHUNK.test(url))).toBe(true);
  expect(new URL(page.url()).pathname).toBe("/");
  await expect(log(page)).toContainText(CHAT_GREETING);
});

test("the panel opens with its greeting before the island loads, and what is typed meanwhile survives hydration", async ({
  page,
}) => {
  const api = await mockChat(page, { status: 200, body: { message: "Which service do you need?" } });
  // Hold the island's chunk until the test lets it go.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let requested = false;
  await page.route(CHAT_CHUNK, async (route) => {
    requested = true;
    await held;
    await route.continue();
  });
  await page.goto("/services/tree-removal");
  await launcher(page).click();
  await expect.poll(() => requested).toBe(true);

  // Open, titled, greeting, the phone and the e-mail, the message box: all before any island code ran.
  await expect(panel(page)).toBeVisible();
  await expect(page.locator(`#${CHAT_IDS.panel} form[${HYDRATED}]`)).toHaveCount(0);
  await expect(panel(page).getByRole("heading", { name: CHAT_TITLE })).toBeVisible();
  await expect(log(page)).toContainText(CHAT_GREETING);
  await expect(panel(page).getByRole("link", { name: `Call ${SITE.phone}` })).toHaveAttribute("href", SITE.phoneHref);
  await expect(panel(page).getByRole("link", { name: SITE.email })).toHaveAttribute("href", `mailto:${SITE.email}`);
  await expect(panel(page)).toBeFocused();
  await input(page).click();
  await page.keyboard.type("Residential, two oaks");

  release();
  await hydrated(page);
  await expect(input(page)).toHaveValue("Residential, two oaks");
  await expect(panel(page).getByRole("button", { name: "Send message" })).toBeEnabled();
  await input(page).press("Enter");
  await expect(log(page)).toContainText("Which service do you need?");
  expect(api.requests[0]!.postDataJSON()).toEqual({
    messages: [
      { role: "assistant", content: CHAT_GREETING },
      { role: "user", content: "Residential, two oaks" },
    ],
  });
  // Sent by the island, not by the no-JS form: still on the page.
  expect(new URL(page.url()).pathname).toBe("/services/tree-removal");
});

test("a message sent before the island is ready is held, then sent by it (the page stays)", async ({ page }) => {
  const api = await mockChat(page, { status: 200, body: { message: "Which service do you need?" } });
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(CHAT_CHUNK, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/about");
  await launcher(page).click();
  // Blank: the box's `required` keeps the form from sending at all.
  await input(page).press("Enter");
  await input(page).fill("Commercial");
  await input(page).press("Enter");
  await expect(input(page)).toHaveValue("Commercial");
  expect(api.requests).toHaveLength(0);

  release();
  await expect(log(page)).toContainText("Which service do you need?");
  await expect(input(page)).toHaveValue("");
  expect(api.requests).toHaveLength(1);
  expect(api.requests[0]!.postDataJSON().messages.at(-1)).toEqual({ role: "user", content: "Commercial" });
  expect(new URL(page.url()).pathname).toBe("/about");
});

test("Escape before the island is ready still closes the panel and returns focus", async ({ page }) => {
  await page.route(CHAT_CHUNK, () => {
    // Never answered: the island does not load in this test.
  });
  await page.goto("/about");
  await launcher(page).click();
  await expect(panel(page)).toBeVisible();
  await input(page).fill("kept for later");
  await page.keyboard.press("Escape");
  await expect(panel(page)).toBeHidden();
  await expect(launcher(page)).toBeFocused();
  await launcher(page).click();
  await expect(input(page)).toHaveValue("kept for later");
});

test("greeting, focus, Enter sends, Shift+Enter is a newline, the body and the reply", async ({ page }) => {
  const api = await mockChat(page, {
    status: 200,
    body: {
      message: "Thanks! See [Tree removal](/services/tree-removal) or call (512) 555-0142. [bad](https://evil.example)",
    },
  });
  await page.goto("/");
  await openChat(page);
  await expect(panel(page)).toHaveAttribute("aria-modal", "false");
  await expect(log(page)).toHaveAttribute("aria-live", "polite");
  // Focus moves into the panel: the message box with a mouse, the panel itself on touch screens.
  if (await finePointer(page)) await expect(input(page)).toBeFocused();
  else await expect(panel(page)).toBeFocused();

  const send = panel(page).getByRole("button", { name: "Send message" });
  await expect(send).toBeDisabled();
  await input(page).fill("   ");
  await input(page).press("Enter");
  await expect(send).toBeDisabled();
  expect(api.requests).toHaveLength(0);

  await input(page).fill("Residential");
  await input(page).press("Shift+Enter");
  await input(page).pressSequentially("two oaks");
  await expect(input(page)).toHaveValue("Residential\ntwo oaks");
  expect(api.requests).toHaveLength(0);

  api.hold();
  await input(page).press("Enter");
  await expect(input(page)).toHaveValue("");
  await expect(panel(page).getByTestId("chat-typing")).toBeVisible();
  // Pending: nothing else can be sent.
  await input(page).fill("again");
  await expect(send).toBeDisabled();
  await input(page).press("Enter");
  api.release();

  await expect(log(page)).toContainText("Thanks! See Tree removal or call (512) 555-0142.");
  expect(api.requests).toHaveLength(1);
  const request = api.requests[0]!;
  expect(request.method()).toBe("POST");
  expect((await request.allHeaders())["content-type"]).toBe("application/json");
  expect(request.postDataJSON()).toEqual({
    messages: [
      { role: "assistant", content: CHAT_GREETING },
      { role: "user", content: "Residential\ntwo oaks" },
    ],
  });
  // Links: same-site pages and the phone only; the foreign one is plain text.
  await expect(log(page).getByRole("link", { name: "Tree removal" })).toHaveAttribute("href", "/services/tree-removal");
  await expect(log(page).getByRole("link", { name: "(512) 555-0142" })).toHaveAttribute("href", "tel:+15125550142");
  await expect(log(page).getByRole("link", { name: "bad" })).toHaveCount(0);

  // The pending draft is still there and now sends, with the whole history.
  await expect(send).toBeEnabled();
  api.answer({ status: 200, body: { message: "Got it." } });
  await send.click();
  await expect(log(page)).toContainText("Got it.");
  expect(api.requests[1]!.postDataJSON().messages).toHaveLength(4);
  // The newest message is scrolled into view.
  const atBottom = await log(page).evaluate((el) => Math.abs(el.scrollHeight - el.clientHeight - el.scrollTop) < 2);
  expect(atBottom).toBe(true);
});

test("a failed reply appends the visitor's text and the spec's failure message", async ({ page }) => {
  await mockChat(page, { status: 500, body: { error: "boom" } });
  await page.goto("/");
  await openChat(page);
  await input(page).fill("Is anyone there?");
  await input(page).press("Enter");
  await expect(log(page)).toContainText("Is anyone there?");
  await expect(log(page)).toContainText(CHAT_FAILURE);
});

test("minimise, restore, Escape and close", async ({ page }) => {
  await page.goto("/");
  await openChat(page);
  // Minimise needs the island (before it, the button hides the panel: its no-script meaning).
  await hydrated(page);
  const box = await panel(page).boundingBox();
  const viewport = page.viewportSize()!;
  if (viewport.width >= 640) {
    // 20rem x 24rem.
    expect(Math.round(box!.width)).toBe(320);
    expect(Math.round(box!.height)).toBe(384);
  }
  // Inside the viewport, and the top of the page stays visible above it.
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
  expect(box!.y).toBeGreaterThanOrEqual(64);

  await panel(page).getByRole("button", { name: "Minimise chat" }).click();
  await expect(log(page)).toBeHidden();
  expect(Math.round((await panel(page).boundingBox())!.height)).toBe(56);
  // The call link stays one tap away in the minimised bar.
  await expect(panel(page).getByRole("link", { name: "Call (512) 555-0142" })).toHaveAttribute(
    "href",
    "tel:+15125550142",
  );
  await panel(page).getByRole("button", { name: "Restore chat" }).click();
  await expect(log(page)).toBeVisible();

  await input(page).fill("draft");
  await page.keyboard.press("Escape");
  await expect(panel(page)).toBeHidden();
  await expect(launcher(page)).toBeFocused();

  await launcher(page).click();
  await expect(input(page)).toHaveValue("draft");
  await panel(page).getByRole("button", { name: "Close chat" }).click();
  await expect(panel(page)).toBeHidden();
  await expect(launcher(page)).toBeVisible();
  await expect(launcher(page)).toBeFocused();
});

test("the Get a quote action opens the quote dialog preselected", async ({ page }) => {
  await mockChat(page, {
    status: 200,
    body: {
      message: "Tree removal within a week is $550 - $2,750.",
      actions: [{ type: "quote", serviceType: "tree-removal", urgency: "within-week" }],
    },
  });
  await page.goto("/");
  await openChat(page);
  await input(page).fill("remove a tree within a week");
  await input(page).press("Enter");
  await log(page).getByRole("button", { name: QUOTE_ACTION_LABEL }).click();
  const dialog = page.getByRole("dialog", { name: QUOTE_FORM.title });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel("Service Needed")).toHaveValue("tree-removal");
  await expect(dialog.getByLabel("How Soon?")).toHaveValue("within-week");
  // Closing the dialog leaves the conversation as it was, focus back on the button.
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(log(page).getByRole("button", { name: QUOTE_ACTION_LABEL })).toBeFocused();
  await expect(panel(page)).toBeVisible();
});

test("the conversation survives following a link from a reply", async ({ page }) => {
  await mockChat(page, { status: 200, body: { message: "Here you go: [Emergency service](/services/emergency)" } });
  await page.goto("/");
  await openChat(page);
  await input(page).fill("emergency info?");
  await input(page).press("Enter");
  await log(page).getByRole("link", { name: "Emergency service" }).click();
  await page.waitForURL("**/services/emergency");

  // Restored without a tap: open on desktop, minimised on phones so the new page shows.
  if ((page.viewportSize()?.width ?? 0) < 640) {
    await expect(panel(page).getByRole("button", { name: "Restore chat" })).toBeVisible();
    await panel(page).getByRole("button", { name: "Restore chat" }).click();
  }
  await expect(log(page)).toContainText(CHAT_GREETING);
  await expect(log(page)).toContainText("emergency info?");
  await expect(log(page)).toContainText("Here you go: Emergency service");

  // Closed stays closed on the next page, with the history kept for the next opening.
  await panel(page).getByRole("button", { name: "Close chat" }).click();
  await page.goto("/about");
  await expect(launcher(page)).toBeVisible();
  await page.waitForTimeout(300);
  await expect(panel(page)).toBeHidden();
  await openChat(page);
  await expect(log(page)).toContainText("emergency info?");
});

test("axe: no serious or critical violation with the panel open, and minimised", async ({ page }) => {
  await mockChat(page, {
    status: 200,
    body: { message: "Tree removal is $500 - $2,500.", actions: [{ type: "quote", serviceType: "tree-removal" }] },
  });
  await page.goto("/");
  await openChat(page);
  await input(page).fill("How much to remove a tree?");
  await input(page).press("Enter");
  await expect(log(page).getByRole("button", { name: QUOTE_ACTION_LABEL })).toBeVisible();
  expect(await axeBlocking(page)).toEqual([]);
  await panel(page).getByRole("button", { name: "Minimise chat" }).click();
  await expect(log(page)).toBeHidden();
  expect(await axeBlocking(page)).toEqual([]);
});

test("axe: the prebuilt panel before the island runs, and the no-JS reply page", async ({ page }) => {
  // The island never loads: the page is what a visitor without JavaScript gets (axe itself needs script).
  await page.route(CHAT_CHUNK, () => {});
  await page.goto("/services/emergency");
  await launcher(page).click();
  await expect(log(page)).toContainText(CHAT_GREETING);
  expect(await axeBlocking(page)).toEqual([]);
  await input(page).fill("A tree fell on my house");
  // form.submit() skips the submit event the directive holds: the post a visitor without script makes.
  await input(page).evaluate((box: HTMLTextAreaElement) => box.form!.submit());
  await page.waitForURL("**/api/chat#chat-latest");
  await expect(page.getByRole("log", { name: "Conversation" })).toContainText(SITE.phone);
  expect(await axeBlocking(page)).toEqual([]);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the launcher opens the panel; Close hides it; the form gets a reply page with the conversation", async ({
    page,
  }) => {
    await page.goto("/about");
    await expect(launcher(page)).toBeVisible();
    await expect(panel(page)).toBeHidden();
    await launcher(page).click();
    await expect(panel(page)).toBeVisible();
    await expect(panel(page)).toBeFocused();
    await expect(panel(page).getByRole("heading", { name: CHAT_TITLE })).toBeVisible();
    await expect(log(page)).toContainText(CHAT_GREETING);
    await expect(panel(page).getByRole("link", { name: `Call ${SITE.phone}` })).toHaveAttribute("href", SITE.phoneHref);
    await expect(panel(page).getByRole("link", { name: SITE.email })).toHaveAttribute("href", `mailto:${SITE.email}`);

    await input(page).fill("Draft");
    await panel(page).getByRole("button", { name: "Close chat" }).click();
    await expect(panel(page)).toBeHidden();
    await launcher(page).click();
    await expect(input(page)).toHaveValue("Draft");

    // The real function answers the form (built-in assistant: no API key in e2e).
    await input(page).fill("Residential, in my backyard");
    await panel(page).getByRole("button", { name: "Send message" }).click();
    await page.waitForURL("**/api/chat#chat-latest");
    const conversation = page.getByRole("log", { name: "Conversation" });
    await expect(page.getByRole("heading", { level: 1, name: CHAT_TITLE })).toBeVisible();
    await expect(conversation).toContainText(CHAT_GREETING);
    await expect(conversation).toContainText("Residential, in my backyard");
    await expect(conversation).toContainText("Which service do you need");

    // And on with the page's own form, to the estimate and the quote action.
    const box = page.getByRole("textbox", { name: "Message" });
    const send = page.getByRole("button", { name: "Send message" });
    await box.fill("A tree removed please");
    await send.click();
    await expect(conversation).toContainText("How soon do you need it");
    await box.fill("Within a week");
    await send.click();
    await expect(conversation).toContainText("$550 - $2,750");
    await expect(conversation.getByRole("link", { name: QUOTE_ACTION_LABEL })).toHaveAttribute(
      "href",
      "/services/tree-removal",
    );
    await expect(conversation).toContainText("Residential, in my backyard");

    // A blank message: the same page with the message, status 400.
    await box.fill(" ");
    const [answer] = await Promise.all([page.waitForResponse("**/api/chat"), send.click()]);
    expect(answer.status()).toBe(400);
    await expect(page.getByRole("alert")).toHaveText("Please type a message.");
    await expect(conversation).toContainText("$550 - $2,750");
  });
});
