/**
 * How an owner gets in (docs/owners.md, "Claims and signing in"), against the real functions
 * and store. No provider is set up in e2e, so a claim goes to the operator (the form offers no
 * e-mail or text), every sign-in link is kept and the operator reads it in /admin > Messages.
 *
 * 1. No JavaScript: from a business's page, its owner claims it with the e-mail on file; the
 *    operator approves it; the owner opens the kept link, presses Sign in and manages the
 *    business; changes Monday's hours and replies to a review, and the public page shows both on
 *    the next request. Signed out, they sign in again from /owner with their e-mail.
 * 2. JavaScript: "Add your business" from the footer, in Boise (any US ZIP), with its hours; the
 *    operator approves it in the Claims tab; then its page is public, with its claim link; the
 *    submitter signs in with the kept link and adds a photo, which the page shows until the
 *    operator rolls it back in the Changes tab. The forms and every owner page pass axe.
 *
 * What the server answers is vitest's: the masked e-mail, the sign-in POST (303, the cookie's
 * attributes, a GET signing nobody in, a used link refused) and the listing before and after
 * approval are tests/integration/functions/owner-claims.test.ts and tests/unit/owners; the
 * JSON-LD hours are tests/integration/functions/owner-pages.test.ts.
 */
import type { APIRequestContext } from "@playwright/test";
import { CLAIM_LINK_LABEL, ADD_BUSINESS_LABEL } from "../../src/lib/owner-links";
import { PROFILE_SAVED } from "../../src/lib/owner-profile/messages";
import { REPLY_MESSAGES } from "../../src/lib/schemas/reply";
import { ADMIN_TOKEN, axeBlocking, expect, signInAdmin, test, unique } from "./fixtures";

const SLOW = { timeout: 20_000 };
/** A 40x30 PNG (sharp resizes and re-encodes whatever the owner uploads). */
const PHOTO = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAACgAAAAeCAIAAADRv8uKAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAPUlEQVRIie3VsQ0AMAwCsH7EFVzD/3vPaAdL2SNFBJ+sT+ZYPKeOcNU7TYFEZRYSw2KxOCwGi8XisJivWLxzihWNx/MiQQAAAABJRU5ErkJggg==",
  "base64",
);

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

/** The newest kept sign-in message to `to` of `kind`, as the operator's API lists it. */
async function keptLink(
  request: APIRequestContext,
  to: string,
  kind = /owner-sign-in|claim-approved/,
): Promise<string> {
  let text = "";
  // A returning owner's link is stored just after the page answered: looked for until it is there.
  await expect
    .poll(async () => {
      const res = await request.get("/api/admin/messages?limit=50", { headers: admin });
      const { data } = (await res.json()) as { data: { to: string; kind: string; state: string; text: string }[] };
      const message = data.find((m) => m.to === to && kind.test(m.kind));
      text = message?.text ?? "";
      return message?.state;
    }, SLOW)
    .toBe("kept");
  return /\/owner\/sign-in\/[\w-]{43}/.exec(text)![0];
}

/** The operator approves the newest pending claim by `email` (the Claims tab is journey 2's). */
async function approveClaimBy(request: APIRequestContext, email: string): Promise<void> {
  const res = await request.get("/api/admin/claims", { headers: admin });
  const { data } = (await res.json()) as { data: { id: string; claimant: { email: string } }[] };
  const claim = data.find((c) => c.claimant.email === email)!;
  const approved = await request.patch(`/api/admin/claims/${claim.id}`, {
    headers: admin,
    data: { decision: "approve" },
  });
  expect(approved.status()).toBe(200);
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("an owner claims a business, signs in with the kept link once approved, changes its page and signs in again", async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    const listed = (await (await request.get("/api/businesses?limit=1&offset=3")).json()).data[0];
    expect(listed.email, "the business has an e-mail on file").toBeTruthy();

    await page.goto(`/directory/${listed.slug}`);
    await page.getByRole("link", { name: CLAIM_LINK_LABEL }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Claim ${listed.name}`);
    await page.getByLabel("Your name").fill(unique("Owner"));
    await page.getByLabel("Your e-mail").fill(listed.email.toUpperCase());
    await page.getByLabel("Your role").selectOption("owner");
    // Nothing can send an e-mail or a text here: no such choice, and the form says who checks it.
    await expect(page.getByLabel(/Send a sign-in link/)).toHaveCount(0);
    await expect(page.getByRole("main")).toContainText("goes to the Treeline team for a check by hand");
    await page.getByRole("button", { name: "Claim this business" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Claim received", SLOW);
    await expect(page.getByRole("main")).toContainText("The Treeline team will contact you");
    await expect(page.getByRole("main")).not.toContainText("We sent");

    await approveClaimBy(request, listed.email.toLowerCase());
    const link = await keptLink(request, listed.email.toLowerCase(), /claim-approved/);
    await page.goto(link);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Sign in to manage ${listed.name}`);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("main")).toContainText(`Managing ${listed.name}`, SLOW);

    // The owner changes Monday's hours; the public page shows them on the next request.
    await page.getByRole("link", { name: "Profile & hours" }).click();
    const monday = page.getByRole("group", { name: "Monday" });
    await monday.getByLabel("Open", { exact: true }).check();
    await monday.getByLabel("Opens").fill("06:15");
    await monday.getByLabel("Closes").fill("15:45");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByRole("status")).toHaveText(PROFILE_SAVED, SLOW);
    await page.goto(`/directory/${listed.slug}`);
    await expect(page.getByRole("main")).toContainText("6:15 AM - 3:45 PM");

    // It replies to the newest review; the reply is on the public page, under the review.
    await page.goto("/owner/reviews");
    const reply = unique("Thank you, we were glad to help");
    const firstForm = page.locator("form", { has: page.getByRole("button", { name: "Post reply" }) }).first();
    await firstForm.getByRole("textbox").fill(reply);
    await firstForm.getByRole("button", { name: "Post reply" }).click();
    await expect(page.getByRole("status")).toHaveText(REPLY_MESSAGES.posted, SLOW);
    await page.goto(`/directory/${listed.slug}`);
    await expect(page.getByRole("main")).toContainText(`Response from ${listed.name}`);
    await expect(page.getByRole("main")).toContainText(reply);

    // Signed out, the owner signs in again from /owner with the address on file: no claim.
    await page.goto("/owner");
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Signed out", SLOW);
    await page.getByRole("link", { name: "ask for a sign-in link" }).click();
    await page.getByLabel("Your e-mail or the business's phone").fill(listed.email);
    await page.getByRole("button", { name: "Send me a sign-in link" }).click();
    await expect(page.getByRole("status")).toContainText("your request is kept for the Treeline team", SLOW);
    await page.goto(await keptLink(request, listed.email.toLowerCase(), /owner-sign-in/));
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("main")).toContainText(`Managing ${listed.name}`, SLOW);
  });
});

