/**
 * /find-a-tree-service: the directory search and the "Get Multiple Quotes Fast" form with
 * and without JavaScript, against the real function (the seeded directory has pros near
 * Round Rock). The page's prebuilt content (sample providers, steps, form attributes) is
 * tests/unit/built-dialogs.test.ts; how the island shows each failure answer of
 * POST /api/find-pros is its component test's (tests/unit/islands).
 */
import type { Locator, Page, Request } from "@playwright/test";
import sharp from "sharp";
import { FIND_PROS_FORM } from "../../src/lib/forms/fields";
import { MESSAGES } from "../../src/lib/schemas/forms";
import { MAX_UPLOAD_BYTES } from "../../src/lib/photos";
import { expect, hold, settled, test } from "./fixtures";

const PAGE = "/find-a-tree-service";
const API = "**/api/find-pros";

/** A request that passes FindProsRequest. */
const VALID = {
  location: "Austin",
  serviceType: "Tree Removal",
  propertyType: "residential",
  description: "Dead live oak leaning toward the garage, about 40 ft.",
  timeline: "within-week",
  name: "Jordan Rivera",
  email: "jordan.rivera@example.com",
  phone: "(512) 555-0199",
} as const;

const fieldDef = (name: string) => FIND_PROS_FORM.fields.find((f) => f.name === name)!;
const escapeRe = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A control by its visible label; required fields add an aria-hidden " *" to it. */
function control(form: Locator, name: string): Locator {
  return form.getByLabel(new RegExp(`^${escapeRe(fieldDef(name).label)}( \\*)?$`));
}

/** The quotes form; the React island swaps it in when it hydrates (it sets novalidate). */
function quotesForm(page: Page): Locator {
  return page.locator("#find-pros-form");
}

async function fillValid(form: Locator, values: Partial<Record<keyof typeof VALID, string>> = VALID): Promise<void> {
  for (const field of FIND_PROS_FORM.fields) {
    const value = values[field.name as keyof typeof VALID];
    if (value === undefined) continue;
    if (field.kind === "select") await control(form, field.name).selectOption(value);
    else await control(form, field.name).fill(value);
  }
}

/** Reads a multipart body's text parts (enough to check what the island sent). */
function multipartFields(request: Request): Record<string, string> {
  const type = request.headers()["content-type"] ?? "";
  const boundary = /boundary=(.+)$/.exec(type)?.[1];
  const body = request.postDataBuffer()?.toString("latin1") ?? "";
  const out: Record<string, string> = {};
  if (!boundary) return out;
  for (const part of body.split(`--${boundary}`)) {
    const name = /name="([^"]+)"/.exec(part)?.[1];
    if (!name || /filename=/.test(part)) continue;
    out[name] = part.slice(part.indexOf("\r\n\r\n") + 4).replace(/\r\n$/, "");
  }
  return out;
}

/** Every POST to the function the page makes. */
function posts(page: Page): Request[] {
  const seen: Request[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && new URL(r.url()).pathname === "/api/find-pros") seen.push(r);
  });
  return seen;
}

test("hero search: Find Pros opens the directory near the typed place for the chosen service; empty fields stay out of the URL", async ({
  page,
}) => {
  await page.goto(PAGE);
  await expect(page.getByRole("heading", { level: 1, name: "Find a Tree Service Near You" })).toBeVisible();
  const search = page.getByRole("search");
  await search.getByLabel("ZIP code or city").fill(" 78664 ");
  await search.getByLabel("Service").selectOption("Stump Grinding");
  await search.getByRole("button", { name: "Find Pros" }).click();
  await page.waitForURL(/\/directory\?/);
  const url = new URL(page.url());
  expect(url.pathname).toBe("/directory");
  expect(Object.fromEntries(url.searchParams)).toEqual({ near: "78664", service: "Stump Grinding" });
  await expect(page.getByTestId("results-count")).toContainText("within 25 miles of Round Rock, TX 78664");
  const miles = (await page.getByTestId("results-list").getByTestId("distance").allTextContents()).map((t) =>
    parseFloat(t),
  );
  expect(miles.length).toBeGreaterThan(0);
  expect(miles.every((m) => m <= 25)).toBe(true);

  // A suburb by name is passed as typed; no service chosen, none in the URL.
  await page.goto(PAGE);
  await page.getByRole("search").getByLabel("ZIP code or city").fill("Katy, TX");
  await page.getByRole("search").getByRole("button", { name: "Find Pros" }).click();
  await page.waitForURL(/\/directory\?/);
  expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ near: "Katy, TX" });
  await expect(page.getByTestId("results-count")).toContainText("of Katy, TX");
});

