/**
 * The headers of a page whose address is its key (a status, answer or review link, an
 * owner's page): never stored by a browser or the CDN, never indexed, and the address sent
 * to no other site. The page sets them on Astro.response.headers.
 */

/** Every personal page's headers; `referrerPolicy` when its own forms need another than no-referrer. */
export function personalHeaders(referrerPolicy = "no-referrer"): Record<string, string> {
  return {
    "cache-control": "private, no-store",
    "netlify-cdn-cache-control": "no-store",
    "x-robots-tag": "noindex, nofollow",
    "referrer-policy": referrerPolicy,
  };
}

/** Sets `values` on a response's headers (Astro.response.headers). */
export function applyHeaders(headers: Headers, values: Readonly<Record<string, string>>): void {
  for (const [name, value] of Object.entries(values)) headers.set(name, value);
}

/** A loaded page's answer: the status and headers it is sent with. */
export interface PageAnswer {
  status: number;
  headers: Readonly<Record<string, string>>;
}

/** Puts a loaded page's status and headers on `response` (Astro.response); returns the page. */
export function answerWith<P extends PageAnswer>(response: { status?: number; headers: Headers }, page: P): P {
  response.status = page.status;
  applyHeaders(response.headers, page.headers);
  return page;
}

/** Where a page leaves a policy of its own for the middleware (src/middleware.ts). */
const PAGE_POLICY = "treeline:page-policy";

/**
 * Gives the page a content security policy of its own, sent next to the site's (a browser
 * enforces both): for a page stricter than the rest, e.g. one that must run no script at all.
 * Astro writes the site's policy after the page renders, so the middleware adds this one.
 */
export function setPagePolicy(locals: object, policy: string): void {
  (locals as Record<string, unknown>)[PAGE_POLICY] = policy;
}

/** The policy setPagePolicy left, if any. */
export function pagePolicyOf(locals: object): string | undefined {
  const policy = (locals as Record<string, unknown>)[PAGE_POLICY];
  return typeof policy === "string" ? policy : undefined;
}
