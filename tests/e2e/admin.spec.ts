/**
 * The operator's inbox against the real functions and store: a wrong token
 * is refused; a quote sent through the dialog, with markup in it, shows up in /admin with its
 * full detail as text, its reference and the messages the site kept for it (no provider in
 * this run: the visitor's receipt is "Kept (not sent)", its HTML only in a sandboxed frame),
 * and is closed with a note; the CSV export of the filtered list downloads it; the Messages
 * tab says nothing is sent; the operator finds a lead by its reference (with and without
 * "TL-") and offers it by hand to a business near the job, in a 360 px wide window; a review
 * hidden in /admin shows only its reason on the public profile (that the inbox offers no
 * Verify is tests/unit/islands/admin-app.test.tsx). Each test makes its own data (unique
 * names). The page's noindex and its absence from the sitemap are tests/unit/built-routes.test.ts.
 */
import { readFile } from "node:fs/promises";
import { QUOTE_FORM } from "../../src/lib/forms/fields";
import { axeBlocking, expect, signInAdmin, test, unique } from "./fixtures";

/** Not asserted on by the directory specs, so an extra review changes nothing there. */
const BUSINESS = { id: "biz-016", slug: "heights-canopy-care-houston" };

/** A screen that needs two function calls in a row while two browsers share two cores gets this long. */
const SLOW = { timeout: 20_000 };
test.describe.configure({ timeout: 120_000 });

