/**
 * A business's answer page (/respond/{token}): the job offered to it, and where its answer
 * stands. The customer's phone, e-mail and street address come with the acceptance: before
 * it the page shows their first name and the job's area only, and a business that declined,
 * let the offer pass or gave the job back sees no more than that.
 */
import { formatMiles } from "../../../src/lib/geo/distance.ts";
import { DEFAULT_TIME_ZONE } from "../../../src/lib/hours.ts";
import { DECLINE_REASONS, REPORT_REASONS, WITHDRAW_REASONS, reportReasonLabel } from "../../../src/lib/lead-routing.ts";
import { summarizeLead } from "../../../src/lib/lead-summary.ts";
import type { Delivery, Lead } from "../../../src/lib/schemas/lead.ts";
import { telHref } from "../../../src/lib/site.ts";
import { declineLabel, firstName, jobRows, withdrawLabel } from "../messages/job.ts";
import { mailtoHref } from "../messages/parts.ts";
import { clockTime, dayTime } from "../messages/time.ts";
import { signerFor } from "../delivery/signing.ts";
import { getStore, type Store } from "../store/index.ts";
import { LINK_TOKEN, loading, offerTerms, type Loaded, type Row } from "./delivery-link.ts";
import { capacityView, type CapacityView } from "../capacity.ts";

export { DECLINE_REASONS, REPORT_REASONS, WITHDRAW_REASONS };

/**
 * The answer page's referrer policy. Its forms post to its own address, and a browser sends
 * `Origin: null` with every post from a `no-referrer` page, which the cross-site check
 * (isCrossSite) refuses: the business could not answer. `same-origin` sends the real Origin
 * (and the page's URL as Referer) to this site only, and still nothing to any other.
 */
export const ANSWER_PAGE_REFERRER_POLICY = "same-origin";

/**
 * The answer page's own policy, on top of the site's: no script at all, and `ping` (a
 * connection) to its own origin only, when the customer's number is tapped.
 */
export const ANSWER_PAGE_CSP =
  "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** Where the offer stands for the business reading it. */
export type AnswerState =
  | { kind: "open"; answerBy: string }
  | { kind: "accepted"; at: string; terms: string }
  | { kind: "declined"; reason: string }
  | { kind: "withdrawn"; at: string; reason: string }
  | { kind: "closed"; deadline: string };

/** A customer row: label, value, and its link (tel:, mailto:) when it has one. */
export type ContactRow = [label: string, value: string, href?: string];

/** What the customer section says while the details are not this business's to see. */
export const CONTACTS_NOTE = {
  open: "Their phone, e-mail and street address come with Accept.",
  emergency: "Their phone, e-mail and street address come with Accept: one tap accepts and calls.",
  gone: "The customer's phone, e-mail and address go only to the pro who takes the job.",
} as const;

export interface AnswerPage {
  /** "Emergency job" or "Job request". */
  heading: string;
  reference: string;
  /** "For Pro 1 Trees · sent Thu, Nov 26, 3:10 PM CST". */
  byline: string;
  state: AnswerState;
  job: Row[];
  /** The customer's photo (served to this link only). */
  photoPath?: string;
  /** Their first name before the acceptance; name, phone, e-mail and address after it. */
  customer: ContactRow[];
  /** Why the customer's details are not shown (CONTACTS_NOTE), while they are not. */
  contactsNote?: string;
  /** An emergency: Accept is "Accept and call", and the number comes first after it. */
  emergency: boolean;
  /** The customer's first name, for "Accept and call Bob". */
  firstName: string;
  /** The customer gave a number (an emergency's Accept can call it). */
  hasPhone: boolean;
  /** The customer's number once accepted, and the address its tap pings (the call is recorded). */
  call?: { href: string; phone: string; ping: string };
  /** The page's own path: its forms post there. */
  path: string;
  /** The business reported this lead (when, and why); absent while it may still report it. */
  report?: { at: string; reason: string };
  /** The business's capacity statement and its form's date bounds. */
  capacity?: CapacityView;
}

