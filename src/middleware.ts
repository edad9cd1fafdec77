/**
 * Responses rendered on demand (the directory pages and sitemaps, the personal pages) get the
 * security headers netlify.toml gives static files, because Netlify applies [[headers]] to
 * static files only. Astro sends its hashed script policy as a header on these pages;
 * netlify.toml's policy is added as a second policy in the same header (both are enforced),
 * not merged into it, and so is a page's own stricter one (setPagePolicy).
 */
import { defineMiddleware } from "astro:middleware";
import netlifyToml from "../netlify.toml?raw";
import { staticPageHeaders } from "../netlify/lib/directory-page.ts";
import { pagePolicyOf } from "../netlify/lib/page-data/personal.ts";
import { pruneScriptHashes } from "./integrations/finish-html.ts";

const STATIC_HEADERS = staticPageHeaders(netlifyToml);

export const onRequest = defineMiddleware(async (context, next) => {
  let response = await next();
  if (context.isPrerendered) return response;
  // As the build does for static pages (finish-html.ts): the script policy names only the
  // scripts this page carries.
  let html: string | null = null;
  if (response.headers.get("content-type")?.startsWith("text/html") && response.body) {
    html = await response.text();
    response = new Response(html, response);
  }
  for (const [name, value] of Object.entries(STATIC_HEADERS)) {
    let own = response.headers.get(name);
    if (name === "content-security-policy") {
      if (own && html !== null) own = pruneScriptHashes(own, html);
      const page = pagePolicyOf(context.locals);
      response.headers.set(name, [own, value, page].filter(Boolean).join(", "));
    } else if (own === null) response.headers.set(name, value);
  }
  return response;
});
