/**
 * The owner's pages (/owner/...): plain HTML forms that work without JavaScript, each page
 * one function, all sharing this shell and gate. Never cached anywhere (private, no-store),
 * never indexed; the forms post back to their own page (same-origin referrer, so the
 * cross-site check sees the real Origin).
 */
import type { Business } from "../../../src/lib/schemas/business.ts";
import { escapeHtml } from "../../../src/lib/forms/markup.ts";
import { CLAIM_LINK_LABEL } from "../../../src/lib/owner-links.ts";
import {
  endpoint,
  htmlResponse,
  storeCall,
  type BodyKind,
  type Call,
  type Endpoint,
  type EndpointDeps,
  type EndpointSpec,
  type Env,
} from "../http.ts";
import { problemPages, renderPage } from "../pages.ts";
import type { Store } from "../store/index.ts";
import { readOwnerSession, type OwnerSession } from "./session.ts";

export const OWNER_PAGE_HEADERS: Readonly<Record<string, string>> = {
  "cache-control": "private, no-store",
  "netlify-cdn-cache-control": "no-store",
  "referrer-policy": "same-origin",
  "x-robots-tag": "noindex, nofollow",
};

/** The owner's sections, in the order of the menu. */
export const OWNER_SECTIONS = [
  { path: "/owner", label: "Overview" },
  { path: "/owner/profile", label: "Profile & hours" },
  { path: "/owner/photos", label: "Photos" },
  { path: "/owner/credentials", label: "Licence & insurance" },
  { path: "/owner/reviews", label: "Reviews" },
] as const;
export type OwnerSectionPath = (typeof OWNER_SECTIONS)[number]["path"];

const STYLE = `<style>
.owner-nav{display:flex;flex-wrap:wrap;gap:.25rem .75rem;align-items:center;margin:0 0 1rem;padding:0 0 .75rem;border-bottom:1px solid #dcefe1}
.owner-nav a{font-weight:600;text-decoration:none;padding:.5rem .25rem;min-height:2.75rem;display:inline-flex;align-items:center}
.owner-nav a[aria-current=page]{text-decoration:underline;text-decoration-thickness:3px;text-underline-offset:6px}
.owner-nav form{margin-left:auto}
.link-button{background:none;border:0;color:var(--forest);font:inherit;font-weight:600;text-decoration:underline;cursor:pointer;min-height:2.75rem;padding:0 .25rem}
.owner-form{display:grid;gap:1rem}
.owner-form label,.owner-form legend{font-weight:600;font-size:.9rem;display:grid;gap:.25rem}
.owner-form fieldset{border:1px solid #cbd5e1;border-radius:.5rem;padding:1rem;min-width:0;display:grid;gap:.75rem}
.owner-form input:not([type=checkbox]):not([type=radio]),.owner-form select,.owner-form textarea{font:inherit;font-size:1rem;font-weight:400;min-height:2.75rem;border:1px solid #cbd5e1;border-radius:.5rem;padding:.5rem .75rem;width:100%;background:#fff}
.owner-form .check{display:flex;gap:.5rem;align-items:center;font-weight:400;overflow-wrap:anywhere}
.owner-form .hint{font-weight:400;color:var(--muted);font-size:.85rem}
.owner-form [aria-invalid=true]{border-color:#b91c1c;box-shadow:0 0 0 1px #b91c1c}
.field-error{color:#b91c1c;font-size:.875rem;font-weight:600;margin:0}
.notice{border:1px solid #86efac;background:#f0fdf4;border-radius:.75rem;padding:.75rem 1rem;margin:0 0 1rem;overflow-wrap:anywhere}
.problem{border:1px solid #fca5a5;background:#fef2f2;color:#991b1b;border-radius:.75rem;padding:.75rem 1rem;margin:0 0 1rem;overflow-wrap:anywhere}
.pager{display:flex;gap:1rem;margin:1rem 0}
</style>`;
/** The owner forms' stylesheet, for the signed-out pages (claim, sign-in, add) too. */
export const OWNER_STYLE = STYLE;

/** A complete owner page: the business's name, the menu, an optional notice, the body. */
export function ownerPage(o: {
  title: string;
  business: Pick<Business, "name" | "slug">;
  active: OwnerSectionPath;
  body: string;
  /** A success line ("Saved. Your page shows it now."), shown in a status region. */
  notice?: string;
  /** A problem line, shown in an alert region. */
  problem?: string;
  /** "#field-id": the problem line links to the field it is about (it may be far down the page). */
  problemHref?: string;
}): string {
  const nav = OWNER_SECTIONS.map(
    (s) => `<a href="${s.path}"${s.path === o.active ? ' aria-current="page"' : ""}>${escapeHtml(s.label)}</a>`,
  ).join("");
  const body =
    STYLE +
    `<p class="note">Managing <a href="/directory/${encodeURIComponent(o.business.slug)}">${escapeHtml(o.business.name)}</a></p>` +
    `<nav class="owner-nav" aria-label="Your listing">${nav}<form method="post" action="/owner/sign-out"><button class="link-button" type="submit">Sign out</button></form></nav>` +
    (o.notice ? `<p class="notice" role="status">${escapeHtml(o.notice)}</p>` : "") +
    (o.problem
      ? `<p class="problem" role="alert">${o.problemHref ? `<a href="${escapeHtml(o.problemHref)}">${escapeHtml(o.problem)}</a>` : escapeHtml(o.problem)}</p>`
      : "") +
    `<h1>${escapeHtml(o.title)}</h1>` +
    o.body;
  return renderPage({ title: `${o.title} · ${o.business.name}`, body });
}

