/**
 * The signed-out owner pages' markup: the claim form, "Add your business", the sign-in button
 * and the code form. Plain HTML forms (no JavaScript needed), each field with its label and,
 * after a refused post, its message (aria-invalid, aria-describedby).
 */
import { escapeHtml } from "../../../src/lib/forms/markup.ts";
import { METROS, PRO_SERVICES } from "../../../src/lib/options.ts";
import { CLAIM_PROOFS, OWNER_ROLES } from "../../../src/lib/owners/choices.ts";
import { CODE_DIGITS, linkLifetime } from "../../../src/lib/owners/limits.ts";
import { maskEmail, maskPhone } from "../../../src/lib/owners/masks.ts";
import type { Business } from "../../../src/lib/schemas/business.ts";
import { VALIDATION_ERROR } from "../../../src/lib/schemas/forms.ts";
import { renderPage } from "../pages.ts";
import { OWNER_STYLE } from "./page.ts";

export type Values = Record<string, string | string[]>;
export type Errors = Record<string, string>;

const one = (v: Values, name: string) => {
  const value = v[name];
  return Array.isArray(value) ? (value[0] ?? "") : (value ?? "");
};

function errorOf(errors: Errors, name: string): { attrs: string; line: string } {
  const message = errors[name];
  if (!message) return { attrs: "", line: "" };
  const id = `err-${name}`;
  return {
    attrs: ` aria-invalid="true" aria-describedby="${id}"`,
    line: `<p class="field-error" id="${id}">${escapeHtml(message)}</p>`,
  };
}

function input(
  o: { name: string; label: string; type?: string; required?: boolean; hint?: string; attrs?: string },
  v: Values,
  e: Errors,
) {
  const err = errorOf(e, o.name);
  return (
    `<label>${escapeHtml(o.label)}${o.required ? "" : ' <span class="hint">(optional)</span>'}` +
    (o.hint ? `<span class="hint">${escapeHtml(o.hint)}</span>` : "") +
    `<input type="${o.type ?? "text"}" name="${o.name}" value="${escapeHtml(one(v, o.name))}"${o.required ? " required" : ""}${o.attrs ?? ""}${err.attrs}></label>` +
    err.line
  );
}

function select(
  o: { name: string; label: string; options: readonly { value: string; label: string }[] },
  v: Values,
  e: Errors,
) {
  const err = errorOf(e, o.name);
  const current = one(v, o.name);
  const options = o.options
    .map(
      (opt) =>
        `<option value="${escapeHtml(opt.value)}"${opt.value === current ? " selected" : ""}>${escapeHtml(opt.label)}</option>`,
    )
    .join("");
  return `<label>${escapeHtml(o.label)}<select name="${o.name}" required${err.attrs}><option value="">Choose…</option>${options}</select></label>${err.line}`;
}

function note(v: Values, e: Errors) {
  const err = errorOf(e, "note");
  return `<label>Anything we should know <span class="hint">(optional)</span><textarea name="note" rows="3" maxlength="1000"${err.attrs}>${escapeHtml(one(v, "note"))}</textarea></label>${err.line}`;
}

const problemLine = (e: Errors) =>
  Object.keys(e).length > 0 ? `<p class="problem" role="alert">${escapeHtml(VALIDATION_ERROR)}</p>` : "";

/** "Claim {business}": the visitor sees the contact on file masked, never in full. */
export function claimFormPage(business: Business, path: string, v: Values = {}, e: Errors = {}): string {
  const proof = one(v, "proof") || (business.email ? "email" : business.phone ? "sms" : "operator");
  const perr = errorOf(e, "proof");
  const proofs = CLAIM_PROOFS.filter(
    (p) => (p.value !== "email" || business.email) && (p.value !== "sms" || business.phone),
  )
    .map((p) => {
      const onFile =
        p.value === "email" && business.email
          ? `: ${maskEmail(business.email)} (enter that address above)`
          : p.value === "sms" && business.phone
            ? `: ${maskPhone(business.phone)}`
            : "";
      return `<label class="check"><input type="radio" name="proof" value="${p.value}"${p.value === proof ? " checked" : ""}>${escapeHtml(p.label + onFile)}</label>`;
    })
    .join("");
  const body =
    OWNER_STYLE +
    `<h1>Claim ${escapeHtml(business.name)}</h1>` +
    `<p class="lead">Own or run this business? Claim its page to correct the hours, add photos, answer leads and reply to reviews. ` +
    `The quickest proof is the business's own e-mail or phone on file; any other address goes to Treeline to check.</p>` +
    problemLine(e) +
    `<form class="owner-form" method="post" action="${escapeHtml(path)}" novalidate>` +
    input({ name: "name", label: "Your name", required: true, attrs: ' autocomplete="name" maxlength="100"' }, v, e) +
    input(
      {
        name: "email",
        label: "Your e-mail",
        type: "email",
        required: true,
        hint: "You sign in with it. To prove the claim by e-mail, use the business's address on file.",
        attrs: ' autocomplete="email" maxlength="254"',
      },
      v,
      e,
    ) +
    input({ name: "phone", label: "Your phone", type: "tel", attrs: ' autocomplete="tel" maxlength="30"' }, v, e) +
    select({ name: "role", label: "Your role", options: OWNER_ROLES }, v, e) +
    `<fieldset${perr.attrs}><legend>How to prove it's yours</legend>${proofs}</fieldset>${perr.line}` +
    note(v, e) +
    `<p><button type="submit" class="btn-primary">Claim this business</button></p></form>` +
    `<p><a href="/directory/${encodeURIComponent(business.slug)}">Back to ${escapeHtml(business.name)}'s page</a></p>`;
  return renderPage({ title: `Claim ${business.name}`, body });
}

