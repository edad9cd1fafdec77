/**
 * GET /owner: the owner's overview. A "Finish your listing" checklist while it has no
 * description, no hours or no photos. The business at a glance (a link to its public page), its
 * response-time figure worded exactly as the public page words it, and "Leads we sent you",
 * newest offer first, 20 a page, each with an Answer link: the business's own signed answer
 * page (/respond/..., the lead-delivery answer flow).
 */
import { LEAD_TYPE_SINGULAR } from "../../../src/lib/admin.ts";
import { DELIVERY_STATE_LABELS } from "../../../src/lib/admin-messages.ts";
import { escapeHtml } from "../../../src/lib/forms/markup.ts";
import { DEFAULT_TIME_ZONE } from "../../../src/lib/hours.ts";
import { summarizeLead } from "../../../src/lib/lead-summary.ts";
import { FINISH_LISTING, unfinishedListing } from "../../../src/lib/owner-profile/checklist.ts";
import { URGENCY_LABELS } from "../../../src/lib/lead-urgency.ts";
import { MIN_RESPONSE_SAMPLES, responseTimeLabel } from "../../../src/lib/response-time.ts";
import type { Business } from "../../../src/lib/schemas/business.ts";
import { ANSWER_LINK_TTL_MS, signerFor, type Signer } from "../delivery/signing.ts";
import { storeCall, type Endpoint, type EndpointDeps } from "../http.ts";
import { OWNER_LEADS_PAGE, businessLeadsPage, type OwnerLead } from "./leads.ts";
import { ownerEndpoint, ownerHtml, ownerPage } from "./page.ts";

/** How long an Answer link from the overview stays valid when the offer's own link has run out. */
export const OWNER_ANSWER_LINK_MS = 24 * 60 * 60_000;

const STYLE = `<style>
.glance{display:grid;gap:.25rem;margin:0 0 1.5rem}
.owner-leads{width:100%;border-collapse:collapse;font-size:.9rem}
.owner-leads th,.owner-leads td{text-align:left;padding:.5rem;border-bottom:1px solid #e2e8f0;vertical-align:top}
.finish{border:1px solid #fcd34d;background:#fffbeb;border-radius:.75rem;padding:.75rem 1rem;margin:0 0 1.5rem}
.finish h2{margin:0 0 .25rem;font-size:1.1rem}
.finish ul{margin:.5rem 0 0;padding-left:1.25rem;display:grid;gap:.25rem}
</style>`;

/** "Nov 28, 2026, 9:15 AM" on the business's clock. */
function when(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone }).format(new Date(iso));
}

/** The public page's line, or why there is none yet. */
export function responseFigure(business: Pick<Business, "responseMinutes" | "responseCount">): string {
  if (business.responseMinutes !== undefined) {
    const count = business.responseCount ?? 0;
    return `${responseTimeLabel(business.responseMinutes)} (from ${count} answered lead${count === 1 ? "" : "s"}). Your public page shows this line.`;
  }
  return `No response time shown yet: your page shows one once you have answered ${MIN_RESPONSE_SAMPLES} leads.`;
}

/** The "Finish your listing" checklist, or "" when the listing has a description, hours and photos. */
export function finishListing(business: Pick<Business, "description" | "businessHours" | "images">): string {
  const items = unfinishedListing(business);
  if (items.length === 0) return "";
  return (
    `<section class="finish" aria-labelledby="finish-listing"><h2 id="finish-listing">${escapeHtml(FINISH_LISTING.heading)}</h2>` +
    `<p>${escapeHtml(FINISH_LISTING.intro)}</p><ul>` +
    items.map((i) => `<li><a href="${escapeHtml(i.href)}">${escapeHtml(i.text)}</a></li>`).join("") +
    `</ul></section>`
  );
}

/** The Answer link: the offer's own link while it lives, else a fresh one for a day (the owner is signed in). */
export function answerHref(signer: Signer, item: OwnerLead, now: number): string {
  const own = Date.parse(item.delivery.offeredAt) + ANSWER_LINK_TTL_MS;
  return signer.answerPath(item.lead.id, item.delivery.businessId, own > now ? own : now + OWNER_ANSWER_LINK_MS);
}

