/**
 * How an owner gets a session (docs/owners.md "Claims and signing in"), one handler per page:
 *
 *   /owner/claim/:slug    claim a listed business: a link to the e-mail on file, a code to
 *                         the phone on file, or a pending claim for the operator
 *   /owner/add            "Add your business": a pending claim the operator approves
 *   /owner/sign-in/:token GET shows one "Sign in" button; POST uses the link up -> session
 *   /owner/code/:id       the SMS code -> session
 *   /owner/sign-out       POST ends the session; GET says so
 *
 * All plain HTML that works without JavaScript, private and never stored by any cache. Bad
 * links and wrong codes count against the client address and lock it out for a while.
 */
import { RESPONSE_TIMES } from "../../../src/lib/facts.ts";
import { escapeHtml } from "../../../src/lib/forms/markup.ts";
import { fieldErrors } from "../../../src/lib/schemas/forms.ts";
import { AddBusinessInput, ClaimInput, CodeInput } from "../../../src/lib/owners/forms.ts";
import {
  CLAIMS_PER_MINUTE,
  SENDS_PER_BUSINESS_PER_MINUTE,
  SIGN_INS_PER_MINUTE,
  APPROVED_LINK_TTL_MS,
  SIGN_IN_LINK_TTL_MS,
  linkLifetime,
  TOO_MANY_SENDS,
} from "../../../src/lib/owners/limits.ts";
import { maskEmail, maskPhone } from "../../../src/lib/owners/masks.ts";
import { OWNER_MESSAGES, wrongCodeMessage } from "../../../src/lib/owners/messages.ts";
import { zipPoint } from "../../../src/lib/geo/places.ts";
import { CLAIM_LINK_LABEL } from "../../../src/lib/owner-links.ts";
import { KB, clientIp, endpoint, storeCall, type Call, type Endpoint, type EndpointDeps, type Env } from "../http.ts";
import { businessRoute } from "../directory.ts";
import { problemPage } from "../pages.ts";
import { enforceRateLimit } from "../ratelimit.ts";
import { signInCode, signInLink } from "../messages/owner.ts";
import { sendToOwner, type NotifyDeps } from "../notify/index.ts";
import type { Store } from "../store/index.ts";
import { createClaim, getClaim, newClaimId, settleClaim, type Claim } from "./claims.ts";
import {
  addFormPage,
  claimFormPage,
  codeFormPage,
  messagePage,
  signInButtonPage,
  type Errors,
  type Values,
} from "./forms.ts";
import { OWNER_PAGE_HEADERS, findYourBusiness, ownerHtml } from "./page.ts";
import { addOwner, createOwnerSession, endOwnerSession, isOwner, normalEmail, readOwnerSession } from "./session.ts";
import {
  CODE_ID_PATTERN,
  peekCode,
  issueCode,
  issueSignInLink,
  ownerLockedOutFor,
  peekSignInLink,
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
const ANY_TOKEN = /^[A-Za-z0-9._~-]{1,200}$/;

export interface OwnerAuthDeps extends EndpointDeps {
  /** The notifier's seams (tests: a fetch to the fake Resend and Twilio). */
  notify?: NotifyDeps;
  /** Links and codes per business per minute (default SENDS_PER_BUSINESS_PER_MINUTE). */
  sendsPerBusiness?: number;
}

const pageSpec = (log: string, methods: ("GET" | "HEAD" | "POST")[], perMinute: number) => ({
  log: `[owner] ${log}`,
  methods,
  body: { urlencoded: 16 * KB },
  sameSiteOnly: true,
  rateLimit: { name: `owner-${log}`, perMinute: () => perMinute },
  page: (status: number, message: string) =>
    problemPage(status === 404 ? "Not found" : status === 429 ? "Please wait" : "Something went wrong", message),
  pagesOnly: true,
  headers: OWNER_PAGE_HEADERS,
});

/** A form's fields as text values (a repeated name becomes a list). */
function valuesOf(body: { value: URLSearchParams } | null): Values {
  const out: Values = {};
  for (const [k, v] of body?.value ?? []) {
    const had = out[k];
    out[k] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
  }
  return out;
}

const errorsOf = (error: Parameters<typeof fieldErrors>[0]): Errors => fieldErrors(error);

function lockedOutPage(seconds: number): Response {
  return ownerHtml(messagePage("Please wait", [escapeHtml(OWNER_MESSAGES.lockedOut)], { alert: true }), 429, {
    "retry-after": String(seconds),
  });
}

/** A used, changed or expired link; one who is signed in already (a second tap) is sent on. */
function linkProblem(reason: "invalid" | "expired", signedIn = false): Response {
  const text = reason === "expired" ? OWNER_MESSAGES.linkExpired : OWNER_MESSAGES.linkInvalid;
  return ownerHtml(
    messagePage(
      "This sign-in link can't be used",
      signedIn
        ? [escapeHtml(text), `You are signed in already: <a href="/owner">go to your listing</a>.`]
        : [escapeHtml(text)],
      { alert: true, after: signedIn ? "" : findYourBusiness() },
    ),
    reason === "expired" ? 410 : 404,
  );
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
  return new Response(null, {
    status: 303,
    headers: { ...OWNER_PAGE_HEADERS, location: "/owner", "set-cookie": setCookie },
  });
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
// Claim a listed business

export function claimHandler(deps: OwnerAuthDeps = {}): Endpoint {
  return endpoint(
    {
      ...pageSpec("claim", ["GET", "HEAD", "POST"], CLAIMS_PER_MINUTE),
      route: businessRoute(CLAIM_ROUTE, "slug"),
    },
    deps,
    async ({ store, env, now, params, body }) => {
      const business = await storeCall(() => store.businesses.getBySlug(params.slug), { step: "read" });
      if (!business) return ownerHtml(problemPage("Not found", "This business is not in the directory."), 404);
      const path = `/owner/claim/${business.slug}`;
      if (!body) return ownerHtml(claimFormPage(business, path));

      const values = valuesOf(body);
      const parsed = ClaimInput.safeParse(values);
      if (!parsed.success) return ownerHtml(claimFormPage(business, path, values, errorsOf(parsed.error)), 400);
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
            sendToOwner(
              store,
              { claimId: claim.id, to: business.phone!, toName: business.name },
              signInCode({ businessName: business.name, code }),
              notify,
            ),
          { step: "message" },
        );
        console.info(`[owner] ${claim.id}: code sent for ${business.id}`);
        return new Response(null, { status: 303, headers: { ...OWNER_PAGE_HEADERS, location: `/owner/code/${id}` } });
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
        return ownerHtml(
          messagePage("Check your e-mail", [
            `We sent a sign-in link for ${escapeHtml(business.name)} to <strong>${escapeHtml(maskEmail(email))}</strong>.`,
            `It works once, for ${linkLifetime(SIGN_IN_LINK_TTL_MS)}. No e-mail? Check your spam folder, or <a href="${escapeHtml(path)}">ask for a new link</a>.`,
          ]),
        );
      }
      console.info(`[owner] ${claim.id}: claim of ${business.id} waits for the operator`);
      return ownerHtml(
        messagePage("Claim received", [
          `Thanks. That address isn't the one on file for ${escapeHtml(business.name)}, so Treeline will check your claim by hand, usually within ${RESPONSE_TIMES.listingCheck}.`,
          `We'll e-mail <strong>${escapeHtml(maskEmail(email))}</strong> with the answer; if it is approved, the e-mail has your sign-in link.`,
        ]),
      );
    },
  );
}

