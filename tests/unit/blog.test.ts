import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { parseFrontmatter } from "astro/markdown";
import {
  BLOG_CATEGORIES,
  BLOG_STAGES,
  CATEGORY_BADGE_CLASS,
  STAGE_BADGE_CLASSES,
  UNKNOWN_STAGE_BADGE_CLASS,
  articlePath,
  formatArticleDate,
  sortArticles,
  stageBadgeClass,
} from "../../src/lib/blog.ts";
import { STATIC_ROUTES } from "../../src/lib/routes.ts";

// The collection module imports Astro's virtual content module; only its schema is used here.
vi.mock("astro:content", () => ({ defineCollection: (config: unknown) => config }));
const { blogArticleSchema, blogCollections } = await import("../../src/lib/content/blog.ts");

const dir = path.resolve("content/blog");
const files = readdirSync(dir).filter((f) => f.endsWith(".mdx"));
// Parsed exactly as Astro parses them (same frontmatter parser), then validated with the collection's schema.
const articles = files.map((file) => {
  const { frontmatter, content } = parseFrontmatter(readFileSync(path.join(dir, file), "utf8"));
  return {
    id: file.replace(/\.mdx$/, ""),
    raw: frontmatter,
    data: blogArticleSchema.parse(frontmatter),
    body: content,
  };
});
const sorted = sortArticles(articles);

