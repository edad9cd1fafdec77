/**
 * Storm mode, one journey (the `owners` project: a server and store of its own, since a storm
 * changes directory pages other specs read): the operator declares a storm for ZIPs around
 * 33101 in /admin > Storms; a Miami business page (axe-clean, within 360 px) and a near-me
 * search for 33101 show the notice with Florida's rule, with JavaScript on (the search typed
 * into the list too) and off, and neither a search for 78701 nor /storm for 78701 does; the
 * home page's ZIP check finds it without JavaScript; ending it in /admin takes it off the pages.
 * Everything finer (area matching, rules, the API, NWS suggestions, estimates) is in vitest.
 */
import { axeBlocking, expect, signInAdmin, test, unique } from "./fixtures";

const MIAMI = "/directory/miami-arbor-co-miami";
const SLOW = { timeout: 20_000 };
test.describe.configure({ timeout: 120_000 });

test("a storm declared for ZIPs around 33101 shows on Miami pages, JS on and off, not for 78701; ending it clears them", async ({
  page,
  browser,
}) => {
  const name = unique("Hurricane E2E");
  const notice = (p: typeof page) => p.getByRole("region", { name: `Storm emergency in this area: ${name}` });

  await signInAdmin(page);
  await page.getByRole("tab", { name: "Storms" }).click(SLOW);
  await expect(page.getByRole("heading", { level: 1, name: "Storm mode" })).toBeVisible(SLOW);
  const form = page.locator("form", { has: page.getByRole("button", { name: "Declare storm" }) }).last();
  await form.getByLabel("Storm name").fill(name);
  await form.getByRole("textbox", { name: "ZIPs in the area" }).fill("33101, 33125, 33130");
  await form.getByLabel("Declaration reference").fill("Executive Order 26-E2E");
  await form.getByRole("button", { name: "Declare storm" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Declared: ${name}` })).toBeVisible(SLOW);

  // JavaScript on: the business page, and the near-me search typed into the list.
  await page.goto(MIAMI);
  await expect(notice(page)).toBeVisible();
  await expect(notice(page)).toContainText("Florida Statutes 501.160");
  await expect(notice(page)).toContainText("Never pay in full up front");
  expect(await axeBlocking(page)).toEqual([]);
  // At 360 px the notice fits: nothing scrolls sideways.
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto(MIAMI);
  await expect(notice(page)).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/directory?near=78701");
  await expect(page.getByTestId("storm-notice")).toHaveCount(0);
  // Reaching into the list starts its island; the next search is the island's, through the API.
  await page.getByTestId("results-count").hover();
  await expect(page.getByTestId("directory")).toHaveAttribute("data-hydrated", "true", { timeout: 30_000 });
  const nearBox = page.getByRole("textbox", { name: "ZIP code or city" });
  await nearBox.fill("33101");
  await nearBox.press("Enter");
  await expect(page).toHaveURL(/\/directory\?near=33101$/);
  await expect(notice(page)).toContainText("Florida Statutes 501.160", SLOW);

  // JavaScript off: the same pages as the server renders them, and the home page's ZIP check.
  const off = await browser.newContext({ javaScriptEnabled: false, baseURL: test.info().project.use.baseURL });
  const noJs = await off.newPage();
  await noJs.goto(MIAMI);
  await expect(notice(noJs)).toContainText("Florida Statutes 501.160");
  await noJs.goto("/directory?near=33101");
  await expect(notice(noJs)).toContainText("Florida Statutes 501.160");
  await noJs.goto("/directory?near=78701");
  await expect(noJs.getByTestId("storm-notice")).toHaveCount(0);
  await noJs.goto("/");
  await noJs.getByLabel("Storm in your area? Enter your ZIP").fill("33125");
  await noJs.getByRole("button", { name: "Check my ZIP" }).click();
  await expect(noJs).toHaveURL(/\/storm\?zip=33125$/);
  await expect(notice(noJs)).toContainText("Florida Statutes 501.160");
  // The next step from the check: the pros near that ZIP, the notice with them.
  await noJs.getByRole("link", { name: "Find tree pros near 33125" }).click();
  await expect(noJs).toHaveURL(/\/directory\?near=33125$/);
  await expect(notice(noJs)).toContainText("Florida Statutes 501.160");
  await noJs.goBack();
  await noJs.getByLabel("Storm in your area? Enter your ZIP").fill("78701");
  await noJs.getByRole("button", { name: "Check my ZIP" }).click();
  await expect(noJs.getByTestId("storm-clear")).toContainText("No storm emergency is declared for this ZIP");

  // Ended in /admin (the tab keeps the operator signed in): off the pages at once.
  await page.goto("/admin");
  await page.getByRole("tab", { name: "Storms" }).click(SLOW);
  const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name }) });
  await card.getByRole("button", { name: "End now" }).click(SLOW);
  await expect(page.getByRole("status").filter({ hasText: `Ended: ${name}` })).toBeVisible(SLOW);
  await noJs.goto(MIAMI);
  await expect(noJs.getByTestId("storm-notice")).toHaveCount(0);
  await off.close();
});
