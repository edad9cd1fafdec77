/**
 * The visitor's status page (/requests/{id}/{sig}): who holds their request and where each
 * offer truly stands (one no channel could deliver, or only kept, is said as such, never as
 * waiting nor as unanswered), and what they asked. Every time is in the job's own zone, named;
 * an emergency's page opens with the danger and our own line.
 */
import { emailReady, offersCanBeSent } from "../notify/config.ts";
import type { Message } from "../../../src/lib/schemas/message.ts";
import { INVITE_WITHDRAWN_NOTE } from "../delivery/compose.ts";
import { offerKept, offerMessages } from "../delivery/kept.ts";
import { isHeld } from "../delivery/routing.ts";
import { LEAD_STATUS_LABELS, LEAD_TYPE_SINGULAR } from "../../../src/lib/admin.ts";
import { EMERGENCY_CONFIRMATION, HOTLINE } from "../../../src/lib/forms/copy.ts";
import { summarizeLead } from "../../../src/lib/lead-summary.ts";
import type { Delivery, Lead } from "../../../src/lib/schemas/lead.ts";
import { SITE, telHref } from "../../../src/lib/site.ts";
import { jobRows, withdrawLabel } from "../messages/job.ts";
import { dayTime, jobTimeZone } from "../messages/time.ts";
import { EMERGENCY_LINE, nextStep } from "../messages/visitor.ts";
import { signerFor } from "../delivery/signing.ts";
import { jobWindow } from "../delivery/job-window.ts";
import { getStore, type Store } from "../store/index.ts";
import { stormForPlace } from "../storms.ts";
import { placeOfText } from "../job-place.ts";
import type { StormNotice } from "../../../src/lib/storm-notice.ts";
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

/** An emergency's first words on the page: 911, the power lines, then our own line. */
export interface DangerBox {
  hurt: string;
  lines: string;
  /** Our line, named as ours: the link's words, then the number. */
  callLabel: string;
  phone: string;
  callHref: string;
}

/** One e-mail to the visitor about the request, as its delivery stands in the message log. */
export interface EmailRow {
  subject: string;
  /** "Sent to jo@example.com Nov 28, 3:02 PM EST", "Not sent: ...": said from its state only. */
  state: string;
  tone: StateTone;
}

/** The status page's "E-mails to you": each one's state, or why there are none. */
export interface EmailsPart {
  rows: EmailRow[];
  /** Said when there are none yet. */
  note?: string;
}

export const EMAIL_NOTES = {
  /** No e-mail can reach the visitor here, or the request is held: nothing is e-mailed. */
  none: "No e-mail is sent for this request: this page is how you follow it.",
  /** E-mail can reach them, and nothing is composed yet (the notifier runs right after the request). */
  soon: "We'll e-mail you about this request at the address you gave.",
} as const;

export interface StatusPage {
  reference: string;
  /** Shown before anything else on an emergency's page, whoever has it. */
  danger?: DangerBox;
  nextStep: string;
  holders: Holder[];
  asked: Row[];
  /** The e-mails to the visitor about this request, each as its delivery stands. */
  emails: EmailsPart;
  /** The reference, or the lead id for a lead stored before references. */
  quote: string;
  /** The accepted window as an .ics file, when a pro holding the job gave one that names a day. */
  calendarHref?: string;
  /** The storm notice, while the job's place is inside an active storm (read when the page is). */
  storm?: StormNotice;
}

/** The status page's .ics link (delivery/calendar.ts), when some accepted window names a day. */
export function calendarHrefOf(lead: Lead, statusPath: string): string | undefined {
  const dated = (lead.routing?.deliveries ?? []).some((d) => jobWindow(lead, d) !== null);
  return dated ? `${statusPath}/calendar.ics` : undefined;
}

/** What one e-mail to the visitor came to: "sent" only once the provider took it. */
function emailRowOf(m: Message, tz: string, now: number): EmailRow {
  const row = (state: string, tone: StateTone) => ({ subject: m.subject, state, tone });
  switch (m.state) {
    case "sent":
      return row(`Sent to ${m.to}${m.sentAt ? ` ${dayTime(m.sentAt, tz)}` : ""}`, "ok");
    case "queued":
      return m.nextAttemptAt && Date.parse(m.nextAttemptAt) > now
        ? row(`Not sent yet: it goes to ${m.to} ${dayTime(m.nextAttemptAt, tz)}`, "wait")
        : row(`Not sent yet: going to ${m.to} now`, "wait");
    case "retrying":
      return row(
        `Not sent yet: our e-mail service didn't take it, we'll try again${m.nextAttemptAt ? ` ${dayTime(m.nextAttemptAt, tz)}` : ""}`,
        "wait",
      );
    case "failed":
      return row(`Couldn't be sent to ${m.to}: the e-mail service refused it`, "no");
    case "kept":
      return row(
        m.note === INVITE_WITHDRAWN_NOTE
          ? "Not sent: the pro gave the job back"
          : "Not sent: this site sends no e-mail yet",
        "no",
      );
  }
}

/** The visitor's e-mails about a lead from its message log, oldest first. */
export function emailsOf(
  lead: Lead,
  messages: readonly Message[],
  { ready, now = Date.now() }: { ready: boolean; now?: number },
): EmailsPart {
  const tz = jobTimeZone(lead);
  const rows = messages
    .filter((m) => m.audience === "visitor" && m.channel === "email")
    .toSorted((a, b) => a.createdAt.localeCompare(b.createdAt))
    .map((m) => emailRowOf(m, tz, now));
  if (rows.length > 0) return { rows };
  return { rows, note: ready && !isHeld(lead) ? EMAIL_NOTES.soon : EMAIL_NOTES.none };
}