/** A business's answer page for /respond/{token}. */
export function loadAnswerPage(
  token: string,
  now = Date.now(),
  store: () => Store = getStore,
): Promise<Loaded<AnswerPage>> {
  return loading("answer page", async () => {
    if (!LINK_TOKEN.test(token)) return { ok: false, problem: "invalid" };
    const s = store();
    const grant = (await signerFor(s)).readAnswer(token, now);
    if (!grant.ok) return { ok: false, problem: grant.reason };
    const lead = await s.leads.get(grant.leadId);
    const delivery = lead?.routing?.deliveries.find((d) => d.businessId === grant.businessId);
    if (!lead || !delivery) return { ok: false, problem: "gone" };
    const capacity = await s.capacity.get(grant.businessId);
    const page = answerPageOf(lead, delivery, `/respond/${token}`, now);
    return {
      ok: true,
      page: { ...page, capacity: capacityView(capacity, now, delivery.timeZone ?? DEFAULT_TIME_ZONE) },
    };
  });
}

/** The answer page's content for one business's offer. */
export function answerPageOf(lead: Lead, delivery: Delivery, path: string, now: number): AnswerPage {
  const tz = delivery.timeZone ?? DEFAULT_TIME_ZONE;
  const s = summarizeLead(lead);
  const holds = delivery.state === "accepted";
  // The job by its area always; the street address is with the customer's details.
  const job = jobRows(lead, s, { area: true });
  if (delivery.distanceMiles !== undefined)
    job.splice(2, 0, ["Distance", `${formatMiles(delivery.distanceMiles)} from you`]);
  const open = delivery.state === "waiting" && Date.parse(delivery.deadlineAt) > now;
  const state: AnswerState = holds
    ? { kind: "accepted", at: dayTime(delivery.answeredAt!, tz), terms: offerTerms(delivery) }
    : delivery.state === "declined"
      ? { kind: "declined", reason: delivery.reportedAt ? "reported" : declineLabel(delivery.reason) }
      : delivery.state === "withdrawn"
        ? {
            kind: "withdrawn",
            at: dayTime(delivery.withdrawnAt ?? delivery.answeredAt ?? delivery.offeredAt, tz),
            reason: delivery.reportedAt ? "reported" : withdrawLabel(delivery.reason),
          }
        : open
          ? { kind: "open", answerBy: clockTime(delivery.deadlineAt, tz) }
          : { kind: "closed", deadline: dayTime(delivery.deadlineAt, tz) };
  const emergency = lead.urgency === "emergency";
  const photoKey = (lead.data as Record<string, unknown> | null)?.photoKey;
  const customer: ContactRow[] = holds
    ? [
        ["Name", s.name],
        // The number's link is the call button (its tap is recorded), not this row.
        ...(s.phone ? [["Phone", s.phone] as ContactRow] : []),
        ...(s.email ? [["E-mail", s.email, mailtoHref(s.email)] as ContactRow] : []),
        ...(s.place ? [[lead.type === "find-pros" ? "Location" : "Address", s.place] as ContactRow] : []),
      ]
    : [["Name", firstName(s.name)]];
  return {
    heading: emergency ? "Emergency job" : "Job request",
    reference: lead.reference ?? "",
    byline: `For ${delivery.name} · offered ${dayTime(delivery.offeredAt, tz)}`,
    state,
    job,
    photoPath: typeof photoKey === "string" ? `${path}/photo` : undefined,
    customer,
    contactsNote: holds
      ? undefined
      : open
        ? emergency
          ? CONTACTS_NOTE.emergency
          : CONTACTS_NOTE.open
        : CONTACTS_NOTE.gone,
    emergency,
    firstName: firstName(s.name),
    hasPhone: s.phone !== undefined,
    call: holds && s.phone ? { href: telHref(s.phone), phone: s.phone, ping: `${path}/call` } : undefined,
    path,
    ...(delivery.reportedAt
      ? { report: { at: dayTime(delivery.reportedAt, tz), reason: reportReasonLabel(delivery.report ?? "") } }
      : {}),
  };
}
