/**
 * Server-rendered pages for browsers that posted a lead form without JavaScript: the
 * confirmation after a stored lead, the form again with messages after a validation
 * error, and a short explanation for limits and outages. Each page is complete and
 * self-contained (no Tailwind, no scripts), so it renders the same from any function.
 *
 * The form and the confirmations are the very components the site's dialogs show
 * (src/views/leads), rendered with react-dom/server: one form, every rendering. React
 * escapes what it renders; the page chrome goes through escapeHtml; the HTML responses
 * also carry a CSP that forbids scripts, so even a missed escape could not run anything.
 */
import { randomUUID } from "node:crypto";
import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import {
  ASSESSMENT_SUBMITTED,
  AUDIT_TOASTS,
  bookingToast,
  findProsFollowUp,
  noMatchesMessage,
  quoteToast,
  REVIEW_TOASTS,
} from "../../src/lib/forms/copy.ts";
import type { Receipt } from "../../src/lib/receipt.ts";
import { SITE } from "../../src/lib/site.ts";
import { formatMiles } from "../../src/lib/geo/distance.ts";
import type { FieldErrors } from "../../src/lib/schemas/forms.ts";
import type { FormDef } from "../../src/lib/forms/fields.ts";
import {
  IDEMPOTENCY_FIELD,
  SOURCE_FIELD,
  STARTED_FIELD,
  escapeHtml,
  type FormValues,
} from "../../src/lib/forms/markup.ts";
import { BookingConfirmation, GrowthConfirmation, QuoteConfirmation } from "../../src/views/leads/Confirmations.tsx";
import { LeadForm } from "../../src/views/leads/LeadForm.tsx";
import { EmergencyCall, ReceiptNote } from "../../src/views/leads/Receipt.tsx";

/**
 * The receipt fields of a lead's reply (reference, statusUrl, urgency), checked: a page
 * without a reference omits the receipt block. Pass the form's own urgencyOf() reading as
 * the second argument so an emergency is never promised a day, whatever the reply says.
 */
export { receiptOf } from "../../src/lib/receipt.ts";

/** A directory business suggested to a find-pros visitor (also the JSON `matches` item). */
export interface ProMatch {
  /** Business id (the stored lead records which businesses it went to). */
  id: string;
  name: string;
  slug: string;
  phone: string | null;
  rating: string;
  reviewCount: number;
  /** Miles from the job's location. */
  distanceMiles: number;
}