test("a new business the operator approves in /admin gets a public page its submitter manages", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const name = unique("Hollow Oak Tree Care");
  const submitter = `owner.${Date.now().toString(36)}@example.com`;

  await page.goto("/about");
  await page.getByRole("contentinfo").getByRole("link", { name: ADD_BUSINESS_LABEL }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Add your business");
  expect(await axeBlocking(page)).toEqual([]);
  await page.getByLabel("Business name").fill(name);
  await page.getByLabel("Street address").fill("12 Hollow Rd");
  await page.getByLabel("ZIP code").fill("83702");
  await page.getByLabel("Business phone").fill("(208) 555-0188");
  await page.getByLabel("Business e-mail").fill("hello@hollow-oak.example.com");
  await page.getByLabel("Tree Removal").check();
  const monday = page.getByRole("group", { name: "Monday" });
  await monday.getByLabel("Open", { exact: true }).check();
  await monday.getByLabel("Opens").fill("08:00");
  await monday.getByLabel("Closes").fill("16:30");
  await page.getByLabel("Your name").fill("Hal Hollow");
  await page.getByLabel("Your e-mail").fill(submitter);
  await page.getByLabel("Your role").selectOption("owner");
  await page.getByRole("button", { name: "Send for review" }).click();
  await expect(page.getByRole("main")).toContainText("is not listed", SLOW);
  expect(await axeBlocking(page)).toEqual([]);

  await signInAdmin(page);
  await page.getByRole("tab", { name: /^Claims/ }).click();
  const claim = page.getByRole("listitem").filter({ hasText: name });
  await expect(claim).toContainText("New business", SLOW);
  await expect(claim).toContainText("12 Hollow Rd, Boise, ID 83702");
  await claim.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Approved" })).toContainText(submitter, SLOW);

  // Where its new page is (the listing before and after approval is owner-claims.test.ts).
  const listed = await request.get(`/api/businesses?search=${encodeURIComponent(name)}`);
  const { slug } = ((await listed.json()) as { data: { slug: string }[] }).data[0]!;
  await page.goto(`/directory/${slug}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  // Only what its owner gave: Monday's hours, no years in business.
  await expect(page.getByRole("main")).toContainText("8:00 AM - 4:30 PM");
  await expect(page.getByRole("main")).not.toContainText("years in business");
  // Its page, like every business page, offers its owner the claim form (axe runs with JavaScript).
  await page.getByRole("link", { name: CLAIM_LINK_LABEL }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Claim ${name}`);
  expect(await axeBlocking(page)).toEqual([]);
  const link = await keptLink(request, submitter);

  // The new owner signs in with the kept link and adds a photo; its page shows it.
  await page.goto(link);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("main")).toContainText(`Managing ${name}`, SLOW);
  // Every owner page passes axe (the owner's forms are plain HTML; axe needs JavaScript to run).
  for (const section of ["Overview", "Profile & hours", "License & insurance", "Reviews"]) {
    await page.getByRole("link", { name: section, exact: true }).click();
    await expect(page.getByRole("link", { name: section, exact: true })).toHaveAttribute("aria-current", "page");
    expect(await axeBlocking(page), section).toEqual([]);
  }
  await page.getByRole("link", { name: "Photos" }).click();
  await page.getByLabel("Add a photo").setInputFiles({ name: "yard.png", mimeType: "image/png", buffer: PHOTO });
  await page.getByRole("button", { name: "Upload photo" }).click();
  await expect(page.getByRole("status")).toHaveText("Photo added. Your public page shows it now.", SLOW);
  expect(await axeBlocking(page), "Photos").toEqual([]);
  await page.goto(`/directory/${slug}`);
  const photo = page.locator('img[src^="/photos/"]');
  await expect(photo).toHaveCount(1);
  expect(await photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

  // The operator rolls the photo back from the Changes tab; the page no longer shows it.
  await page.goto("/admin");
  await page.getByRole("tab", { name: /^Changes/ }).click();
  const change = page.getByRole("listitem").filter({ hasText: name }).first();
  await expect(change).toContainText(submitter, SLOW);
  await change.getByRole("button", { name: "Roll back" }).click();
  await change.getByRole("button", { name: "Yes, roll back" }).click();
  await expect(page.getByRole("listitem").filter({ hasText: "Rolled back" }).first()).toBeVisible(SLOW);
  await page.goto(`/directory/${slug}`);
  await expect(page.locator('img[src^="/photos/"]')).toHaveCount(0);
});
