/**
 * What the signed-out owner pages show (src/pages/owner/{claim/[slug],add,sign-in/*,code/[id],
 * sign-out}.astro): the claim and add forms (or what became of the post), a sign-in link's one
 * "Sign in" button, the SMS code form, and why a link or code cannot be used. Opening a link's
 * page does not use it up (mail scanners open links); a bad link or code counts against the
 * client address as its post would, and a locked-out address is told to wait (429).
 */
import { CODES_PAUSED, CODE_DIGITS, linkLifetime } from "../../../src/lib/owners/limits.ts";
import { maskPhone } from "../../../src/lib/owners/masks.ts";
import { OWNER_MESSAGES } from "../../../src/lib/owners/messages.ts";
import { Business } from "../../../src/lib/schemas/business.ts";
import type { AddBusinessFormView, ClaimFormView } from "../../../src/lib/owner-views.ts";
import { env as currentEnv } from "../../../src/lib/env.ts";
import { STORE_UNAVAILABLE, clientIp, type Env } from "../http.ts";
import { getStore, type Store } from "../store/index.ts";
import { addFormView, claimFormView, outcomeOf, type Outcome } from "../owners/forms.ts";
import { OWNER_PAGE_HEADERS, readOwner } from "../owners/page.ts";
import { canEmail, deliveryOf, type Delivery } from "../owners/reach.ts";
import { ANY_TOKEN, SIGN_IN_HELP_PATH } from "../owners/sign-in.ts";
import {
  CODE_ID_PATTERN,
  codesPausedFor,
  ownerLockedOutFor,
  peekCode,
  peekSignInLink,
  recordOwnerFailure,
} from "../owners/tokens.ts";
import { readFlash, type Flash } from "./flash.ts";
import type { OwnerPageDeps } from "./owner.ts";

export { CODE_DIGITS, SIGN_IN_HELP_PATH };

/**
 * The client's address as the functions count it (the lockout is kept per address): Netlify's
 * context ip, which Astro gives as `clientAddress` (it throws where the server has none).
 */
function pageClient(request: Request, clientAddress: () => string): string | null {
  let ip: string | undefined;
  try {
    ip = clientAddress();
  } catch {
    ip = undefined;
  }
  return clientIp(request, { ip });
}

/** Why the page shows no form: a link or code that cannot be used, a limit, an outage. */
export interface Refusal {
  kind: "refused";
  title: string;
  problem: string;
  /** The visitor is signed in already (a second tap on a used link): sent on to the listing. */
  signedIn?: boolean;
}

/** A signed-out owner page: the status and headers to answer with, and what to show. */
export interface OwnerAuthPage<V> {
  status: number;
  headers: Readonly<Record<string, string>>;
  view: V | Refusal;
}

function refused(
  status: number,
  title: string,
  problem: string,
  extra: Record<string, string> = {},
  signedIn = false,
): OwnerAuthPage<never> {
  return {
    status,
    headers: { ...OWNER_PAGE_HEADERS, ...extra },
    view: { kind: "refused", title, problem, ...(signedIn ? { signedIn } : {}) },
  };
}
const unavailable = () => refused(503, "Temporarily unavailable", STORE_UNAVAILABLE);
const waitHeaders = (seconds: number) => ({ "retry-after": String(seconds) });

/** Runs a page's loading; any failure to read the store is an outage (503). */
async function load<V>(
  label: string,
  deps: OwnerPageDeps,
  run: (o: { store: Store; env: Env; now: number }) => Promise<OwnerAuthPage<V>>,
): Promise<OwnerAuthPage<V>> {
  try {
    const store = (deps.store ?? getStore)();
    return await run({ store, env: deps.env ?? currentEnv(), now: (deps.now ?? Date.now)() });
  } catch (error) {
    console.error(`[owner] ${label}: page unavailable (${error instanceof Error ? error.name : typeof error})`);
    return unavailable();
  }
}

/** The flash a post left for `url`'s page, read from `store`. */
const flashOf = (url: URL, store: Store): Promise<Flash | null> => readFlash(url, () => store);

// ---------------------------------------------------------------------------------------

export type ClaimView =
  | { kind: "form"; businessName: string; slug: string; form: ClaimFormView; problem?: string }
  | {
      kind: "outcome";
      businessName: string;
      slug: string;
      outcome: Outcome;
      again: string;
      /** Whether the answer can reach the claimant by e-mail here (else Treeline contacts them). */
      emailReady: boolean;
    };