test("a wrong token is refused; a quote from the dialog, markup and all, reaches the inbox as text with its kept messages, is closed and exports as CSV", async ({
  page,
}) => {
  await signInAdmin(page, { token: "definitely-not-the-token" });
  await expect(page.getByRole("alert")).toHaveText("That token was not accepted.", SLOW);
  await expect(page.getByRole("tablist")).toHaveCount(0);
  // The API itself answers 401 JSON, never cached.
  const refused = await page.request.get("/api/admin/leads", { headers: { authorization: "Bearer nope" } });
  expect(refused.status()).toBe(401);
  expect(refused.headers()["cache-control"]).toBe("no-store");
  expect(await refused.json()).toEqual({ error: expect.any(String) });

  // Stored XSS: what a visitor types is shown to the operator as text, never run.
  const SCRIPT = "<script>window.__xss='script';alert('script')</script>";
  const IMG = `<img src=x onerror="window.__xss='img';alert('img')">`;
  const JS_URL = "javascript:window.__xss='url';alert('url')";
  const name = unique("Inbox Tester");
  await page.goto("/");
  await page.getByRole("button", { name: "Get Instant Quote" }).first().click();
  const dialog = page.getByRole("dialog", { name: QUOTE_FORM.title });
  await expect(dialog).toBeVisible();
  const opened = Date.now();
  await dialog.getByLabel("Full Name").fill(`${name} ${SCRIPT}`);
  await dialog.getByLabel("Email").fill("inbox.tester@example.com");
  await dialog.getByLabel("Phone").fill("(512) 555-0177");
  await dialog.getByLabel("Property Address").fill(`${IMG} 500 Congress Ave, Austin, TX`);
  await dialog.getByLabel("Service Needed").selectOption("stump-grinding");
  await dialog.getByLabel("How Soon?").selectOption("within-week");
  await dialog.getByLabel("Tree Type").fill(JS_URL);
  // A submission faster than a person could type is held for the operator (MIN_FILL_MS,
  // netlify/lib/leads.ts); this one must go through as a person's would: a person's pace.
  await page.waitForTimeout(Math.max(0, 2_700 - (Date.now() - opened)));
  await dialog.getByRole("button", { name: QUOTE_FORM.submit }).click();
  await expect(page.getByTestId("quote-estimate")).toBeVisible(SLOW);

  await signInAdmin(page);
  await expect(page.getByRole("tab", { name: /^Leads/ })).toHaveAttribute("aria-selected", "true", SLOW);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Leads inbox");
  await expect(page.getByRole("tab", { name: /^Leads/ })).toHaveText(/^Leads(\d+ needs? you)?$/);
  await page.getByLabel(/Search leads/).fill(name);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  const row = page.getByRole("button", { name: new RegExp(name) });
  await expect(row).toBeVisible(SLOW);
  await expect(row).toContainText("Stump Grinding");
  // Its status is what its offers say: offered to pros near Austin, or the operator's.
  await expect(row).toContainText(/Offered|Escalated|New/);

  await row.click();
  const detail = page.getByRole("dialog", { name: new RegExp(name) });
  await expect(detail).toContainText(`${name} ${SCRIPT}`, SLOW);
  await expect(detail).toContainText(`${IMG} 500 Congress Ave, Austin, TX`);
  await expect(detail).toContainText(JS_URL);
  await expect(detail.locator("img[src='x'], script")).toHaveCount(0);
  await expect(detail.locator("a[href^='javascript:']")).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss ?? null)).toBeNull();
  await expect(detail).toContainText("inbox.tester@example.com");
  await expect(detail.getByRole("link", { name: "(512) 555-0177" })).toHaveAttribute("href", "tel:+15125550177");
  await expect(detail.getByRole("definition").filter({ hasText: /^TL-[0-9A-Z]{4}-[0-9A-Z]{2}$/ })).toBeVisible();
  await expect(detail.getByRole("link", { name: "The visitor's status page" })).toHaveAttribute(
    "href",
    /^\/requests\/ld_[0-9a-z]{19}\/[\w-]+$/,
  );
  // What the site would have sent, kept because no provider is set up in this run.
  const receipt = detail
    .getByRole("list", { name: "Messages about this lead, oldest first" })
    .getByRole("listitem")
    .filter({ hasText: "Visitor:" });
  await expect(receipt).toContainText("<inbox.tester@example.com>", SLOW);
  await expect(receipt).toContainText("Kept (not sent)");
  await receipt.getByRole("button").first().click();
  await expect(receipt.getByTestId("message-text")).toContainText(/Your reference: TL-/);
  await expect(receipt.locator('iframe[sandbox="allow-popups allow-popups-to-escape-sandbox"]')).toHaveAttribute(
    "srcdoc",
    /Your reference/,
  );
  await expect(detail.locator("img[src='x'], script")).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss ?? null)).toBeNull();
  // Choices read as the form showed them, not as stored.
  await expect(detail.getByRole("definition").filter({ hasText: /^Stump Grinding$/ })).toBeVisible();
  await expect(detail.getByRole("definition").filter({ hasText: /^Within a week$/ })).toBeVisible();
  await expect(detail).not.toContainText("within-week");
  await detail.getByRole("checkbox", { name: "Closed" }).check();
  await detail.getByLabel("Note").fill("Called back, site visit Tuesday");
  await detail.getByRole("button", { name: "Save" }).click();
  await expect(detail.getByRole("status")).toHaveText("Saved", SLOW);
  await expect(detail).toContainText(/(Offered|Escalated|New) → Closed/);
  await expect(detail.getByTestId("lead-status")).toContainText("Closed");
  await page.keyboard.press("Escape");
  await expect(row).toContainText("Closed");

  // The export takes what the filters select.
  await page.getByLabel("Type", { exact: true }).selectOption("quote");
  await expect(row).toBeVisible(SLOW);
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^treeline-leads-quote-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await readFile((await file.path())!, "utf8");
  expect(csv.split("\r\n")[0]).toContain("Lead ID,Received (UTC),Type,Status,Name,Email,Phone");
  const line = csv.split("\r\n").find((l) => l.includes(name));
  expect(line).toContain("Closed");
  expect(line).toContain("Called back, site visit Tuesday");
  expect(line).toContain("(512) 555-0177");

  await page.getByRole("tab", { name: "Messages" }).click();
  await expect(page.getByTestId("providers")).toHaveText(
    "Nothing is sent: no e-mail, SMS or webhook provider is configured; every message is kept here.",
    SLOW,
  );
  await expect(page.getByRole("list", { name: "Messages, newest first" })).toContainText("Kept (not sent)");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Messages sent and kept");
});

