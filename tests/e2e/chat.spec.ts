/**
 * The chat widget against the real function (the built-in assistant:
 * no API key in e2e). The launcher is a button that opens the prebuilt panel before the
 * island has loaded; what is typed or sent meanwhile is kept and then sent by the island;
 * Enter vs Shift+Enter, the request body, the pending state, links in replies, the hand-over
 * to the quote dialog; minimize, restore, Escape and close on both screens; the conversation
 * surviving a page navigation. Without JavaScript the panel still opens and its form posts
 * to the function, which answers with a page. How the island shows a failed reply is its
 * component test's (tests/unit/islands); the function is tests/integration/functions/chat.test.ts.
 */
import type { Page, Request } from "@playwright/test";
import { HYDRATED } from "../../src/lib/dialogs";
import { CHAT_GREETING, CHAT_IDS, CHAT_TITLE, QUOTE_ACTION_LABEL } from "../../src/lib/chat";
import { QUOTE_FORM } from "../../src/lib/forms/fields";
import { DANGER_FIRST } from "../../src/lib/forms/copy";
import { SITE } from "../../src/lib/site";
import { axeBlocking, expect, hold, settled, test } from "./fixtures";

/** Chunks nobody needs before a tap: the chat island, the dialogs island, React and its renderer. */
const INTERACTIVE_CHUNK =
  /\/_astro\/(IslandEntry|ChatWidget|ChatPanel|LeadDialogs|client|react|react-dom|chat)[.-][^/]*\.js(?:\?|$)/;
const CHAT_CHUNK = /\/_astro\/ChatWidget[.-][^/]*\.js(?:\?|$)/;

const launcher = (page: Page) => page.getByRole("button", { name: `Chat with our ${CHAT_TITLE}` });
const panel = (page: Page) => page.getByRole("dialog", { name: CHAT_TITLE });
const input = (page: Page) => panel(page).getByRole("textbox", { name: "Message" });
const log = (page: Page) => panel(page).getByRole("log");
/** The island marks the panel's form once it has taken it over. */
const hydrated = (page: Page) => expect(page.locator(`#${CHAT_IDS.panel} form[${HYDRATED}]`)).toHaveCount(1);

/** The chat's own page, where the no-JS form's post leads (303), opened at the newest message. */
const REPLY_PAGE = /\/chat\?form=[\w-]{22}#chat-latest$/;

/** Every POST to /api/chat the page makes. */
function chatPosts(page: Page) {
  const posts: Request[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && new URL(r.url()).pathname === "/api/chat") posts.push(r);
  });
  return posts;
}

async function openChat(page: Page) {
  await launcher(page).click();
  await expect(panel(page)).toBeVisible();
}