// Minimal stand-ins for the Tailwind utilities the forms and confirmations use (src/views/leads,
// FORM_CLASSES), plus the page chrome, in the site's palette. Amber on white only reaches 3:1,
// so amber buttons use large bold text.
const STYLE = `
:root{--forest:#24583b;--forest-dark:#1a3b29;--forest-50:#f1f8f3;--amber:#d95a06;--amber-dark:#b43d09;--ink:#1e293b;--muted:#475569}
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font-family:ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--ink);background:#f8f6f3;line-height:1.55}
a{color:var(--forest)}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible{outline:2px solid var(--amber);outline-offset:2px}
.skip{position:absolute;left:-10000px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem 1rem;z-index:10}
.site-header{background:var(--forest);color:#fff;border-bottom:4px solid var(--amber)}
.site-header .bar{max-width:48rem;margin:0 auto;padding:.75rem 1rem;display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:space-between}
.site-header a{color:#fff;text-decoration:none;font-weight:700}
.site-header .brand{font-size:1.25rem}
.site-header .phone{white-space:nowrap}
main{max-width:48rem;margin:0 auto;padding:1.5rem 1rem 3rem}
.card{background:#fff;border:1px solid #dcefe1;border-radius:1rem;padding:1.5rem;box-shadow:0 1px 2px rgb(13 33 22/.06),0 4px 16px rgb(13 33 22/.06)}
h1{font-size:1.75rem;line-height:1.2;margin:0 0 .5rem;color:#0d2116}
h2{font-size:1.15rem;margin:1.5rem 0 .5rem;color:#0d2116}
.lead{color:var(--muted);margin:0 0 1.25rem}
.estimate{font-size:2rem;font-weight:800;color:var(--forest);margin:.25rem 0}
.note{font-size:.9rem;color:var(--muted)}
.checks{list-style:none;padding:0;margin:.5rem 0}
.checks li{padding-left:1.6rem;position:relative;margin:.35rem 0}
.checks li::before{content:"\\2713";position:absolute;left:0;color:var(--forest);font-weight:700}
.matches{list-style:none;padding:0;margin:.5rem 0;display:grid;gap:.75rem}
.matches li{border:1px solid #dcefe1;border-radius:.75rem;padding:.75rem 1rem;background:var(--forest-50)}
.matches .name{font-weight:700}
.call{display:inline-block;margin-top:1rem;font-weight:700;font-size:1.2rem;white-space:nowrap}
.back{display:inline-block;margin-top:1.5rem}
.site-footer{max-width:48rem;margin:0 auto;padding:0 1rem 2rem;color:var(--muted);font-size:.875rem}
.lead-form{display:grid;gap:1rem;margin:0}
.lead-form label,.lead-form legend{display:block;font-size:.875rem;font-weight:500;color:#334155;margin-bottom:.25rem}
.lead-form fieldset{margin:0;min-width:0;border:0;padding:0}
.lead-form fieldset fieldset,.lead-form fieldset:has(>div>div>input:not([type=checkbox])){border:1px solid #cbd5e1;border-radius:.5rem;padding:1rem}
.lead-form fieldset div{display:grid;gap:.5rem}
.lead-form label:has(input[type=checkbox]){display:flex;gap:.5rem;align-items:flex-start;font-weight:400}
.lead-form input:not([type=checkbox]),.lead-form select,.lead-form textarea{display:block;width:100%;font:inherit;font-size:1rem;background:#fff;color:inherit;min-height:2.75rem;border:1px solid #cbd5e1;border-radius:.5rem;padding:.625rem .75rem}
.lead-form [aria-invalid=true]{border-color:#b91c1c;box-shadow:0 0 0 1px #b91c1c}
.lead-form p[id$="-error"]{margin:.25rem 0 0;font-size:.875rem;color:#b91c1c}
.lead-form [role=alert]{border:1px solid #fca5a5;background:#fef2f2;color:#991b1b;border-radius:.5rem;padding:1rem;font-size:.875rem}
.lead-form [role=alert] ul{margin:.5rem 0 0;padding-left:1.25rem}
.lead-form [aria-hidden=true]{color:#b91c1c}
.lead-confirmation ul{list-style:none;padding:0;margin:.5rem 0}
.lead-confirmation li{display:flex;gap:.5rem;margin:.35rem 0}
.lead-confirmation svg{width:1.25rem;height:1.25rem;flex-shrink:0;color:var(--forest)}
.lead-confirmation section{border:1px solid #dcefe1;border-radius:.75rem;padding:1rem;margin-top:1rem;background:var(--forest-50)}
.lead-confirmation h3{font-size:1.05rem;margin:0}
.receipt{border:2px solid var(--forest);border-radius:.75rem;padding:1rem;margin:1rem 0;background:var(--forest-50)}
.receipt p{margin:.25rem 0}
.receipt .reference{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:1.25rem;letter-spacing:.05em}
.emergency-call{border:2px solid #b91c1c;border-radius:.75rem;padding:1rem;margin:1rem 0;background:#fef2f2}
.emergency-call p{margin:.25rem 0}
.emergency-call p:first-child{font-weight:700;font-size:1.15rem;color:#7f1d1d}
.emergency-call a{margin:.5rem 0}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
.btn-primary,.btn-secondary{display:inline-flex;align-items:center;justify-content:center;min-height:2.75rem;padding:.625rem 1.25rem;border:0;border-radius:.5rem;background:var(--amber);color:#fff;font:inherit;font-size:1.2rem;font-weight:700;cursor:pointer}
.btn-primary:hover{background:var(--amber-dark)}
.w-full{width:100%}
`;

