/**
 * Serves the business profile shell (the prerendered /directory-profile page) for slugs
 * that have no prerendered page. The shell is read from the site itself, so it always
 * matches the deployed build; the function only decides the status code.
 */
import { NOT_FOUND } from "../../src/lib/directory.ts";
import { SITE } from "../../src/lib/site.ts";
import { getStore, type Store } from "./store/index.ts";

/** The noindex page the shell comes from (src/pages/directory-profile.astro). */
export const SHELL_PATH = "/directory-profile";
/** Marker the shell's island reads to show "Business Not Found" without a request. */
export const MISSING_ATTRIBUTE = 'data-business="missing"';

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export interface DirectoryPageDeps {
  store?: () => Store;
  /** Loads the shell HTML; defaults to fetching SHELL_PATH from the request's origin. */
  shell?: (origin: string) => Promise<Shell>;
}

/** The shell's HTML, with the headers the CDN served it with when it was fetched. */
export type Shell = string | { html: string; headers: Headers };

/**
 * netlify.toml's [[headers]] reach static files, not function answers. The shell is a static
 * file, so its security headers are copied from there: one definition, the same page policy.
 */
export const FORWARDED_PAGE_HEADERS = [
  "strict-transport-security",
  "referrer-policy",
  "permissions-policy",
  "x-frame-options",
  "content-security-policy",
] as const;

async function fetchShell(origin: string): Promise<Shell> {
  const res = await fetch(new URL(SHELL_PATH, origin), { headers: { accept: "text/html" } });
  if (!res.ok) throw new Error(`shell answered ${res.status}`);
  return { html: await res.text(), headers: res.headers };
}

function pageHeaders(shell: Shell): Record<string, string> {
  if (typeof shell === "string") return {};
  const out: Record<string, string> = {};
  for (const name of FORWARDED_PAGE_HEADERS) {
    const value = shell.headers.get(name);
    if (value) out[name] = value;
  }
  return out;
}

/** The shell as the not-found page: the attribute its CSS keys on, and the title crawlers and tabs show. */
export function markMissing(html: string): string {
  return html.replace(/<html\b/i, `<html ${MISSING_ATTRIBUTE}`).replace(/<title>[^<]*<\/title>/i, `<title>${NOT_FOUND.title} | ${SITE.name}</title>`);
}

export function directoryPageHandler(deps: DirectoryPageDeps = {}) {
  const storeOf = deps.store ?? getStore;
  const shellOf = deps.shell ?? fetchShell;
  return async (req: Request, slugParam: string | undefined): Promise<Response> => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      return new Response("Method not allowed", { status: 405, headers: { allow: "GET, HEAD", "cache-control": "no-store" } });
    }
    const slug = (slugParam ?? new URL(req.url).pathname.split("/").pop() ?? "").toLowerCase();
    let known: boolean | null = null;
    if (SLUG.test(slug) && slug.length <= 120) {
      try {
        known = (await storeOf().businesses.getBySlug(slug)) !== null;
      } catch (error) {
        // The shell asks the API itself; let it try rather than call a live business missing.
        console.warn(`[directory-page] lookup failed for ${slug} (${error instanceof Error ? error.name : "error"})`);
      }
    } else {
      known = false;
    }
    let shell: Shell;
    try {
      shell = await shellOf(new URL(req.url).origin);
    } catch (error) {
      console.error(`[directory-page] shell unavailable (${error instanceof Error ? error.message : "error"})`);
      return new Response("This page is temporarily unavailable. Please try again shortly.", {
        status: 503,
        headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", "retry-after": "30" },
      });
    }
    const missing = known === false;
    const html = typeof shell === "string" ? shell : shell.html;
    return new Response(req.method === "HEAD" ? null : missing ? markMissing(html) : html, {
      status: missing ? 404 : 200,
      headers: {
        ...pageHeaders(shell),
        "content-type": "text/html; charset=utf-8",
        "x-content-type-options": "nosniff",
        "cache-control": "public, max-age=0, must-revalidate",
        // Short CDN life: a business added a minute ago must not stay "missing" for long.
        "netlify-cdn-cache-control": missing ? "public, s-maxage=30" : "public, durable, s-maxage=60, stale-while-revalidate=300",
        "netlify-cache-tag": "directory",
      },
    });
  };
}
