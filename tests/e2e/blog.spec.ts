import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { parseFrontmatter } from "astro/markdown";
import { articlePath, formatArticleDate, sortArticles, stageBadgeClass } from "../../src/lib/blog";
import { SITE } from "../../src/lib/site";

interface Meta {
  title: string;
  excerpt: string;
  author: string;
  date: string;
  readTime: string;
  category: string;
  stage: string;
  featured: boolean;
}

// The expected articles come straight from content/blog, so a new article is tested automatically.
const dir = path.resolve("content/blog");
const articles = sortArticles(
  readdirSync(dir)
    .filter((f) => f.endsWith(".mdx"))
    .map((file) => ({
      id: file.replace(/\.mdx$/, ""),
      data: parseFrontmatter(readFileSync(path.join(dir, file), "utf8")).frontmatter as Meta,
    })),
);
const [featured, ...rest] = articles;

/** Every JSON-LD block of the page, parsed (a parse error fails the test). */
async function jsonLd(page: Page): Promise<Record<string, unknown>[]> {
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  return blocks.map((text) => JSON.parse(text) as Record<string, unknown>);
}

test.describe("/blog", () => {
  test("lists 10 articles: one featured ('Read Article') and nine 'Read More'", async ({ page }) => {
    await page.goto("/blog");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Tree Service Business Blog");
    expect(articles).toHaveLength(10);
    await expect(page.locator("[data-article]")).toHaveCount(10);

    const featuredCard = page.locator("[data-featured]");
    await expect(featuredCard).toHaveCount(1);
    await expect(featuredCard).toHaveAttribute("data-article", featured!.id);
    const readArticle = page.getByRole("link", { name: /^Read Article/ });
    await expect(readArticle).toHaveCount(1);
    await expect(readArticle).toHaveAttribute("href", articlePath(featured!.id));

    const readMore = page.getByRole("link", { name: /^Read More/ });
    await expect(readMore).toHaveCount(9);
    expect(await readMore.evaluateAll((links) => links.map((a) => a.getAttribute("href")))).toEqual(
      rest.map((a) => articlePath(a.id)),
    );
  });

  test("every card shows stage and category badges, author, date and read time", async ({ page }) => {
    await page.goto("/blog");
    for (const { id, data } of articles) {
      const card = page.locator(`[data-article="${id}"]`);
      await expect(card.getByRole("heading")).toHaveText(data.title);
      const stage = card.locator('[data-badge="stage"]');
      await expect(stage).toHaveText(`Stage: ${data.stage}`);
      await expect(stage).toHaveClass(new RegExp(stageBadgeClass(data.stage)));
      await expect(card.locator('[data-badge="category"]')).toHaveText(`Category: ${data.category}`);
      await expect(card.locator('[data-meta="author"]')).toHaveText(`By ${data.author}`);
      await expect(card.locator('[data-meta="date"]')).toHaveText(formatArticleDate(data.date));
      await expect(card.locator('[data-meta="date"]')).toHaveAttribute("datetime", data.date);
      await expect(card.locator('[data-meta="read-time"]')).toHaveText(data.readTime);
    }
  });

  test("shows the three stat tiles and the bottom calls to action", async ({ page }) => {
    await page.goto("/blog");
    const stats = page.locator("[data-stat]");
    await expect(stats).toHaveCount(3);
    await expect(stats.nth(0)).toContainText("500+");
    await expect(stats.nth(0)).toContainText("Businesses Helped");
    await expect(stats.nth(1)).toContainText("$50M+");
    await expect(stats.nth(1)).toContainText("Revenue Generated");
    await expect(stats.nth(2)).toContainText("10+");
    await expect(stats.nth(2)).toContainText("Years Experience");

    const cta = page.getByRole("region", { name: "Ready to put this advice to work?" });
    await expect(cta.getByRole("link", { name: "Get Free Business Assessment" })).toHaveAttribute(
      "href",
      "/business-growth",
    );
    await expect(cta.getByRole("link", { name: "Talk to Our Experts" })).toHaveAttribute("href", "/contact");
    const call = cta.getByRole("link", { name: SITE.phone });
    await expect(call).toHaveAttribute("href", SITE.phoneHref);
  });

  test("'Read More' and 'Back to Blog' round-trip", async ({ page }) => {
    await page.goto("/blog");
    const target = rest[0]!;
    await page
      .locator(`[data-article="${target.id}"]`)
      .getByRole("link", { name: /^Read More/ })
      .click();
    await expect(page).toHaveURL(new RegExp(`${articlePath(target.id)}$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(target.data.title);
    await page.getByRole("link", { name: "Back to Blog" }).click();
    await expect(page).toHaveURL(/\/blog$/);
  });
});

test.describe("article pages", () => {
  for (const { id, data } of articles) {
    test(`${id} renders with badges, byline and structured data`, async ({ page }) => {
      const response = await page.goto(articlePath(id));
      expect(response?.status()).toBe(200);
      const header = page.locator("article header");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(data.title);
      await expect(page.getByRole("link", { name: "Back to Blog" })).toHaveAttribute("href", "/blog");

      const stage = header.locator('[data-badge="stage"]');
      await expect(stage).toHaveText(`Stage: ${data.stage}`);
      await expect(stage).toHaveClass(new RegExp(stageBadgeClass(data.stage)));
      await expect(stage).not.toHaveClass(/bg-gray-100/);
      await expect(header.locator('[data-badge="category"]')).toHaveText(`Category: ${data.category}`);
      await expect(header.locator('[data-meta="author"]')).toHaveText(`By ${data.author}`);
      await expect(header.locator('[data-meta="date"]')).toHaveText(formatArticleDate(data.date));
      await expect(header.locator('[data-meta="read-time"]')).toHaveText(data.readTime);

      // A real article body, ending with the call to action to /business-growth.
      await expect(page.locator(".article-body > p").first()).toBeVisible();
      expect(await page.locator(".article-body").innerText()).toMatch(/\S+(\s+\S+){700,}/);
      await expect(
        page.locator(".article-body").getByRole("complementary", { name: "Next step" }).getByRole("link").first(),
      ).toHaveAttribute("href", "/business-growth");

      await expect(page.locator('meta[property="og:type"]')).toHaveAttribute("content", "article");
      const blocks = await jsonLd(page);
      const posting = blocks.find((b) => b["@type"] === "BlogPosting");
      expect(posting).toMatchObject({
        "@context": "https://schema.org",
        headline: data.title,
        description: data.excerpt,
        author: { "@type": "Person", name: data.author },
        datePublished: data.date,
      });
      expect(new URL(String(posting!.mainEntityOfPage)).pathname).toBe(articlePath(id));
      const crumbs = blocks.find((b) => b["@type"] === "BreadcrumbList") as
        { itemListElement: { name: string; position: number; item: string }[] } | undefined;
      expect(crumbs?.itemListElement.map((c) => c.name)).toEqual(["Home", "Blog", data.title]);
      expect(new URL(crumbs!.itemListElement[2]!.item).pathname).toBe(articlePath(id));
      expect(blocks.some((b) => b["@type"] === "Organization")).toBe(true);
    });
  }

  test("the pricing article has every section of the specification", async ({ page }) => {
    await page.goto("/blog/pricing-strategies-profitable-tree-service");
    const body = page.locator(".article-body");
    for (const heading of [
      "The Low-Price Spiral",
      "The Value Pyramid",
      "Psychology-Based Pricing",
      "The On-Site Consultation",
      "The 40%+ Margin Formula",
      "Emergency vs. Routine Margins",
      "Objection Scripts",
      "Before and After Results",
      "Your 30-Day Pricing Plan",
    ]) {
      await expect(body.getByRole("heading", { level: 2, name: heading, exact: true })).toBeVisible();
    }
    const levels = page.locator('[data-component="value-pyramid"] [data-level]');
    await expect(levels).toHaveCount(3);
    await expect(levels.filter({ hasText: "Base price" })).toHaveCount(1);
    await expect(levels.filter({ hasText: "Base +40%" })).toHaveCount(1);
    await expect(levels.filter({ hasText: "Base +75%" })).toHaveCount(1);
    await expect(page.locator('[data-component="margin-formula"]')).toContainText(
      "Price = Direct job cost ÷ (1 − target margin)",
    );
    await expect(page.locator('[data-component="objection-script"]')).toHaveCount(4);
    await expect(page.locator('[data-component="before-after"] tbody tr')).not.toHaveCount(0);
    for (const week of ["Week 1", "Week 2", "Week 3", "Week 4"])
      await expect(body.getByRole("heading", { level: 3, name: new RegExp(`^${week}`) })).toBeVisible();

    const cta = body.getByRole("complementary", { name: "Next step" });
    await expect(cta.getByRole("link", { name: /Pricing Review/ })).toHaveAttribute("href", "/business-growth");
    await expect(cta.getByRole("link", { name: new RegExp(SITE.phone.replace(/[()]/g, "\\$&")) })).toHaveAttribute(
      "href",
      SITE.phoneHref,
    );
  });

  test("the scale article ends with /business-growth and a call button; the 90-day one with /business-growth", async ({
    page,
  }) => {
    await page.goto("/blog/scale-tree-service-beyond-owner-operator");
    let cta = page.locator(".article-body").getByRole("complementary", { name: "Next step" });
    await expect(cta.getByRole("link").first()).toHaveAttribute("href", "/business-growth");
    await expect(cta.locator(`a[href="${SITE.phoneHref}"]`)).toContainText(SITE.phone);

    await page.goto("/blog/first-90-days-tree-service-startup");
    cta = page.locator(".article-body").getByRole("complementary", { name: "Next step" });
    await expect(cta.getByRole("link")).toHaveCount(1);
    await expect(cta.getByRole("link")).toHaveAttribute("href", "/business-growth");
  });
});