test("a conversation: nothing loads before the launcher is touched; typed and sent before the island is kept; on to an estimate and the quote dialog", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(request.url());
  });
  const posts = chatPosts(page);
  // Hold the island's chunk until the test lets it go: a slow connection.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(CHAT_CHUNK, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/", { waitUntil: "networkidle" });
  await page.mouse.move(5, 5);
  await page.mouse.wheel(0, 800);
  await settled(page);
  expect(scripts.filter((url) => INTERACTIVE_CHUNK.test(url))).toEqual([]);
  await expect(panel(page)).toBeHidden();

  // Open, titled, greeting, the phone and the e-mail, the message box: all before any island code ran.
  await launcher(page).click();
  await expect(panel(page)).toBeVisible();
  await expect.poll(() => scripts.some((url) => CHAT_CHUNK.test(url))).toBe(true);
  await expect(page.locator(`#${CHAT_IDS.panel} form[${HYDRATED}]`)).toHaveCount(0);
  await expect(panel(page).getByRole("heading", { name: CHAT_TITLE })).toBeVisible();
  await expect(log(page)).toContainText(CHAT_GREETING);
  await expect(panel(page).getByRole("link", { name: `Call ${SITE.phone}` })).toHaveAttribute("href", SITE.phoneHref);
  await expect(panel(page).getByRole("link", { name: SITE.email })).toHaveAttribute("href", `mailto:${SITE.email}`);
  await expect(panel(page)).toBeFocused();

  // Blank: the box's `required` keeps the form from sending. Typed text survives Escape.
  await input(page).press("Enter");
  await input(page).click();
  await page.keyboard.type("Residential");
  await page.keyboard.press("Escape");
  await expect(panel(page)).toBeHidden();
  await expect(launcher(page)).toBeFocused();
  await launcher(page).click();
  await expect(input(page)).toHaveValue("Residential");
  // Sent before the island is ready: held, not posted by the no-JS form (the page stays).
  await input(page).press("Enter");
  await expect(input(page)).toHaveValue("Residential");
  expect(posts).toHaveLength(0);

  release();
  await hydrated(page);
  await expect(log(page)).toContainText("Which service do you need");
  await expect(input(page)).toHaveValue("");
  expect(posts).toHaveLength(1);
  expect(posts[0]!.postDataJSON()).toEqual({
    messages: [
      { role: "assistant", content: CHAT_GREETING },
      { role: "user", content: "Residential" },
    ],
  });
  expect(new URL(page.url()).pathname).toBe("/");

  // Shift+Enter is a newline; Enter sends.
  await input(page).fill("Tree removal");
  await input(page).press("Shift+Enter");
  await input(page).pressSequentially("please");
  await expect(input(page)).toHaveValue("Tree removal\nplease");
  expect(posts).toHaveLength(1);
  const api = await hold(page, "**/api/chat");
  await input(page).press("Enter");
  await expect(input(page)).toHaveValue("");
  await expect(panel(page).getByTestId("chat-typing")).toBeVisible();
  // Pending: nothing else can be sent, and the draft waits.
  const send = panel(page).getByRole("button", { name: "Send message" });
  await input(page).fill("Within a week");
  await expect(send).toBeDisabled();
  await input(page).press("Enter");
  await settled(page);
  expect(posts).toHaveLength(2);
  api.release();
  await expect(log(page)).toContainText("How soon do you need it");
  expect((await posts[1]!.allHeaders())["content-type"]).toBe("application/json");
  expect(posts[1]!.postDataJSON().messages.at(-1)).toEqual({ role: "user", content: "Tree removal\nplease" });

  await expect(send).toBeEnabled();
  await send.click();
  await expect(log(page)).toContainText("$550 - $2,750");
  expect(posts).toHaveLength(3);
  expect(posts[2]!.postDataJSON().messages).toHaveLength(6);
  // Links in a reply: the site's own pages and the phone.
  await expect(log(page).getByRole("link", { name: /^tree removal$/i })).toHaveAttribute(
    "href",
    "/services/tree-removal",
  );
  await expect(log(page).getByRole("link", { name: SITE.phone }).first()).toHaveAttribute("href", SITE.phoneHref);
  // The newest reply is scrolled into view from its start: its first line at the log's top, or
  // the log at its end when all of it fits.
  expect(
    await log(page).evaluate((el) => {
      const top = el.querySelector("#chat-latest")!.getBoundingClientRect().top - el.getBoundingClientRect().top;
      const atEnd = Math.abs(el.scrollHeight - el.clientHeight - el.scrollTop) < 2;
      return top >= 0 && (atEnd || top < 16);
    }),
  ).toBe(true);
  expect(await axeBlocking(page)).toEqual([]);

  // The Get a quote action opens the quote dialog preselected; closing it returns to the conversation.
  await log(page).getByRole("button", { name: QUOTE_ACTION_LABEL }).last().click();
  const dialog = page.getByRole("dialog", { name: QUOTE_FORM.title });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel("Service Needed")).toHaveValue("tree-removal");
  await expect(dialog.getByLabel("How Soon?")).toHaveValue("within-week");
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(log(page).getByRole("button", { name: QUOTE_ACTION_LABEL }).last()).toBeFocused();
  await expect(panel(page)).toBeVisible();
});

