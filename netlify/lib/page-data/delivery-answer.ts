/** A business's answer page (/respond/{token}): the job offered to it, and where its answer stands. */
import { formatMiles } from "../../../src/lib/geo/distance.ts";
import { DEFAULT_TIME_ZONE } from "../../../src/lib/hours.ts";
import { DECLINE_REASONS } from "../../../src/lib/lead-routing.ts";
import { summarizeLead } from "../../../src/lib/lead-summary.ts";
import type { Delivery, Lead } from "../../../src/lib/schemas/lead.ts";
import { telHref } from "../../../src/lib/site.ts";
import { declineLabel, jobRows } from "../messages/job.ts";
import { clockTime, dayTime } from "../messages/time.ts";
import { signerFor } from "../delivery/signing.ts";
import { getStore, type Store } from "../store/index.ts";
import { LINK_TOKEN, loading, offerTerms, type Loaded, type Row } from "./delivery-link.ts";

export { DECLINE_REASONS };

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
      ? { kind: "accepted", at: dayTime(delivery.answeredAt!, tz), terms: offerTerms(delivery) }
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
