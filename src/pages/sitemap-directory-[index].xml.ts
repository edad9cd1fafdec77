/**
 * /sitemap-directory-{n}.xml: the business pages in directory order, SITEMAP_MAX_URLS per
 * file, read from the store on demand (the build never lists the directory). File 0 also
 * carries /directory itself. Cached like the pages and purged with them.
 */
import type { APIRoute } from "astro";
import {
  DIRECTORY_TAG,
  PAGE_CACHE,
  SITEMAP_MAX_URLS,
  getStore,
  sitemapFileCount,
  sitemapSlugs,
  urlsetXml,
} from "../../netlify/lib/directory-page.ts";

export const prerender = false;

const notFound = () =>
  new Response("Not found", {
    status: 404,
    headers: {
      "content-type": "text/plain; charset=utf-8",
      "cache-control": "public, max-age=0, must-revalidate",
      "netlify-cdn-cache-control": "public, durable, s-maxage=60",
      "netlify-cache-tag": DIRECTORY_TAG,
    },
  });

export const GET: APIRoute = async ({ params, site }) => {
  const raw = params.index ?? "";
  if (!/^(0|[1-9]\d{0,5})$/.test(raw)) return notFound();
  const index = Number(raw);
  const origin = site ?? new URL("https://treeline.example");
  try {
    const store = getStore();
    if (index >= sitemapFileCount(await store.businesses.count())) return notFound();
    const slugs = await sitemapSlugs(store, index, SITEMAP_MAX_URLS);
    const urls = [
      ...(index === 0 ? [new URL("/directory", origin).href] : []),
      ...slugs.map((slug) => new URL(`/directory/${slug}`, origin).href),
    ];
    return new Response(urlsetXml(urls), {
      headers: { "content-type": "application/xml; charset=utf-8", ...PAGE_CACHE, "netlify-cache-tag": DIRECTORY_TAG },
    });
  } catch (error) {
    console.error(`[sitemap] directory ${index}: store unavailable (${error instanceof Error ? error.name : "error"})`);
    return new Response("Sitemap temporarily unavailable", {
      status: 503,
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", "retry-after": "60" },
    });
  }
};