/** /owner/claim/{slug}: the claim form, or what became of the claim. */
export function loadClaim(request: Request, slug: string, deps: OwnerPageDeps = {}): Promise<OwnerAuthPage<ClaimView>> {
  return load<ClaimView>("claim", deps, async ({ store, env }) => {
    const missing = () => refused(404, "Not found", "This business is not in the directory.");
    if (!Business.shape.slug.safeParse(slug).success) return missing();
    const business = await store.businesses.getBySlug(slug);
    if (!business) return missing();
    const url = new URL(request.url);
    const path = `/owner/claim/${business.slug}`;
    const flash = await flashOf(url, store);
    const outcome = flash?.status === 200 ? outcomeOf(flash.values) : null;
    const base = { businessName: business.name, slug: business.slug };
    if (outcome)
      return {
        status: 200,
        headers: OWNER_PAGE_HEADERS,
        view: { kind: "outcome", ...base, outcome, again: path, emailReady: canEmail(env) },
      };
    return {
      status: flash?.status ?? 200,
      headers: OWNER_PAGE_HEADERS,
      view: {
        kind: "form",
        ...base,
        form: claimFormView(business, env, path, flash?.values, flash?.errors),
        ...(flash?.problem ? { problem: flash.problem } : {}),
      },
    };
  });
}

export type AddView =
  | {
      kind: "form";
      form: AddBusinessFormView;
      problem?: string;
      /** Whether the answer (and, once approved, a sign-in link) can be e-mailed here (else Treeline contacts them). */
      emailReady: boolean;
    }
  | { kind: "outcome"; businessName: string; to: string; emailReady: boolean };

/** /owner/add: "Add your business", or the thanks once it is sent. */
export function loadAdd(request: Request, action: string, deps: OwnerPageDeps = {}): Promise<OwnerAuthPage<AddView>> {
  return load<AddView>("add", deps, async ({ store, env }) => {
    const flash = await flashOf(new URL(request.url), store);
    const outcome = flash?.status === 200 ? outcomeOf(flash.values) : null;
    const name = flash?.values.business;
    if (outcome && typeof name === "string")
      return {
        status: 200,
        headers: OWNER_PAGE_HEADERS,
        view: { kind: "outcome", businessName: name, to: outcome.to, emailReady: canEmail(env) },
      };
    return {
      status: flash?.status ?? 200,
      headers: OWNER_PAGE_HEADERS,
      view: {
        kind: "form",
        form: addFormView(action, flash?.values, flash?.errors),
        ...(flash?.problem ? { problem: flash.problem } : {}),
        emailReady: canEmail(env),
      },
    };
  });
}

// ---------------------------------------------------------------------------------------

const LINK_UNUSABLE = "This sign-in link can't be used";

export type SignInLinkView = { kind: "button"; businessName: string; action: string; lifetime: string };

/**
 * /owner/sign-in/{token}: one "Sign in" button (its post uses the link). Looking does not use
 * the link up; a changed, used or expired one counts as a failed sign-in, as its post would.
 */
export function loadSignInLink(
  request: Request,
  token: string,
  clientAddress: () => string,
  deps: OwnerPageDeps = {},
): Promise<OwnerAuthPage<SignInLinkView>> {
  const client = pageClient(request, clientAddress);
  return load<SignInLinkView>("sign-in", deps, async ({ store, env, now }) => {
    if (!ANY_TOKEN.test(token)) return refused(404, LINK_UNUSABLE, OWNER_MESSAGES.linkInvalid);
    const wait = await ownerLockedOutFor(store, client);
    if (wait > 0) return refused(429, "Please wait", OWNER_MESSAGES.lockedOut, waitHeaders(wait));
    const result = await peekSignInLink(store, token, now);
    if (!result.ok) {
      await recordOwnerFailure(store, client);
      const owner = await readOwner(request, store, env, now);
      const expired = result.reason === "expired";
      const problem = expired ? OWNER_MESSAGES.linkExpired : OWNER_MESSAGES.linkInvalid;
      return refused(expired ? 410 : 404, LINK_UNUSABLE, problem, {}, owner.ok);
    }
    const business = await store.businesses.get(result.grant.businessId);
    return {
      status: 200,
      headers: OWNER_PAGE_HEADERS,
      view: {
        kind: "button",
        businessName: business?.name ?? "your business",
        action: `/owner/sign-in/${token}`,
        lifetime: linkLifetime(Math.max(60_000, result.grant.expiresAt - now)),
      },
    };
  });
}

