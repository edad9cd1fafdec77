/**
 * What the owner's overview (/owner) shows: a "Finish your listing" checklist while it has no
 * description, no hours or no photos; the business at a glance (its public page, its
 * response figures worded exactly as the public page words them); and "Leads offered to you",
 * newest offer first, 20 a page, each with an Answer link: the business's own signed answer
 * page (/respond/..., the lead-delivery answer flow); and its private calendar feed's URL
 * (drawn on first view) with the form that replaces it (calendar.ts). The page is src/pages/owner/index.astro.
 */
import { LEAD_TYPE_SINGULAR } from "../../../src/lib/admin.ts";
import { DELIVERY_STATE_LABELS } from "../../../src/lib/admin-messages.ts";
import { DEFAULT_TIME_ZONE } from "../../../src/lib/hours.ts";
import { summarizeLead } from "../../../src/lib/lead-summary.ts";
import { unfinishedListing } from "../../../src/lib/owner-profile/checklist.ts";
import { URGENCY_LABELS } from "../../../src/lib/lead-urgency.ts";
import { MIN_RESPONSE_OFFERS, responseLabel } from "../../../src/lib/response-time.ts";
import type { LeadRow, OverviewView } from "../../../src/lib/owner-views.ts";
import type { Business } from "../../../src/lib/schemas/business.ts";
import { ANSWER_LINK_TTL_MS, signerFor, type Signer } from "../delivery/signing.ts";
import { feedUrl } from "../delivery/calendar.ts";
import { OWNER_CALENDAR_PATH } from "./calendar.ts";
import { jobArea } from "../messages/job.ts";
import { storeCall, type Env } from "../http.ts";
import type { Store } from "../store/index.ts";
import { OWNER_LEADS_PAGE, businessLeadsPage, type OwnerLead } from "./leads.ts";

/** How long an Answer link from the overview stays valid when the offer's own link has run out. */
export const OWNER_ANSWER_LINK_MS = 24 * 60 * 60_000;
/** The deepest page of leads a URL may ask for. */
const MAX_PAGE = 10_000;

/** "Nov 28, 2026, 9:15 AM" on the business's clock. */
function when(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone }).format(new Date(iso));
}

/** The public page's line, or why there is none yet. */
export function responseFigure(
  business: Pick<Business, "responseMinutes" | "responseCount" | "responseRate" | "responseOffers">,
): string {
  const line = responseLabel(business);
  if (line) return `${line}. Your public page shows this line.`;
  const offers = business.responseOffers ?? 0;
  return (
    `No response figures shown yet: your page shows them once ${MIN_RESPONSE_OFFERS} leads have an outcome ` +
    `(answered, or not answered by the deadline; ${offers} so far).`
  );
}

/** The Answer link: the offer's own link while it lives, else a fresh one for a day (the owner is signed in). */
export function answerHref(signer: Signer, item: OwnerLead, now: number): string {
  const own = Date.parse(item.delivery.offeredAt) + ANSWER_LINK_TTL_MS;
  return signer.answerPath(item.lead.id, item.delivery.businessId, own > now ? own : now + OWNER_ANSWER_LINK_MS);
}

/** The page number in `?page=` (1 when absent or not a number). */
export function leadsPageOf(url: URL): number {
  return Math.min(Math.max(1, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1), MAX_PAGE);
}

export async function overviewView(
  store: Store,
  env: Env,
  business: Business,
  pageNo: number,
  now: number,
): Promise<OverviewView> {
  const [{ items, total }, signer, calendarUrl] = await Promise.all([
    storeCall(() => businessLeadsPage(store, business.id, (pageNo - 1) * OWNER_LEADS_PAGE), { step: "leads" }),
    storeCall(() => signerFor(store, env), { step: "link key" }),
    storeCall(() => feedUrl(store, env, business.id), { step: "calendar" }),
  ]);
  const timeZone = business.timeZone ?? DEFAULT_TIME_ZONE;
  const pages = Math.max(1, Math.ceil(total / OWNER_LEADS_PAGE));
  const rows = items.map((item): LeadRow => {
    const { lead, delivery } = item;
    const s = summarizeLead(lead);
    // The street address comes with the acceptance, as on the answer page; before it, the area.
    const place = delivery.state === "accepted" ? s.place : jobArea(lead);
    return {
      id: lead.id,
      sent: when(delivery.offeredAt, timeZone),
      reference: lead.reference ?? lead.id,
      type: LEAD_TYPE_SINGULAR[lead.type] ?? lead.type,
      urgency: lead.urgency ? URGENCY_LABELS[lead.urgency] : "—",
      what: s.what,
      ...(place ? { place } : {}),
      state: delivery.state,
      stateLabel: `${DELIVERY_STATE_LABELS[delivery.state]}${delivery.reportedAt ? " (you reported it)" : ""}`,
      answerHref: answerHref(signer, item, now),
    };
  });
  const reviews = `${business.reviewCount} review${business.reviewCount === 1 ? "" : "s"}`;
  return {
    finish: unfinishedListing(business),
    publicHref: `/directory/${encodeURIComponent(business.slug)}`,
    glance: `${business.city}, ${business.state} · rating ${business.rating} from ${reviews}`,
    responseFigure: responseFigure(business),
    calendar: { url: calendarUrl, action: OWNER_CALENDAR_PATH },
    leads: {
      total,
      rows,
      ...(total > OWNER_LEADS_PAGE
        ? {
            pager: {
              label: "Lead pages",
              position: `Page ${pageNo} of ${pages}`,
              ...(pageNo > 1 ? { newer: { href: `/owner?page=${pageNo - 1}`, text: "Newer leads" } } : {}),
              ...(pageNo < pages ? { older: { href: `/owner?page=${pageNo + 1}`, text: "Older leads" } } : {}),
            },
          }
        : {}),
    },
  };
}
