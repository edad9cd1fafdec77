// @vitest-environment happy-dom
/**
 * The two always-on page scripts the islands lean on before (or instead of) hydrating:
 * src/scripts/dialogs.ts (the chat panel's Escape and Enter before its island is in, the
 * held submit, the opener for browsers without Invoker Commands, which happy-dom is one of,
 * and the preselection it applies) and src/scripts/business-page.ts (a broken photo shows its
 * placeholder). Both run once, at import, over the page as it is then.
 */
import { act, fireEvent, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { renderToString } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import ChatWidget from "../../../src/islands/ChatWidget.tsx";
import { ChatLog } from "../../../src/views/chat/ChatPanel.tsx";
import LeadDialogs from "../../../src/islands/LeadDialogs.tsx";
import { CHAT_GREETING, CHAT_IDS, CHAT_TITLE, QUOTE_ACTION_LABEL } from "../../../src/lib/chat.ts";
import { HELD_SUBMIT, HYDRATED } from "../../../src/lib/dialogs.ts";
import { QUOTE_FORM } from "../../../src/lib/forms/fields.ts";
import { mockFetch } from "../../helpers/fetch-mock.ts";
import { installPopover } from "../../helpers/popover.ts";
import "../../helpers/islands.ts";

let uninstall: () => void;
const page = document.createElement("div");

beforeAll(async () => {
  uninstall = installPopover();
  page.innerHTML = `
    <main>
      <img data-fallback alt="Oak, photo 1" src="/failed-already.jpg">
      <img data-fallback alt="Oak, photo 2" src="/still-loading.jpg">
      <div id="reply-box"></div>
    </main>
    <dialog id="quote-dialog" class="lead-dialog" data-fragments="quote">
      <button type="button" command="close" commandfor="quote-dialog" aria-label="Close"></button>
      ${renderToString(<LeadDialogs kind="quote" source="/" />)}
    </dialog>
    <button id="${CHAT_IDS.launcher}" type="button" popovertarget="${CHAT_IDS.panel}">Chat with our ${CHAT_TITLE}</button>
    <section id="${CHAT_IDS.panel}" popover="manual" role="dialog" aria-labelledby="${CHAT_IDS.title}" tabindex="-1" autofocus>
      ${renderToString(<ChatWidget />)}
    </section>`;
  document.body.append(page);
  // happy-dom loads no images: one counts as failed before the script ran, one is still on its way.
  Object.defineProperty(page.querySelectorAll("img")[1]!, "complete", { value: false });
  // A reply with the quote action, as the conversation log draws it.
  page.querySelector("#reply-box")!.innerHTML = renderToString(
    <ChatLog
      messages={[
        {
          role: "assistant",
          content: "Tree removal within a week is $550 - $2,750.",
          actions: [{ type: "quote", serviceType: "tree-removal", urgency: "within-week" }],
        },
      ]}
    />,
  );
  await import("../../../src/scripts/dialogs.ts");
  // A script, not a module (no exports): TypeScript will not type a literal import of it.
  const businessPage: string = "../../../src/scripts/business-page.ts";
  await import(/* @vite-ignore */ businessPage);
});

afterAll(() => {
  page.remove();
  uninstall();
});

const panel = () => document.getElementById(CHAT_IDS.panel)!;
const launcher = () => document.getElementById(CHAT_IDS.launcher)!;
const box = () => within(panel()).getByRole("textbox", { name: "Message" }) as HTMLTextAreaElement;

describe("the chat panel before its island is in", () => {
  it("opens with its greeting; Escape closes it, gives focus back to the launcher and keeps the text", async () => {
    await userEvent.click(launcher());
    expect(panel().matches(":popover-open")).toBe(true);
    expect(panel().textContent).toContain(CHAT_GREETING);
    box().value = "kept for later";
    fireEvent.keyDown(box(), { key: "Escape" });
    expect(panel().matches(":popover-open")).toBe(false);
    expect(document.activeElement).toBe(launcher());
    await userEvent.click(launcher());
    expect(box().value).toBe("kept for later");
  });

  it("Enter sends: the submit is held for the island, and nothing leaves the page", async () => {
    const api = mockFetch();
    const form = box().form!;
    const posted: Event[] = [];
    form.addEventListener("submit", (e) => posted.push(e));
    box().value = "Commercial";
    fireEvent.keyDown(box(), { key: "Enter" });
    expect(form.hasAttribute(HELD_SUBMIT)).toBe(true);
    expect(posted.map((e) => e.defaultPrevented)).toEqual([true]);
    expect(api.calls).toEqual([]);
    // Shift+Enter is a new line, not a send.
    form.removeAttribute(HELD_SUBMIT);
    fireEvent.keyDown(box(), { key: "Enter", shiftKey: true });
    expect(form.hasAttribute(HELD_SUBMIT)).toBe(false);
  });

  it("once the island has taken the form over, the script leaves Escape to it", () => {
    const form = box().form!;
    form.setAttribute(HYDRATED, "");
    if (!panel().matches(":popover-open")) panel().showPopover();
    fireEvent.keyDown(box(), { key: "Escape" });
    expect(panel().matches(":popover-open")).toBe(true);
    form.removeAttribute(HYDRATED);
    panel().hidePopover();
  });
});

describe("the quote action from a chat reply (the opener for browsers without Invoker Commands)", () => {
  it("opens the quote dialog with the reply's service and urgency; closing gives focus back to the action", async () => {
    const dialog = document.getElementById("quote-dialog") as HTMLDialogElement;
    const action = within(page.querySelector("#reply-box")!).getByRole("button", { name: QUOTE_ACTION_LABEL });
    await userEvent.click(action);
    expect(dialog.open).toBe(true);
    const form = within(dialog);
    expect(form.getByRole("heading", { name: QUOTE_FORM.title })).toBeTruthy();
    expect((form.getByLabelText(/^Service Needed/) as HTMLSelectElement).value).toBe("tree-removal");
    expect((form.getByLabelText(/^How Soon\?/) as HTMLSelectElement).value).toBe("within-week");
    // The hidden stamps a no-JS post needs.
    expect(Number((dialog.querySelector('input[name="_started"]') as HTMLInputElement).value)).toBeGreaterThan(0);
    expect((dialog.querySelector('input[name="_idempotencyKey"]') as HTMLInputElement).value).toMatch(
      /^[0-9a-f-]{36}$/,
    );
    await userEvent.click(form.getByRole("button", { name: "Close" }));
    expect(dialog.open).toBe(false);
    expect(document.activeElement).toBe(action);
  });

  it("a #quote link opens the dialog and the fragment is dropped", async () => {
    const dialog = document.getElementById("quote-dialog") as HTMLDialogElement;
    await act(async () => {
      history.replaceState(null, "", "/services/stump-grinding#quote");
      window.dispatchEvent(new HashChangeEvent("hashchange"));
    });
    expect(dialog.open).toBe(true);
    expect(location.hash).toBe("");
    dialog.close();
  });
});

describe("the business page's photos", () => {
  it("a photo that failed before the script ran, or fails later, hides so its placeholder shows", () => {
    const [failed, loading] = page.querySelectorAll<HTMLImageElement>("img[data-fallback]");
    expect(failed!.hidden).toBe(true);
    expect(loading!.hidden).toBe(false);
    loading!.dispatchEvent(new Event("error"));
    expect(loading!.hidden).toBe(true);
  });
});