test(
  "the panel on the screen: prebuilt and reply pages pass axe; minimize, restore, Escape, close; the conversation follows a link",
  { tag: "@mobile" },
  async ({ page }) => {
    test.setTimeout(120_000);
    // The island never loads here: the page is what a visitor without JavaScript gets (axe itself needs script).
    await page.route(CHAT_CHUNK, () => {});
    await page.goto("/services/emergency");
    await launcher(page).click();
    await expect(log(page)).toContainText(CHAT_GREETING);
    expect(await axeBlocking(page)).toEqual([]);
    await input(page).fill("A tree fell on my house");
    // form.submit() skips the submit event the directive holds: the post a visitor without script makes.
    await input(page).evaluate((box: HTMLTextAreaElement) => box.form!.submit());
    await page.waitForURL(REPLY_PAGE);
    await expect(page.getByRole("log", { name: "Conversation" })).toContainText(SITE.phone);
    expect(await axeBlocking(page)).toEqual([]);
    await page.unroute(CHAT_CHUNK);

    await page.goto("/");
    await openChat(page);
    await expect(panel(page)).toHaveAttribute("aria-modal", "false");
    await expect(log(page)).toHaveAttribute("aria-live", "polite");
    // Focus moves into the panel: the message box with a mouse, the panel itself on touch screens.
    if (await page.evaluate(() => matchMedia("(pointer: fine)").matches)) await expect(input(page)).toBeFocused();
    else await expect(panel(page)).toBeFocused();
    // Minimize needs the island (before it, the button hides the panel: its no-script meaning).
    await hydrated(page);
    const box = (await panel(page).boundingBox())!;
    const viewport = page.viewportSize()!;
    if (viewport.width >= 640) {
      // 20rem x 24rem.
      expect(Math.round(box.width)).toBe(320);
      expect(Math.round(box.height)).toBe(384);
    }
    // Inside the viewport, and the top of the page stays visible above it.
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    expect(box.y).toBeGreaterThanOrEqual(64);

    await panel(page).getByRole("button", { name: "Minimize chat" }).click();
    await expect(log(page)).toBeHidden();
    expect(Math.round((await panel(page).boundingBox())!.height)).toBe(56);
    // The call link stays one tap away in the minimized bar.
    await expect(panel(page).getByRole("link", { name: `Call ${SITE.phone}` })).toHaveAttribute("href", SITE.phoneHref);
    expect(await axeBlocking(page)).toEqual([]);
    await panel(page).getByRole("button", { name: "Restore chat" }).click();
    await expect(log(page)).toBeVisible();

    await input(page).fill("draft");
    await page.keyboard.press("Escape");
    await expect(panel(page)).toBeHidden();
    await expect(launcher(page)).toBeFocused();
    await launcher(page).click();
    await expect(input(page)).toHaveValue("draft");

    // A link in a reply leads to another page, and the conversation comes along.
    await input(page).fill("A tree fell on my house");
    await input(page).press("Enter");
    await log(page).getByRole("link", { name: "Emergency tree service" }).click();
    await page.waitForURL("**/services/emergency");
    // Restored without a tap: open on desktop, minimized on phones so the new page shows.
    if (viewport.width < 640) {
      await expect(panel(page).getByRole("button", { name: "Restore chat" })).toBeVisible();
      await panel(page).getByRole("button", { name: "Restore chat" }).click();
    }
    await expect(log(page)).toContainText(CHAT_GREETING);
    await expect(log(page)).toContainText("A tree fell on my house");
    await expect(log(page)).toContainText(DANGER_FIRST.hurt);

    // Closed stays closed on the next page, with the history kept for the next opening.
    await panel(page).getByRole("button", { name: "Close chat" }).click();
    await expect(panel(page)).toBeHidden();
    await expect(launcher(page)).toBeFocused();
    await page.goto("/about");
    await expect(launcher(page)).toBeVisible();
    await expect(panel(page)).toBeHidden();
    await openChat(page);
    await expect(log(page)).toContainText("A tree fell on my house");
  },
);

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the launcher opens the panel; Close hides it; the form gets a reply page with the conversation", async ({
    page,
  }) => {
    test.setTimeout(90_000);
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

    // The real function answers the form.
    await input(page).fill("Residential, in my backyard");
    await panel(page).getByRole("button", { name: "Send message" }).click();
    await page.waitForURL(REPLY_PAGE);
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

    // A blank message: the same page with the message, status 422 (the post answers 303 to it).
    await box.fill(" ");
    const [answer] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === "/chat" && r.request().method() === "GET"),
      send.click(),
    ]);
    expect(answer.status()).toBe(422);
    await expect(page.getByRole("alert")).toHaveText("Please type a message.");
    await expect(conversation).toContainText("$550 - $2,750");
  });
});
