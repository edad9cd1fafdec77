/**
 * How an owner gets a session (docs/owners.md "Claims and signing in"): the posts of the
 * sign-in pages, one handler per page (the pages are src/pages/owner/**; a claim's and an added
 * business's posts are forms.ts'):
 *
 *   /owner/sign-in/:token the page's one "Sign in" button uses the link up -> session
 *   /owner/code/:id       the SMS code -> session
 *   /owner/sign-out       ends the session
 *
 * Every post answers 303 (post/redirect/get), never cached. Bad links and wrong codes count
 * against the client address and lock it out for a while; wrong codes also count against
 * their business, whose code sign-in pauses after too many from anywhere.
 */
import { CodeInput } from "../../../src/lib/owners/forms.ts";
import {
  APPROVED_LINK_TTL_MS,
  CODES_PAUSED,
  SIGN_INS_PER_MINUTE,
  SIGN_IN_LINK_TTL_MS,
} from "../../../src/lib/owners/limits.ts";
import { OWNER_MESSAGES, wrongCodeMessage } from "../../../src/lib/owners/messages.ts";
import { seeOther } from "../form-flash.ts";
import { clientIp, endpoint, storeCall, type Call, type Endpoint, type Env } from "../http.ts";
import { signInLink } from "../messages/owner.ts";
import { sendToOwner, type NotifyDeps } from "../notify/index.ts";
import type { Store } from "../store/index.ts";
import { getClaim, settleClaim, type Claim } from "./claims.ts";
import {
  INVALID_STATUS,
  OWNER_PAGE_HEADERS,
  backToPage,
  postedValues,
  readOwner,
  signedOutSpec,
  type OwnerAuthDeps,
} from "./page.ts";
import { addOwner, createOwnerSession, endOwnerSession, isOwner } from "./session.ts";
import {
  CODE_ID_PATTERN,
  codesPausedFor,
  peekCode,
  issueSignInLink,
  ownerLockedOutFor,
  recordCodeFailure,
  recordOwnerFailure,
  takeSignInLink,
  tryCode,
  type SignInGrant,
} from "./tokens.ts";

export const SIGN_IN_ROUTE = "/owner/sign-in/:token";
export const CODE_ROUTE = "/owner/code/:id";
export const SIGN_OUT_ROUTE = "/owner/sign-out";

/** Loose on purpose: a malformed token still reaches the handler, so it counts as a failure. */
export const ANY_TOKEN = /^[A-Za-z0-9._~-]{1,200}$/;

/**
 * Where a sign-in link's refused post goes: the page about signing in, not back to the link's
 * own page, whose path (the token) would then be stored with the flash; the store keeps only
 * the token's hash.
 */
export const SIGN_IN_HELP_PATH = "/owner/sign-in";

/** A used, changed or expired link, or a locked-out address: to the sign-in page, saying so. */
function linkRefused(store: Store, status: 404 | 410 | 429, problem: string, signedIn = false) {
  return backToPage(store, {
    path: SIGN_IN_HELP_PATH,
    status,
    problem,
    // One who is signed in already (a second tap) is sent on to the listing.
    ...(signedIn ? { values: { signedIn: "1" } } : {}),
  });
}

/**
 * A grant used: the owner is added (a link or code to the contact on file proves it; a link to
 * an owner's own address, or the operator's, needs the owner still there), the claim marked
 * proved, a session started.
 * Null when the business is gone or the operator removed the owner since.
 */
async function startSession(call: Pick<Call<never, Store, never>, "store" | "env" | "now">, grant: SignInGrant) {
  const { store, env, now } = call;
  const business = await storeCall(() => store.businesses.get(grant.businessId), { step: "read" });
  if (!business) return null;
  if (grant.ownerOnly || grant.via === "operator") {
    if (!(await storeCall(() => isOwner(store, grant.businessId, grant.email), { step: "owners" }))) return null;
  } else {
    await storeCall(() => addOwner(store, grant.businessId, grant.email, grant.via, now()), { step: "owners" });
    const claim = await storeCall(() => getClaim(store, grant.claimId), { step: "claim" });
    if (claim?.status === "sent") {
      const proved: Claim = { ...claim, status: "proved", decidedAt: new Date(now()).toISOString() };
      await storeCall(() => settleClaim(store, claim, proved), { step: "claim" });
    }
  }
  const { setCookie } = await storeCall(() => createOwnerSession(store, env, grant, now()), { step: "session" });
  console.info(`[owner] ${grant.claimId}: signed in to ${grant.businessId} (${grant.via})`);
  return seeOther("/owner", { ...OWNER_PAGE_HEADERS, "set-cookie": setCookie });
}

