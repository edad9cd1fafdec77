/**
 * The header, the mobile menu and the footer as the build renders them from
 * src/lib/navigation.ts: every link resolves to a page, the current section is marked, the
 * dialog buttons and the call link are in the header, and the footer's placeholders are
 * text, not dead links. Hover, focus and the menus opening stay in tests/e2e/navigation.spec.ts.
 */
import { existsSync } from "node:fs";
import { within } from "@testing-library/dom";
import { describe, expect, it } from "vitest";
import {
  FOOTER_COLUMNS,
  GROWTH_MENU,
  HEADER_LINKS_AFTER_MENU,
  HEADER_LINKS_BEFORE_MENU,
  LEGAL_LINKS,
  MOBILE_EXTRA_LINKS,
} from "../../src/lib/navigation.ts";
import { SITE } from "../../src/lib/site.ts";
import { DIST, PRIVATE_PAGES, ON_DEMAND_ROUTES, builtPage, routeFile, textOf } from "../helpers/dist.ts";

const NAV_HREFS = new Set<string>([
  ...HEADER_LINKS_BEFORE_MENU.map((l) => l.href),
  GROWTH_MENU.href,
  ...GROWTH_MENU.groups.flatMap((g) => g.links.map((l) => l.href)),
  ...HEADER_LINKS_AFTER_MENU.map((l) => l.href),
  ...MOBILE_EXTRA_LINKS.map((l) => l.href),
  ...FOOTER_COLUMNS.flatMap((c) => c.items.flatMap((i) => (i.href ? [i.href] : []))),
  ...LEGAL_LINKS.map((l) => l.href),
]);

/** A path is a page when the build has its file or it is rendered on demand. */
const resolves = (href: string) =>
  ON_DEMAND_ROUTES.has(href) || PRIVATE_PAGES.has(href) || existsSync(DIST + routeFile(href));

describe("links", () => {
  it("every header, menu and footer link of navigation.ts resolves to a page", () => {
    builtPage("/"); // fails with the build hint when dist/ is missing
    expect(NAV_HREFS.size).toBeGreaterThan(20);
    for (const href of NAV_HREFS) expect(resolves(href), href).toBe(true);
  });

  it("every internal link in the rendered header and footer resolves too", () => {
    const { document } = builtPage("/about");
    const hrefs = [...document.querySelectorAll("header a[href^='/'], footer a[href^='/']")].map((a) =>
      a.getAttribute("href")!,
    );
    expect(hrefs.length).toBeGreaterThanOrEqual(NAV_HREFS.size);
    for (const href of hrefs) expect(resolves(href), href).toBe(true);
  });
});

/** The site's header (the chat panel has a header of its own, hidden until opened). */
const siteHeader = (document: Document) => document.querySelector<HTMLElement>("body > header")!;