/**
 * /owner/sign-in: how owners sign in, and where a link's refused post lands (a used or expired
 * link, a locked-out address: the flash says which; one already signed in is sent on).
 */
export function loadSignInHelp(request: Request, deps: OwnerPageDeps = {}): Promise<OwnerAuthPage<{ kind: "help" }>> {
  return load<{ kind: "help" }>("sign-in help", deps, async ({ store }) => {
    const flash = await flashOf(new URL(request.url), store);
    if (flash?.problem) {
      const title =
        flash.status === 429 ? "Please wait" : flash.status === 503 ? "Temporarily unavailable" : LINK_UNUSABLE;
      return refused(flash.status, title, flash.problem, {}, flash.values.signedIn === "1");
    }
    return { status: 200, headers: OWNER_PAGE_HEADERS, view: { kind: "help" } };
  });
}

// ---------------------------------------------------------------------------------------

export type CodeView = {
  kind: "form";
  businessName: string;
  phone?: string;
  action: string;
  error?: string;
  /** What became of the text carrying the code (the page says "We texted" only when it went). */
  delivery: Delivery;
};

const CODE_UNUSABLE = "This code can't be used";

/** /owner/code/{id}: the SMS code form (and its message after a wrong code). */
export function loadCode(
  request: Request,
  id: string,
  clientAddress: () => string,
  deps: OwnerPageDeps = {},
): Promise<OwnerAuthPage<CodeView>> {
  const client = pageClient(request, clientAddress);
  return load<CodeView>("code", deps, async ({ store, now }) => {
    if (!CODE_ID_PATTERN.test(id)) return refused(404, CODE_UNUSABLE, OWNER_MESSAGES.codeGone);
    const flash = await flashOf(new URL(request.url), store);
    if (flash?.problem && !flash.errors.code)
      return refused(
        flash.status,
        flash.status === 429 ? "Please wait" : flash.status === 410 ? CODE_UNUSABLE : "Something went wrong",
        flash.problem,
      );
    const wait = await ownerLockedOutFor(store, client);
    if (wait > 0) return refused(429, "Please wait", OWNER_MESSAGES.lockedOut, waitHeaders(wait));
    const grant = await peekCode(store, id, now);
    if (!grant) return refused(410, CODE_UNUSABLE, OWNER_MESSAGES.codeGone);
    // No form while the business's code sign-in is paused: no code would be taken.
    const paused = await codesPausedFor(store, grant.businessId);
    if (paused > 0) return refused(429, "Please wait", CODES_PAUSED, waitHeaders(paused));
    const business = await store.businesses.get(grant.businessId);
    const texts = (await store.messages.forLead(grant.claimId)).filter((m) => m.kind === "owner-code");
    const text = texts.at(-1);
    return {
      status: flash?.status ?? 200,
      headers: OWNER_PAGE_HEADERS,
      view: {
        kind: "form",
        delivery: text ? deliveryOf(text) : "retrying",
        businessName: business?.name ?? "the business",
        ...(business?.phone ? { phone: maskPhone(business.phone) } : {}),
        action: `/owner/code/${id}`,
        ...(flash?.errors.code ? { error: flash.errors.code } : {}),
      },
    };
  });
}

// ---------------------------------------------------------------------------------------

/** /owner/sign-out: "You're signed out" (or why the sign-out post was refused). */
export function loadSignedOut(
  request: Request,
  deps: OwnerPageDeps = {},
): Promise<OwnerAuthPage<{ kind: "signed-out"; message: string }>> {
  return load<{ kind: "signed-out"; message: string }>("sign-out", deps, async ({ store }) => {
    const flash = await flashOf(new URL(request.url), store);
    if (flash?.problem) return refused(flash.status, "Something went wrong", flash.problem);
    return {
      status: 200,
      headers: OWNER_PAGE_HEADERS,
      view: { kind: "signed-out", message: OWNER_MESSAGES.signedOut },
    };
  });
}
