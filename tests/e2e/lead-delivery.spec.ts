/**
 * Lead delivery (docs/lead-delivery.md) as the people in it live it, against the real
 * functions and store. No provider is set up in e2e, so every message is kept and the
 * operator reads it in /admin > Messages; that is how the business's answer link is found.
 *
 * 1. No JavaScript: a homeowner books a business in an emergency and gets the danger first,
 *    a reference and a status page; the operator finds the offer; the business opens its
 *    link, sees the job, the customer's first name and area (no number), and taps "Accept and
 *    call" with a window and a price: the number comes back first; the status page says so. A
 *    link with one character changed is refused (404), and a second answer changes nothing.
 * 2. JavaScript, on the phone too: an emergency find-pros request; the confirmation puts the
 *    danger and our own line first, then the reference; the status page lists the matched pros, nearest first.
 * 3. A pro answers from the link, with JavaScript and without: no number before accepting, the
 *    number, e-mail and address after; it gives the job back with a reason and sees none of
 *    them again; the homeowner's status page says so.
 *
 * Signing, the clock and every refusal are tests/unit/delivery and tests/integration/delivery.
 */
import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { EMERGENCY_CONFIRMATION, RECEIPT_COPY } from "../../src/lib/forms/copy";
import { FIND_PROS_FORM } from "../../src/lib/forms/fields";
import { DECLINE_REASONS, WITHDRAW_REASONS } from "../../src/lib/lead-routing";
import { KEPT_BADGE } from "../../netlify/lib/page-data/delivery-status";
import { ADMIN_TOKEN, axeBlocking, expect, signInAdmin, test, unique, watchPage } from "./fixtures";

const REFERENCE = /TL-[0-9A-Z]{4}-[0-9A-Z]{2}/;
/** A server page after a form post, or an admin screen that needs two function calls, on two busy cores. */
const SLOW = { timeout: 20_000 };

const escapeRe = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** True when `first` comes before `second` in the document. */
async function precedes(first: Locator, second: Locator): Promise<boolean> {
  const other = await second.elementHandle();
  return first.evaluate((a, b) => !!(b && a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING), other);
}