describe("header", () => {
  it("marks Find Tree Service and Market Intelligence as current on their pages, and not elsewhere", () => {
    for (const [path, label] of [
      ["/find-a-tree-service", "Find Tree Service"],
      ["/industry-analysis", "Market Intelligence"],
    ] as const) {
      const link = builtPage(path).screen.getByRole("navigation", { name: "Main" });
      const current = within(link).getByRole("link", { name: label });
      expect(current.getAttribute("aria-current"), path).toBe("page");
      expect(current.className, path).toMatch(/\bbg-forest-100\b/);
    }
    const nav = builtPage("/blog").screen.getByRole("navigation", { name: "Main" });
    const find = within(nav).getByRole("link", { name: "Find Tree Service" });
    expect(find.className).not.toMatch(/\bbg-forest-100\b/);
    expect(find.hasAttribute("aria-current")).toBe(false);
  });

  it("the Business Growth menu has its two groups and their links", () => {
    const { document, screen } = builtPage("/about");
    const nav = screen.getByRole("navigation", { name: "Main" });
    const trigger = within(nav).getByRole("link", { name: "Business Growth" });
    expect(trigger.getAttribute("aria-controls")).toBe("growth-menu");
    expect(trigger.getAttribute("aria-expanded")).toBe("false");
    const panel = document.getElementById("growth-menu")!;
    for (const group of GROWTH_MENU.groups) {
      expect(textOf(panel)).toContain(group.title);
      for (const link of group.links)
        expect(within(panel).getByRole("link", { name: link.label, hidden: true }).getAttribute("href")).toBe(
          link.href,
        );
    }
  });

  it("carries the Free Quote and Growth Audit buttons, in the bar and in the mobile menu", () => {
    const { document } = builtPage("/about");
    const banner = siteHeader(document);
    const menu = document.getElementById("mobile-menu")!;
    expect(menu.hasAttribute("popover")).toBe(true);
    for (const [name, dialog] of [
      ["Free Quote", "quote-dialog"],
      ["Growth Audit", "audit-dialog"],
    ] as const) {
      const buttons = within(banner).getAllByRole("button", { name, hidden: true });
      // One in the bar, one in the mobile menu; both open the page's prebuilt dialog.
      expect(buttons).toHaveLength(2);
      expect(buttons.filter((b) => menu.contains(b))).toHaveLength(1);
      for (const button of buttons) {
        expect(button.tagName).toBe("BUTTON");
        expect(button.getAttribute("command")).toBe("show-modal");
        expect(button.getAttribute("commandfor")).toBe(dialog);
      }
      expect(document.querySelector(`dialog#${dialog}`), dialog).not.toBeNull();
      expect(within(banner).queryAllByRole("link", { name, hidden: true })).toHaveLength(0);
    }
  });

  it("has a click-to-call link and a menu button for phones", () => {
    const banner = siteHeader(builtPage("/").document);
    const call = within(banner).getByRole("link", { name: `Call ${SITE.phone}` });
    expect(call.getAttribute("href")).toBe(SITE.phoneHref);
    const open = within(banner).getByRole("button", { name: "Open menu" });
    expect(open.getAttribute("popovertarget")).toBe("mobile-menu");
  });

  it("the mobile menu lists the extra links and closes with its own button", () => {
    const { document } = builtPage("/");
    const menu = within(document.getElementById("mobile-menu")!);
    for (const link of MOBILE_EXTRA_LINKS)
      expect(menu.getByRole("link", { name: link.label, hidden: true }).getAttribute("href")).toBe(link.href);
    const close = menu.getByRole("button", { name: "Close menu", hidden: true });
    expect(close.getAttribute("popovertarget")).toBe("mobile-menu");
    expect(close.getAttribute("popovertargetaction")).toBe("hide");
  });

  it("starts with a skip link to the main content", () => {
    const { document } = builtPage("/about");
    const first = document.body.querySelector("a[href], button")!;
    expect(textOf(first)).toBe("Skip to main content");
    expect(first.getAttribute("href")).toBe("#main");
    expect(document.getElementById("main")?.tagName).toBe("MAIN");
  });
});

describe("footer", () => {
  it("links what has a page, shows the rest as plain text, with contact and 24/7 notes", () => {
    const { screen } = builtPage("/");
    const footer = within(screen.getByRole("contentinfo"));
    for (const label of [
      "Tree Health Assessment",
      "AI Quoting System",
      "Marketing & SEO",
      "Fractional CFO",
      "Our Team",
      "Careers",
      "Case Studies",
    ]) {
      expect(footer.getByText(label, { exact: true })).toBeTruthy();
      expect(footer.queryAllByRole("link", { name: label })).toHaveLength(0);
    }
    expect(footer.getByRole("link", { name: "Exit Strategy" }).getAttribute("href")).toBe("/business-growth/phase-6");
    expect(footer.getByRole("link", { name: "Tree Pruning" }).getAttribute("href")).toBe("/services/tree-pruning");
    expect(footer.getByRole("link", { name: SITE.email }).getAttribute("href")).toBe(`mailto:${SITE.email}`);
    const text = textOf(screen.getByRole("contentinfo"));
    expect(text).toContain("24/7");
    expect(text).toContain("voice and text assistant is available on every page");
    expect(text).toContain(`© ${SITE.copyrightYear}`);
  });
});