/** A complete page: header with the brand and phone, the content, a way back. */
export function renderPage(options: { title: string; body: string }): string {
  const title = `${options.title} | ${SITE.name}`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site-header"><div class="bar"><a class="brand" href="/">${escapeHtml(SITE.name)}</a><a class="phone" href="${escapeHtml(SITE.phoneHref)}">Call ${escapeHtml(SITE.phone)}</a></div></header>
<main id="main"><div class="card">
${options.body}
<p><a class="back" href="/">Back to the site</a></p>
</div></main>
<footer class="site-footer"><p>&copy; ${SITE.copyrightYear} ${escapeHtml(SITE.name)}. Questions? Email <a href="mailto:${escapeHtml(SITE.email)}">${escapeHtml(SITE.email)}</a>.</p></footer>
</body>
</html>
`;
}

const callLink = (text = `Call ${SITE.phone}`) =>
  `<a class="call" href="${escapeHtml(SITE.phoneHref)}">${escapeHtml(text)}</a>`;
const html = (element: ReactElement) => renderToStaticMarkup(element);

/** The form again with the visitor's values and the field messages. */
export function formErrorPage(
  form: FormDef,
  values: FormValues,
  errors: FieldErrors,
  source: string | undefined,
): string {
  const hidden = {
    // A fresh clock: the correction is a new attempt, and a person takes more than 2.5 s.
    [STARTED_FIELD]: String(Date.now()),
    [SOURCE_FIELD]: source ?? "",
    // Double-clicking the corrected form's submit stores one lead.
    [IDEMPOTENCY_FIELD]: randomUUID(),
  };
  const body =
    `<h1>${escapeHtml(form.title)}</h1><p class="lead">${escapeHtml(form.description)}</p>` +
    html(createElement(LeadForm, { form, defaults: values, initialErrors: errors, hidden }));
  return renderPage({ title: `Please check your ${form.title}`, body });
}

const leadParagraph = (text: string) => `<p class="lead">${escapeHtml(text)}</p>`;

/** Quote received: the receipt, the server's estimate and what happens next (an emergency: call now). */
export function quoteConfirmationPage(estimateText: string, receipt: Receipt): string {
  const toast = quoteToast(receipt.urgency);
  const body =
    `<h1>${escapeHtml(toast.title)}</h1>${leadParagraph(toast.description)}` +
    html(createElement(QuoteConfirmation, { estimate: estimateText, receipt }));
  return renderPage({ title: toast.title, body });
}

/** Audit or assessment received: the receipt, next steps and expected outcomes (always routine). */
export function growthConfirmationPage(kind: "audit" | "assessment", receipt: Receipt): string {
  const heading = kind === "audit" ? AUDIT_TOASTS.success.title : ASSESSMENT_SUBMITTED;
  const body =
    `<h1>${escapeHtml(heading)}</h1>${leadParagraph(AUDIT_TOASTS.success.description)}` +
    html(createElement(GrowthConfirmation, { receipt })) +
    `<p>Prefer to talk now?</p>${callLink()}`;
  return renderPage({ title: heading, body });
}

/** Booking received: the spec's toast text as a page (an emergency: call now), the receipt, the way back. */
export function bookingConfirmationPage(businessName: string, slug: string | undefined, receipt: Receipt): string {
  const toast = bookingToast(receipt.urgency);
  const body =
    `<h1>${escapeHtml(toast.title)}</h1>${leadParagraph(toast.description)}` +
    html(createElement(BookingConfirmation, { businessName, slug, receipt }));
  return renderPage({ title: toast.title, body });
}

/** The find-pros reply's `message` when nothing matched (routine; noMatchesMessage(urgency) has the emergency's). */
export const NO_MATCHES_MESSAGE = noMatchesMessage("routine");

/** Find-pros received: for an emergency the hotline first, the receipt, then the matched businesses or the promise. */
export function findProsConfirmationPage(matches: readonly ProMatch[], receipt: Receipt): string {
  const emergency = receipt.urgency === "emergency";
  const list =
    matches.length === 0
      ? `<p>${escapeHtml(noMatchesMessage(receipt.urgency))}</p>`
      : `<p>These local pros offer the service you asked for:</p><ul class="matches">${matches
          .map(
            (m) =>
              `<li><a class="name" href="/directory/${encodeURIComponent(m.slug)}">${escapeHtml(m.name)}</a>` +
              `<div>${escapeHtml(formatMiles(m.distanceMiles))} away · ${escapeHtml(m.rating)} stars (${m.reviewCount} ${m.reviewCount === 1 ? "review" : "reviews"})</div>` +
              (m.phone
                ? `<div><a href="tel:${escapeHtml(m.phone.replace(/[^\d+]/g, ""))}">${escapeHtml(m.phone)}</a></div>`
                : "") +
              `</li>`,
          )
          .join("")}</ul><p>${escapeHtml(findProsFollowUp(receipt.urgency))}</p>`;
  const body =
    `<h1>Request Received</h1>` +
    (emergency ? html(createElement(EmergencyCall)) : "") +
    leadParagraph("Thanks! We've got your request for quotes.") +
    html(createElement(ReceiptNote, { receipt })) +
    `<h2>Your matches</h2>${list}${emergency ? "" : callLink()}`;
  return renderPage({ title: "Request Received", body });
}

/** A limit or an outage, explained, with the phone as the way forward. */
export function problemPage(title: string, message: string): string {
  const body = `<h1>${escapeHtml(title)}</h1><p class="lead">${escapeHtml(message)}</p><p>You can also reach us by phone:</p>${callLink()}`;
  return renderPage({ title, body });
}

/** An endpoint's error pages: the heading for each status, "Something went wrong" for the rest. */
export const problemPages =
  (titles: Readonly<Record<number, string>>) =>
  (status: number, message: string): string =>
    problemPage(titles[status] ?? "Something went wrong", message);

/** The review form's fields as the no-JS pages read them back. */
export type ReviewFormValues = Partial<
  Record<"customerName" | "customerEmail" | "rating" | "title" | "reviewText" | "serviceType", string>
>;

/**
 * The Write Review form again (no JavaScript), with the visitor's values and the field
 * messages: a native form posting urlencoded to the reviews endpoint, stars as 5 radios.
 */
export function reviewErrorPage(
  business: { id: string; name: string },
  values: ReviewFormValues,
  errors: FieldErrors,
): string {
  const v = (name: keyof ReviewFormValues) => escapeHtml(values[name] ?? "");
  const err = (name: string) =>
    errors[name] ? `<p class="error" id="review-${name}-error">${escapeHtml(errors[name])}</p>` : "";
  const described = (name: string) =>
    errors[name] ? ` aria-describedby="review-${name}-error" aria-invalid="true"` : "";
  const field = (name: keyof ReviewFormValues, label: string, type = "text", extra = "") =>
    `<p><label for="review-${name}">${escapeHtml(label)}</label><br><input id="review-${name}" name="${name}" type="${type}" value="${v(name)}"${extra}${described(name)}>${err(name)}</p>`;
  const chosen = Number(values.rating);
  const rating = Number.isInteger(chosen) && chosen >= 1 && chosen <= 5 ? chosen : 5;
  const stars = [1, 2, 3, 4, 5]
    .map(
      (n) =>
        `<label><input type="radio" name="rating" value="${n}"${n === rating ? " checked" : ""}> ${n} ${n === 1 ? "star" : "stars"}</label>`,
    )
    .join(" ");
  const body =
    `<h1>Please check your review</h1><p class="lead">Share your experience with ${escapeHtml(business.name)}.</p>` +
    `<form method="post" action="/api/businesses/${encodeURIComponent(business.id)}/reviews">` +
    field("customerName", "Your Name *", "text", ' required maxlength="100"') +
    field("customerEmail", "Email (optional, never shown)", "email") +
    `<fieldset${described("rating")}><legend>Rating</legend>${stars}${err("rating")}</fieldset>` +
    field("title", "Title (optional)") +
    `<p><label for="review-reviewText">Your Review (optional)</label><br><textarea id="review-reviewText" name="reviewText" rows="5"${described("reviewText")}>${v("reviewText")}</textarea>${err("reviewText")}</p>` +
    field("serviceType", "Service (optional)") +
    `<button class="btn-primary" type="submit">Submit Review</button></form>`;
  return renderPage({ title: "Please check your review", body });
}

/** Review stored (no JavaScript): the toast's words as a page and the way back to the business. */
export function reviewConfirmationPage(business: { name: string; slug: string } | null): string {
  const { title, description } = REVIEW_TOASTS.success;
  const back = business
    ? `<p><a class="call" href="/directory/${encodeURIComponent(business.slug)}#reviews">Back to ${escapeHtml(business.name)}</a></p>`
    : "";
  return renderPage({ title, body: `<h1>${escapeHtml(title)}</h1>${leadParagraph(description)}${back}` });
}