/** "Add your business": checked by the operator before anything is public. */
export function addFormPage(path: string, v: Values = {}, e: Errors = {}): string {
  const chosen = new Set(Array.isArray(v.services) ? v.services : v.services ? [v.services] : []);
  const serr = errorOf(e, "services");
  const services = PRO_SERVICES.map(
    (s) =>
      `<label class="check"><input type="checkbox" name="services" value="${escapeHtml(s.value)}"${chosen.has(s.value) ? " checked" : ""}>${escapeHtml(s.label)}</label>`,
  ).join("");
  const cities = METROS.map((m) => ({ value: m.label, label: `${m.label}, ${m.state}` }));
  const body =
    OWNER_STYLE +
    `<h1>Add your business</h1>` +
    `<p class="lead">Tell us about your tree-care business. Treeline checks every new business before it appears in the directory; once it is approved you get a sign-in link to manage its page.</p>` +
    problemLine(e) +
    `<form class="owner-form" method="post" action="${escapeHtml(path)}" novalidate>` +
    `<fieldset><legend>The business</legend>` +
    input({ name: "businessName", label: "Business name", required: true, attrs: ' maxlength="120"' }, v, e) +
    input({ name: "address", label: "Street address", required: true, attrs: ' autocomplete="street-address"' }, v, e) +
    select({ name: "city", label: "City (metro area)", options: cities }, v, e) +
    input(
      { name: "state", label: "State", required: true, hint: "Two letters, e.g. TX", attrs: ' maxlength="2"' },
      v,
      e,
    ) +
    input(
      {
        name: "zipCode",
        label: "ZIP code",
        required: true,
        attrs: ' inputmode="numeric" maxlength="5" autocomplete="postal-code"',
      },
      v,
      e,
    ) +
    input({ name: "phone", label: "Business phone", type: "tel", required: true, attrs: ' maxlength="30"' }, v, e) +
    input(
      { name: "businessEmail", label: "Business e-mail", type: "email", required: true, attrs: ' maxlength="254"' },
      v,
      e,
    ) +
    input({ name: "website", label: "Website", type: "url", attrs: ' maxlength="300"' }, v, e) +
    `<fieldset${serr.attrs}><legend>Services</legend>${services}</fieldset>${serr.line}` +
    `</fieldset><fieldset><legend>You</legend>` +
    input({ name: "name", label: "Your name", required: true, attrs: ' autocomplete="name" maxlength="100"' }, v, e) +
    input(
      {
        name: "email",
        label: "Your e-mail",
        type: "email",
        required: true,
        hint: "Your sign-in link goes here.",
        attrs: ' autocomplete="email"',
      },
      v,
      e,
    ) +
    select({ name: "role", label: "Your role", options: OWNER_ROLES }, v, e) +
    note(v, e) +
    `</fieldset><p><button type="submit" class="btn-primary">Send for review</button></p></form>`;
  return renderPage({ title: "Add your business", body });
}

/** A plain message page (confirmation or problem) in the owner style. */
export function messagePage(title: string, lines: string[], o: { alert?: boolean; after?: string } = {}): string {
  const box = o.alert ? `<div class="problem" role="alert">` : `<div class="notice" role="status">`;
  return renderPage({
    title,
    body: `${OWNER_STYLE}<h1>${escapeHtml(title)}</h1>${box}${lines.map((l) => `<p>${l}</p>`).join("")}</div>${o.after ?? ""}`,
  });
}

/** GET of a sign-in link: one button, so a mail scanner that opens the link does not use it up. */
export function signInButtonPage(businessName: string, path: string, expiresAt: number, now: number): string {
  return renderPage({
    title: `Sign in to manage ${businessName}`,
    body:
      OWNER_STYLE +
      `<h1>Sign in to manage ${escapeHtml(businessName)}</h1>` +
      `<p class="lead">This link works once, for ${linkLifetime(Math.max(60_000, expiresAt - now))} more.</p>` +
      `<form method="post" action="${escapeHtml(path)}"><button type="submit" class="btn-primary">Sign in</button></form>`,
  });
}

/** The SMS code form. */
export function codeFormPage(o: { path: string; businessName: string; phone?: string; error?: string }): string {
  const err = o.error ? errorOf({ code: o.error }, "code") : { attrs: "", line: "" };
  return renderPage({
    title: "Enter your code",
    body:
      OWNER_STYLE +
      `<h1>Enter your code</h1>` +
      `<p class="lead">We texted a ${CODE_DIGITS}-digit code to ${escapeHtml(o.businessName)}'s phone on file${o.phone ? ` ${escapeHtml(o.phone)}` : ""}.</p>` +
      `<form class="owner-form" method="post" action="${escapeHtml(o.path)}" novalidate>` +
      `<label>Code<input type="text" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="${CODE_DIGITS + 2}" required${err.attrs}></label>${err.line}` +
      `<p><button type="submit" class="btn-primary">Sign in</button></p></form>`,
  });
}
