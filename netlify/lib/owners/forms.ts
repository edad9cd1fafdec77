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
import { timeZoneOf } from "../../../src/lib/geo/time-zone.ts";
import { CLOSING_HOLIDAYS } from "../../../src/lib/holidays.ts";
import { PRO_SERVICES, WEEKDAYS } from "../../../src/lib/options.ts";
import { dayLabel } from "../../../src/lib/directory.ts";
import { DAY_MODES, DAY_MODE_LABELS } from "../../../src/lib/owner-profile/hours.ts";
import { CLAIM_PROOFS, OWNER_ROLES } from "../../../src/lib/owners/choices.ts";
import type { BusinessProposal } from "../../../src/lib/owners/claims.ts";
import { AddBusinessInput, ClaimInput, SCHEDULES, addFormInput, addedHours } from "../../../src/lib/owners/forms.ts";
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
import { HttpError, endpoint, storeCall, type Endpoint, type Env } from "../http.ts";
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
import { canEmail, canText, deliveryOf, type Delivery } from "./reach.ts";
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

/**
 * What a claim or an added business became, as its page says it after the post: a sign-in link
 * to `to` (masked) that the provider took (`sent`), that failed for now and is tried again
 * (`retrying`), or that nothing will send (`kept` for the Treeline team); or a claim Treeline
 * checks by hand (`pending`).
 */
export type Outcome = { kind: Delivery | "pending"; to: string };
const OUTCOMES: readonly string[] = ["sent", "retrying", "kept", "pending"] satisfies Outcome["kind"][];

/** The flash values that carry an outcome (set by the post, read by the page). */
export function outcomeValues(outcome: Outcome): Record<string, string> {
  return { outcome: outcome.kind, to: outcome.to };
}
export function outcomeOf(values: FlashValues): Outcome | null {
  const kind = one(values, "outcome");
  const to = one(values, "to");
  return OUTCOMES.includes(kind) ? { kind: kind as Outcome["kind"], to } : null;
}

/**
 * The ways to prove a claim that can deliver here: the e-mail on file only with an e-mail
 * provider, the phone on file only with a text provider; the operator's check always.
 */
export function proofsFor(business: Pick<Business, "email" | "phone">, env: Env): Claim["proof"][] {
  return [
    ...(business.email && canEmail(env) ? (["email"] as const) : []),
    ...(business.phone && canText(env) ? (["sms"] as const) : []),
    "operator" as const,
  ];
}

/** The claim form, empty or as last posted (with its messages); it offers only `proofsFor`. */
export function claimFormView(
  business: Pick<Business, "email" | "phone">,
  env: Env,
  action: string,
  posted: FlashValues = {},
  errors: Readonly<Record<string, string>> = {},
): ClaimFormView {
  const values = texts(posted);
  const offered = proofsFor(business, env);
  const proof = offered.includes(values.proof as Claim["proof"]) ? values.proof : offered[0];
  const proofs = CLAIM_PROOFS.filter((p) => offered.includes(p.value)).map((p) => {
    const onFile =
      p.value === "email" && business.email
        ? `: ${maskEmail(business.email)} (enter that address above)`
        : p.value === "sms" && business.phone
          ? `: ${maskPhone(business.phone)}`
          : "";
    return { value: p.value, label: p.label + onFile, checked: p.value === proof };
  });
  return { action, values, errors, proofs, roles: OWNER_ROLES, ...(offered.length === 1 ? { manualOnly: true } : {}) };
}

const listOf = (v: string | readonly string[] | undefined) => new Set(typeof v === "string" ? [v] : (v ?? []));

