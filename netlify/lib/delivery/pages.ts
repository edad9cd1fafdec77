/**
 * The two pages a lead's links open, rendered by functions (no scripts, JS off by design):
 * a business's answer page (/respond/{token}) and the visitor's status page
 * (/requests/{id}/{sig}). Both are private: noindex, never cached, no referrer (the URL is
 * the key) to another site. The page chrome is the no-JS confirmation pages' (../pages.ts).
 */
import { escapeHtml } from "../../../src/lib/forms/markup.ts";
import { LEAD_STATUS_LABELS, LEAD_TYPE_SINGULAR } from "../../../src/lib/admin.ts";
import { formatMiles } from "../../../src/lib/geo/distance.ts";
import { DEFAULT_TIME_ZONE } from "../../../src/lib/hours.ts";
import { SITE, telHref } from "../../../src/lib/site.ts";
import { summarizeLead } from "../../../src/lib/lead-summary.ts";
import type { Delivery, Lead } from "../../../src/lib/schemas/lead.ts";
import { renderPage } from "../pages.ts";
import { declineLabel, jobRows } from "../messages/job.ts";
import { clockTime, dayTime } from "../messages/time.ts";
import { EMERGENCY_LINE, nextStep } from "../messages/visitor.ts";
import { DECLINE_REASONS } from "./routing.ts";

/** Headers for a page whose URL is its key. */
export const PRIVATE_PAGE_HEADERS = {
  "cache-control": "private, no-store",
  "referrer-policy": "no-referrer",
  "x-robots-tag": "noindex, nofollow",
} as const;

/**
 * The answer page's referrer policy. Its forms post back to it, and a browser sends
 * `Origin: null` with every post from a `no-referrer` page, which the cross-site check
 * (isCrossSite) refuses: the business could not answer. `same-origin` sends the real Origin
 * (and the page's URL as Referer) to this site only, and still nothing to any other.
 */
export const ANSWER_PAGE_REFERRER_POLICY = "same-origin";

/** The answer page may ping its own origin when the customer's number is tapped (HTML `ping`). */
export const ANSWER_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

// The buttons' text is under the 18.66px bold of "large text", so each background takes white
// text at 4.5:1: the call button is the dark amber (5.8:1; the site's amber is 3.9:1).
const EXTRA_STYLE = `<style>
.rows{border-collapse:collapse;width:100%;margin:.5rem 0 1rem}.rows th{text-align:left;vertical-align:top;padding:.35rem .75rem .35rem 0;white-space:nowrap;color:#475569;font-weight:600}.rows td{padding:.35rem 0;white-space:pre-wrap;overflow-wrap:anywhere}
.state{display:inline-block;border-radius:999px;padding:.1rem .6rem;font-size:.85rem;font-weight:700;background:#e2e8f0;color:#1e293b}.state.ok{background:#dcfce7;color:#14532d}.state.wait{background:#fef3c7;color:#78350f}.state.no{background:#fee2e2;color:#7f1d1d}
.alert{border:2px solid #b91c1c;background:#fef2f2;color:#7f1d1d;border-radius:.75rem;padding:1rem;margin:0 0 1rem;font-weight:600}.alert a{color:#7f1d1d}
.ok-box{border:1px solid #86efac;background:#f0fdf4;border-radius:.75rem;padding:1rem;margin:0 0 1rem}
.who{list-style:none;padding:0;margin:.5rem 0;display:grid;gap:.75rem}.who li{border:1px solid #dcefe1;border-radius:.75rem;padding:.75rem 1rem;background:#f1f8f3}
.answer{display:grid;gap:1rem;margin:1rem 0}.answer form{border:1px solid #cbd5e1;border-radius:.75rem;padding:1rem;display:grid;gap:.75rem}
.answer label{font-weight:600;font-size:.9rem}.answer input[type=text]{display:block;width:100%;font:inherit;min-height:2.75rem;border:1px solid #cbd5e1;border-radius:.5rem;padding:.5rem .75rem;margin-top:.25rem}
.answer fieldset{border:0;margin:0;padding:0;display:grid;gap:.4rem}.answer legend{font-weight:600;margin-bottom:.25rem}.answer .choice{display:flex;gap:.5rem;align-items:center;font-weight:400;min-height:2.25rem}
.btn-ok,.btn-no,.btn-call{display:inline-flex;flex-wrap:wrap;column-gap:.3em;max-width:100%;text-align:center;align-items:center;justify-content:center;min-height:3rem;padding:.6rem 1.25rem;border-radius:.5rem;font:inherit;font-size:1.1rem;font-weight:700;cursor:pointer;text-decoration:none;border:0}
.btn-ok{background:#24583b;color:#fff}.btn-no{background:#fff;color:#7f1d1d;border:2px solid #b91c1c}.btn-call{background:var(--amber-dark);color:#fff}
.nowrap{white-space:nowrap}.err{color:#b91c1c;font-weight:600}.photo{max-width:100%;border-radius:.75rem;margin:.5rem 0}.timeline{padding-left:1.25rem;color:#334155}.small{font-size:.9rem;color:#475569}
</style>`;