/** Sends a sign-in link for `grant` by e-mail; the link is stored before anything is sent. */
export async function sendSignInLink(
  store: Store,
  env: Env,
  now: number,
  grant: Omit<SignInGrant, "expiresAt">,
  o: { to: string; toName?: string; businessName: string; approved?: boolean; notify?: NotifyDeps },
) {
  const ttlMs = o.approved ? APPROVED_LINK_TTL_MS : SIGN_IN_LINK_TTL_MS;
  const { path } = await issueSignInLink(store, grant, now, ttlMs);
  const message = signInLink({
    businessName: o.businessName,
    url: `${env.siteUrl}${path}`,
    approved: o.approved,
    ttlMs,
  });
  const to = { claimId: grant.claimId, to: o.to, toName: o.toName };
  return sendToOwner(store, to, message, { env, now: () => now, ...o.notify });
}

// ---------------------------------------------------------------------------------------
// Sign in with a link

export function signInHandler(deps: OwnerAuthDeps = {}): Endpoint {
  return endpoint(
    {
      ...signedOutSpec("sign-in", SIGN_INS_PER_MINUTE),
      // Every refusal goes to the sign-in page, never back to the link's own path (the token).
      formPage: () => SIGN_IN_HELP_PATH,
      route: { path: SIGN_IN_ROUTE, valid: (v) => ANY_TOKEN.test(v), notFound: OWNER_MESSAGES.linkInvalid },
    },
    deps,
    async (call) => {
      const { req, context, store, now, params } = call;
      const client = clientIp(req, context);
      const wait = await storeCall(() => ownerLockedOutFor(store, client), { step: "lockout" });
      if (wait > 0) return linkRefused(store, 429, OWNER_MESSAGES.lockedOut);
      const result = await storeCall(() => takeSignInLink(store, params.token, now()), { step: "link" });
      if (!result.ok) {
        await storeCall(() => recordOwnerFailure(store, client), { step: "lockout" });
        const owner = await readOwner(req, store, call.env, now());
        const expired = result.reason === "expired";
        return linkRefused(
          store,
          expired ? 410 : 404,
          expired ? OWNER_MESSAGES.linkExpired : OWNER_MESSAGES.linkInvalid,
          owner.ok,
        );
      }
      return (await startSession(call, result.grant)) ?? linkRefused(store, 404, OWNER_MESSAGES.linkInvalid);
    },
  );
}

// ---------------------------------------------------------------------------------------
// Sign in with an SMS code

export function codeHandler(deps: OwnerAuthDeps = {}): Endpoint {
  return endpoint(
    {
      ...signedOutSpec("code", SIGN_INS_PER_MINUTE),
      route: { path: CODE_ROUTE, valid: (v) => CODE_ID_PATTERN.test(v), notFound: OWNER_MESSAGES.codeGone },
    },
    deps,
    async (call) => {
      const { req, context, store, now, params, body } = call;
      const path = `/owner/code/${params.id}`;
      const back = (status: number, o: { problem?: string; error?: string }) =>
        backToPage(store, {
          path,
          status,
          ...(o.problem ? { problem: o.problem } : {}),
          ...(o.error ? { errors: { code: o.error } } : {}),
        });
      const gone = () => back(410, { problem: OWNER_MESSAGES.codeGone });
      const client = clientIp(req, context);
      const wait = await storeCall(() => ownerLockedOutFor(store, client), { step: "lockout" });
      if (wait > 0) return back(429, { problem: OWNER_MESSAGES.lockedOut });
      const grant = await storeCall(() => peekCode(store, params.id, now()), { step: "code" });
      if (!grant) {
        await storeCall(() => recordOwnerFailure(store, client), { step: "lockout" });
        return gone();
      }
      // Many addresses guessing one business's codes are stopped together, even the right code.
      const paused = await storeCall(() => codesPausedFor(store, grant.businessId), { step: "lockout" });
      if (paused > 0) return back(429, { problem: CODES_PAUSED });
      const parsed = CodeInput.safeParse(postedValues(body!.value));
      if (!parsed.success) return back(INVALID_STATUS, { error: OWNER_MESSAGES.code });
      const result = await storeCall(() => tryCode(store, params.id, parsed.data.code, now()), { step: "code" });
      if (result.ok) return (await startSession(call, result.grant)) ?? gone();
      await storeCall(
        () => Promise.all([recordOwnerFailure(store, client), recordCodeFailure(store, grant.businessId)]),
        { step: "lockout" },
      );
      if (result.reason === "wrong") return back(INVALID_STATUS, { error: wrongCodeMessage(result.triesLeft) });
      return gone();
    },
  );
}

// ---------------------------------------------------------------------------------------
// Sign out

export function signOutHandler(deps: OwnerAuthDeps = {}): Endpoint {
  return endpoint(signedOutSpec("sign-out", SIGN_INS_PER_MINUTE), deps, async ({ req, store, env }) => {
    const clear = await storeCall(() => endOwnerSession(req, store, env), { step: "session" });
    return seeOther(SIGN_OUT_ROUTE, { ...OWNER_PAGE_HEADERS, "set-cookie": clear });
  });
}
