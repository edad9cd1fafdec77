// @vitest-environment happy-dom
/**
 * The chat island (src/islands/ChatWidget.tsx with chat/ChatPanel.tsx, MessageText and the
 * chat store) inside the prebuilt panel of components/Chat.astro. happy-dom has no Popover
 * API, so tests/helpers/popover.ts stands in for it; the panel's size, the platform's own
 * show/hide and the quote dialog a reply's button opens are Playwright's (tests/e2e/chat.spec.ts).
 */
import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent, { type UserEvent } from "@testing-library/user-event";
import { renderToString } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import ChatWidget from "../../../src/islands/ChatWidget.tsx";
import {
  CHAT_FAILURE,
  CHAT_GREETING,
  CHAT_IDS,
  CHAT_OPEN_KEY,
  CHAT_STORAGE_KEY,
  CHAT_TITLE,
  QUOTE_ACTION_LABEL,
} from "../../../src/lib/chat.ts";
import { HELD_SUBMIT, HYDRATED, dialogId } from "../../../src/lib/dialogs.ts";
import { SITE } from "../../../src/lib/site.ts";
import { $chatMessages, $chatPending, $chatView } from "../../../src/lib/stores/chat.ts";
import { mockFetch, reply, type FetchMock } from "../../helpers/fetch-mock.ts";
import { installPopover } from "../../helpers/popover.ts";
import "../../helpers/islands.ts";

let api: FetchMock;
let user: UserEvent;
let uninstall: () => void;

/** The launcher and the panel as Chat.astro prebuilds them, with a box for the island. */
function page() {
  const frame = document.createElement("div");
  frame.dataset.testFrame = "";
  frame.innerHTML = `
    <button id="${CHAT_IDS.launcher}" type="button" popovertarget="${CHAT_IDS.panel}" aria-haspopup="dialog">
      <span>Chat with our ${CHAT_TITLE}</span>
    </button>
    <section id="${CHAT_IDS.panel}" popover="manual" role="dialog" aria-modal="false"
      aria-labelledby="${CHAT_IDS.title}" tabindex="-1" autofocus><div class="contents"></div></section>`;
  document.body.append(frame);
  return {
    launcher: frame.querySelector<HTMLButtonElement>(`#${CHAT_IDS.launcher}`)!,
    panel: frame.querySelector<HTMLElement>(`#${CHAT_IDS.panel}`)!,
    box: frame.querySelector<HTMLElement>(".contents")!,
  };
}

/** The island rendered (client-side) into a fresh page. */
function mount() {
  const p = page();
  const result = render(<ChatWidget />, { container: p.box });
  return { ...p, unmount: result.unmount };
}

const panel = () => screen.getByRole("dialog", { name: CHAT_TITLE });
const input = () => within(panel()).getByRole("textbox", { name: "Message" }) as HTMLTextAreaElement;
const log = () => within(panel()).getByRole("log", { name: "Conversation" });
const sendButton = () => within(panel()).getByRole("button", { name: "Send message" }) as HTMLButtonElement;
const isShown = (el: Element) => el.matches(":popover-open");

async function openPanel(launcher: HTMLElement) {
  await user.click(launcher);
  await waitFor(() => expect($chatView.get()).toBe("open"));
}

function media({ fine = true, wide = true } = {}) {
  vi.stubGlobal("matchMedia", (query: string) => ({
    matches: query.includes("pointer: fine") ? fine : query.includes("min-width") ? wide : false,
    media: query,
    addEventListener() {},
    removeEventListener() {},
  }));
}

beforeEach(() => {
  uninstall = installPopover();
  api = mockFetch();
  user = userEvent.setup({ delay: null });
  media();
  $chatView.set("closed");
  $chatPending.set(false);
  $chatMessages.set([{ role: "assistant", content: CHAT_GREETING, timestamp: 0 }]);
});

afterEach(() => uninstall());

