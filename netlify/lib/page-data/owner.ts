/**
 * What the signed-in owner's pages show (src/pages/owner/{index,profile,photos,credentials,
 * reviews}.astro): the owner from the session cookie, their business, the section's own data,
 * and what the last post left for the page (the form flash: a notice, or the values, messages
 * and problem of a refused post). Without a live session a page shows how to sign in (401);
 * a business that is gone is a 404; a store outage a 503. Every answer is private and never
 * stored by any cache or indexed (OWNER_PAGE_HEADERS).
 */
import { STORE_UNAVAILABLE, type Env } from "../http.ts";
import { env as currentEnv } from "../../../src/lib/env.ts";
import type { OwnerSectionPath } from "../../../src/lib/owner-links.ts";
import type {
  CredentialsView,
  OverviewView,
  OwnerShell,
  PhotosView,
  ProfileFormView,
  ReviewsView,
  SignInRequestView,
  WebhooksView,
} from "../../../src/lib/owner-views.ts";
import { getStore, type Store } from "../store/index.ts";
import { credentialsView } from "../owners/credentials.ts";
import { leadsPageOf, overviewView } from "../owners/overview.ts";
import { INVALID_STATUS, OWNER_PAGE_HEADERS, readOwner, type SignedInOwner } from "../owners/page.ts";
import { canEmail, canText } from "../owners/reach.ts";
import { OWNER_PATH } from "../owners/session.ts";
import { photosView } from "../owners/photos.ts";
import { profileView } from "../owners/profile.ts";
import { reviewsView } from "../owners/reviews.ts";
import { webhooksView } from "../owners/webhooks.ts";
import { availabilityView, type AvailabilityView } from "../owners/availability.ts";
import { readFlash, type Flash } from "./flash.ts";

export { OWNER_PAGE_HEADERS };

/** Seams for tests; the site reads the shared store, the environment and the clock. */
export interface OwnerPageDeps {
  store?: () => Store;
  env?: Env;
  now?: () => number;
}

/** One owner section as its page renders it: the status and headers to answer with, the shell, the view. */
export interface OwnerSection<V> {
  status: number;
  headers: Readonly<Record<string, string>>;
  shell: OwnerShell;
  /** Absent when the page shows no section (signed out, gone, outage). */
  view?: V;
}

/** What a section adds to the shell: its view, and where the problem line leads. */
type Built<V> = { view: V; problemHref?: string };

const SHELL_STATUS = { "signed-out": 401, gone: 404 } as const;

/** The section at `path`: the gate, the flash, then `build`; any failure to read is an outage (503). */
async function section<V>(
  request: Request,
  path: OwnerSectionPath,
  deps: OwnerPageDeps,
  build: (o: { store: Store; env: Env; now: number; owner: SignedInOwner; flash: Flash | null }) => Promise<Built<V>>,
): Promise<OwnerSection<V>> {
  const headers = OWNER_PAGE_HEADERS;
  const url = new URL(request.url);
  try {
    const store = (deps.store ?? getStore)();
    const env = deps.env ?? currentEnv();
    const now = (deps.now ?? Date.now)();
    const flash = await readFlash(url, () => store);
    const owner = await readOwner(request, store, env, now);
    if (!owner.ok && owner.reason === "signed-out") {
      const signIn = signInRequestView(flash && flash.path === OWNER_PATH ? flash : null, env);
      const status = signIn.requested ? 200 : signIn.error ? INVALID_STATUS : SHELL_STATUS["signed-out"];
      return { status, headers, shell: { kind: "signed-out", signIn } };
    }
    if (!owner.ok) return { status: SHELL_STATUS[owner.reason], headers, shell: { kind: owner.reason } };
    const fromPath = flash && flash.path === path ? flash : null;
    // Only a refused post's flash carries values to fill the form again; after a success the
    // form shows what is stored (a notice's flash has no values, and an empty form saved again
    // would wipe the listing).
    const refused = fromPath && fromPath.status >= 400 ? fromPath : null;
    const { view, problemHref } = await build({ store, env, now, owner, flash: refused });
    const shell: OwnerShell = {
      kind: "signed-in",
      business: {
        name: owner.business.name,
        slug: owner.business.slug,
        ...(owner.business.isSample ? { isSample: true } : {}),
      },
      ...(fromPath?.notice ? { notice: fromPath.notice } : {}),
      ...(fromPath?.problem ? { problem: fromPath.problem } : {}),
      ...(fromPath?.problem && problemHref ? { problemHref } : {}),
    };
    return { status: fromPath?.status ?? 200, headers, shell, view };
  } catch (error) {
    console.error(`[owner] ${path}: page unavailable (${error instanceof Error ? error.name : typeof error})`);
    return { status: 503, headers, shell: { kind: "unavailable", problem: STORE_UNAVAILABLE } };
  }
}