/** The status page's "Who has it" entries, in order. */
const holders = (page: Page) => page.getByRole("list", { name: "Who has it" }).getByRole("listitem");

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("an emergency booking reaches the business through its kept offer; it accepts from the link, the visitor's status page says so, and a forged or second answer changes nothing", async ({
    page,
    browser,
    request,
    watch,
  }) => {
    test.setTimeout(120_000);
    const { baseURL } = test.info().project.use;
    const listed = (await (await request.get("/api/businesses?limit=1")).json()).data[0];
    expect(listed.email && listed.phone, "the business can be reached").toBeTruthy();
    const customer = unique("Storm Homeowner");
    const description = `Live oak limb through the roof in the storm (${customer})`;

    // The homeowner books from the business's page; the form posts natively.
    await page.goto(`/directory/${listed.slug}`);
    await page.getByRole("main").getByRole("button", { name: "Book Service" }).click();
    const form = page.getByRole("dialog", { name: `Book Service with ${listed.name}` });
    await form.getByLabel("Full Name").fill(customer);
    await form.getByLabel("Email").fill("storm.homeowner@example.com");
    await form.getByLabel("Phone").fill("(210) 555-0163");
    await form.getByLabel("Service Type").selectOption(listed.services[0]);
    await form.getByLabel("Property Address").fill("410 Oakmont Ct, San Antonio, TX");
    await form.getByLabel("Urgency").selectOption({ label: "Emergency" });
    await form.getByLabel("Describe the Job").fill(description);
    await form.getByRole("button", { name: "Submit Booking Request" }).click();

    // The danger first, then our own line, never a day or an arrival; then the reference and the way to follow it.
    const main = page.getByRole("main");
    const call = page.getByTestId("emergency-call");
    const receipt = page.getByTestId("lead-receipt");
    await expect(main).toContainText(EMERGENCY_CONFIRMATION.heading, SLOW);
    await expect(call).toContainText(EMERGENCY_CONFIRMATION.lines);
    await expect(main).not.toContainText(/dispatch|on site|arriv/i);
    await expect(call.getByRole("link", { name: EMERGENCY_CONFIRMATION.call })).toHaveAttribute("href", /^tel:/);
    await expect(receipt).toContainText(new RegExp(`${RECEIPT_COPY.referenceLabel} ${REFERENCE.source}`));
    expect(await precedes(call, receipt)).toBe(true);
    await expect(main).not.toContainText("24 hours");
    const reference = (await receipt.getByText(REFERENCE).textContent())!.trim();
    await receipt.getByRole("link", { name: RECEIPT_COPY.track }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Your request ${reference}`);
    const statusPath = new URL(page.url()).pathname;
    expect(statusPath).toMatch(/^\/requests\/ld_[0-9a-z]+\/[\w-]+$/);
    await expect(holders(page)).toHaveCount(1);
    await expect(holders(page)).toContainText(listed.name);
    // No provider in e2e: the offer is kept for the team, and the page does not call it waiting.
    await expect(holders(page)).toContainText(KEPT_BADGE.label);

    // The operator (JavaScript on) finds the offer to that business, kept, and reads its link.
    const operatorContext = await browser.newContext({ baseURL, javaScriptEnabled: true });
    const operator = await operatorContext.newPage();
    await watchPage(operator, watch);
    // The lead's own link (as in the operator's alert): its messages, whatever else arrived since.
    const leadId = /^\/requests\/(ld_[0-9a-z]+)\//.exec(statusPath)![1];
    await signInAdmin(operator, { path: `/admin#lead=${leadId}` });
    const offer = operator
      .getByRole("list", { name: "Messages about this lead, oldest first" })
      .getByRole("listitem")
      .filter({ hasText: "E-mail · Offer" });
    await expect(offer).toContainText(`Business: ${listed.name} <${listed.email}>`, SLOW);
    await expect(offer).toContainText("Kept (not sent)");
    await offer.getByRole("button").first().click();
    const text = (await offer.getByTestId("message-text").textContent())!;
    expect(text).toContain(description);
    const link = /(https?:\/\/[^\s/]+)?(\/respond\/\S+)/.exec(text);
    expect(link, "the offer carries an answer link").not.toBeNull();
    // The link is on SITE_URL's origin (the e-mail's), so only its path is followed here.
    const answerPath = link![2]!;
    expect(answerPath).toMatch(new RegExp(`^/respond/ld_[0-9a-z]+\\.${listed.id}\\.[0-9a-z]+\\.[\\w-]+$`));
    await expect(offer.locator('iframe[sandbox="allow-popups allow-popups-to-escape-sandbox"]')).toHaveAttribute(
      "srcdoc",
      new RegExp(escapeRe(answerPath)),
    );
    // axe runs as a script, which the business's browser does not; the page has none of its own,
    // so this is the page the business gets (a GET changes nothing).
    await operator.goto(answerPath);
    const firstName = customer.split(" ")[0]!;
    await expect(operator.getByRole("button", { name: `Accept and call ${firstName}` })).toBeVisible();
    expect(await axeBlocking(operator)).toEqual([]);
    await operatorContext.close();

    // The business (no JavaScript) opens it twice, from the e-mail and from the SMS.
    const businessContext = await browser.newContext({ baseURL, javaScriptEnabled: false });
    const business = await businessContext.newPage();
    const sms = await businessContext.newPage();
    await watchPage(business, watch);
    await watchPage(sms, watch);
    await business.goto(answerPath);
    await expect(business.getByRole("heading", { level: 1 })).toHaveText(`Emergency job ${reference}`);
    const job = business.getByRole("table").first();
    await expect(job).toContainText(listed.services[0]);
    // Before accepting: the area and the first name, nothing to reach the customer by.
    await expect(job).toContainText("San Antonio, TX");
    await expect(business.getByRole("main")).not.toContainText("410 Oakmont");
    await expect(job).toContainText(description);
    const theCustomer = business.getByRole("table").nth(1);
    await expect(theCustomer).toHaveText(`Name${firstName}`);
    await expect(business.getByRole("main")).not.toContainText("555-0163");
    await expect(business.getByRole("main").locator("a[href^='tel:'], a[href^='mailto:']")).toHaveCount(0);
    await sms.goto(answerPath);

    // One tap accepts and brings the number back first.
    await business.getByLabel("When can you come? (optional)").fill("Today 4-6 PM");
    await business.getByLabel("Your price or range (optional)").fill("$650");
    await business.getByRole("button", { name: `Accept and call ${firstName}` }).click();
    await expect(business.getByRole("status")).toContainText("You accepted this job", SLOW);
    const callNow = business.getByRole("main").getByRole("link").first();
    await expect(callNow).toHaveText(`Call ${firstName} now: (210) 555-0163`);
    await expect(callNow).toHaveAttribute("href", "tel:+12105550163");
    await expect(theCustomer).toContainText(customer);
    await expect(theCustomer).toContainText("410 Oakmont Ct, San Antonio, TX");
    await expect(business.getByRole("button", { name: /^Accept/ })).toHaveCount(0);

    // The visitor's page now names the business, the window and the price.
    const accepted = async () => {
      await page.goto(statusPath);
      await expect(holders(page)).toHaveCount(1);
      await expect(holders(page)).toContainText("Accepted");
      await expect(holders(page)).toContainText("When: Today 4-6 PM · Price: $650");
      await expect(holders(page)).not.toContainText("Waiting for an answer");
    };
    await accepted();
    await expect(page.getByRole("link", { name: `Call ${listed.name}: ${listed.phone}` })).toBeVisible();

    // One character changed: not a link at all, and nothing moved.
    const last = answerPath.at(-1)!;
    const forged = `${answerPath.slice(0, -1)}${last === "A" ? "B" : "A"}`;
    const refused = await business.goto(forged);
    expect(refused?.status()).toBe(404);
    await expect(business.getByRole("heading", { level: 1 })).toHaveText("This link isn't valid");
    await accepted();

    // The other copy of the link, still showing the form: the first answer stands.
    await sms.getByLabel(DECLINE_REASONS[0].label).check();
    await sms.getByRole("button", { name: "Decline" }).click();
    await expect(sms.getByRole("status")).toContainText("your first answer stands", SLOW);
    await expect(sms.getByRole("main")).toContainText("Accepted");
    await accepted();
    await businessContext.close();
  });
});