/** "Add your business", empty or as last posted (with its messages). */
export function addFormView(
  action: string,
  posted: FlashValues = {},
  errors: Readonly<Record<string, string>> = {},
): AddBusinessFormView {
  const chosen = listOf(posted.services);
  const holidays = listOf(posted.closedHolidays);
  const values = texts(posted);
  const schedule = values.schedule || "hours";
  return {
    action,
    values,
    errors,
    services: PRO_SERVICES.map((s) => ({ value: s.value, label: s.label, checked: chosen.has(s.value) })),
    schedules: SCHEDULES.map((s) => ({ value: s.value, label: s.label, checked: s.value === schedule })),
    days: WEEKDAYS.map((d) => ({
      day: d,
      label: dayLabel(d),
      mode: values[`${d}.mode`] || "closed",
      open: values[`${d}.open`] ?? "",
      close: values[`${d}.close`] ?? "",
    })),
    dayModes: DAY_MODES.map((m) => ({ value: m, label: DAY_MODE_LABELS[m] })),
    // None ticked at first: a new listing closes on no holiday its owner did not choose.
    holidays: CLOSING_HOLIDAYS.map((h) => ({ value: h, label: h, checked: holidays.has(h) })),
    roles: OWNER_ROLES,
  };
}

/** Where a ZIP is, for a new listing: its city and state as the dataset has them, time zone and centroid. */
export function placeOfZip(zip: string) {
  const point = zipPoint(zip);
  if (!point) return null;
  const timeZone = timeZoneOf(point.state, point);
  return {
    city: point.city,
    state: point.state,
    location: { lat: point.lat, lng: point.lng },
    ...(timeZone ? { timeZone } : {}),
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
      // Only a channel that can deliver here proves a claim; without one, Treeline checks it.
      const offered = proofsFor(business, env);
      const proof: Claim["proof"] =
        input.proof === "sms" && offered.includes("sms")
          ? "sms"
          : (email === onFile || owner) && offered.includes("email")
            ? "email"
            : "operator";
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
        // The code page says whether the text went (it reads the message's state).
        const texted = await storeCall(
          () =>
            sendToOwner(
              store,
              { claimId: claim.id, to: business.phone!, toName: business.name },
              signInCode({ businessName: business.name, code }),
              notify,
            ),
          { step: "message" },
        );
        console.info(`[owner] ${claim.id}: code for ${business.id} ${texted.state}`);
        return seeOther(`/owner/code/${id}`, OWNER_PAGE_HEADERS);
      }
      if (proof === "email") {
        // The address on file (or an owner's own): it gets the link, nobody else does.
        const mailed = await storeCall(
          () =>
            sendSignInLink(store, env, at, grant, {
              to: email,
              toName: input.name,
              businessName: business.name,
              notify: deps.notify,
            }),
          { step: "message" },
        );
        console.info(`[owner] ${claim.id}: sign-in link for ${business.id} ${mailed.state}`);
        const kind = deliveryOf(mailed);
        return backToPage(store, { path, status: 200, values: outcomeValues({ kind, to: maskEmail(email) }) });
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
    const parsed = AddBusinessInput.safeParse(addFormInput(values));
    const errors: Record<string, string> = parsed.success ? {} : fieldErrors(parsed.error);
    // Any US ZIP the dataset knows; its city and state are the listing's.
    const place = /^\d{5}$/.test(one(values, "zipCode").trim()) ? placeOfZip(one(values, "zipCode").trim()) : null;
    if (!errors.zipCode && !place) errors.zipCode = OWNER_MESSAGES.zipUnknown;
    if (!parsed.success || !place || Object.keys(errors).length > 0)
      return backToPage(store, { path: ADD_ROUTE, status: INVALID_STATUS, values, errors, problem: VALIDATION_ERROR });
    const input = parsed.data;
    const businessHours = addedHours(input);
    const proposal: BusinessProposal = {
      businessName: input.businessName,
      address: input.address,
      city: place.city,
      state: place.state,
      zipCode: input.zipCode,
      phone: input.phone,
      businessEmail: input.businessEmail,
      ...(input.website ? { website: input.website } : {}),
      services: input.services,
      businessHours,
      ...(input.schedule === "appointment" ? { byAppointment: true } : {}),
      closedHolidays: input.closedHolidays,
      ...(input.yearsInBusiness !== undefined ? { yearsInBusiness: input.yearsInBusiness } : {}),
    };
    const { name, email, role, note } = input;
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
