/**
 * The sitemap index, on demand: the static pages' sitemap written by @astrojs/sitemap at build
 * time (filenameBase "sitemap-pages", one file: the site has ~100 static pages, far below its
 * 45,000 entry limit) and one directory sitemap per SITEMAP_MAX_URLS businesses, counted in
 * the store. Cached like the directory pages and purged with them.
 */
import type { APIRoute } from "astro";
import {
  DIRECTORY_TAG,
  PAGE_CACHE,
  directorySitemapPath,
  getStore,
  sitemapFileCount,
  sitemapIndexXml,
} from "../../netlify/lib/directory-page.ts";

export const prerender = false;

/** What @astrojs/sitemap writes for the static pages (astro.config.mjs sets its filenameBase). */
export const STATIC_SITEMAP = "/sitemap-pages-0.xml";

export const GET: APIRoute = async ({ site }) => {
  const origin = site ?? new URL("https://treeline.example");
  let total: number;
  try {
    total = await getStore().businesses.count();
  } catch (error) {
    console.error(`[sitemap] store unavailable (${error instanceof Error ? error.name : "error"})`);
    return new Response("Sitemap temporarily unavailable", {
      status: 503,
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", "retry-after": "60" },
    });
  }
  const files = Array.from(
    { length: sitemapFileCount(total) },
    (_, i) => new URL(directorySitemapPath(i), origin).href,
  );
  return new Response(sitemapIndexXml([new URL(STATIC_SITEMAP, origin).href, ...files]), {
    headers: { "content-type": "application/xml; charset=utf-8", ...PAGE_CACHE, "netlify-cache-tag": DIRECTORY_TAG },
  });
};
