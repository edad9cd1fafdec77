// @vitest-environment happy-dom
/**
 * axe-core on the islands as the visitor has them: the chat panel open with a reply and its
 * quote action, minimized, and prebuilt before the island runs; the lead dialogs showing
 * their messages. happy-dom has no layout, so color contrast (and anything else axe needs
 * geometry for) stays with the Playwright axe runs on the real pages; so do the page-level
 * rules (landmarks, one h1), since these are fragments.
 */
import { render, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import axe from "axe-core";
import { renderToString } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import ChatWidget from "../../../src/islands/ChatWidget.tsx";
import LeadDialogs from "../../../src/islands/LeadDialogs.tsx";
import { CHAT_GREETING, CHAT_IDS, CHAT_TITLE, QUOTE_ACTION_LABEL } from "../../../src/lib/chat.ts";
import type { DialogName } from "../../../src/lib/dialogs.ts";
import { $chatMessages, $chatPending, $chatView } from "../../../src/lib/stores/chat.ts";
import { mockFetch, reply } from "../../helpers/fetch-mock.ts";
import { dialogFrame } from "../../helpers/islands.ts";
import { installPopover } from "../../helpers/popover.ts";

/** Serious and critical violations, as the e2e axe runs count them. */
async function blocking(root: Element = document.body): Promise<string[]> {
  const results = await axe.run(root, {
    runOnly: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"],
    rules: {
      "color-contrast": { enabled: false },
      region: { enabled: false },
      "landmark-one-main": { enabled: false },
      "page-has-heading-one": { enabled: false },
    },
  });
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

describe("axe: the chat panel", () => {
  let uninstall: () => void;
  beforeEach(() => {
    uninstall = installPopover();
    $chatView.set("closed");
    $chatPending.set(false);
    $chatMessages.set([{ role: "assistant", content: CHAT_GREETING, timestamp: 0 }]);
  });
  afterEach(() => uninstall());

  function page() {
    const frame = document.createElement("div");
    frame.dataset.testFrame = "";
    frame.innerHTML = `
      <button id="${CHAT_IDS.launcher}" type="button" popovertarget="${CHAT_IDS.panel}" aria-haspopup="dialog">
        <span>Chat with our ${CHAT_TITLE}</span></button>
      <section id="${CHAT_IDS.panel}" popover="manual" role="dialog" aria-modal="false"
        aria-labelledby="${CHAT_IDS.title}" tabindex="-1" autofocus><div class="contents"></div></section>`;
    document.body.append(frame);
    return {
      launcher: frame.querySelector<HTMLElement>(`#${CHAT_IDS.launcher}`)!,
      box: frame.querySelector<HTMLElement>(".contents")!,
    };
  }

  it("before the island runs (the no-JS panel)", async () => {
    const { box } = page();
    box.innerHTML = renderToString(<ChatWidget />);
    expect(await blocking()).toEqual([]);
  });

  it("open with a reply and its quote action, then minimized", async () => {
    mockFetch().on(
      "POST",
      "/api/chat",
      reply.json(200, {
        message: "Tree removal is $500 - $2,500.",
        actions: [{ type: "quote", serviceType: "tree-removal" }],
      }),
    );
    const user = userEvent.setup({ delay: null });
    const { launcher, box } = page();
    render(<ChatWidget />, { container: box });
    await user.click(launcher);
    await waitFor(() => expect($chatView.get()).toBe("open"));
    await user.type(within(box).getByRole("textbox", { name: "Message" }), "How much to remove a tree?{Enter}");
    await within(box).findByRole("button", { name: QUOTE_ACTION_LABEL });
    expect(await blocking()).toEqual([]);
    await user.click(within(box).getByRole("button", { name: "Minimize chat" }));
    expect(await blocking()).toEqual([]);
  });
});

describe("axe: the lead dialogs with their messages showing", () => {
  it.each([
    ["quote", "Get My Free Quote"],
    ["audit", "Request My Free Audit"],
    ["assessment", "Request My Assessment"],
  ] as const)("%s", async (kind: DialogName, submit) => {
    const { dialog, container } = dialogFrame(`${kind}-dialog`);
    render(<LeadDialogs kind={kind} source="/" />, { container });
    await userEvent.click(within(dialog).getByRole("button", { name: submit }));
    await waitFor(() => expect(dialog.querySelector('[aria-invalid="true"]')).toBeTruthy());
    expect(await blocking(dialog)).toEqual([]);
  });
});
