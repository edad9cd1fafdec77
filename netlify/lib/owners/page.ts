/**
 * What every owner page's form posts share: the headers (never cached anywhere, never
 * indexed, same-origin referrer so the cross-site check sees the real Origin), the owner
 * gate, and post/redirect/get. The pages themselves are Astro pages (src/pages/owner/**),
 * reading through netlify/lib/page-data/owner.ts; the functions here take their posts only,
 * and every post ends in a 303 back to its page, carrying what the page shows next in a form
 * flash (a notice after a success; the values, field messages and problem after a refusal).
 */
import type { Business } from "../../../src/lib/schemas/business.ts";
import type { FlashInput } from "../../../src/lib/schemas/flash.ts";
import { redirectWithFlash, seeOther } from "../form-flash.ts";
import type { NotifyDeps } from "../notify/index.ts";
import {
  KB,
  endpoint,
  storeCall,
  type BodyKind,
  type Call,
  type Endpoint,
  type EndpointDeps,
  type EndpointSpec,
  type Env,
} from "../http.ts";
import type { Store } from "../store/index.ts";
import { readOwnerSession, type OwnerSession } from "./session.ts";

export const OWNER_PAGE_HEADERS: Readonly<Record<string, string>> = {
  "cache-control": "private, no-store",
  "netlify-cdn-cache-control": "no-store",
  "referrer-policy": "same-origin",
  "x-robots-tag": "noindex, nofollow",
};

/** The page a post came from: its own path (a function takes the posts of the page at its path). */
export const pathOf = (req: Request) => new URL(req.url).pathname;

/**
 * 303 to an owner page, with its notice when there is one (a reload does not post again).
 * `at`: the page's address with its query ("/owner/reviews?page=2"), when not just `path`.
 */
export async function seeOwnerPage(store: Store, path: string, notice?: string, at = path): Promise<Response> {
  if (!notice) return seeOther(at, OWNER_PAGE_HEADERS);
  return redirectWithFlash(store, { path, status: 200, notice }, OWNER_PAGE_HEADERS, "", at);
}

/** 303 back to the page with what it shows after a refused post (status, values, messages, problem). */
export function backToPage(
  store: Store,
  flash: FlashInput,
  headers: Record<string, string> = {},
  at = flash.path,
): Promise<Response> {
  return redirectWithFlash(store, flash, { ...OWNER_PAGE_HEADERS, ...headers }, "", at);
}

/** A refused post's status: the form's own schema found something to fix. */
export const INVALID_STATUS = 422;

/** A form's values as a flash keeps them. */
export type FlashValues = Readonly<Record<string, string | readonly string[]>>;

/** Those values as the form would post them again (what the forms' readers take). */
export function asForm(values: FlashValues): URLSearchParams {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) for (const one of typeof v === "string" ? [v] : v) form.append(k, one);
  return form;
}

/** The form's text fields as posted, a repeated name as a list (what a flash keeps to fill the form again). */
export function postedValues(form: URLSearchParams | FormData): Record<string, string | string[]> {
  // No prototype: a field named "constructor" or "__proto__" is just a field.
  const out: Record<string, string | string[]> = Object.create(null);
  for (const [k, v] of form) {
    if (typeof v !== "string") continue;
    const had = Object.hasOwn(out, k) ? out[k] : undefined;
    out[k] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
  }
  return out;
}

/** Why there is no signed-in owner to show a page to: no (live) session, or the business is gone. */
export type OwnerGate =
  { ok: true; session: OwnerSession; business: Business } | { ok: false; reason: "signed-out" | "gone" };

/** The signed-in owner and their business, read from the request's cookie. */
export async function readOwner(req: Request, store: Store, env: Env, now: number): Promise<OwnerGate> {
  const session = await storeCall(() => readOwnerSession(req, store, env, now), { step: "session" });
  if (!session) return { ok: false, reason: "signed-out" };
  const business = await storeCall(() => store.businesses.get(session.businessId), { step: "read" });
  if (!business) return { ok: false, reason: "gone" };
  return { ok: true, session, business };
}

/** The signed-out pages' posts (claim, add, sign-in link, code, sign-out): their seams. */
export interface OwnerAuthDeps extends EndpointDeps {
  /** The notifier's seams (tests: a fetch to the fake Resend and Twilio). */
  notify?: NotifyDeps;
  /** Links and codes per business per minute (default SENDS_PER_BUSINESS_PER_MINUTE). */
  sendsPerBusiness?: number;
}

/** What every signed-out page's posts share: posts only, from this site, each answered 303 to its page. */
export const signedOutSpec = (log: string, perMinute: number) => ({
  log: `[owner] ${log}`,
  methods: ["POST" as const],
  body: { urlencoded: 16 * KB },
  sameSiteOnly: true,
  rateLimit: { name: `owner-${log}`, perMinute: () => perMinute },
  pagesOnly: true,
  formPage: pathOf,
  headers: OWNER_PAGE_HEADERS,
});

/** The signed-in owner, as every owner page's work receives it. */
export type SignedInOwner = { session: OwnerSession; business: Business };

/**
 * The posts of one owner page: what every one shares (posts only, from this site only, never
 * cached, every refusal a 303 back to the page with its problem) around its own spec, and the
 * owner gate before its work. A post without a live session changes nothing and goes back to
 * the page, which shows how to sign in (401) or that the listing is gone (404).
 */
export function ownerEndpoint<K extends BodyKind = never>(
  spec: Pick<EndpointSpec<never, K, false>, "log" | "body" | "tooLarge" | "rateLimit">,
  deps: EndpointDeps,
  work: (call: Call<never, Store, K>, owner: SignedInOwner) => Promise<Response>,
): Endpoint {
  return endpoint<never, K, false>(
    {
      ...spec,
      methods: ["POST"],
      sameSiteOnly: true,
      pagesOnly: true,
      formPage: pathOf,
      headers: OWNER_PAGE_HEADERS,
    },
    deps,
    async (call) => {
      const owner = await readOwner(call.req, call.store, call.env, call.now());
      if (!owner.ok) return seeOther(pathOf(call.req), OWNER_PAGE_HEADERS);
      return work(call, owner);
    },
  );
}
