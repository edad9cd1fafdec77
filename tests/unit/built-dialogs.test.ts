/**
 * The interactive parts as the build prebuilds them, before any script: every dialog
 * trigger is a button with its spec name that opens a dialog of the page through Invoker
 * Commands (no link stands in for one), the chat launcher opens its prebuilt panel through
 * the Popover API, and /find-a-tree-service carries its search form, sample providers, steps
 * and the quotes form that posts without JavaScript. Opening, typing and posting are
 * tests/e2e (leads, chat, find-pros).
 */
import { within } from "@testing-library/dom";
import { describe, expect, it } from "vitest";
import { sampleProviders } from "../../src/lib/find-pros-providers.ts";
import { CHAT_GREETING, CHAT_IDS, CHAT_TITLE } from "../../src/lib/chat.ts";
import { ASSESSMENT_FORM, AUDIT_FORM, FIND_PROS_FORM, QUOTE_FORM } from "../../src/lib/forms/fields.ts";
import { SITE } from "../../src/lib/site.ts";
import { builtPage, textOf } from "../helpers/dist.ts";

const TRIGGERS: [path: string, name: string, dialogTitle: string][] = [
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

/**
 * A closed dialog's name from its aria-labelledby (dom-accessibility-api leaves the text of a
 * closed dialog out, although a browser names it from there).
 */
const nameOf = (el: Element) =>
  (el.getAttribute("aria-labelledby") ?? "")
    .split(/\s+/)
    .map((id) => textOf(el.ownerDocument.getElementById(id)!))
    .join(" ");

describe("dialog triggers", () => {
  it.each(TRIGGERS)("%s: '%s' is a button that opens the page's '%s' dialog", (path, name, title) => {
    const { document, inMain } = builtPage(path);
    const buttons = inMain.getAllByRole("button", { name });
    expect(inMain.queryAllByRole("link", { name })).toHaveLength(0);
    const dialog = document.getElementById(buttons[0]!.getAttribute("commandfor")!)!;
    expect(dialog.tagName).toBe("DIALOG");
    expect(nameOf(dialog)).toBe(title);
    for (const button of buttons) {
      expect(button.getAttribute("type")).toBe("button");
      expect(button.getAttribute("command")).toBe("show-modal");
      expect(button.getAttribute("commandfor")).toBe(dialog.id);
    }
    // The prebuilt form inside posts to its function without JavaScript.
    const form = dialog.querySelector("form")!;
    expect(form.getAttribute("method")).toBe("post");
    expect(form.getAttribute("action")).toMatch(/^\/api\//);
    expect(document.querySelectorAll(`dialog#${dialog.id}`)).toHaveLength(1);
  });

  it("the emergency page's dialog starts on the emergency service and urgency; phase pages on their phase", () => {
    const quote = builtPage("/services/emergency").document.querySelector("dialog#quote-dialog")!;
    const chosen = (dialog: Element, label: string) => {
      const select = within(dialog as HTMLElement).getByLabelText(
        new RegExp(`^${label.replace("?", "\\?")}`),
      ) as HTMLSelectElement;
      return [...select.querySelectorAll("option")].filter((o) => o.hasAttribute("selected")).map((o) => o.value);
    };
    expect(chosen(quote, "Service Needed")).toEqual(["emergency"]);
    expect(chosen(quote, "How Soon?")).toEqual(["emergency"]);
    for (const phase of ["phase-2", "phase-6"]) {
      const dialog = builtPage(`/business-growth/${phase}`).document.querySelector("dialog#assessment-dialog")!;
      expect(chosen(dialog, "Growth Phase"), phase).toEqual([phase]);
    }
  });
});

describe("chat", () => {
  it("the launcher is a button that opens the prebuilt panel: title, greeting, phone, e-mail and a form that posts", () => {
    const { document, screen } = builtPage("/about");
    const launcher = screen.getByRole("button", { name: `Chat with our ${CHAT_TITLE}` });
    expect(launcher.id).toBe(CHAT_IDS.launcher);
    expect(launcher.getAttribute("type")).toBe("button");
    expect(launcher.getAttribute("popovertarget")).toBe(CHAT_IDS.panel);
    const panel = document.getElementById(CHAT_IDS.panel)!;
    expect(panel.hasAttribute("popover")).toBe(true);
    const inPanel = within(panel);
    expect(inPanel.getByRole("heading", { name: CHAT_TITLE, hidden: true })).toBeTruthy();
    expect(textOf(inPanel.getByRole("log", { hidden: true }))).toContain(CHAT_GREETING);
    expect(inPanel.getByRole("link", { name: `Call ${SITE.phone}`, hidden: true }).getAttribute("href")).toBe(
      SITE.phoneHref,
    );
    expect(inPanel.getByRole("link", { name: SITE.email, hidden: true }).getAttribute("href")).toBe(
      `mailto:${SITE.email}`,
    );
    const box = inPanel.getByRole("textbox", { name: "Message", hidden: true });
    expect(box.hasAttribute("required")).toBe(true);
    const form = box.closest("form")!;
    expect(form.getAttribute("action")).toMatch(/^\/api\/chat/);
    expect(form.getAttribute("method")).toBe("post");
  });
});

describe("/find-a-tree-service", () => {
  const page = () => builtPage("/find-a-tree-service");

  it("the hero search is a plain GET form to /directory?near=&service=", () => {
    const { screen } = page();
    const search = screen.getByRole("search", { name: "Search the tree service directory" });
    expect(search.getAttribute("action")).toBe("/directory");
    expect(search.getAttribute("method")).toBe("get");
    const find = within(search);
    expect(find.getByLabelText("ZIP code or city").getAttribute("name")).toBe("near");
    expect(find.getByLabelText("Service").getAttribute("name")).toBe("service");
    expect(find.getByRole("button", { name: "Find Pros" }).getAttribute("type")).toBe("submit");
  });

  it("three directory businesses as providers, with ratings, services, click-to-call and a link to their page", () => {
    const providers = sampleProviders();
    const { inMain } = page();
    const section = inMain.getByRole("heading", { name: "Top-rated tree pros in Texas" }).closest("section")!;
    const cards = section.querySelectorAll("ul.grid > li");
    expect(cards).toHaveLength(3);
    for (const [i, pro] of providers.entries()) {
      const card = cards[i] as HTMLElement;
      const text = textOf(card);
      expect(textOf(within(card).getByRole("heading", { level: 3 }))).toBe(pro.name);
      expect(within(card).getByRole("link", { name: pro.name }).getAttribute("href")).toBe(`/directory/${pro.slug}`);
      expect(text).toContain(pro.location);
      expect(text).toContain(`${pro.rating.toFixed(1)} out of 5 stars`);
      expect(text).toContain(`(${pro.reviews} reviews)`);
      expect(text).toContain(pro.highlight);
      const services = textOf(within(card).getByRole("list", { name: "Services" }));
      for (const service of pro.services) expect(services).toContain(service);
      expect(within(card).queryAllByText("License checked", { exact: true })).toHaveLength(pro.certified ? 1 : 0);
      const call = within(card).getByRole("link", { name: `Call ${pro.name} at ${pro.phone}` });
      expect(call.getAttribute("href")).toBe(`tel:+1${pro.phone.replace(/\D/g, "")}`);
      expect(pro.phone).toMatch(/555-01\d\d$/);
    }
  });

  it("How It Works has three steps", () => {
    const section = page().inMain.getByRole("heading", { name: "Three steps to the right pro" }).closest("section")!;
    const steps = [...section.querySelectorAll("ol > li")].map(textOf);
    expect(steps).toHaveLength(3);
    expect(steps[0]).toContain("Tell us about the job");
    expect(steps[1]).toContain("up to 3");
    expect(steps[2]).toContain("Compare quotes and book");
  });

  it("the quotes form posts multipart to the function without JavaScript, and waits for view to hydrate", () => {
    const { document } = page();
    const form = document.getElementById("find-pros-form")!;
    expect(form.getAttribute("action")).toBe(FIND_PROS_FORM.action);
    expect(form.getAttribute("method")).toBe("post");
    expect(form.getAttribute("enctype")).toBe("multipart/form-data");
    expect(form.hasAttribute("novalidate")).toBe(false);
    expect(form.closest("[data-island]")?.getAttribute("data-when")).toBe("visible");
  });
});