describe("chat: failed replies", () => {
  it.each([
    ["a 500", reply.json(500, { error: "boom" })],
    ["a 503", reply.json(503, { error: "down" })],
    ["a 400", reply.json(400, { error: "Please check the chat messages.", fields: { "messages.1.content": "x" } })],
    ["a 413", reply.json(413, { error: "Too large" })],
    ["a 415", reply.json(415, { error: "Unsupported content type. Send application/json." })],
    ["a 429 with Retry-After", reply.json(429, { error: "Too many messages" }, { "retry-after": "30" })],
    ["a network failure", reply.networkError()],
    ["an aborted request", reply.aborted()],
    ["a 200 with an unreadable body", reply.malformed(200)],
    ["a 200 with an empty message", reply.json(200, { message: "   " })],
  ])("%s appends the visitor's text and the spec's failure message", async (_, answer) => {
    api.on("POST", "/api/chat", answer);
    const { launcher } = mount();
    await openPanel(launcher);
    await user.type(input(), "Is anyone there?{Enter}");
    await waitFor(() => expect(log().textContent).toContain(CHAT_FAILURE));
    const said = log().textContent!;
    expect(said.indexOf("Is anyone there?")).toBeGreaterThan(said.indexOf(CHAT_GREETING));
    expect(said.indexOf(CHAT_FAILURE)).toBeGreaterThan(said.indexOf("Is anyone there?"));
    expect(within(panel()).queryByTestId("chat-typing")).toBeNull();
    // Not stuck: the next message can go.
    await user.type(input(), "hello");
    expect(sendButton().disabled).toBe(false);
  });
});

describe("chat: sending", () => {
  it("greeting, focus, Enter sends, Shift+Enter is a newline, pending blocks, the body and the reply's links", async () => {
    api.on(
      "POST",
      "/api/chat",
      reply.json(200, {
        message:
          "Thanks! See [Tree removal](/services/tree-removal) or call (512) 555-0142. [bad](https://evil.example)",
      }),
    );
    const { launcher } = mount();
    expect(log().getAttribute("aria-live")).toBe("polite");
    expect(log().textContent).toContain(CHAT_GREETING);
    expect(within(panel()).getByRole("heading", { name: CHAT_TITLE })).toBeTruthy();
    await openPanel(launcher);
    // A fine pointer: focus goes on to the message box.
    await waitFor(() => expect(document.activeElement).toBe(input()));

    expect(sendButton().disabled).toBe(true);
    await user.type(input(), "   {Enter}");
    expect(sendButton().disabled).toBe(true);
    expect(api.calls).toHaveLength(0);

    await user.clear(input());
    await user.type(input(), "Residential{Shift>}{Enter}{/Shift}two oaks");
    expect(input().value).toBe("Residential\ntwo oaks");
    expect(api.calls).toHaveLength(0);

    const release = api.hold();
    await user.keyboard("{Enter}");
    expect(input().value).toBe("");
    expect(within(panel()).getByTestId("chat-typing").textContent).toContain(`${CHAT_TITLE} is typing`);
    // Pending: nothing else can be sent.
    await user.type(input(), "again");
    expect(sendButton().disabled).toBe(true);
    await user.keyboard("{Enter}");
    await act(async () => release());

    await waitFor(() => expect(log().textContent).toContain("Thanks! See Tree removal or call (512) 555-0142."));
    expect(api.calls).toHaveLength(1);
    const call = api.calls[0]!;
    expect(call.headers.get("content-type")).toBe("application/json");
    expect(call.json()).toEqual({
      messages: [
        { role: "assistant", content: CHAT_GREETING },
        { role: "user", content: "Residential\ntwo oaks" },
      ],
    });
    expect(within(log()).getByRole("link", { name: "Tree removal" }).getAttribute("href")).toBe(
      "/services/tree-removal",
    );
    expect(within(log()).getByRole("link", { name: "(512) 555-0142" }).getAttribute("href")).toBe("tel:+15125550142");
    expect(within(log()).queryByRole("link", { name: "bad" })).toBeNull();
    expect(log().textContent).toContain("bad");

    // The draft kept while pending now sends, with the whole history.
    expect(input().value).toBe("again");
    expect(sendButton().disabled).toBe(false);
    api.on("POST", "/api/chat", reply.json(200, { message: "Got it." }));
    await user.click(sendButton());
    await waitFor(() => expect(log().textContent).toContain("Got it."));
    expect(api.calls[1]!.json<{ messages: unknown[] }>().messages).toHaveLength(4);
  });

  it("on a touch screen the panel itself keeps focus, so no keyboard covers the greeting", async () => {
    media({ fine: false });
    const { launcher, panel: el } = mount();
    await openPanel(launcher);
    await waitFor(() => expect(isShown(el)).toBe(true));
    expect(document.activeElement).toBe(el);
  });

  it("a reply's quote action is a quote-dialog trigger carrying the preselection; unknown actions are dropped", async () => {
    api.on(
      "POST",
      "/api/chat",
      reply.json(200, {
        message: "Tree removal within a week is $550 - $2,750.",
        actions: [
          { type: "quote", serviceType: "tree-removal", urgency: "within-week" },
          { type: "redirect", url: "/x" },
        ],
      }),
    );
    const { launcher } = mount();
    await openPanel(launcher);
    await user.type(input(), "remove a tree within a week{Enter}");
    const button = await within(log()).findByRole("button", { name: QUOTE_ACTION_LABEL });
    expect(button.getAttribute("command")).toBe("show-modal");
    expect(button.getAttribute("commandfor")).toBe(dialogId("quote"));
    expect(button.getAttribute("aria-haspopup")).toBe("dialog");
    expect(button.dataset.serviceType).toBe("tree-removal");
    expect(button.dataset.urgency).toBe("within-week");
    expect(within(log()).getAllByRole("button")).toHaveLength(1);
  });
});

