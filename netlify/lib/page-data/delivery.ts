/**
 * What the pages behind a lead's links show: the visitor's status page (/requests/{id}/{sig}),
 * a business's answer page (/respond/{token}) and the review invitation (/review/{token}).
 * Each loader checks the link (signing.ts), reads the lead, and returns the page's content as
 * plain data, or why the link cannot be used. The pages render it (src/pages/...).
 */
import { LEAD_STATUS_LABELS, LEAD_TYPE_SINGULAR } from "../../../src/lib/admin.ts";
import { formatMiles } from "../../../src/lib/geo/distance.ts";
import { DEFAULT_TIME_ZONE } from "../../../src/lib/hours.ts";
import { DECLINE_REASONS } from "../../../src/lib/lead-routing.ts";
import { summarizeLead } from "../../../src/lib/lead-summary.ts";
import type { Delivery, Lead } from "../../../src/lib/schemas/lead.ts";
import { SITE, telHref } from "../../../src/lib/site.ts";
import { declineLabel, jobRows } from "../messages/job.ts";
import { REVIEW_NOTICES, VERIFIED_BECAUSE, reviewQuestion } from "../messages/review.ts";
import { clockTime, dayTime } from "../messages/time.ts";
import { EMERGENCY_LINE, nextStep } from "../messages/visitor.ts";
import { invitedReviewId } from "../delivery/review-invite.ts";
import { signerFor } from "../delivery/signing.ts";
import { errorName } from "../http.ts";
import { getStore, type Store } from "../store/index.ts";

export { EMERGENCY_LINE, DECLINE_REASONS, REVIEW_NOTICES, VERIFIED_BECAUSE, reviewQuestion };

/** Why a link opens nothing: tampered with, expired, or its lead or offer is gone. */
export type LinkProblem = "invalid" | "expired" | "gone";

/** Each problem's heading, text and status. */
export const LINK_PROBLEMS: Record<LinkProblem, { title: string; text: string; status: number }> = {
  invalid: {
    title: "This link isn't valid",
    text: "Check that you opened the whole link from the message we sent you, or call us.",
    status: 404,
  },
  expired: {
    title: "This link has expired",
    text: "Answer links work for 7 days. If you still want this job, call us and we'll put you in touch.",
    status: 410,
  },
  gone: {
    title: "This request is no longer available",
    text: "It may have been withdrawn. Call us if you think this is a mistake.",
    status: 404,
  },
};

/** A page's load: its content, a link that opens nothing, or a store that did not answer (503). */
export type Loaded<T> =
  { ok: true; page: T } | { ok: false; problem: LinkProblem } | { ok: false; problem: "unavailable" };

/** The store outage's heading and text (503). */
export const UNAVAILABLE = {
  title: "Something went wrong",
  text: "We couldn't load this page right now. Please try again in a moment, or call us.",
  status: 503,
};

/** Runs a loader; a failing store is the "unavailable" outcome, logged by its class only. */
async function loading<T>(log: string, run: () => Promise<Loaded<T>>): Promise<Loaded<T>> {
  try {
    return await run();
  } catch (error) {
    console.error(`[delivery] ${log}: store unavailable (${errorName(error)})`);
    return { ok: false, problem: "unavailable" };
  }
}

/** A label-value row of a table. */
export type Row = [label: string, value: string];

/** Where an offer stands, as a badge. */
export type StateTone = "ok" | "wait" | "no";

