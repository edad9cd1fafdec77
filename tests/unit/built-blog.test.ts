/**
 * The blog as built: /blog lists every article of content/blog (one featured, the rest
 * "Read More", in the collection's order) with badges, byline and stats; each article page
 * has its badges, a real body ending with the call to action, and BlogPosting and
 * BreadcrumbList data; the pricing article carries every section of the specification.
 * The expected articles come straight from content/blog, so a new article is tested
 * automatically.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { within } from "@testing-library/dom";
import { parseFrontmatter } from "astro/markdown";
import { describe, expect, it } from "vitest";
import { articlePath, formatArticleDate, sortArticles, stageBadgeClass } from "../../src/lib/blog.ts";
import { SITE } from "../../src/lib/site.ts";
import { builtPage, jsonLd, meta, textOf } from "../helpers/dist.ts";

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

const one = (scope: ParentNode, selector: string) => {
  const found = scope.querySelectorAll(selector);
  expect(found, selector).toHaveLength(1);
  return found[0]!;
};

/** The badges and byline of a card or an article header. */
function expectByline(scope: ParentNode, data: Meta) {
  const stage = one(scope, '[data-badge="stage"]');
  expect(textOf(stage)).toBe(`Stage: ${data.stage}`);
  expect(stage.className).toContain(stageBadgeClass(data.stage));
  expect(textOf(one(scope, '[data-badge="category"]'))).toBe(`Category: ${data.category}`);
  expect(textOf(one(scope, '[data-meta="author"]'))).toBe(`By ${data.author}`);
  const date = one(scope, '[data-meta="date"]');
  expect(textOf(date)).toBe(formatArticleDate(data.date));
  expect(textOf(one(scope, '[data-meta="read-time"]'))).toBe(data.readTime);
  return { stage, date };
}

describe("/blog", () => {
  const page = () => builtPage("/blog");

  it("lists 10 articles: one featured ('Read Article') and nine 'Read More', in order", () => {
    const { document, screen } = page();
    expect(textOf(screen.getByRole("heading", { level: 1 }))).toBe("Tree Service Business Blog");
    expect(articles).toHaveLength(10);
    expect(document.querySelectorAll("[data-article]")).toHaveLength(10);
    expect(one(document, "[data-featured]").getAttribute("data-article")).toBe(featured!.id);
    const readArticle = screen.getAllByRole("link", { name: /^Read Article/ });
    expect(readArticle).toHaveLength(1);
    expect(readArticle[0]!.getAttribute("href")).toBe(articlePath(featured!.id));
    const readMore = screen.getAllByRole("link", { name: /^Read More/ });
    expect(readMore.map((a) => a.getAttribute("href"))).toEqual(rest.map((a) => articlePath(a.id)));
  });

  it.each(articles)(
    "the card of $id shows its title, stage and category badges, author, date and read time",
    ({ id, data }) => {
      const card = one(page().document, `[data-article="${id}"]`) as HTMLElement;
      expect(textOf(within(card).getByRole("heading"))).toBe(data.title);
      const { date } = expectByline(card, data);
      expect(date.getAttribute("datetime")).toBe(data.date);
    },
  );

  it("shows the three stat tiles and the bottom calls to action", () => {
    const { document, screen } = page();
    const stats = [...document.querySelectorAll("[data-stat]")].map(textOf);
    expect(stats).toHaveLength(3);
    for (const [i, [figure, label]] of [
      ["500+", "Businesses Helped"],
      ["$50M+", "Revenue Generated"],
      ["10+", "Years Experience"],
    ].entries()) {
      expect(stats[i]).toContain(figure);
      expect(stats[i]).toContain(label);
    }
    const cta = within(screen.getByRole("region", { name: "Ready to put this advice to work?" }));
    expect(cta.getByRole("link", { name: "Get Free Business Assessment" }).getAttribute("href")).toBe(
      "/business-growth",
    );
    expect(cta.getByRole("link", { name: "Talk to Our Experts" }).getAttribute("href")).toBe("/contact");
    expect(cta.getByRole("link", { name: SITE.phone }).getAttribute("href")).toBe(SITE.phoneHref);
  });
});