// ---------------------------------------------------------------------------------------
// Add a business that is not listed

export function addBusinessHandler(deps: OwnerAuthDeps = {}): Endpoint {
  return endpoint(pageSpec("add", ["GET", "HEAD", "POST"], CLAIMS_PER_MINUTE), deps, async ({ store, now, body }) => {
    if (!body) return ownerHtml(addFormPage(ADD_ROUTE));
    const values = valuesOf(body);
    const parsed = AddBusinessInput.safeParse(values);
    const errors: Errors = parsed.success ? {} : errorsOf(parsed.error);
    if (parsed.success) {
      const place = zipPoint(parsed.data.zipCode);
      if (!place) errors.zipCode = OWNER_MESSAGES.zipUnknown;
      else if (place.state !== parsed.data.state) errors.zipCode = OWNER_MESSAGES.zipElsewhere;
    }
    if (!parsed.success || Object.keys(errors).length > 0)
      return ownerHtml(addFormPage(ADD_ROUTE, values, errors), 400);
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
    return ownerHtml(
      messagePage("Thanks: we'll check it", [
        `Treeline checks every new business before it appears in the directory, usually within ${RESPONSE_TIMES.listingCheck}. Until then, ${escapeHtml(proposal.businessName)} is not listed.`,
        `We'll e-mail <strong>${escapeHtml(maskEmail(claim.claimant.email))}</strong> with the answer; once it is approved, the e-mail has your sign-in link.`,
      ]),
    );
  });
}

// ---------------------------------------------------------------------------------------
// Sign in with a link