test(
  "an emergency find-pros request on the phone: the danger and our own line first, the reference, and a status page with the matched pros waiting, nearest first",
  { tag: "@mobile" },
  async ({ page }) => {
    test.setTimeout(90_000);
    await page.goto("/find-a-tree-service");
    const form = page.locator("#find-pros-form");
    await form.scrollIntoViewIfNeeded();
    await expect(form).toHaveAttribute("novalidate", "", SLOW);
    const field = (name: string) => {
      const label = FIND_PROS_FORM.fields.find((f) => f.name === name)!.label;
      return form.getByLabel(new RegExp(`^${escapeRe(label)}( \\*)?$`));
    };
    await field("location").fill("Austin");
    await field("serviceType").selectOption("Tree Removal");
    await field("propertyType").selectOption("residential");
    await field("timeline").selectOption({ label: "Emergency (ASAP)" });
    await field("description").fill("Pecan split in the storm, half of it on the driveway.");
    await field("name").fill(unique("Phone Homeowner"));
    await field("email").fill("phone.homeowner@example.com");
    await field("phone").fill("(512) 555-0186");
    // A request sent sooner than a person could fill it in is held for the operator (MIN_FILL_MS,
    // counted from the page's load); this one must reach the pros as a person's would.
    const loaded = await page.evaluate(() => performance.timeOrigin);
    await page.waitForTimeout(Math.max(0, 2_700 - (Date.now() - loaded)));
    await form.getByRole("button", { name: FIND_PROS_FORM.submit }).click();

    const done = page.getByTestId("find-pros-confirmation");
    const call = done.getByTestId("emergency-call");
    const receipt = done.getByTestId("lead-receipt");
    const pros = done.locator('a[href^="/directory/"]');
    await expect(call).toContainText(EMERGENCY_CONFIRMATION.heading, SLOW);
    await expect(receipt).toContainText(REFERENCE);
    await expect(pros).toHaveCount(3);
    expect(await precedes(call, receipt)).toBe(true);
    expect(await precedes(receipt, pros.first())).toBe(true);
    await expect(done).not.toContainText("24 hours");
    const miles = (await done.getByTestId("match-distance").allTextContents()).map((t) => parseFloat(t));
    expect([...miles].sort((a, b) => a - b)).toEqual(miles);
    const names = await pros.allTextContents();
    const reference = (await receipt.getByText(REFERENCE).textContent())!.trim();

    await receipt.getByRole("link", { name: RECEIPT_COPY.track }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Your request ${reference}`);
    await expect(page.getByRole("main").getByRole("link", { name: EMERGENCY_CONFIRMATION.call }).first()).toBeVisible();
    await expect(page.getByRole("main")).not.toContainText("24 hours");
    await expect(holders(page)).toHaveCount(3);
    for (const [i, name] of names.entries()) {
      await expect(holders(page).nth(i)).toContainText(name);
      await expect(holders(page).nth(i)).toContainText(KEPT_BADGE.label);
    }
    expect(await axeBlocking(page)).toEqual([]);
  },
);

/**
 * The pro's side of one offer, with JavaScript (`js`) or without: the homeowner's booking goes
 * in through the API (the journeys above drive the forms), its offer's link is read from
 * /admin's messages API as the operator's view shows it.
 */
async function proAnswersAndWithdraws({ page, request }: { page: Page; request: APIRequestContext }, js: boolean) {
  const listed = (await (await request.get("/api/businesses?limit=1")).json()).data[0];
  const customer = unique(js ? "Pat Homeowner" : "Lee Homeowner");
  const firstName = customer.split(" ")[0]!;
  const booked = await request.post("/api/booking-request", {
    data: {
      customerName: customer,
      customerEmail: "pro.journey@example.com",
      customerPhone: "(210) 555-0164",
      serviceType: listed.services[0],
      propertyAddress: "77 Mesquite Trail, San Antonio, TX 78209",
      description: "Dead cedar leaning on the fence.",
      businessId: listed.id,
      _started: String(Date.now() - 60_000),
    },
  });
  expect(booked.status()).toBe(201);
  const { id, statusUrl } = (await booked.json()) as { id: string; statusUrl: string };
  let answerPath = "";
  await expect(async () => {
    const res = await request.get(`/api/admin/messages?leadId=${id}`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const { data } = (await res.json()) as { data: { kind: string; text: string }[] };
    const offer = data.find((m) => m.kind === "offer");
    expect(offer, "the offer is kept").toBeDefined();
    expect(offer!.text).not.toContain("555-0164");
    answerPath = /\/respond\/\S+/.exec(offer!.text)![0];
  }).toPass(SLOW);

  // Before accepting: the job, "Pat" and the area; no number, e-mail or street, no call.
  await page.goto(answerPath);
  const main = page.getByRole("main");
  await expect(main).toContainText(firstName);
  await expect(main).toContainText("San Antonio, TX 78209");
  for (const hidden of [customer, "555-0164", "pro.journey@example.com", "77 Mesquite"])
    await expect(main).not.toContainText(hidden);
  await expect(main.locator("a[href^='tel:'], a[href^='mailto:']")).toHaveCount(0);

  // Accepting brings them.
  await page.getByLabel("When can you come? (optional)").fill("Friday 9-11 AM");
  await page.getByRole("button", { name: "Accept this job" }).click();
  await expect(page.getByRole("status")).toContainText("you accepted this job", SLOW);
  await expect(main.getByRole("link", { name: /Call the customer/ })).toHaveAttribute("href", "tel:+12105550164");
  await expect(main.getByRole("link", { name: "pro.journey@example.com" })).toHaveAttribute(
    "href",
    "mailto:pro.journey@example.com",
  );
  await expect(main).toContainText(customer);
  await expect(main).toContainText("77 Mesquite Trail, San Antonio, TX 78209");
  // axe runs as a script: on the accepted page with its new form, where the browser runs one.
  if (js) expect(await axeBlocking(page)).toEqual([]);

  // Giving it back takes a reason; then the details are gone again.
  await page.getByLabel(WITHDRAW_REASONS[0].label).check();
  await page.getByRole("button", { name: "Give this job back" }).click();
  await expect(page.getByRole("status")).toContainText("You gave this job back", SLOW);
  await expect(main).toContainText(WITHDRAW_REASONS[0].label);
  for (const hidden of [customer, "555-0164", "pro.journey@example.com", "77 Mesquite"])
    await expect(main).not.toContainText(hidden);
  // No contact and nothing left to answer; a bad lead can still be reported, and the business's
  // availability (taking storm jobs, fully booked) can still be set from its link.
  const otherForms = "form:not(:has(input[name='action'][value='report'], input[name='action'][value='capacity']))";
  await expect(main.locator(`a[href^='tel:'], a[href^='mailto:'], ${otherForms}`)).toHaveCount(0);
  await expect(main.getByRole("button", { name: "Report this lead" })).toBeVisible();

  // The homeowner's page says so.
  await page.goto(statusUrl);
  await expect(holders(page).filter({ hasText: listed.name })).toContainText("Gave the job back");
}

test.describe("a pro answers from the link: sees no phone, accepts, sees the phone; gives the job back", () => {
  test("with JavaScript", async ({ page, request }) => {
    test.setTimeout(60_000);
    await proAnswersAndWithdraws({ page, request }, true);
  });

  test.describe(() => {
    test.use({ javaScriptEnabled: false });
    test("without JavaScript", async ({ page, request }) => {
      test.setTimeout(60_000);
      await proAnswersAndWithdraws({ page, request }, false);
    });
  });
});