describe("chat: the panel's states", () => {
  it("minimize, restore, Escape and close; the draft survives, focus returns to the launcher", async () => {
    const { launcher, panel: el } = mount();
    await openPanel(launcher);
    await user.click(within(panel()).getByRole("button", { name: "Minimize chat" }));
    expect($chatView.get()).toBe("minimized");
    expect(el.dataset.view).toBe("minimized");
    expect(isShown(el)).toBe(true);
    expect(document.getElementById(CHAT_IDS.body)!.hidden).toBe(true);
    // The call link stays one tap away in the minimized bar.
    expect(
      within(panel())
        .getByRole("link", { name: `Call ${SITE.phone}` })
        .getAttribute("href"),
    ).toBe(SITE.phoneHref);
    const restore = within(panel()).getByRole("button", { name: "Restore chat" });
    expect(restore.getAttribute("aria-expanded")).toBe("false");
    await user.click(restore);
    expect($chatView.get()).toBe("open");
    expect(document.getElementById(CHAT_IDS.body)!.hidden).toBe(false);
    await waitFor(() => expect(document.activeElement).toBe(input()));

    await user.type(input(), "draft");
    await user.keyboard("{Escape}");
    await waitFor(() => expect(isShown(el)).toBe(false));
    expect(document.activeElement).toBe(launcher);
    expect(el.hasAttribute("data-view")).toBe(false);

    await openPanel(launcher);
    expect(input().value).toBe("draft");
    await user.click(within(panel()).getByRole("button", { name: "Close chat" }));
    await waitFor(() => expect($chatView.get()).toBe("closed"));
    expect(isShown(el)).toBe(false);
    expect(document.activeElement).toBe(launcher);
  });

  it("an Escape another handler already took is left alone", async () => {
    const { launcher, panel: el } = mount();
    await openPanel(launcher);
    el.addEventListener("keydown", (e) => e.preventDefault(), { capture: true });
    await user.keyboard("{Escape}");
    expect($chatView.get()).toBe("open");
  });
});