const rows = (items: [string, string][]) =>
  `<table class="rows">${items.map(([l, v]) => `<tr><th scope="row">${escapeHtml(l)}</th><td>${escapeHtml(v)}</td></tr>`).join("")}</table>`;

const page = (title: string, body: string) => renderPage({ title, body: EXTRA_STYLE + body });

/** A link that cannot be used: tampered, expired, or not (any more) for this business. */
export function linkProblemPage(kind: "invalid" | "expired" | "gone"): string {
  const [title, text] =
    kind === "expired"
      ? [
          "This link has expired",
          "Answer links work for 7 days. If you still want this job, call us and we'll put you in touch.",
        ]
      : kind === "gone"
        ? ["This request is no longer available", "It may have been withdrawn. Call us if you think this is a mistake."]
        : ["This link isn't valid", "Check that you opened the whole link from the message we sent you, or call us."];
  return page(
    title,
    `<h1>${escapeHtml(title)}</h1><p class="lead">${escapeHtml(text)}</p><p><a class="call" href="${escapeHtml(SITE.phoneHref)}">Call ${escapeHtml(SITE.phone)}</a></p>`,
  );
}

const stateBadge = (d: Delivery) => {
  switch (d.state) {
    case "accepted":
      return `<span class="state ok">Accepted</span>`;
    case "declined":
      return `<span class="state no">Declined</span>`;
    case "expired":
      return `<span class="state no">No answer in time</span>`;
    default:
      return `<span class="state wait">Waiting for an answer</span>`;
  }
};

export interface AnswerPageOptions {
  lead: Lead;
  delivery: Delivery;
  /** The page's own path (forms post back to it). */
  path: string;
  /** The photo's path when the request has one. */
  photoPath?: string;
  /** A message after a post ("Thanks, ..."), or a form error. */
  notice?: { kind: "ok" | "error"; text: string };
  now: number;
}

/** A business's one-tap answer page for one lead. */
export function answerPage({ lead, delivery, path, photoPath, notice, now }: AnswerPageOptions): string {
  const tz = delivery.timeZone ?? DEFAULT_TIME_ZONE;
  const s = summarizeLead(lead);
  const emergency = lead.urgency === "emergency";
  const job = jobRows(lead);
  if (delivery.distanceMiles !== undefined)
    job.splice(2, 0, ["Distance", `${formatMiles(delivery.distanceMiles)} from you`]);
  const open = delivery.state === "waiting" && Date.parse(delivery.deadlineAt) > now;
  const customer: [string, string][] = [
    ["Name", s.name],
    ...(s.email ? [["E-mail", s.email] as [string, string]] : []),
  ];
  const callHref = s.phone ? telHref(s.phone) : null;
  const call = callHref
    ? `<p><a class="btn-call" href="${escapeHtml(callHref)}" ping="${escapeHtml(`${path}/call`)}">Call the customer: <span class="nowrap">${escapeHtml(s.phone!)}</span></a></p>` +
      `<p class="small">Tapping the number records that you called; the customer sees it.</p>`
    : "";

  let status: string;
  if (delivery.state === "accepted") {
    const terms = [delivery.window ? `When: ${delivery.window}` : "", delivery.price ? `Price: ${delivery.price}` : ""]
      .filter(Boolean)
      .join(" · ");
    status = `<div class="ok-box"><strong>Accepted</strong> on ${escapeHtml(dayTime(delivery.answeredAt!, tz))}.${terms ? ` ${escapeHtml(terms)}.` : ""} The customer's request page shows your answer. Please call them to confirm.</div>`;
  } else if (delivery.state === "declined") {
    status = `<div class="ok-box"><strong>Declined</strong> (${escapeHtml(declineLabel(delivery.reason))}). Thanks for letting us know: we've passed the job on.</div>`;
  } else if (!open) {
    status = `<div class="alert">The time to answer this job has passed (${escapeHtml(dayTime(delivery.deadlineAt, tz))}), so it went to another pro or our team. Call us if you can still help.</div>`;
  } else {
    status = `<p class="lead"><strong>Please answer by ${escapeHtml(clockTime(delivery.deadlineAt, tz))}</strong>. No account needed.</p>`;
  }

  const forms = open
    ? `<div class="answer">
<form method="post" action="${escapeHtml(path)}">
<input type="hidden" name="action" value="accept">
<label>When can you come? (optional)<input type="text" name="window" maxlength="200" placeholder="e.g. Today 4-6 PM" autocomplete="off"></label>
<label>Your price or range (optional)<input type="text" name="price" maxlength="100" placeholder="e.g. $650" autocomplete="off"></label>
<button type="submit" class="btn-ok">Accept this job</button>
</form>
<form method="post" action="${escapeHtml(path)}">
<input type="hidden" name="action" value="decline">
<fieldset><legend>Can't take it? Tell us why</legend>
${DECLINE_REASONS.map((r, i) => `<label class="choice"><input type="radio" name="reason" value="${r.value}"${i === 0 ? " required" : ""}> ${escapeHtml(r.label)}</label>`).join("\n")}
</fieldset>
<button type="submit" class="btn-no">Decline</button>
</form>
</div>`
    : "";

  const noticeHtml = notice
    ? `<p class="${notice.kind === "ok" ? "ok-box" : "alert"}" role="${notice.kind === "ok" ? "status" : "alert"}">${escapeHtml(notice.text)}</p>`
    : "";
  const title = `${emergency ? "Emergency job" : "Job request"} ${lead.reference ?? ""}`.trim();
  const body =
    `<h1>${escapeHtml(emergency ? "Emergency job" : "Job request")} <span class="nowrap">${escapeHtml(lead.reference ?? "")}</span></h1>` +
    `<p class="small">For ${escapeHtml(delivery.name)} · sent ${escapeHtml(dayTime(delivery.offeredAt, tz))}</p>` +
    noticeHtml +
    status +
    `<h2>The job</h2>${rows(job)}` +
    (photoPath ? `<img class="photo" src="${escapeHtml(photoPath)}" alt="The customer's photo of the job">` : "") +
    `<h2>The customer</h2>${rows(customer)}${call}` +
    forms;
  return page(title, body);
}