export function signInHandler(deps: OwnerAuthDeps = {}): Endpoint {
  return endpoint(
    {
      ...pageSpec("sign-in", ["GET", "HEAD", "POST"], SIGN_INS_PER_MINUTE),
      route: { path: SIGN_IN_ROUTE, valid: (v) => ANY_TOKEN.test(v), notFound: OWNER_MESSAGES.linkInvalid },
    },
    deps,
    async (call) => {
      const { req, context, store, now, params, body } = call;
      const client = clientIp(req, context);
      const wait = await storeCall(() => ownerLockedOutFor(store, client), { step: "lockout" });
      if (wait > 0) return lockedOutPage(wait);
      const result = await storeCall(
        () => (body ? takeSignInLink(store, params.token, now()) : peekSignInLink(store, params.token, now())),
        { step: "link" },
      );
      if (!result.ok) {
        await storeCall(() => recordOwnerFailure(store, client), { step: "lockout" });
        const session = await storeCall(() => readOwnerSession(req, store, call.env, now()), { step: "session" });
        return linkProblem(result.reason, session !== null);
      }
      if (!body) {
        const business = await storeCall(() => store.businesses.get(result.grant.businessId), { step: "read" });
        return ownerHtml(
          signInButtonPage(
            business?.name ?? "your business",
            `/owner/sign-in/${params.token}`,
            result.grant.expiresAt,
            now(),
          ),
        );
      }
      return (await startSession(call, result.grant)) ?? linkProblem("invalid");
    },
  );
}

// ---------------------------------------------------------------------------------------
// Sign in with an SMS code

export function codeHandler(deps: OwnerAuthDeps = {}): Endpoint {
  return endpoint(
    {
      ...pageSpec("code", ["GET", "HEAD", "POST"], SIGN_INS_PER_MINUTE),
      route: { path: CODE_ROUTE, valid: (v) => CODE_ID_PATTERN.test(v), notFound: OWNER_MESSAGES.codeGone },
    },
    deps,
    async (call) => {
      const { req, context, store, now, params, body } = call;
      const path = `/owner/code/${params.id}`;
      const gone = () =>
        ownerHtml(messagePage("This code can't be used", [escapeHtml(OWNER_MESSAGES.codeGone)], { alert: true }), 410);
      const client = clientIp(req, context);
      const wait = await storeCall(() => ownerLockedOutFor(store, client), { step: "lockout" });
      if (wait > 0) return lockedOutPage(wait);
      const grant = await storeCall(() => peekCode(store, params.id, now()), { step: "code" });
      if (!grant) {
        if (body) await storeCall(() => recordOwnerFailure(store, client), { step: "lockout" });
        return gone();
      }
      const business = await storeCall(() => store.businesses.get(grant.businessId), { step: "read" });
      const form = (error?: string, status = 200) =>
        ownerHtml(
          codeFormPage({
            path,
            businessName: business?.name ?? "the business",
            ...(business?.phone ? { phone: maskPhone(business.phone) } : {}),
            ...(error ? { error } : {}),
          }),
          status,
        );
      if (!body) return form();
      const parsed = CodeInput.safeParse(valuesOf(body));
      if (!parsed.success) return form(OWNER_MESSAGES.code, 400);
      const result = await storeCall(() => tryCode(store, params.id, parsed.data.code, now()), { step: "code" });
      if (result.ok) return (await startSession(call, result.grant)) ?? gone();
      await storeCall(() => recordOwnerFailure(store, client), { step: "lockout" });
      if (result.reason === "wrong") return form(wrongCodeMessage(result.triesLeft), 400);
      return gone();
    },
  );
}

// ---------------------------------------------------------------------------------------
// Sign out

export function signOutHandler(deps: OwnerAuthDeps = {}): Endpoint {
  return endpoint(
    pageSpec("sign-out", ["GET", "HEAD", "POST"], SIGN_INS_PER_MINUTE),
    deps,
    async ({ req, store, env, body }) => {
      if (!body)
        return ownerHtml(
          messagePage("Signed out", [
            escapeHtml(OWNER_MESSAGES.signedOut),
            `To sign in again, open your business's page in the <a href="/directory">directory</a> and choose <strong>${escapeHtml(CLAIM_LINK_LABEL)}</strong>.`,
          ]),
        );
      const clear = await storeCall(() => endOwnerSession(req, store, env), { step: "session" });
      return new Response(null, {
        status: 303,
        headers: { ...OWNER_PAGE_HEADERS, location: SIGN_OUT_ROUTE, "set-cookie": clear },
      });
    },
  );
}