/** The returning owner's sign-in form, empty, as refused, or after a request (`flash` of /owner). */
export function signInRequestView(flash: Flash | null, env: Env): SignInRequestView {
  const base = { action: OWNER_PATH, value: "" };
  if (!flash) return base;
  const one = (k: string) => {
    const v = flash.values[k];
    return typeof v === "string" ? v : (v?.[0] ?? "");
  };
  const kind = one("requested");
  if (flash.status === 200 && (kind === "email" || kind === "phone"))
    return {
      ...base,
      requested: {
        kind,
        to: one("to"),
        ready: kind === "email" ? canEmail(env) : canText(env),
        otherReady: kind === "email" ? canText(env) : canEmail(env),
      },
    };
  return {
    ...base,
    value: one("address"),
    ...(flash.errors.address ? { error: flash.errors.address } : {}),
    ...(flash.problem ? { problem: flash.problem } : {}),
  };
}

/** /owner: the checklist, the business at a glance and the leads (`?page=`). */
export function loadOverview(request: Request, deps: OwnerPageDeps = {}): Promise<OwnerSection<OverviewView>> {
  return section(request, "/owner", deps, async ({ store, env, now, owner }) => ({
    view: await overviewView(store, env, owner.business, leadsPageOf(new URL(request.url)), now),
  }));
}

/** /owner/profile: the form as stored, or as last posted with its messages. */
export function loadProfile(request: Request, deps: OwnerPageDeps = {}): Promise<OwnerSection<ProfileFormView>> {
  return section(request, "/owner/profile", deps, async ({ owner, flash }) => ({
    view: profileView(owner.business, flash),
  }));
}

/** /owner/availability: the capacity statement and its form. */
export function loadAvailability(request: Request, deps: OwnerPageDeps = {}): Promise<OwnerSection<AvailabilityView>> {
  return section(request, "/owner/availability", deps, async ({ store, now, owner, flash }) => ({
    view: availabilityView(owner.business, await store.capacity.get(owner.business.id), now, flash),
  }));
}

/** /owner/photos: the listing's photos and the upload form. */
export function loadPhotos(request: Request, deps: OwnerPageDeps = {}): Promise<OwnerSection<PhotosView>> {
  return section(request, "/owner/photos", deps, async ({ owner }) => ({ view: photosView(owner.business) }));
}

/** /owner/credentials: what is stated and the form. */
export function loadCredentials(request: Request, deps: OwnerPageDeps = {}): Promise<OwnerSection<CredentialsView>> {
  return section(request, "/owner/credentials", deps, async ({ owner, now, flash }) => ({
    view: credentialsView(owner.business, now, flash),
  }));
}

/** /owner/reviews: one page of reviews (`?page=`), each with its reply form. */
export function loadReviews(request: Request, deps: OwnerPageDeps = {}): Promise<OwnerSection<ReviewsView>> {
  return section(request, "/owner/reviews", deps, ({ store, owner, flash }) =>
    reviewsView(store, owner.business, new URL(request.url), flash),
  );
}

/** /owner/webhooks: the business's webhooks with their delivery logs, the add form, its API keys. */
export function loadWebhooks(request: Request, deps: OwnerPageDeps = {}): Promise<OwnerSection<WebhooksView>> {
  return section(request, "/owner/webhooks", deps, ({ store, env, owner, flash }) =>
    webhooksView(store, owner.business.id, env, flash),
  );
}