const operatorLine = (lead: Lead) =>
  lead.status === "new" ? "Received" : lead.status === "contacted" ? "Contacted you" : LEAD_STATUS_LABELS[lead.status];

/** The visitor's private status page. */
export function statusPage(lead: Lead): string {
  const emergency = lead.urgency === "emergency";
  const routing = lead.routing;
  const settled = routing?.deliveries.some((d) => d.state === "accepted");
  const who = (routing?.deliveries ?? [])
    .map((d) => {
      const terms = [d.window ? `When: ${d.window}` : "", d.price ? `Price: ${d.price}` : ""]
        .filter(Boolean)
        .join(" · ");
      const detail =
        d.state === "waiting"
          ? `Answer due by ${dayTime(d.deadlineAt)}`
          : d.state === "accepted"
            ? `Accepted ${dayTime(d.answeredAt!)}${terms ? ` · ${terms}` : ""}`
            : d.state === "declined"
              ? "Can't take this job"
              : "Didn't answer in time";
      return (
        `<li><a class="name" href="/directory/${encodeURIComponent(d.slug)}"><strong>${escapeHtml(d.name)}</strong></a> ${stateBadge(d)}` +
        `<div class="small">${escapeHtml(detail)}</div>` +
        (d.calledAt ? `<div class="small">Called you ${escapeHtml(dayTime(d.calledAt))}</div>` : "") +
        (d.state === "accepted" && d.phone
          ? `<div><a href="${escapeHtml(telHref(d.phone))}">Call ${escapeHtml(d.name)}: ${escapeHtml(d.phone)}</a></div>`
          : "") +
        `</li>`
      );
    })
    .join("");
  const team =
    !routing || routing.escalatedAt
      ? `<li><strong>${escapeHtml(SITE.name)}'s team</strong> <span class="state ${lead.status === "new" ? "wait" : "ok"}">${escapeHtml(operatorLine(lead))}</span>` +
        (routing?.escalatedAt
          ? `<div class="small">Has your request since ${escapeHtml(dayTime(routing.escalatedAt))}</div>`
          : "") +
        `</li>`
      : "";
  const asked: [string, string][] = [
    ["Request", LEAD_TYPE_SINGULAR[lead.type]],
    ["Sent", dayTime(lead.createdAt)],
    ...(lead.type === "find-pros" || lead.type === "booking" || lead.type === "quote"
      ? jobRows(lead)
      : [["What", summarizeLead(lead).what] as [string, string]]),
  ];
  const title = `Your request ${lead.reference ?? ""}`.trim();
  const body =
    (emergency && !settled
      ? `<p class="alert">${escapeHtml(EMERGENCY_LINE)} <a href="${escapeHtml(SITE.phoneHref)}">Call ${escapeHtml(SITE.phone)}</a></p>`
      : "") +
    `<h1>Your request <span class="nowrap">${escapeHtml(lead.reference ?? "")}</span></h1>` +
    `<p class="lead">Keep this page's link: it is the only way to see your request, and it is private to you.</p>` +
    `<h2>What happens next</h2><p>${escapeHtml(nextStep(lead))}</p>` +
    `<h2>Who has it</h2><ul class="who">${who}${team}</ul>` +
    `<h2>What you asked for</h2>${rows(asked)}` +
    `<p class="small">Reference ${escapeHtml(lead.reference ?? lead.id)}. Questions? Call <a href="${escapeHtml(SITE.phoneHref)}">${escapeHtml(SITE.phone)}</a> and quote it.</p>`;
  return page(title, body);
}
