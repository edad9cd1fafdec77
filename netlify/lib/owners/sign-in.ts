/**
 * How an owner gets a session (docs/owners.md "Claims and signing in"): the posts of the
 * signed-out owner pages, one handler per page (the pages are src/pages/owner/**):
 *
 *   /owner/claim/:slug    claim a listed business: a link to the e-mail on file, a code to
 *                         the phone on file, or a pending claim for the operator
 *   /owner/add            "Add your business": a pending claim the operator approves
 *   /owner/sign-in/:token the page's one "Sign in" button uses the link up -> session
 *   /owner/code/:id       the SMS code -> session
 *   /owner/sign-out       ends the session
 *
 * Every post answers 303 (post/redirect/get), never cached. Bad links and wrong codes count
 * against the client address and lock it out for a while.
 */
import { VALIDATION_ERROR, fieldErrors } from "../../../src/lib/schemas/forms.ts";
import {
  AddBusinessInput,
  CLAIMS_PER_MINUTE,
  ClaimInput,
  CodeInput,
  OWNER_MESSAGES,
  SENDS_PER_BUSINESS_PER_MINUTE,
  SIGN_INS_PER_MINUTE,
  APPROVED_LINK_TTL_MS,
  SIGN_IN_LINK_TTL_MS,
  TOO_MANY_SENDS,
  maskEmail,
  wrongCodeMessage,
} from "../../../src/lib/owners.ts";
import { zipPoint } from "../../../src/lib/geo/places.ts";
import { seeOther } from "../form-flash.ts";
import { KB, clientIp, endpoint, storeCall, type Call, type Endpoint, type EndpointDeps, type Env } from "../http.ts";
import { businessRoute } from "../directory.ts";
import { enforceRateLimit } from "../ratelimit.ts";
import { deliverNow, type NotifyDeps } from "../notify/index.ts";
import type { Store } from "../store/index.ts";
import { createClaim, getClaim, newClaimId, settleClaim, type Claim } from "./claims.ts";
import { outcomeValues } from "./forms.ts";
import { codeSms, signInEmail } from "./notices.ts";
import { INVALID_STATUS, OWNER_PAGE_HEADERS, backToPage, pathOf, postedValues, readOwner } from "./page.ts";
import { addOwner, createOwnerSession, endOwnerSession, isOwner, normalEmail } from "./session.ts";
import {
  CODE_ID_PATTERN,
  peekCode,
  issueCode,
  issueSignInLink,
  ownerLockedOutFor,
  recordOwnerFailure,
  takeSignInLink,
  tryCode,
  type SignInGrant,
} from "./tokens.ts";

export const CLAIM_ROUTE = "/owner/claim/:slug";
export const ADD_ROUTE = "/owner/add";
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

export interface OwnerAuthDeps extends EndpointDeps {
  /** The notifier's seams (tests: a fetch to the fake Resend and Twilio). */
  notify?: NotifyDeps;
  /** Links and codes per business per minute (default SENDS_PER_BUSINESS_PER_MINUTE). */
  sendsPerBusiness?: number;
}

/** What every signed-out page's posts share: posts only, from this site, each answered 303 to its page. */
const pageSpec = (log: string, perMinute: number) => ({
  log: `[owner] ${log}`,
  methods: ["POST" as const],
  body: { urlencoded: 16 * KB },
  sameSiteOnly: true,
  rateLimit: { name: `owner-${log}`, perMinute: () => perMinute },
  pagesOnly: true,
  formPage: pathOf,
  headers: OWNER_PAGE_HEADERS,
});

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
  const message = signInEmail(
    {
      claimId: grant.claimId,
      to: o.to,
      toName: o.toName,
      businessName: o.businessName,
      url: `${env.siteUrl}${path}`,
      approved: o.approved,
      ttlMs,
    },
    env,
    now,
  );
  return deliverNow(store, [message], { env, now: () => now, ...o.notify });
}

// ---------------------------------------------------------------------------------------
// Claim a listed business