/**
 * The way back in for an owner without a session: their business's page, found by name (the
 * directory's own search, no JavaScript needed), then "Own this business? Claim it".
 */
export function findYourBusiness(): string {
  return (
    `<form method="get" action="/directory" class="owner-form" role="search" aria-label="Find your business">` +
    `<label for="find-business">Your business's name<input id="find-business" type="search" name="q" maxlength="100" autocomplete="organization"></label>` +
    `<button type="submit" class="btn-primary">Find it in the directory</button></form>` +
    `<p>Open its page and choose <strong>${escapeHtml(CLAIM_LINK_LABEL)}</strong>: if it is already yours, we send you a new sign-in link at once.</p>`
  );
}

/** The page for a visitor without a (live) owner session. */
export function signedOutPage(): string {
  return renderPage({
    title: "Sign in to manage your listing",
    body:
      STYLE +
      `<h1>Sign in to manage your listing</h1>` +
      `<p class="lead">Owners sign in with a one-time link sent to the e-mail they claimed their business with.</p>` +
      findYourBusiness() +
      `<p>Not listed yet? <a href="/owner/add">Add your business</a>.</p>`,
  });
}

export const ownerHtml = (html: string, status = 200, headers: Record<string, string> = {}) =>
  htmlResponse(html, status, { ...OWNER_PAGE_HEADERS, ...headers });

/** 303 to an owner page (after a post: a reload does not post again); `notice` goes in the query. */
export function seeOwnerPage(path: string, notice?: string): Response {
  const location = notice ? `${path}?saved=${encodeURIComponent(notice)}` : path;
  return new Response(null, { status: 303, headers: { ...OWNER_PAGE_HEADERS, location } });
}

/**
 * The `?saved=` notice of a page, if it is one the page itself gives: a crafted link must not
 * put words of its choosing in a Treeline notice (a "call this number" phishing line).
 */
export function knownNotice(req: Request, known: readonly string[]): string | undefined {
  const text = new URL(req.url).searchParams.get("saved");
  return text !== null && known.includes(text) ? text : undefined;
}

/**
 * The signed-in owner and their business, or the response to give instead: the sign-in page
 * (401) without a session, "no longer listed" (404) when the business is gone.
 */
export async function ownerOf(
  call: Pick<Call<never, Store, BodyKind>, "req" | "store" | "env" | "now">,
): Promise<{ ok: true; session: OwnerSession; business: Business } | { ok: false; response: Response }> {
  const { req, store, env, now } = call;
  const session = await storeCall(() => readOwnerSession(req, store, env as Env, now()), { step: "session" });
  if (!session) return { ok: false, response: ownerHtml(signedOutPage(), 401) };
  const business = await storeCall(() => store.businesses.get(session.businessId), { step: "read" });
  if (!business) {
    return {
      ok: false,
      response: ownerHtml(
        renderPage({
          title: "Listing not found",
          body: "<h1>Listing not found</h1><p>This business is no longer in the directory.</p>",
        }),
        404,
      ),
    };
  }
  return { ok: true, session, business };
}

/** The refusal pages every owner page answers with (a form post's 403, 413, 429, 503...). */
export const ownerProblemPage = problemPages({
  403: "Not allowed",
  413: "Too much",
  429: "Too many attempts",
  503: "Temporarily unavailable",
});

/** The signed-in owner, as every owner page's work receives it. */
export type SignedInOwner = { session: OwnerSession; business: Business };

/**
 * One owner page: what every one shares (pages only, never cached, posts from this site only,
 * the refusal pages) around its own spec, and the owner gate before its work.
 */
export function ownerEndpoint<K extends BodyKind = never>(
  spec: Pick<EndpointSpec<never, K, false>, "log" | "methods" | "body" | "rateLimit"> &
    Partial<Pick<EndpointSpec<never, K, false>, "page">>,
  deps: EndpointDeps,
  work: (call: Call<never, Store, K>, owner: SignedInOwner) => Promise<Response>,
): Endpoint {
  return endpoint<never, K, false>(
    { page: ownerProblemPage, ...spec, sameSiteOnly: true, pagesOnly: true, headers: OWNER_PAGE_HEADERS },
    deps,
    async (call) => {
      const owner = await ownerOf(call);
      if (!owner.ok) return owner.response;
      return work(call, owner);
    },
  );
}