test("the operator finds a lead by its reference, with or without TL-, and offers it by hand to a business near the job, at 360 px", async ({
  page,
}) => {
  await page.setViewportSize({ width: 360, height: 780 });
  const name = unique("Route By Hand");
  const posted = await page.request.post("/api/quote", {
    data: {
      name,
      email: "route.by.hand@example.com",
      phone: "(512) 555-0166",
      address: "200 Congress Ave, Austin, TX 78701",
      serviceType: "tree-removal",
      urgency: "within-week",
      treeDetails: { treeType: "Live oak", height: "40 ft" },
      estimatedCost: "$900 - $4,500",
      _started: String(Date.now() - 60_000),
    },
  });
  expect(posted.status()).toBe(201);
  const reference = (await posted.json()).reference as string;
  expect(reference).toMatch(/^TL-[0-9A-Z]{4}-[0-9A-Z]{2}$/);

  await signInAdmin(page);
  const search = page.getByLabel(/Search leads/);
  await expect(search).toBeVisible(SLOW);
  const rows = page.getByRole("list", { name: "Leads, newest first" }).getByRole("button");
  // The reference as the homeowner reads it, then without its TL-, in lower case.
  for (const q of [reference, reference.slice(3).toLowerCase()]) {
    await search.fill(q);
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page.getByText(`Results for ${q}`)).toBeVisible(SLOW);
    await expect(rows.first()).toContainText(name, SLOW);
    await expect(rows.first()).toContainText(reference);
  }

  await rows.first().click();
  const detail = page.getByRole("dialog", { name: new RegExp(name) });
  const offers = detail.getByTestId("lead-offers");
  await expect(offers.getByRole("heading", { name: "Offer to nearby businesses" })).toBeVisible(SLOW);
  await offers.getByRole("button", { name: "Show nearby businesses" }).click();
  const nearby = offers.getByRole("list", { name: "Nearby businesses" });
  // The businesses the quote already went to are marked and cannot be chosen again.
  const choosable = nearby.getByRole("checkbox", { disabled: false });
  await expect(choosable.first()).toBeVisible(SLOW);
  const chosen = choosable.first();
  const business = (await chosen.getAttribute("id"))!;
  const businessName = (await nearby.locator(`label[for="${business}"]`).textContent())!.trim();
  await expect(nearby.locator("li").filter({ has: page.locator(`[id="${business}"]`) })).toContainText(
    /\d+(\.\d)? mi · /,
  );
  await chosen.check();
  await offers.getByRole("button", { name: "Offer to the chosen business" }).click();
  await expect(offers.getByRole("status")).toHaveText(`Offered to ${businessName}.`, SLOW);

  // Listed as offered: in the list (marked, not choosable) and among the lead's deliveries, waiting.
  const marked = nearby.locator("li").filter({ hasText: businessName }).filter({ hasText: "Already offered" });
  await expect(marked).toContainText("Already offered: Waiting for an answer");
  await expect(marked.getByRole("checkbox")).toBeDisabled();
  const delivery = detail
    .getByRole("list", { name: "Businesses offered the lead" })
    .getByRole("listitem")
    .filter({ hasText: businessName });
  await expect(delivery).toContainText("Waiting for an answer");
  await expect(delivery).toContainText(/Answer by.*(CST|CDT)/);
  await expect(detail.getByTestId("lead-status")).toContainText("Offered");
  // Its offer was composed (kept on this install) with the rest of the lead's messages.
  await expect(
    detail.getByRole("list", { name: "Messages about this lead, oldest first" }).getByRole("listitem").filter({
      hasText: businessName,
    }),
  ).not.toHaveCount(0);

  // The window fits a 360 px phone: nothing wider than the screen, and nothing axe objects to.
  const overflow = await detail.evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  expect(await axeBlocking(page, "[role=dialog]")).toEqual([]);
});

test("a review hidden in the inbox shows only its reason on the public profile", async ({ page }) => {
  const reviewer = unique("Hide Me");
  const posted = await page.request.post(`/api/businesses/${BUSINESS.id}/reviews`, {
    data: {
      customerName: reviewer,
      rating: 5,
      title: "Great stump work",
      reviewText: "Quick and tidy.",
      serviceType: "",
    },
  });
  expect(posted.status()).toBe(201);
  const reviewId = (await posted.json()).data.id as string;

  await signInAdmin(page);
  await expect(page.getByRole("tab", { name: "Reviews" })).toBeVisible(SLOW);
  await page.getByRole("tab", { name: "Reviews" }).click();
  const card = page.locator(`[data-review-id="${reviewId}"]`);
  await expect(card).toContainText(reviewer, SLOW);
  await card.getByRole("combobox", { name: "Reason to hide" }).selectOption("not-about-this-business");
  await card.getByRole("button", { name: "Hide" }).click();
  await expect(card.getByText("Hidden: not about this business")).toBeVisible(SLOW);

  await page.goto(`/directory/${BUSINESS.slug}`);
  const reviews = page.locator("#reviews");
  await reviews.scrollIntoViewIfNeeded();
  const item = reviews.locator(`[data-review-id="${reviewId}"]`);
  await expect(item).toHaveText("Hidden: not about this business", SLOW);
  await expect(item).not.toContainText(reviewer);
});
