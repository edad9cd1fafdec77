/**
 * Content collections for the blog pages. Each collection: a loader over files in
 * content/ and a zod schema with a JSDoc line per field. Merged in src/content.config.ts.
 *
 * `blog`: one MDX file per article in content/blog/. The file name without .mdx is the
 * article id and its URL (/blog/{id}); the frontmatter follows `blogArticleSchema`.
 */
import { defineCollection } from "astro:content";
import { glob } from "astro/loaders";
import { z } from "astro/zod";
import { BLOG_CATEGORIES, BLOG_STAGES } from "../blog.ts";

/** A YAML date written without quotes arrives as a Date: bring it back to "YYYY-MM-DD". */
const isoDay = z.preprocess(
  (value) => (value instanceof Date ? value.toISOString().slice(0, 10) : value),
  z.iso.date(),
);

export const blogArticleSchema = z.strictObject({
  /** Headline: the page's h1, <title> and the BlogPosting headline. */
  title: z.string().min(10).max(110),
  /** One- or two-sentence summary: card text, meta description and BlogPosting description. */
  excerpt: z.string().min(60).max(220),
  /** Author's full name, shown on cards and the article and used as the BlogPosting author. */
  author: z.string().min(3),
  /** Publication day as an ISO date ("2024-12-12"); shown in en-US form ("December 12, 2024"). */
  date: isoDay,
  /** Reading time as shown, e.g. "8 min read". */
  readTime: z.string().regex(/^\d{1,2} min read$/, 'Use the form "8 min read"'),
  /** One of the ten categories of the specification; shown as the neutral badge. */
  category: z.enum(BLOG_CATEGORIES),
  /** Business stage the advice is for; drives the badge color (Startup blue, Growth Stage green, ...). */
  stage: z.enum(BLOG_STAGES),
  /** The article shown large at the top of /blog ('Read Article'); true on exactly one article. */
  featured: z.boolean().default(false),
});

export type BlogArticle = z.infer<typeof blogArticleSchema>;

export const blogCollections = {
  blog: defineCollection({
    loader: glob({ pattern: "*.mdx", base: "./content/blog" }),
    schema: blogArticleSchema,
  }),
};