describe("chat: hydration and the next page", () => {
  it("the prebuilt panel works before the island; what is typed meanwhile survives hydration and sends", async () => {
    api.on("POST", "/api/chat", reply.json(200, { message: "Which service do you need?" }));
    const { launcher, panel: el, box } = page();
    box.innerHTML = renderToString(<ChatWidget />);
    const form = box.querySelector("form")!;
    expect(form.getAttribute("action")).toBe(`/api/chat#${CHAT_IDS.latest}`);
    expect(form.getAttribute("method")).toBe("post");
    expect(form.hasAttribute(HYDRATED)).toBe(false);
    // Send stays enabled in the server render, so the no-JS form can post.
    expect(sendButton().disabled).toBe(false);
    expect(log().textContent).toContain(CHAT_GREETING);
    expect(
      within(panel())
        .getByRole("link", { name: `Call ${SITE.phone}` })
        .getAttribute("href"),
    ).toBe(SITE.phoneHref);
    expect(within(panel()).getByRole("link", { name: SITE.email }).getAttribute("href")).toBe(`mailto:${SITE.email}`);

    // The launcher opens the panel natively and the visitor types before the island is in.
    await user.click(launcher);
    expect(isShown(el)).toBe(true);
    expect(document.activeElement).toBe(el);
    input().value = "Residential, two oaks";

    render(<ChatWidget />, { container: box, hydrate: true });
    expect(form.hasAttribute(HYDRATED)).toBe(true);
    expect($chatView.get()).toBe("open");
    expect(input().value).toBe("Residential, two oaks");
    expect(sendButton().disabled).toBe(false);
    await user.type(input(), "{Enter}");
    await waitFor(() => expect(log().textContent).toContain("Which service do you need?"));
    expect(api.calls[0]!.json()).toEqual({
      messages: [
        { role: "assistant", content: CHAT_GREETING },
        { role: "user", content: "Residential, two oaks" },
      ],
    });
  });

  it("a message sent before the island was ready is held by the page, then sent by it", async () => {
    api.on("POST", "/api/chat", reply.json(200, { message: "Which service do you need?" }));
    const { launcher, box } = page();
    box.innerHTML = renderToString(<ChatWidget />);
    await user.click(launcher);
    input().value = "Commercial";
    box.querySelector("form")!.setAttribute(HELD_SUBMIT, "");
    // The page set data-send before React arrived; React only reports the attribute it did not render.
    vi.spyOn(console, "error").mockImplementation(() => {});
    render(<ChatWidget />, { container: box, hydrate: true });
    await waitFor(() => expect(log().textContent).toContain("Which service do you need?"));
    expect(input().value).toBe("");
    expect(api.calls).toHaveLength(1);
    expect(api.calls[0]!.json<{ messages: unknown[] }>().messages.at(-1)).toEqual({
      role: "user",
      content: "Commercial",
    });
  });

  it("the conversation and an open panel follow the visitor to the next page, shown without taking focus", async () => {
    api.on("POST", "/api/chat", reply.json(200, { message: "Here you go: [Emergency service](/services/emergency)" }));
    const first = mount();
    await openPanel(first.launcher);
    await user.type(input(), "emergency info?{Enter}");
    await waitFor(() => expect(log().textContent).toContain("Here you go: Emergency service"));
    expect(JSON.parse(sessionStorage.getItem(CHAT_STORAGE_KEY)!)).toMatchObject({ view: "open" });
    expect(sessionStorage.getItem(CHAT_OPEN_KEY)).toBe("1");
    first.unmount();
    document.querySelector("[data-test-frame]")!.remove();

    // The next page: a fresh module state, as a navigation gives.
    $chatView.set("closed");
    $chatMessages.set([{ role: "assistant", content: CHAT_GREETING, timestamp: 0 }]);
    const outside = document.createElement("button");
    outside.dataset.testFrame = "";
    document.body.append(outside);
    outside.focus();
    const next = mount();
    await waitFor(() => expect(isShown(next.panel)).toBe(true));
    expect(document.activeElement).toBe(outside);
    expect(next.panel.hasAttribute("autofocus")).toBe(true);
    expect(log().textContent).toContain(CHAT_GREETING);
    expect(log().textContent).toContain("emergency info?");
    expect(log().textContent).toContain("Here you go: Emergency service");
  });

  it("on a phone an open panel comes back minimized; a closed one stays closed, history kept", async () => {
    sessionStorage.setItem(
      CHAT_STORAGE_KEY,
      JSON.stringify({
        view: "open",
        messages: [
          { role: "assistant", content: CHAT_GREETING, timestamp: 1 },
          { role: "user", content: "earlier question", timestamp: 2 },
          { role: "assistant", content: "Call now", timestamp: 3, actions: [{ type: "evil" }, { type: "quote" }] },
        ],
      }),
    );
    media({ wide: false });
    const phone = mount();
    await waitFor(() => expect($chatView.get()).toBe("minimized"));
    expect(isShown(phone.panel)).toBe(true);
    expect(within(panel()).getByRole("button", { name: "Restore chat" })).toBeTruthy();
    // Only known actions come back as buttons (the log is hidden while minimized).
    const hiddenLog = within(panel()).getByRole("log", { hidden: true });
    expect(within(hiddenLog).getAllByRole("button", { name: QUOTE_ACTION_LABEL, hidden: true })).toHaveLength(1);

    await user.click(within(panel()).getByRole("button", { name: "Close chat" }));
    await waitFor(() => expect($chatView.get()).toBe("closed"));
    expect(sessionStorage.getItem(CHAT_OPEN_KEY)).toBeNull();
    phone.unmount();
    document.querySelector("[data-test-frame]")!.remove();

    $chatMessages.set([{ role: "assistant", content: CHAT_GREETING, timestamp: 0 }]);
    const next = mount();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(isShown(next.panel)).toBe(false);
    await openPanel(next.launcher);
    expect(log().textContent).toContain("earlier question");
  });
});

