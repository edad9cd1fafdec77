/**
 * Getting around as a person does: the desktop header's Business Growth menu by mouse and by
 * keyboard (with and without JavaScript), the skip link, F8 to the notifications and the
 * header's dialog buttons; on the phone, the click-to-call header and the side menu. The
 * links themselves, the current-page marks and the footer are tests/unit/built-navigation.test.ts.
 */
import type { Page } from "@playwright/test";
import { MOBILE_EXTRA_LINKS } from "../../src/lib/navigation";
import { AUDIT_FORM, QUOTE_FORM } from "../../src/lib/forms/fields";
import { SITE } from "../../src/lib/site";
import { expect, test } from "./fixtures";

/** Each header button opens its dialog, which Escape closes again. */
async function headerDialogs(page: Page, openMenu: () => Promise<void>) {
  for (const [name, title] of [
    ["Free Quote", QUOTE_FORM.title],
    ["Growth Audit", AUDIT_FORM.title],
  ] as const) {
    await openMenu();
    const button = page.getByRole("banner").getByRole("button", { name, exact: true }).locator("visible=true");
    await expect(button).toHaveCount(1);
    await button.click();
    const dialog = page.getByRole("dialog", { name: title });
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
  }
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("desktop header: the Business Growth menu opens on hover and by keyboard; the skip link and the dialog buttons work", async ({
      page,
    }) => {
      await page.goto("/about");
      // The skip link is the first stop of the keyboard.
      await page.keyboard.press("Tab");
      const skip = page.getByRole("link", { name: "Skip to main content" });
      await expect(skip).toBeFocused();
      await expect(skip).toBeVisible();
      await page.keyboard.press("Enter");
      await expect(page).toHaveURL(/#main$/);

      const nav = page.getByRole("navigation", { name: "Main" });
      const trigger = nav.getByRole("link", { name: "Business Growth" });
      const panel = page.locator("#growth-menu");
      await expect(panel).toBeHidden();
      await trigger.hover();
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
      await expect(trigger).toBeFocused();
      await expect(panel).toBeVisible();
      await page.keyboard.press("Tab");
      await expect(panel.getByRole("link", { name: "Growth Program", exact: true })).toBeFocused();
      if (javaScriptEnabled) {
        await expect(trigger).toHaveAttribute("aria-expanded", "true");
        await page.keyboard.press("Escape");
        await expect(panel).toBeHidden();
        await expect(trigger).toBeFocused();
        // F8 reaches the notifications from anywhere.
        await page.keyboard.press("F8");
        await expect(page.getByRole("region", { name: "Notifications (F8)" })).toBeFocused();
      }

      await headerDialogs(page, async () => {});
    });

    test(
      "phone header: click-to-call, and the side menu with its extra links, dialog buttons and Close",
      { tag: "@mobile-only" },
      async ({ page }) => {
        await page.goto("/");
        const call = page.locator("header").getByRole("link", { name: `Call ${SITE.phone}` });
        await expect(call).toBeVisible();
        await expect(call).toHaveAttribute("href", SITE.phoneHref);

        const menu = page.locator("#mobile-menu");
        const open = page.getByRole("button", { name: "Open menu" });
        await expect(menu).toBeHidden();
        await open.click();
        await expect(menu).toBeVisible();
        for (const link of MOBILE_EXTRA_LINKS)
          await expect(menu.getByRole("link", { name: link.label, exact: true })).toHaveAttribute("href", link.href);
        await menu.getByRole("button", { name: "Close menu" }).click();
        await expect(menu).toBeHidden();

        // The menu's Free Quote and Growth Audit open the dialogs.
        await headerDialogs(page, async () => {
          if (!(await menu.isVisible())) await open.click();
        });

        await page.goto("/");
        await open.click();
        await menu.getByRole("link", { name: "Stump Grinding", exact: true }).click();
        await expect(page).toHaveURL(/\/services\/stump-grinding$/);
      },
    );
  });
}