describe("blog collection", () => {
  it("is registered as `blog` over content/blog/*.mdx", () => {
    expect(Object.keys(blogCollections)).toEqual(["blog"]);
  });

  it("has exactly 10 articles with unique, URL-safe ids", () => {
    expect(articles).toHaveLength(10);
    expect(new Set(articles.map((a) => a.id)).size).toBe(10);
    for (const a of articles) expect(a.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it("keeps the three article ids of the specification's route table", () => {
    const specIds = STATIC_ROUTES.filter((r) => r.startsWith("/blog/")).map((r) => r.slice("/blog/".length));
    expect(specIds).toHaveLength(3);
    for (const id of specIds) expect(articles.map((a) => a.id)).toContain(id);
  });

  it("features exactly one article, and it sorts first", () => {
    const featured = articles.filter((a) => a.data.featured);
    expect(featured.map((a) => a.id)).toEqual(["scale-tree-service-beyond-owner-operator"]);
    expect(sorted[0]!.id).toBe(featured[0]!.id);
    expect(sorted.slice(1).every((a) => !a.data.featured)).toBe(true);
  });

  it("uses only the specification's stages and categories, and every stage at least once", () => {
    for (const a of articles) {
      expect(BLOG_STAGES).toContain(a.data.stage);
      expect(BLOG_CATEGORIES).toContain(a.data.category);
    }
    expect(new Set(articles.map((a) => a.data.stage))).toEqual(new Set(BLOG_STAGES));
    // Ten articles, ten categories: one each.
    expect(new Set(articles.map((a) => a.data.category))).toEqual(new Set(BLOG_CATEGORIES));
  });

  it("gives the pricing article its specified stage and category", () => {
    const pricing = articles.find((a) => a.id === "pricing-strategies-profitable-tree-service")!;
    expect(pricing.data).toMatchObject({ stage: "Growth Stage", category: "Pricing & Profit" });
  });

  it("dates are ISO days in 2024 and read times match the length of the text", () => {
    for (const a of articles) {
      expect(a.data.date).toMatch(/^2024-\d{2}-\d{2}$/);
      const words = a.body.split(/\s+/).filter(Boolean).length;
      expect(words, `${a.id} length`).toBeGreaterThanOrEqual(800);
      const minutes = Number(a.data.readTime.split(" ")[0]);
      expect(Math.abs(minutes - words / 200), `${a.id}: ${words} words vs ${a.data.readTime}`).toBeLessThanOrEqual(2);
    }
  });

  it("links only to articles that exist", () => {
    const ids = new Set(articles.map((a) => a.id));
    for (const a of articles) {
      for (const [, id] of a.body.matchAll(/\]\(\/blog\/([^)#?]+)\)/g))
        expect(ids.has(id!), `${a.id} links to /blog/${id}`).toBe(true);
    }
  });
});

describe("blogArticleSchema", () => {
  const valid = {
    title: "A perfectly good article title",
    excerpt: "An excerpt long enough to be a real summary of the article for cards and descriptions.",
    author: "Jane Doe",
    date: "2024-12-12",
    readTime: "8 min read",
    category: "Technology",
    stage: "Startup",
    featured: false,
  };

  it("accepts a valid article and defaults featured to false", () => {
    const { featured: _omit, ...rest } = valid;
    expect(blogArticleSchema.parse(rest).featured).toBe(false);
  });

  it("normalizes an unquoted YAML date to the ISO day", () => {
    expect(blogArticleSchema.parse({ ...valid, date: new Date("2024-12-12T00:00:00Z") }).date).toBe("2024-12-12");
  });

  it.each([
    ["an unknown stage", { stage: "Scale-up" }],
    ["an unknown category", { category: "Gardening" }],
    ["a non-ISO date", { date: "12/12/2024" }],
    ["a free-form read time", { readTime: "eight minutes" }],
    ["an unknown field", { tags: ["x"] }],
  ])("rejects %s", (_name, patch) => {
    expect(blogArticleSchema.safeParse({ ...valid, ...patch }).success).toBe(false);
  });
});

describe("stage badge colors", () => {
  it.each([
    ["Startup", "bg-blue-100 text-blue-800"],
    ["Growth Stage", "bg-green-100 text-green-800"],
    ["Established", "bg-purple-100 text-purple-800"],
    ["Mature Business", "bg-orange-100 text-orange-800"],
  ])("%s -> %s", (stage, classes) => expect(stageBadgeClass(stage)).toBe(classes));

  it.each(["", "startup", "Enterprise", "toString", "__proto__"])("unknown stage %j -> gray", (stage) => {
    expect(stageBadgeClass(stage)).toBe(UNKNOWN_STAGE_BADGE_CLASS);
    expect(UNKNOWN_STAGE_BADGE_CLASS).toBe("bg-gray-100 text-gray-800");
  });

  it("maps every stage and writes each class in full (Tailwind only sees literal class names)", () => {
    expect(Object.keys(STAGE_BADGE_CLASSES).sort()).toEqual([...BLOG_STAGES].sort());
    const source = readFileSync(path.resolve("src/lib/blog.ts"), "utf8");
    for (const classes of [...Object.values(STAGE_BADGE_CLASSES), UNKNOWN_STAGE_BADGE_CLASS, CATEGORY_BADGE_CLASS]) {
      expect(source).toContain(`"${classes}"`);
    }
  });
});

describe("dates, order and paths", () => {
  it.each([
    ["2024-12-12", "December 12, 2024"],
    ["2024-01-01", "January 1, 2024"],
    ["2024-08-31", "August 31, 2024"],
  ])("formats %s as %s in en-US, independent of the time zone", (iso, shown) =>
    expect(formatArticleDate(iso)).toBe(shown),
  );

  it("rejects a non-date", () => expect(() => formatArticleDate("soon")).toThrow(RangeError));

  it("lists the featured article first, then newest first", () => {
    const entry = (id: string, date: string, featured = false) => ({ id, data: { date, featured } });
    const order = sortArticles([
      entry("a", "2024-01-01"),
      entry("b", "2024-06-01"),
      entry("f", "2023-01-01", true),
      entry("c", "2024-06-01"),
    ]);
    expect(order.map((e) => e.id)).toEqual(["f", "b", "c", "a"]);
  });

  it("lists the real articles newest first after the featured one", () => {
    const dates = sorted.slice(1).map((a) => a.data.date);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it("builds /blog/{id}", () =>
    expect(articlePath("first-90-days-tree-service-startup")).toBe("/blog/first-90-days-tree-service-startup"));
});
