import { expect, test, type Page } from "@playwright/test";
import {
  FOOTER_COLUMNS,
  GROWTH_MENU,
  HEADER_LINKS_AFTER_MENU,
  HEADER_LINKS_BEFORE_MENU,
  LEGAL_LINKS,
  MOBILE_EXTRA_LINKS,
} from "../../src/lib/navigation";
import { SITE } from "../../src/lib/site";

const isMobile = (page: Page) => (page.viewportSize()?.width ?? 1280) < 1024;

test("every header, menu and footer link resolves", async ({ request }) => {
  const hrefs = new Set<string>([
    ...HEADER_LINKS_BEFORE_MENU.map((l) => l.href),
    GROWTH_MENU.href,
    ...GROWTH_MENU.groups.flatMap((g) => g.links.map((l) => l.href)),
    ...HEADER_LINKS_AFTER_MENU.map((l) => l.href),
    ...MOBILE_EXTRA_LINKS.map((l) => l.href),
    ...FOOTER_COLUMNS.flatMap((c) => c.items.flatMap((i) => (i.href ? [i.href] : []))),
    ...LEGAL_LINKS.map((l) => l.href),
  ]);
  for (const href of hrefs) {
    expect((await request.get(href)).status(), href).toBe(200);
  }
});

test("footer: links, plain-text placeholders, contact and 24/7 notes", async ({ page }) => {
  await page.goto("/");
  const footer = page.locator("footer");
  for (const label of [
    "Tree Health Assessment",
    "AI Quoting System",
    "Marketing & SEO",
    "Fractional CFO",
    "Our Team",
    "Careers",
    "Case Studies",
  ]) {
    const item = footer.getByText(label, { exact: true });
    await expect(item).toBeVisible();
    await expect(footer.getByRole("link", { name: label, exact: true })).toHaveCount(0);
  }
  await expect(footer.getByRole("link", { name: "Exit Strategy" })).toHaveAttribute("href", "/business-growth/phase-6");
  await expect(footer.getByRole("link", { name: "Tree Pruning" })).toHaveAttribute("href", "/services/tree-pruning");
  await expect(footer.getByRole("link", { name: SITE.email })).toHaveAttribute("href", `mailto:${SITE.email}`);
  await expect(footer).toContainText("24/7");
  await expect(footer).toContainText("voice and text assistant is available on every page");
  await expect(footer).toContainText(`© ${SITE.copyrightYear}`);
});

test("Find Tree Service and Market Intelligence are highlighted when active", async ({ page }) => {
  test.skip(isMobile(page), "desktop navigation");
  for (const [path, label] of [
    ["/find-a-tree-service", "Find Tree Service"],
    ["/industry-analysis", "Market Intelligence"],
  ] as const) {
    await page.goto(path);
    const link = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: label });
    await expect(link).toHaveAttribute("aria-current", "page");
    await expect(link).toHaveClass(/bg-forest-100/);
  }
  await page.goto("/blog");
  await expect(
    page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Find Tree Service" }),
  ).not.toHaveClass(/bg-forest-100/);
});

test("Free Quote and Growth Audit buttons are in the header", async ({ page }) => {
  await page.goto("/about");
  if (isMobile(page)) {
    await page.getByRole("button", { name: "Open menu" }).click();
    const menu = page.locator("#mobile-menu");
    await expect(menu.locator('[commandfor="quote-dialog"]')).toBeVisible();
    await expect(menu.locator('[commandfor="audit-dialog"]')).toBeVisible();
  } else {
    await expect(page.locator('header [commandfor="quote-dialog"]').first()).toBeVisible();
    await expect(page.locator('header [commandfor="audit-dialog"]').first()).toBeVisible();
  }
});

test("mobile header shows a click-to-call link", async ({ page }) => {
  test.skip(!isMobile(page), "mobile header");
  await page.goto("/");
  const call = page.locator("header").getByRole("link", { name: `Call ${SITE.phone}` });
  await expect(call).toBeVisible();
  await expect(call).toHaveAttribute("href", SITE.phoneHref);
});

test("skip link moves focus to the main content", async ({ page }) => {
  await page.goto("/about");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to main content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/#main$/);
});

test("F8 focuses the notification region", async ({ page }) => {
  await page.goto("/about");
  await page.keyboard.press("F8");
  await expect(page.getByRole("region", { name: "Notifications (F8)" })).toBeFocused();
});

for (const javaScriptEnabled of [true, false]) {
  test.describe(`JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("Business Growth dropdown opens on hover and on keyboard focus", async ({ page }) => {
      test.skip(isMobile(page), "desktop navigation");
      await page.goto("/about");
      const nav = page.getByRole("navigation", { name: "Main" });
      const panel = page.locator("#growth-menu");
      await expect(panel).toBeHidden();
      await nav.getByRole("link", { name: "Business Growth" }).hover();
      await expect(panel).toBeVisible();
      await expect(panel.getByText("Growth Solutions")).toBeVisible();
      await expect(panel.getByText("Growth Phases")).toBeVisible();
      await panel.getByRole("link", { name: /Phase 2/ }).click();
      await expect(page).toHaveURL(/\/business-growth\/phase-2$/);

      // Keyboard: tab onto the trigger, then into the menu.
      await page.mouse.move(5, 700);
      await page.goto("/about");
      await expect(panel).toBeHidden();
      await nav.getByRole("link", { name: "Find Tree Service" }).focus();
      await page.keyboard.press("Tab");
      await expect(nav.getByRole("link", { name: "Business Growth" })).toBeFocused();
      await expect(panel).toBeVisible();
      await page.keyboard.press("Tab");
      await expect(panel.getByRole("link", { name: "Growth Programme" })).toBeFocused();
      if (javaScriptEnabled) {
        await expect(nav.getByRole("link", { name: "Business Growth" })).toHaveAttribute("aria-expanded", "true");
        await page.keyboard.press("Escape");
        await expect(panel).toBeHidden();
        await expect(nav.getByRole("link", { name: "Business Growth" })).toBeFocused();
      }
    });

    test("mobile side menu opens, lists the extra links and closes", async ({ page }) => {
      test.skip(!isMobile(page), "mobile navigation");
      await page.goto("/");
      const menu = page.locator("#mobile-menu");
      await expect(menu).toBeHidden();
      await page.getByRole("button", { name: "Open menu" }).click();
      await expect(menu).toBeVisible();
      for (const link of MOBILE_EXTRA_LINKS) {
        await expect(menu.getByRole("link", { name: link.label, exact: true })).toHaveAttribute("href", link.href);
      }
      await menu.getByRole("button", { name: "Close menu" }).click();
      await expect(menu).toBeHidden();
      await page.getByRole("button", { name: "Open menu" }).click();
      await menu.getByRole("link", { name: "Stump Grinding", exact: true }).click();
      await expect(page).toHaveURL(/\/services\/stump-grinding$/);
    });
  });
}