test("quotes form: no framework code until it nears the viewport, typed text survives hydration, it validates, checks the photo, and matches pros nearest first", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const scripts: string[] = [];
  page.on("request", (r) => {
    if (r.resourceType() === "script") scripts.push(r.url());
  });
  const sent = posts(page);
  // Hold the island's module: type into the static form meanwhile, then let it hydrate.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/FindProsForm\.[^/]+\.js(?:\?|$)/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(PAGE);
  await page.waitForLoadState("networkidle");
  await settled(page);
  expect(scripts.filter((u) => /FindProsForm/.test(u))).toEqual([]);
  const form = quotesForm(page);
  await form.scrollIntoViewIfNeeded();
  await expect.poll(() => scripts.some((u) => /FindProsForm/.test(u))).toBe(true);
  await expect(form).not.toHaveAttribute("novalidate", "");
  await control(form, "location").fill("Dallas");
  await control(form, "timeline").selectOption("flexible");
  release();
  await expect(form).toHaveAttribute("novalidate", "", { timeout: 20_000 });
  await expect(control(form, "location")).toHaveValue("Dallas");
  await expect(control(form, "timeline")).toHaveValue("flexible");

  // Empty: the exact messages inline, focus on the first invalid field, nothing posted.
  await control(form, "location").fill("");
  await control(form, "timeline").selectOption("");
  const submit = form.getByRole("button", { name: FIND_PROS_FORM.submit });
  await submit.click();
  for (const [name, message] of [
    ["location", MESSAGES.location],
    ["serviceType", MESSAGES.serviceType],
    ["propertyType", MESSAGES.propertyType],
    ["timeline", MESSAGES.timeline],
    ["name", MESSAGES.name],
    ["email", MESSAGES.email],
    ["phone", MESSAGES.phone],
  ] as const) {
    const input = control(form, name);
    await expect(input).toHaveAttribute("aria-invalid", "true");
    const describedBy = await input.getAttribute("aria-describedby");
    await expect(page.locator(`#${describedBy}`)).toHaveText(message);
  }
  await expect(control(form, "description")).not.toHaveAttribute("aria-invalid", "true");
  await expect(control(form, "location")).toBeFocused();
  // Corrections clear their message as the visitor types.
  await control(form, "location").fill("Austin");
  await expect(form.getByText(MESSAGES.location)).toHaveCount(0);
  await expect(form.getByText(MESSAGES.name)).toBeVisible();

  // The photo is checked before upload: an image, and one this browser cannot read (here: not
  // really a JPEG) must fit the limit as it is.
  const values = { ...VALID, location: "78664", email: `e2e-rr-${Date.now()}@example.com` };
  await fillValid(form, values);
  const photo = control(form, "photo");
  await photo.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a picture") });
  await submit.click();
  await expect(form.getByText(MESSAGES.photo)).toBeVisible();
  await expect(photo).toBeFocused();
  await photo.setInputFiles({ name: "huge.jpg", mimeType: "image/jpeg", buffer: Buffer.alloc(MAX_UPLOAD_BYTES + 1) });
  await submit.click();
  await expect(form.getByText(MESSAGES.photoTooLarge)).toBeVisible();
  await settled(page);
  expect(sent).toHaveLength(0);

  // A valid request with a photo: pending, then up to 3 pros near Round Rock, nearest first.
  await photo.setInputFiles({ name: "oak.png", mimeType: "image/png", buffer: Buffer.from("89504e470d0a1a0a", "hex") });
  const api = await hold(page, API);
  await submit.click();
  await expect(form.getByRole("button", { name: FIND_PROS_FORM.pending })).toBeDisabled();
  api.release();
  const done = page.getByTestId("find-pros-confirmation");
  await expect(done.getByRole("heading", { name: "Request received" })).toBeFocused({ timeout: 30_000 });
  await expect(done).toContainText("within 24 hours");
  await expect(quotesForm(page)).toHaveCount(0);
  const miles = (await done.getByTestId("match-distance").allTextContents()).map((t) => parseFloat(t));
  expect(miles).toHaveLength(3);
  expect(miles.every((m) => m <= 50)).toBe(true);
  expect([...miles].sort((a, b) => a - b)).toEqual(miles);
  for (const text of await done.getByTestId("match-distance").allTextContents())
    expect(text).toMatch(/^\d+\.\d mi away$/);
  await expect(done.locator('a[href^="/directory/"]')).toHaveCount(3);
  expect(await done.locator('a[href^="tel:"]').count()).toBeGreaterThan(0);
  await expect(done).toContainText(/\d\.\d out of 5 stars \(\d+ reviews?\)/);

  expect(sent).toHaveLength(1);
  const request = sent[0]!;
  expect(request.headers()["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
  expect(request.headers()["idempotency-key"]).toMatch(/^[0-9a-f-]{16,}$/i);
  expect(request.headers()["accept"]).toContain("application/json");
  const fields = multipartFields(request);
  expect(fields).toMatchObject({ ...values, _source: PAGE, company_website: "" });
  expect(Number(fields._started)).toBeGreaterThan(Date.now() - 10 * 60_000);
  expect(request.postDataBuffer()!.toString("latin1")).toContain('name="photo"; filename="oak.png"');
});

test("a camera photo larger than a function takes is made smaller in the browser, upright, and the request goes through", async ({
  page,
}) => {
  test.setTimeout(120_000);
  // A 12 MP phone photo stored on its side (EXIF orientation 6) that is over the limit as it is.
  const camera = await sharp({
    create: {
      width: 4032,
      height: 3024,
      channels: 3,
      background: "#3a7",
      noise: { type: "gaussian", mean: 128, sigma: 40 },
    },
  })
    .jpeg({ quality: 92 })
    .withMetadata({ orientation: 6 })
    .toBuffer();
  expect(camera.length).toBeGreaterThan(MAX_UPLOAD_BYTES);
  // The browser does not hand a large upload's body to Playwright: the page notes the photo it
  // sends (name, type, size, and its pixels as this browser decodes them), and sends it as it is.
  await page.addInitScript(() => {
    const send = window.fetch;
    window.fetch = async (input, init) => {
      const photo = init?.body instanceof FormData ? init.body.get("photo") : null;
      if (photo instanceof File) {
        const bitmap = await createImageBitmap(photo);
        const bytes = new Uint8Array(await photo.arrayBuffer());
        Object.assign(window, {
          sentPhoto: {
            name: photo.name,
            type: photo.type,
            size: photo.size,
            width: bitmap.width,
            height: bitmap.height,
            // A JPEG with an EXIF block says so in its first segments ("Exif\0\0").
            exif: new TextDecoder("latin1").decode(bytes.subarray(0, 64 * 1024)).includes("Exif\0\0"),
          },
        });
      }
      return send(input, init);
    };
  });
  const sent = posts(page);
  await page.goto(PAGE);
  const form = quotesForm(page);
  await form.scrollIntoViewIfNeeded();
  await expect(form).toHaveAttribute("novalidate", "");
  await fillValid(form, { ...VALID, location: "78664", email: `e2e-photo-${Date.now()}@example.com` });
  await control(form, "photo").setInputFiles({ name: "IMG_0412.JPG", mimeType: "image/jpeg", buffer: camera });
  await form.getByRole("button", { name: FIND_PROS_FORM.submit }).click();
  await expect(page.getByTestId("find-pros-confirmation")).toBeVisible({ timeout: 60_000 });
  expect(sent).toHaveLength(1);
  const photo = (await page.evaluate(() => (window as unknown as { sentPhoto: unknown }).sentPhoto)) as {
    name: string;
    type: string;
    size: number;
    width: number;
    height: number;
    exif: boolean;
  };
  expect(photo).toMatchObject({ name: "IMG_0412.jpg", type: "image/jpeg" });
  expect(photo.size).toBeLessThanOrEqual(MAX_UPLOAD_BYTES);
  // Upright (the EXIF turn applied and no EXIF left to turn it again), 2048 px on its longest side.
  expect([photo.width, photo.height, photo.exif]).toEqual([1536, 2048, false]);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the search is a plain GET to /directory?near=&service=; the quotes form posts to the function, which confirms", async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await page.goto(PAGE);
    const search = page.getByRole("search");
    await search.getByLabel("ZIP code or city").fill("Austin");
    await search.getByLabel("Service").selectOption("Stump Grinding");
    await search.getByRole("button", { name: "Find Pros" }).click();
    await page.waitForURL(/\/directory\?/);
    const url = new URL(page.url());
    expect(url.pathname).toBe("/directory");
    expect(Object.fromEntries(url.searchParams)).toEqual({ near: "Austin", service: "Stump Grinding" });

    await page.goto(PAGE);
    const form = quotesForm(page);
    await fillValid(form, { ...VALID, email: `e2e-nojs-${Date.now()}@example.com` });
    await Promise.all([
      // The post answers 303 to the request's own confirmation page (a reload posts nothing).
      page.waitForURL(/\/requests\/ld_[0-9a-z]+\/[\w-]+\/received$/),
      form.getByRole("button", { name: FIND_PROS_FORM.submit }).click(),
    ]);
    await expect(page.getByRole("heading", { level: 1 })).toContainText(/received|thank/i);
  });
});