/** The line under a business: what its offer came to, each time in the job's zone. */
function detailOf(d: Delivery, tz: string): string {
  switch (d.state) {
    case "waiting":
      return `Answer due by ${dayTime(d.deadlineAt, tz)}`;
    case "accepted":
      return `Accepted ${d.answeredAt ? dayTime(d.answeredAt, tz) : ""}${offerTerms(d) ? ` · ${offerTerms(d)}` : ""}`.trim();
    case "declined":
      return "Can't take this job";
    case "expired":
      return "Didn't answer in time";
    case "undelivered":
      return "Our offer couldn't reach them";
    case "withdrawn":
      // A pro's report of the lead is for our team; the homeowner reads that it gave the job back.
      return `Gave the job back${d.withdrawnAt ? ` ${dayTime(d.withdrawnAt, tz)}` : ""} after accepting it${d.reportedAt ? "" : ` (${withdrawLabel(d.reason).toLowerCase()})`}`;
  }
}

/** A waiting offer on an install whose offers reach no business: kept for the team, never "waiting". */
export const KEPT_BADGE = { label: "Not sent yet", tone: "wait" } as const satisfies Holder["badge"];
const keptLine = (d: Delivery, tz: string) =>
  `Kept for our team until ${dayTime(d.deadlineAt, tz)}: this site sends no e-mail or text yet`;

/**
 * An offer past its deadline that was only kept (no provider here carried it: every message of it
 * kept, or none logged on an install that cannot send offers): its business never had it, so it
 * is not reached, never "didn't answer in time".
 */
export const KEPT_UNREACHED_BADGE = { label: "Not reached", tone: "no" } as const satisfies Holder["badge"];
export const KEPT_UNREACHED_LINE = `Not reached: this site sends no e-mail or text yet; ${SITE.name}'s team has your request`;

function holderOf(lead: Lead, d: Delivery, tz: string, kept: boolean, messages: readonly Message[]): Holder {
  const keptOffer = kept && d.state === "waiting";
  const keptExpired =
    d.state === "expired" &&
    (offerKept(lead, d.businessId, messages) || (kept && offerMessages(lead, d.businessId, messages).length === 0));
  return {
    name: d.name,
    href: `/directory/${encodeURIComponent(d.slug)}`,
    badge: keptOffer ? KEPT_BADGE : keptExpired ? KEPT_UNREACHED_BADGE : STATE_BADGES[d.state],
    lines: [
      keptOffer ? keptLine(d, tz) : keptExpired ? KEPT_UNREACHED_LINE : detailOf(d, tz),
      ...(d.calledAt ? [`Called you ${dayTime(d.calledAt, tz)}`] : []),
    ],
    call:
      d.state === "accepted" && d.phone ? { href: telHref(d.phone), text: `Call ${d.name}: ${d.phone}` } : undefined,
  };
}

/** The site's team as a holder: closed once the operator closed the lead, else it has the request. */
const teamBadge = (lead: Lead): Holder["badge"] =>
  lead.status === "closed"
    ? { label: LEAD_STATUS_LABELS.closed, tone: "ok" }
    : { label: "Has your request", tone: "wait" };

/** The status page's content for a lead. */
export function statusPageOf(
  lead: Lead,
  /** Offers reach no business here (no e-mail or text provider): they are kept for the team. */
  kept = false,
  /** The lead's messages (the e-mails to the visitor are shown as they stand) and whether e-mail can reach them. */
  mail: { messages: readonly Message[]; ready: boolean; now?: number } = { messages: [], ready: !kept },
): StatusPage {
  const routing = lead.routing;
  const tz = jobTimeZone(lead);
  const holders = (routing?.deliveries ?? []).map((d) => holderOf(lead, d, tz, kept, mail.messages));
  if (!routing || routing.escalatedAt) {
    holders.push({
      name: `${SITE.name}'s team`,
      badge: teamBadge(lead),
      lines: routing?.escalatedAt ? [`Has your request since ${dayTime(routing.escalatedAt, tz)}`] : [],
    });
  }
  const detailed = lead.type === "find-pros" || lead.type === "booking" || lead.type === "quote";
  const E = EMERGENCY_CONFIRMATION;
  return {
    reference: lead.reference ?? "",
    ...(lead.urgency === "emergency"
      ? {
          danger: {
            hurt: E.heading,
            lines: E.lines,
            callLabel: HOTLINE.label,
            phone: SITE.phone,
            callHref: SITE.phoneHref,
          },
        }
      : {}),
    nextStep: nextStep(lead, { kept }),
    holders,
    asked: [
      ["Request", LEAD_TYPE_SINGULAR[lead.type]],
      ["Sent", dayTime(lead.createdAt, tz)],
      ...(detailed ? jobRows(lead) : [["What", summarizeLead(lead).what] as Row]),
    ],
    emails: emailsOf(lead, mail.messages, mail),
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
    const messages = await s.messages.forLead(leadId);
    const page = statusPageOf(lead, !offersCanBeSent(), { messages, ready: emailReady() });
    const calendarHref = calendarHrefOf(lead, signer.statusPath(leadId));
    // The link a visitor keeps: while a storm covers the job's place, it says what the storm's
    // pages say (the storm's own state now, not as it stood when the request came).
    const place = lead.place ?? (await placeOfText(lead));
    const storm = place
      ? (await stormForPlace({ zip: place.zip, lat: place.lat, lng: place.lng }, Date.now(), s)).notice
      : null;
    return {
      ok: true,
      page: { ...page, ...(calendarHref ? { calendarHref } : {}), ...(storm ? { storm } : {}) },
    };
  });
}
