/**
 * The claim and "Add your business" forms (src/pages/owner/{claim/[slug],add}.astro): what their
 * pages draw (the contact on file masked, never in full; what each says once it is sent) and
 * their posts, each answered 303 back to its page.
 *
 *   /owner/claim/:slug    claim a listed business: a link to the e-mail on file, a code to
 *                         the phone on file, or a pending claim for the operator
 *   /owner/add            "Add your business": a pending claim the operator approves
 */
import { zipPoint } from "../../../src/lib/geo/places.ts";
import { METROS, PRO_SERVICES } from "../../../src/lib/options.ts";
import { CLAIM_PROOFS, OWNER_ROLES } from "../../../src/lib/owners/choices.ts";
import { AddBusinessInput, ClaimInput } from "../../../src/lib/owners/forms.ts";
import {
  CLAIMS_PER_MINUTE,
  CODES_PAUSED,
  SENDS_PER_BUSINESS_PER_MINUTE,
  TOO_MANY_CODES_TODAY,
  TOO_MANY_SENDS,
} from "../../../src/lib/owners/limits.ts";
import { maskEmail, maskPhone } from "../../../src/lib/owners/masks.ts";
import { OWNER_MESSAGES } from "../../../src/lib/owners/messages.ts";
import type { AddBusinessFormView, ClaimFormView } from "../../../src/lib/owner-views.ts";
import type { Business } from "../../../src/lib/schemas/business.ts";
import { VALIDATION_ERROR, fieldErrors } from "../../../src/lib/schemas/forms.ts";
import { businessRoute } from "../directory.ts";
import { seeOther } from "../form-flash.ts";
import { HttpError, endpoint, storeCall, type Endpoint } from "../http.ts";
import { signInCode } from "../messages/owner.ts";
import { sendToOwner } from "../notify/index.ts";
import { enforceRateLimit } from "../ratelimit.ts";
import type { Store } from "../store/index.ts";
import { createClaim, newClaimId, type Claim } from "./claims.ts";
import {
  INVALID_STATUS,
  OWNER_PAGE_HEADERS,
  backToPage,
  postedValues,
  signedOutSpec,
  type FlashValues,
  type OwnerAuthDeps,
} from "./page.ts";
import { isOwner, normalEmail } from "./session.ts";
import { sendSignInLink } from "./sign-in.ts";
import { codesPausedFor, countCodeSend, issueCode } from "./tokens.ts";

export const CLAIM_ROUTE = "/owner/claim/:slug";
export const ADD_ROUTE = "/owner/add";

/** Seconds from `now` to the next UTC midnight, when the daily caps start again. */
const untilTomorrow = (now: number) => Math.max(1, Math.ceil((86_400_000 - (now % 86_400_000)) / 1000));

/**
 * Refuses (429) a code for a business whose code sign-in is paused by wrong codes, or whose
 * phone had its codes for the day; counts it otherwise.
 */
async function allowCode(store: Store, business: Business, now: number): Promise<void> {
  const paused = await storeCall(() => codesPausedFor(store, business.id), { step: "lockout" });
  if (paused > 0) throw new HttpError(429, CODES_PAUSED, { headers: { "retry-after": String(paused) } });
  const counted = await storeCall(() => countCodeSend(store, business.id, business.phone!, now), { step: "limit" });
  if (!counted)
    throw new HttpError(429, TOO_MANY_CODES_TODAY, { headers: { "retry-after": String(untilTomorrow(now)) } });
}

/** A field's text (a repeated one's first value). */
const one = (v: FlashValues, name: string) => {
  const value = v[name];
  return typeof value === "string" ? value : (value?.[0] ?? "");
};
/** Every value as one text, for the form's fields. */
const texts = (v: FlashValues) => Object.fromEntries(Object.keys(v).map((k) => [k, one(v, k)]));

/** What a claim or an added business became, as its page says it after the post. */
export type Outcome =
  /** A sign-in link went to `to` (masked). */
  | { kind: "sent"; to: string }
  /** Treeline checks it by hand and answers `to` (masked). */
  | { kind: "pending"; to: string };

/** The flash values that carry an outcome (set by the post, read by the page). */
export function outcomeValues(outcome: Outcome): Record<string, string> {
  return { outcome: outcome.kind, to: outcome.to };
}
export function outcomeOf(values: FlashValues): Outcome | null {
  const kind = one(values, "outcome");
  const to = one(values, "to");
  return kind === "sent" || kind === "pending" ? { kind, to } : null;
}

/** The claim form, empty or as last posted (with its messages). */
export function claimFormView(
  business: Pick<Business, "email" | "phone">,
  action: string,
  posted: FlashValues = {},
  errors: Readonly<Record<string, string>> = {},
): ClaimFormView {
  const values = texts(posted);
  const proof = values.proof || (business.email ? "email" : business.phone ? "sms" : "operator");
  const proofs = CLAIM_PROOFS.filter(
    (p) => (p.value !== "email" || business.email) && (p.value !== "sms" || business.phone),
  ).map((p) => {
    const onFile =
      p.value === "email" && business.email
        ? `: ${maskEmail(business.email)} (enter that address above)`
        : p.value === "sms" && business.phone
          ? `: ${maskPhone(business.phone)}`
          : "";
    return { value: p.value, label: p.label + onFile, checked: p.value === proof };
  });
  return { action, values, errors, proofs, roles: OWNER_ROLES };
}

/** "Add your business", empty or as last posted (with its messages). */
export function addFormView(
  action: string,
  posted: FlashValues = {},
  errors: Readonly<Record<string, string>> = {},
): AddBusinessFormView {
  const chosen = new Set(typeof posted.services === "string" ? [posted.services] : (posted.services ?? []));
  return {
    action,
    values: texts(posted),
    errors,
    cities: METROS.map((m) => ({ value: m.label, label: `${m.label}, ${m.state}` })),
    services: PRO_SERVICES.map((s) => ({ value: s.value, label: s.label, checked: chosen.has(s.value) })),
    roles: OWNER_ROLES,
  };
}

// ---------------------------------------------------------------------------------------
// Claim a listed business

export function claimHandler(deps: OwnerAuthDeps = {}): Endpoint {
  return endpoint(
    {
      ...signedOutSpec("claim", CLAIMS_PER_MINUTE),
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
      if (proof === "sms") await allowCode(store, business, at);
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
  return endpoint(signedOutSpec("add", CLAIMS_PER_MINUTE), deps, async ({ store, now, body }) => {
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
