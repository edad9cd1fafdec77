/** The visitor's status page (/requests/{id}/{sig}): who holds their request, and what they asked. */
import { LEAD_STATUS_LABELS, LEAD_TYPE_SINGULAR } from "../../../src/lib/admin.ts";
import { summarizeLead } from "../../../src/lib/lead-summary.ts";
import type { Delivery, Lead } from "../../../src/lib/schemas/lead.ts";
import { SITE, telHref } from "../../../src/lib/site.ts";
import { jobRows, withdrawLabel } from "../messages/job.ts";
import { dayTime } from "../messages/time.ts";
import { EMERGENCY_LINE, nextStep } from "../messages/visitor.ts";
import { signerFor } from "../delivery/signing.ts";
import { getStore, type Store } from "../store/index.ts";
import { loading, offerTerms, type Loaded, type Row } from "./delivery-link.ts";

export { EMERGENCY_LINE };

/** Where an offer stands, as a badge. */
export type StateTone = "ok" | "wait" | "no";

export const STATE_BADGES: Record<Delivery["state"], { label: string; tone: StateTone }> = {
  accepted: { label: "Accepted", tone: "ok" },
  declined: { label: "Declined", tone: "no" },
  expired: { label: "No answer in time", tone: "no" },
  waiting: { label: "Waiting for an answer", tone: "wait" },
  undelivered: { label: "Couldn't be reached", tone: "no" },
  withdrawn: { label: "Withdrew", tone: "no" },
};

/** One holder of the request on the status page: a business, or the site's team. */
export interface Holder {
  name: string;
  /** The business's directory page; none for the team. */
  href?: string;
  badge: { label: string; tone: StateTone };
  /** Lines under the name (the answer's time and terms, a call). */
  lines: string[];
  /** The business's number once it accepted. */
  call?: { href: string; text: string };
}

export interface StatusPage {
  reference: string;
  /** Shown before anything else: an emergency nobody has accepted yet. */
  emergencyLine?: string;
  nextStep: string;
  holders: Holder[];
  asked: Row[];
  /** The reference, or the lead id for a lead stored before references. */
  quote: string;
}

function holderOf(d: Delivery): Holder {
  const detail =
    d.state === "waiting"
      ? `Answer due by ${dayTime(d.deadlineAt)}`
      : d.state === "accepted"
        ? `Accepted ${dayTime(d.answeredAt!)}${offerTerms(d) ? ` · ${offerTerms(d)}` : ""}`
        : d.state === "declined"
          ? "Can't take this job"
          : d.state === "withdrawn"
            ? `Gave the job back after accepting it (${withdrawLabel(d.reason).toLowerCase()})`
            : "Didn't answer in time";
  return {
    name: d.name,
    href: `/directory/${encodeURIComponent(d.slug)}`,
    badge: STATE_BADGES[d.state],
    lines: [detail, ...(d.calledAt ? [`Called you ${dayTime(d.calledAt)}`] : [])],
    call:
      d.state === "accepted" && d.phone ? { href: telHref(d.phone), text: `Call ${d.name}: ${d.phone}` } : undefined,
  };
}

/** The status page's content for a lead. */
export function statusPageOf(lead: Lead): StatusPage {
  const routing = lead.routing;
  const settled = routing?.deliveries.some((d) => d.state === "accepted");
  const holders = (routing?.deliveries ?? []).map(holderOf);
  if (!routing || routing.escalatedAt) {
    holders.push({
      name: `${SITE.name}'s team`,
      badge: {
        label: lead.status === "closed" ? LEAD_STATUS_LABELS.closed : "Received",
        tone: lead.status === "closed" ? "ok" : "wait",
      },
      lines: routing?.escalatedAt ? [`Has your request since ${dayTime(routing.escalatedAt)}`] : [],
    });
  }
  const detailed = lead.type === "find-pros" || lead.type === "booking" || lead.type === "quote";
  return {
    reference: lead.reference ?? "",
    emergencyLine: lead.urgency === "emergency" && !settled ? EMERGENCY_LINE : undefined,
    nextStep: nextStep(lead),
    holders,
    asked: [
      ["Request", LEAD_TYPE_SINGULAR[lead.type]],
      ["Sent", dayTime(lead.createdAt)],
      ...(detailed ? jobRows(lead) : [["What", summarizeLead(lead).what] as Row]),
    ],
    quote: lead.reference ?? lead.id,
  };
}

const LEAD_ID_PARAM = /^[A-Za-z0-9_-]{1,40}$/;

/** The visitor's status page for /requests/{leadId}/{sig}. */
export function loadStatusPage(
  leadId: string,
  sig: string,
  store: () => Store = getStore,
): Promise<Loaded<StatusPage>> {
  return loading("status", async () => {
    if (!LEAD_ID_PARAM.test(leadId) || !LEAD_ID_PARAM.test(sig)) return { ok: false, problem: "invalid" };
    const s = store();
    const signer = await signerFor(s);
    if (!signer.checkStatus(leadId, sig)) return { ok: false, problem: "invalid" };
    const lead = await s.leads.get(leadId);
    if (!lead) return { ok: false, problem: "gone" };
    return { ok: true, page: statusPageOf(lead) };
  });
}