describe.each(articles)("article $id", ({ id, data }) => {
  const page = () => builtPage(articlePath(id));

  it("renders with badges, byline, a real body and its call to action", () => {
    const { document, screen } = page();
    expect(textOf(screen.getByRole("heading", { level: 1 }))).toBe(data.title);
    expect(screen.getByRole("link", { name: "Back to Blog" }).getAttribute("href")).toBe("/blog");
    const { stage } = expectByline(one(document, "article header"), data);
    expect(stage.className).not.toMatch(/\bbg-gray-100\b/);

    // A real article body, ending with the call to action to /business-growth.
    const body = one(document, ".article-body") as HTMLElement;
    expect(body.querySelector(":scope > p")).not.toBeNull();
    expect(textOf(body)).toMatch(/\S+(\s+\S+){700,}/);
    const next = within(body).getByRole("complementary", { name: "Next step" });
    expect(within(next).getAllByRole("link")[0]!.getAttribute("href")).toBe("/business-growth");
  });

  it("carries BlogPosting, BreadcrumbList and Organization data", () => {
    const { document } = page();
    expect(meta(document, "og:type")).toBe("article");
    const blocks = jsonLd(document);
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
});

describe("the spec's three articles", () => {
  it("the pricing article has every section of the specification", () => {
    const { document } = builtPage("/blog/pricing-strategies-profitable-tree-service");
    const body = one(document, ".article-body") as HTMLElement;
    const inBody = within(body);
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
    ])
      expect(inBody.getAllByRole("heading", { level: 2, name: heading }), heading).toHaveLength(1);
    const levels = [...document.querySelectorAll('[data-component="value-pyramid"] [data-level]')].map(textOf);
    expect(levels).toHaveLength(3);
    for (const level of ["Base price", "Base +40%", "Base +75%"])
      expect(
        levels.filter((text) => text.includes(level)),
        level,
      ).toHaveLength(1);
    expect(textOf(one(document, '[data-component="margin-formula"]'))).toContain(
      "Price = Direct job cost ÷ (1 − target margin)",
    );
    expect(document.querySelectorAll('[data-component="objection-script"]')).toHaveLength(4);
    expect(document.querySelectorAll('[data-component="before-after"] tbody tr').length).toBeGreaterThan(0);
    for (const week of ["Week 1", "Week 2", "Week 3", "Week 4"])
      expect(inBody.getAllByRole("heading", { level: 3, name: new RegExp(`^${week}`) }), week).toHaveLength(1);

    const cta = within(inBody.getByRole("complementary", { name: "Next step" }));
    expect(cta.getByRole("link", { name: /Pricing Review/ }).getAttribute("href")).toBe("/business-growth");
    expect(cta.getByRole("link", { name: new RegExp(SITE.phone.replace(/[()]/g, "\\$&")) }).getAttribute("href")).toBe(
      SITE.phoneHref,
    );
  });

  it("the scale article ends with /business-growth and a call button; the 90-day one with /business-growth only", () => {
    const next = (route: string) =>
      within(
        within(one(builtPage(route).document, ".article-body") as HTMLElement).getByRole("complementary", {
          name: "Next step",
        }),
      );
    const scale = next("/blog/scale-tree-service-beyond-owner-operator");
    expect(scale.getAllByRole("link")[0]!.getAttribute("href")).toBe("/business-growth");
    const call = scale.getAllByRole("link").filter((a) => a.getAttribute("href") === SITE.phoneHref);
    expect(call).toHaveLength(1);
    expect(textOf(call[0]!)).toContain(SITE.phone);

    const startup = next("/blog/first-90-days-tree-service-startup").getAllByRole("link");
    expect(startup).toHaveLength(1);
    expect(startup[0]!.getAttribute("href")).toBe("/business-growth");
  });
});