export const STATE_BADGES: Record<Delivery["state"], { label: string; tone: StateTone }> = {
  accepted: { label: "Accepted", tone: "ok" },
  declined: { label: "Declined", tone: "no" },
  expired: { label: "No answer in time", tone: "no" },
  waiting: { label: "Waiting for an answer", tone: "wait" },
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

const terms = (d: Delivery) =>
  [d.window ? `When: ${d.window}` : "", d.price ? `Price: ${d.price}` : ""].filter(Boolean).join(" · ");

function holderOf(d: Delivery): Holder {
  const detail =
    d.state === "waiting"
      ? `Answer due by ${dayTime(d.deadlineAt)}`
      : d.state === "accepted"
        ? `Accepted ${dayTime(d.answeredAt!)}${terms(d) ? ` · ${terms(d)}` : ""}`
        : d.state === "declined"
          ? "Can't take this job"
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
        label:
          lead.status === "new"
            ? "Received"
            : lead.status === "contacted"
              ? "Contacted you"
              : LEAD_STATUS_LABELS[lead.status],
        tone: lead.status === "new" ? "wait" : "ok",
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
  | { kind: "closed"; deadline: string };

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
  customer: Row[];
  /** The customer's number, and the address its tap pings (the call is recorded). */
  call?: { href: string; phone: string; ping: string };
  /** The page's own path: its forms post there. */
  path: string;
}

const TOKEN = /^[A-Za-z0-9._-]{20,200}$/;

/** A business's answer page for /respond/{token}. */
export function loadAnswerPage(
  token: string,
  now = Date.now(),
  store: () => Store = getStore,
): Promise<Loaded<AnswerPage>> {
  return loading("answer page", async () => {
    if (!TOKEN.test(token)) return { ok: false, problem: "invalid" };
    const s = store();
    const grant = (await signerFor(s)).readAnswer(token, now);
    if (!grant.ok) return { ok: false, problem: grant.reason };
    const lead = await s.leads.get(grant.leadId);
    const delivery = lead?.routing?.deliveries.find((d) => d.businessId === grant.businessId);
    if (!lead || !delivery) return { ok: false, problem: "gone" };
    return { ok: true, page: answerPageOf(lead, delivery, `/respond/${token}`, now) };
  });
}

/** The answer page's content for one business's offer. */
export function answerPageOf(lead: Lead, delivery: Delivery, path: string, now: number): AnswerPage {
  const tz = delivery.timeZone ?? DEFAULT_TIME_ZONE;
  const s = summarizeLead(lead);
  const job = jobRows(lead);
  if (delivery.distanceMiles !== undefined)
    job.splice(2, 0, ["Distance", `${formatMiles(delivery.distanceMiles)} from you`]);
  const open = delivery.state === "waiting" && Date.parse(delivery.deadlineAt) > now;
  const state: AnswerState =
    delivery.state === "accepted"
      ? { kind: "accepted", at: dayTime(delivery.answeredAt!, tz), terms: terms(delivery) }
      : delivery.state === "declined"
        ? { kind: "declined", reason: declineLabel(delivery.reason) }
        : open
          ? { kind: "open", answerBy: clockTime(delivery.deadlineAt, tz) }
          : { kind: "closed", deadline: dayTime(delivery.deadlineAt, tz) };
  const photoKey = (lead.data as Record<string, unknown> | null)?.photoKey;
  return {
    heading: lead.urgency === "emergency" ? "Emergency job" : "Job request",
    reference: lead.reference ?? "",
    byline: `For ${delivery.name} · sent ${dayTime(delivery.offeredAt, tz)}`,
    state,
    job,
    photoPath: typeof photoKey === "string" ? `${path}/photo` : undefined,
    customer: [["Name", s.name], ...(s.email ? [["E-mail", s.email] as Row] : [])],
    call: s.phone ? { href: telHref(s.phone), phone: s.phone, ping: `${path}/call` } : undefined,
    path,
  };
}

export interface ReviewInvitePage {
  business: { name: string; slug: string };
  /** The page's own path: its form posts there. */
  path: string;
  /** The name the form starts with (the customer's, from the request). */
  name: string;
  /** Their verified review of this business is stored already. */
  reviewed: boolean;
}

/** The review invitation for /review/{token}: only for a job the business accepted. */
export function loadReviewInvite(
  token: string,
  now = Date.now(),
  store: () => Store = getStore,
): Promise<Loaded<ReviewInvitePage>> {
  return loading("review invite", async () => {
    if (!TOKEN.test(token)) return { ok: false, problem: "invalid" };
    const s = store();
    const grant = (await signerFor(s)).readReview(token, now);
    if (!grant.ok) return { ok: false, problem: grant.reason };
    const lead = await s.leads.get(grant.leadId);
    const delivery = lead?.routing?.deliveries.find((d) => d.businessId === grant.businessId);
    if (!lead || delivery?.state !== "accepted") return { ok: false, problem: "gone" };
    const reviewed = (await s.reviews.get(invitedReviewId(lead.id, delivery.businessId))) !== null;
    return {
      ok: true,
      page: {
        business: { name: delivery.name, slug: delivery.slug },
        path: `/review/${token}`,
        name: summarizeLead(lead).name,
        reviewed,
      },
    };
  });
}