function leadRows(items: readonly OwnerLead[], signer: Signer, timeZone: string, now: number): string {
  return items
    .map((item) => {
      const { lead, delivery } = item;
      const s = summarizeLead(lead);
      const urgency = lead.urgency ? URGENCY_LABELS[lead.urgency] : "—";
      return (
        `<tr data-lead="${escapeHtml(lead.id)}">` +
        `<td>${escapeHtml(when(delivery.offeredAt, timeZone))}</td>` +
        `<td>${escapeHtml(lead.reference ?? lead.id)}</td>` +
        `<td>${escapeHtml(LEAD_TYPE_SINGULAR[lead.type] ?? lead.type)}</td>` +
        `<td>${escapeHtml(urgency)}</td>` +
        `<td>${escapeHtml(s.what)}${s.place ? `<br><span class="hint">${escapeHtml(s.place)}</span>` : ""}</td>` +
        `<td data-state="${delivery.state}">${escapeHtml(DELIVERY_STATE_LABELS[delivery.state])}</td>` +
        `<td><a href="${escapeHtml(answerHref(signer, item, now))}">Answer</a></td>` +
        `</tr>`
      );
    })
    .join("");
}

export function ownerOverviewHandler(deps: EndpointDeps = {}): Endpoint {
  return ownerEndpoint(
    {
      log: "[owner] overview",
      methods: ["GET", "HEAD"],
    },
    deps,
    async (call, { business }) => {
      const url = new URL(call.req.url);
      const pageNo = Math.min(Math.max(1, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1), 10_000);
      const offset = (pageNo - 1) * OWNER_LEADS_PAGE;
      const [{ items, total }, signer] = await Promise.all([
        storeCall(() => businessLeadsPage(call.store, business.id, offset), { step: "leads" }),
        storeCall(() => signerFor(call.store, call.env), { step: "link key" }),
      ]);
      const timeZone = business.timeZone ?? DEFAULT_TIME_ZONE;
      const pages = Math.max(1, Math.ceil(total / OWNER_LEADS_PAGE));
      const pager =
        total > OWNER_LEADS_PAGE
          ? `<nav class="pager" aria-label="Lead pages">` +
            (pageNo > 1 ? `<a href="/owner?page=${pageNo - 1}" rel="prev">Newer leads</a>` : "") +
            `<span>Page ${pageNo} of ${pages}</span>` +
            (pageNo < pages ? `<a href="/owner?page=${pageNo + 1}" rel="next">Older leads</a>` : "") +
            `</nav>`
          : "";
      const leads =
        total === 0
          ? `<p>No leads yet. When a customer books you or asks for pros near them, the lead shows here with a link to answer it.</p>`
          : items.length === 0
            ? `<p>No leads on this page. <a href="/owner">Back to the newest</a>.</p>`
            : `<div style="overflow-x:auto"><table class="owner-leads"><thead><tr><th scope="col">Sent</th><th scope="col">Reference</th><th scope="col">Type</th><th scope="col">Urgency</th><th scope="col">Job</th><th scope="col">Your answer</th><th scope="col"><span class="sr-only">Answer</span></th></tr></thead><tbody>${leadRows(items, signer, timeZone, call.now())}</tbody></table></div>` +
              pager;
      const body =
        STYLE +
        finishListing(business) +
        `<section class="glance" aria-label="At a glance">` +
        `<p><a href="/directory/${encodeURIComponent(business.slug)}">See your public page</a></p>` +
        `<p>${escapeHtml(business.city)}, ${escapeHtml(business.state)} · rating ${escapeHtml(business.rating)} from ${business.reviewCount} review${business.reviewCount === 1 ? "" : "s"}</p>` +
        `<p data-response-time="">${escapeHtml(responseFigure(business))}</p>` +
        `</section>` +
        `<h2>Leads we sent you</h2>` +
        (total > 0 ? `<p class="hint">${total} in all, newest first.</p>` : "") +
        leads;
      // No notice from the query: nothing posts to this page, and a link must not put words in it.
      return ownerHtml(ownerPage({ title: "Your listing", business, active: "/owner", body }));
    },
  );
}