export function claimHandler(deps: OwnerAuthDeps = {}): Endpoint {
  return endpoint(
    {
      ...pageSpec("claim", CLAIMS_PER_MINUTE),
      route: businessRoute(CLAIM_ROUTE, "slug"),
    },
    deps,
    async ({ store, env, now, params, body }) => {
      const business = await storeCall(() => store.businesses.getBySlug(params.slug), { step: "read" });
      const path = `/owner/claim/${params.slug}`;
      // The page says the business is not in the directory (404).
      if (!business) return seeOther(path, OWNER_PAGE_HEADERS);
      const values = postedValues(body!.value);
      const parsed = ClaimInput.safeParse(values);
      if (!parsed.success)
        return backToPage(store, {
          path,
          status: INVALID_STATUS,
          values,
          errors: fieldErrors(parsed.error),
          problem: VALIDATION_ERROR,
        });
      const input = parsed.data;
      const email = normalEmail(input.email);
      const at = now();
      const onFile = business.email ? normalEmail(business.email) : null;
      const owner = await storeCall(() => isOwner(store, business.id, email), { step: "owners" });
      const proof: Claim["proof"] =
        input.proof === "sms" && business.phone ? "sms" : email === onFile || owner ? "email" : "operator";
      // The contact on file gets a few links or codes a minute, however many addresses ask.
      if (proof !== "operator")
        await enforceRateLimit(
          store,
          "owner-send",
          business.id,
          deps.sendsPerBusiness ?? SENDS_PER_BUSINESS_PER_MINUTE,
          now,
          TOO_MANY_SENDS,
        );
      const claim: Claim = {
        id: newClaimId(),
        kind: "claim",
        businessId: business.id,
        businessName: business.name,
        businessSlug: business.slug,
        claimant: {
          name: input.name,
          email,
          role: input.role,
          ...(input.phone ? { phone: input.phone } : {}),
          ...(input.note ? { note: input.note } : {}),
        },
        proof,
        status: proof === "operator" ? "pending" : "sent",
        createdAt: new Date(at).toISOString(),
      };
      await storeCall(() => createClaim(store, claim), { step: "claim" });
      const grant = {
        businessId: business.id,
        email,
        via: proof === "sms" ? "sms" : "email",
        claimId: claim.id,
        // Not the address on file, so an owner's own: the link works only while they are one.
        ...(proof === "email" && email !== onFile ? { ownerOnly: true } : {}),
      } as const;
      const notify = { env, now: () => at, ...deps.notify };

      if (proof === "sms") {
        const { id, code } = await storeCall(() => issueCode(store, grant, at), { step: "code" });
        await storeCall(
          () =>
            deliverNow(
              store,
              [codeSms({ claimId: claim.id, to: business.phone!, businessName: business.name, code }, env, at)],
              notify,
            ),
          { step: "message" },
        );
        console.info(`[owner] ${claim.id}: code sent for ${business.id}`);
        return seeOther(`/owner/code/${id}`, OWNER_PAGE_HEADERS);
      }
      if (proof === "email") {
        // The address on file (or an owner's own): it gets the link, nobody else does.
        await storeCall(
          () =>
            sendSignInLink(store, env, at, grant, {
              to: email,
              toName: input.name,
              businessName: business.name,
              notify: deps.notify,
            }),
          { step: "message" },
        );
        console.info(`[owner] ${claim.id}: sign-in link sent for ${business.id}`);
        return backToPage(store, { path, status: 200, values: outcomeValues({ kind: "sent", to: maskEmail(email) }) });
      }
      console.info(`[owner] ${claim.id}: claim of ${business.id} waits for the operator`);
      return backToPage(store, { path, status: 200, values: outcomeValues({ kind: "pending", to: maskEmail(email) }) });
    },
  );
}

// ---------------------------------------------------------------------------------------
// Add a business that is not listed

export function addBusinessHandler(deps: OwnerAuthDeps = {}): Endpoint {
  return endpoint(pageSpec("add", CLAIMS_PER_MINUTE), deps, async ({ store, now, body }) => {
    const values = postedValues(body!.value);
    const parsed = AddBusinessInput.safeParse(values);
    const errors: Record<string, string> = parsed.success ? {} : fieldErrors(parsed.error);
    if (parsed.success) {
      const place = zipPoint(parsed.data.zipCode);
      if (!place) errors.zipCode = OWNER_MESSAGES.zipUnknown;
      else if (place.state !== parsed.data.state) errors.zipCode = OWNER_MESSAGES.zipElsewhere;
    }
    if (!parsed.success || Object.keys(errors).length > 0)
      return backToPage(store, { path: ADD_ROUTE, status: INVALID_STATUS, values, errors, problem: VALIDATION_ERROR });
    const { name, email, role, note, ...proposal } = parsed.data;
    const claim: Claim = {
      id: newClaimId(),
      kind: "add",
      businessName: proposal.businessName,
      proposal,
      claimant: { name, email: normalEmail(email), role, ...(note ? { note } : {}) },
      proof: "operator",
      status: "pending",
      createdAt: new Date(now()).toISOString(),
    };
    await storeCall(() => createClaim(store, claim), { step: "claim" });
    console.info(`[owner] ${claim.id}: new business waits for the operator`);
    return backToPage(store, {
      path: ADD_ROUTE,
      status: 200,
      values: {
        ...outcomeValues({ kind: "pending", to: maskEmail(claim.claimant.email) }),
        business: proposal.businessName,
      },
    });
  });
}

// ---------------------------------------------------------------------------------------
// Sign in with a link

export function signInHandler(deps: OwnerAuthDeps = {}): Endpoint {
  return endpoint(
    {
      ...pageSpec("sign-in", SIGN_INS_PER_MINUTE),
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
      ...pageSpec("code", SIGN_INS_PER_MINUTE),
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
      const parsed = CodeInput.safeParse(postedValues(body!.value));
      if (!parsed.success) return back(INVALID_STATUS, { error: OWNER_MESSAGES.code });
      const result = await storeCall(() => tryCode(store, params.id, parsed.data.code, now()), { step: "code" });
      if (result.ok) return (await startSession(call, result.grant)) ?? gone();
      await storeCall(() => recordOwnerFailure(store, client), { step: "lockout" });
      if (result.reason === "wrong") return back(INVALID_STATUS, { error: wrongCodeMessage(result.triesLeft) });
      return gone();
    },
  );
}

// ---------------------------------------------------------------------------------------
// Sign out

export function signOutHandler(deps: OwnerAuthDeps = {}): Endpoint {
  return endpoint(pageSpec("sign-out", SIGN_INS_PER_MINUTE), deps, async ({ req, store, env }) => {
    const clear = await storeCall(() => endOwnerSession(req, store, env), { step: "session" });
    return seeOther(SIGN_OUT_ROUTE, { ...OWNER_PAGE_HEADERS, "set-cookie": clear });
  });
}