describe("chat: where the conversation scrolls", () => {
  /**
   * A stand-in layout (happy-dom lays nothing out): the log is 300 px high, each message as many
   * px high as it has characters, one after another with 12 px between them.
   */
  function layOut(logEl: HTMLElement) {
    const VIEW = 300;
    const GAP = 12;
    const heights = () => [...logEl.children].map((m) => (m.textContent ?? "").length);
    const contentHeight = () => heights().reduce((sum, h) => sum + h + GAP, GAP);
    Object.defineProperty(logEl, "clientHeight", { configurable: true, get: () => VIEW });
    Object.defineProperty(logEl, "scrollHeight", { configurable: true, get: () => Math.max(VIEW, contentHeight()) });
    const real = HTMLElement.prototype.getBoundingClientRect;
    vi.spyOn(HTMLElement.prototype, "getBoundingClientRect").mockImplementation(function (this: HTMLElement) {
      if (this === logEl) return new DOMRect(0, 100, 300, VIEW);
      if (this.parentElement !== logEl) return real.call(this);
      const index = [...logEl.children].indexOf(this);
      const top = heights()
        .slice(0, index)
        .reduce((sum, h) => sum + h + GAP, GAP);
      return new DOMRect(0, 100 + top - logEl.scrollTop, 300, heights()[index]!);
    });
    return {
      /** Where the newest message starts, from the top of the log's box. */
      newestTop: () => document.getElementById(CHAT_IDS.latest)!.getBoundingClientRect().top - 100,
      /** The log shows its last pixel. */
      atEnd: () => logEl.scrollTop >= Math.max(VIEW, contentHeight()) - VIEW,
    };
  }

  const LONG_REPLY = `Please call us now at ${SITE.phone}: a tree on a house is an emergency. ${"Stay clear of the tree and any downed lines while you wait for the crew. ".repeat(8)}`;

  afterEach(() => vi.restoreAllMocks());

  it("a long reply shows from its start ('Please call us now'), not its end; what the visitor sends and the typing dots show at the end", async () => {
    api.on("POST", "/api/chat", reply.json(200, { message: LONG_REPLY }));
    const { launcher } = mount();
    await openPanel(launcher);
    const layout = layOut(log());

    const release = api.hold();
    await user.type(input(), "A tree fell on my house{Enter}");
    await waitFor(() => expect(within(panel()).queryByTestId("chat-typing")).not.toBeNull());
    expect(layout.atEnd()).toBe(true);
    await act(async () => release());

    await waitFor(() => expect(log().textContent).toContain("Please call us now"));
    const newest = document.getElementById(CHAT_IDS.latest)!;
    expect(newest.dataset.chatMessage).toBe("assistant");
    // Taller than the log: its first line is at the top of the log, its end below.
    expect(newest.textContent!.length).toBeGreaterThan(300);
    expect(layout.newestTop()).toBe(0);
    expect(layout.atEnd()).toBe(false);

    // Minimized and restored: still from the reply's start.
    const logEl = log();
    await user.click(within(panel()).getByRole("button", { name: "Minimize chat" }));
    logEl.scrollTop = 0;
    await user.click(within(panel()).getByRole("button", { name: "Restore chat" }));
    expect(layout.newestTop()).toBe(0);
  });

  it("a short reply that fits below the earlier messages leaves the log at its end", async () => {
    api.on("POST", "/api/chat", reply.json(200, { message: "Got it." }));
    $chatMessages.set([
      { role: "assistant", content: CHAT_GREETING, timestamp: 0 },
      { role: "user", content: "x".repeat(400), timestamp: 1 },
    ]);
    const { launcher } = mount();
    await openPanel(launcher);
    const layout = layOut(log());
    await user.type(input(), "And the stump?{Enter}");
    await waitFor(() => expect(log().textContent).toContain("Got it."));
    expect(layout.atEnd()).toBe(true);
    expect(layout.newestTop()).toBeGreaterThan(0);
    expect(layout.newestTop()).toBeLessThan(300);
  });
});

describe("chat: the hotline in the panel", () => {
  it("the header offers a labeled call button of its own, minimized too (the panel may cover the page's)", async () => {
    const { launcher } = mount();
    await openPanel(launcher);
    const call = within(panel()).getAllByRole("link", { name: `Call ${SITE.phone}` })[0]!;
    expect(call.getAttribute("href")).toBe(SITE.phoneHref);
    expect(call.textContent!.trim()).toBe("Call");
    expect(call.closest("header")).not.toBeNull();
  });
});
