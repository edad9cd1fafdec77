/**
 * The signed-out owner forms as their pages draw them: the claim form (the contact on file
 * masked, never in full), "Add your business" and what each says once it is sent. The pages
 * are src/pages/owner/{claim/[slug],add}.astro; sign-in.ts takes their posts.
 */
import { METROS, PRO_SERVICES } from "../../../src/lib/options.ts";
import { CLAIM_PROOFS, OWNER_ROLES, maskEmail, maskPhone } from "../../../src/lib/owners.ts";
import type { AddBusinessFormView, ClaimFormView } from "../../../src/lib/owner-views.ts";
import type { Business } from "../../../src/lib/schemas/business.ts";
import type { FlashValues } from "./page.ts";

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
