import { expect, test } from "@playwright/test";
import { STATIC_ROUTES } from "../../src/lib/routes";
import { SITE } from "../../src/lib/site";
import seed from "../../content/directory/businesses.json" with { type: "json" };

test.describe("every route of the route table", () => {
  for (const route of STATIC_ROUTES) {
    test(`${route} answers 200 with a title, one h1 and canonical/OG tags`, async ({ page }) => {
      const response = await page.goto(route);
      expect(response?.status()).toBe(200);
      await expect(page).toHaveTitle(new RegExp(SITE.name));
      await expect(page.locator("h1")).toHaveCount(1);
      await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /.{40,}/);
      const canonical = await page.locator('link[rel="canonical"]').getAttribute("href");
      expect(new URL(canonical!).pathname).toBe(route);
      await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", /.+/);
      await expect(page.locator('meta[property="og:image"]')).toHaveAttribute("content", /^https?:\/\//);
      // Landmarks every page shares.
      await expect(page.locator("header").first()).toBeVisible();
      await expect(page.locator("main#main")).toHaveCount(1);
      await expect(page.locator("footer")).toBeVisible();
      await expect(page.getByRole("region", { name: "Notifications (F8)" })).toBeAttached();
    });
  }
});

test("an unknown path serves the 404 page with HTTP 404", async ({ page }) => {
  const response = await page.goto("/this-page-does-not-exist");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("404");
  await expect(page.getByText("Did you forget to add the page to the router?")).toBeVisible();
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
});

test("robots.txt, sitemap, favicon and health answer", async ({ request }) => {
  const robots = await request.get("/robots.txt");
  expect(robots.status()).toBe(200);
  expect(await robots.text()).toMatch(/Sitemap: https?:\/\/.+\/sitemap-index\.xml/);
  const sitemap = await request.get("/sitemap-index.xml");
  expect(sitemap.status()).toBe(200);
  // The index (on demand) lists the static pages' sitemap and the directory's from the store.
  const files = [...(await sitemap.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
  expect(files).toEqual(["/sitemap-pages-0.xml", "/sitemap-directory-0.xml"]);
  let xml = "";
  for (const file of files) {
    const part = await request.get(file);
    expect(part.status(), file).toBe(200);
    expect(part.headers()["content-type"], file).toMatch(/xml/);
    xml += await part.text();
  }
  expect(xml).toMatch(/<loc>https?:\/\/[^<]+\/directory\/balcones-canopy-works-austin<\/loc>/);
  expect((await request.get("/sitemap-directory-1.xml")).status()).toBe(404);
  for (const route of STATIC_ROUTES) {
    expect(xml, `sitemap lists ${route}`).toMatch(
      new RegExp(`<loc>https?://[^<]+${route === "/" ? "/?" : route.replace(/\//g, "\\/")}</loc>`),
    );
  }
  expect(xml).not.toContain("404");
  for (const asset of ["/favicon.svg", "/favicon.ico", "/apple-touch-icon.png", "/og-default.png"]) {
    expect((await request.get(asset)).status(), asset).toBe(200);
  }
  const health = await request.get("/api/health");
  expect(health.status()).toBe(200);
  expect(await health.json()).toMatchObject({ ok: true, store: expect.any(String) });
});

test("static pages ship no framework JavaScript", async ({ page }) => {
  const scripts: string[] = [];
  page.on("response", (response) => {
    if (response.request().resourceType() === "script") scripts.push(response.url());
  });
  for (const route of ["/", "/services/emergency", "/business-growth", "/blog"]) {
    await page.goto(route, { waitUntil: "networkidle" });
  }
  for (const url of scripts) {
    const body = await (await page.request.get(url)).text();
    expect(body, `${url} must not contain React`).not.toMatch(/react-dom|__REACT_DEVTOOLS|createRoot/);
  }
});

test("every directory business has a page, rendered on demand", async ({ request }) => {
  for (const business of seed) {
    const response = await request.get(`/directory/${business.slug}`);
    expect(response.status(), business.slug).toBe(200);
    const html = await response.text();
    const h1 = /<h1\b[^>]*>([^<]*)<\/h1>/.exec(html)?.[1];
    // React escapes & and ' (as &amp; and &#x27;) in text.
    expect(h1?.replace(/&#x27;/g, "'"), business.slug).toBe(business.name.replace(/&/g, "&amp;"));
  }
});
