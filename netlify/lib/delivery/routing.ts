/**
 * What happens to a lead after it arrives, as pure functions over its routing state
 * (schemas/lead.ts Routing): who it is offered to, each business's answer, and the clock
 * moving it on. The store applies them with compare-and-set (leads.mutate), so two answers
 * or two clock runs at once never lose a change, and each returns null when nothing changes
 * (answering twice is a no-op).
 *
 *   offered -> accepted | declined | expired (deadline passed) | undelivered (no channel took it)
 *   accepted -> withdrawn (given back with a reason: the lead moves on as after a decline)
 *   nothing accepted and nothing waiting -> the next pro (find-pros and quotes, EXTRA_PROS of
 *   them), then the operator (escalated)
 *   the operator offers it to businesses by hand -> the same offers and clock; nobody
 *   accepting -> back to the operator
 */
import { DEFAULT_TIME_ZONE } from "../../../src/lib/hours.ts";
import type { UrgencyLevel } from "../../../src/lib/lead-urgency.ts";
import type { Delivery, Lead, LeadType, Routing, RoutingEvent } from "../../../src/lib/schemas/lead.ts";
import {
  NO_MATCH_REASONS,
  type DeclineReason,
  type NoMatchReason,
  type ReportReason,
  type WithdrawReason,
} from "../../../src/lib/lead-routing.ts";
import type { OfferSummary } from "../../../src/lib/received.ts";
import { ANSWER_WINDOW_MINUTES, COUNTS_NIGHT, EXTRA_PROS, answerDeadline } from "./clock.ts";

/** A business the lead can be offered to (from the directory). */
export interface Candidate {
  businessId: string;
  name: string;
  slug: string;
  email?: string;
  phone?: string;
  timeZone?: string;
  distanceMiles?: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A directory business as a candidate: what delivery needs of it, optional parts left out when absent. */
export function candidateOf(
  b: { id: string; name: string; slug: string; email?: string; phone?: string; timeZone?: string },
  distanceMiles?: number,
): Candidate {
  return {
    businessId: b.id,
    name: b.name,
    slug: b.slug,
    ...(b.email ? { email: b.email } : {}),
    ...(b.phone ? { phone: b.phone } : {}),
    ...(b.timeZone ? { timeZone: b.timeZone } : {}),
    ...(distanceMiles !== undefined ? { distanceMiles } : {}),
  };
}

function offer(candidate: Candidate, urgency: UrgencyLevel, now: number): Delivery {
  const tz = candidate.timeZone ?? DEFAULT_TIME_ZONE;
  return {
    ...candidateOf({ ...candidate, id: candidate.businessId }, candidate.distanceMiles),
    offeredAt: iso(now),
    deadlineAt: iso(answerDeadline(urgency, now, tz)),
    state: "waiting",
  };
}

/**
 * A new lead's routing: offered to each candidate at once (nearest first). A lead that
 * should go to businesses but has none goes to the operator at once, saying why (`reason`:
 * no listed pro matched, or the job's place is not one we know).
 */
export function initialRouting(
  candidates: readonly Candidate[],
  urgency: UrgencyLevel,
  now: number,
  reason: NoMatchReason = "no-pros",
): Routing {
  if (candidates.length === 0) {
    return { deliveries: [], events: [{ at: iso(now), kind: "escalated", reason }], escalatedAt: iso(now) };
  }
  return {
    deliveries: candidates.map((c) => offer(c, urgency, now)),
    events: candidates.map((c) => ({ at: iso(now), kind: "offered" as const, businessId: c.businessId })),
  };
}

export {
  DECLINE_REASONS,
  WITHDRAW_REASONS,
  type DeclineReason,
  type WithdrawReason,
} from "../../../src/lib/lead-routing.ts";

export type Answer =
  { kind: "accept"; window?: string; price?: string } | { kind: "decline"; reason: DeclineReason } | { kind: "call" };

/** What an answer did: applied, already given (the same or another answer), or too late. */
export type AnswerOutcome = "applied" | "repeated" | "closed";

/**
 * One business's answer. The first accept or decline is final (a second tap, or the other
 * button afterwards, changes nothing); "call" records the contact, and only a business that
 * accepted has the number to call. An expired or withdrawn offer takes no answer.
 */
export function applyAnswer(
  lead: Lead,
  businessId: string,
  answer: Answer,
  now: number,
): { lead: Lead | null; outcome: AnswerOutcome } {
  const routing = lead.routing;
  const index = routing?.deliveries.findIndex((d) => d.businessId === businessId) ?? -1;
  if (!routing || index < 0) return { lead: null, outcome: "closed" };
  const delivery = routing.deliveries[index]!;
  const at = iso(now);
  let next: Delivery;
  let event: RoutingEvent;
  if (answer.kind === "call") {
    // The customer's number comes with the acceptance: a business that has not accepted (or
    // no longer has the job) has no call to record.
    if (delivery.state !== "accepted") return { lead: null, outcome: "closed" };
    if (delivery.calledAt) return { lead: null, outcome: "repeated" };
    next = { ...delivery, calledAt: at, answeredAt: delivery.answeredAt ?? at };
    event = { at, kind: "called", businessId };
  } else {
    if (delivery.state === "accepted" || delivery.state === "declined") return { lead: null, outcome: "repeated" };
    if (delivery.state === "expired" || delivery.state === "withdrawn") return { lead: null, outcome: "closed" };
    next =
      answer.kind === "accept"
        ? {
            ...delivery,
            state: "accepted",
            answeredAt: delivery.answeredAt ?? at,
            ...(answer.window ? { window: answer.window } : {}),
            ...(answer.price ? { price: answer.price } : {}),
          }
        : { ...delivery, state: "declined", answeredAt: delivery.answeredAt ?? at, reason: answer.reason };
    event = { at, kind: answer.kind === "accept" ? "accepted" : "declined", businessId };
  }
  const deliveries = routing.deliveries.map((d, i) => (i === index ? next : d));
  return {
    lead: { ...lead, routing: { ...routing, deliveries, events: [...routing.events, event] } },
    outcome: "applied",
  };
}

/**
 * A lead sent faster than a person types (leads.ts MIN_FILL_MS): the operator's from the start,
 * to check by hand; nothing goes to businesses or to the address it gives (isHeld).
 */
export function heldRouting(now: number): Routing {
  return { deliveries: [], events: [{ at: iso(now), kind: "escalated", reason: "too-fast" }], escalatedAt: iso(now) };
}

/**
 * Held for the operator: no e-mail goes to the address the lead gives, until the operator,
 * having checked it, offers it to businesses by hand (then the visitor hears as any other).
 */
export const isHeld = (lead: Pick<Lead, "routing">) =>
  lead.routing?.events[0]?.reason === "too-fast" &&
  !lead.routing.events.some((e) => e.kind === "offered" && e.reason === "operator");

/** Someone has it: an accepted offer, or the operator. */
export const isSettled = (routing: Routing) =>
  routing.escalatedAt !== undefined || routing.deliveries.some((d) => d.state === "accepted");

/** The leads the clock passes to a next pro before the operator: a booking is for its one business. */
const NEXT_PRO_TYPES: ReadonlySet<LeadType> = new Set(["find-pros", "quote"]);

/** Pros the clock has added after the first offers. */
const extraPros = (routing: Routing) =>
  routing.events.filter((e) => e.kind === "offered" && e.reason === "next-pro").length;

/** Offered by the operator: nobody accepting hands it back to the operator, not to another pro. */
const operatorRouted = (routing: Routing) =>
  routing.events.some((e) => e.kind === "offered" && e.reason === "operator");

/** Whether the lead may go to one more pro when nobody has it. */
const mayTakeNextPro = (lead: Lead, routing: Routing) =>
  NEXT_PRO_TYPES.has(lead.type) && !operatorRouted(routing) && extraPros(routing) < EXTRA_PROS;

/**
 * What the clock wants next for this lead at `now`: nothing, or a next pro looked up by the
 * caller (it needs the directory), or a decision it can make alone.
 */
export function needsNextPro(lead: Lead, now: number): boolean {
  const routing = lead.routing;
  if (!routing || isSettled(routing)) return false;
  const waiting = routing.deliveries.some((d) => d.state === "waiting" && Date.parse(d.deadlineAt) > now);
  return !waiting && mayTakeNextPro(lead, routing);
}

/** Why nobody has the lead: every pro declined, none could be reached, or no answer in time. */
function escalationReason(deliveries: readonly Delivery[]): string {
  if (deliveries.some((d) => d.state === "withdrawn")) return "withdrawn";
  if (deliveries.length > 0 && deliveries.every((d) => d.state === "declined")) return "all-declined";
  if (deliveries.length > 0 && deliveries.every((d) => d.state === "undelivered")) return "none-reached";
  return "no-answer";
}

/**
 * The clock's step at `now`: expires offers past their deadline; when nothing is accepted
 * and nothing waits, offers the lead to `nextPro` (if given and allowed) or passes it to the
 * operator. Null when nothing changes.
 */
export function advance(lead: Lead, now: number, nextPro?: Candidate | null): Lead | null {
  const routing = lead.routing;
  if (!routing || routing.escalatedAt) return null;
  const at = iso(now);
  const events: RoutingEvent[] = [...routing.events];
  let changed = false;
  let deliveries = routing.deliveries.map((d) => {
    if (d.state !== "waiting" || Date.parse(d.deadlineAt) > now) return d;
    changed = true;
    events.push({ at, kind: "expired", businessId: d.businessId });
    return { ...d, state: "expired" as const };
  });
  const accepted = deliveries.some((d) => d.state === "accepted");
  const waiting = deliveries.some((d) => d.state === "waiting");
  let escalatedAt: string | undefined;
  if (!accepted && !waiting) {
    const fresh = nextPro && !deliveries.some((d) => d.businessId === nextPro.businessId) ? nextPro : null;
    if (fresh && mayTakeNextPro(lead, routing)) {
      deliveries = [...deliveries, offer(fresh, lead.urgency ?? "routine", now)];
      events.push({ at, kind: "offered", businessId: fresh.businessId, reason: "next-pro" });
    } else {
      escalatedAt = at;
      events.push({ at, kind: "escalated", reason: escalationReason(deliveries) });
    }
    changed = true;
  }
  if (!changed) return null;
  return { ...lead, routing: { ...routing, deliveries, events, ...(escalatedAt ? { escalatedAt } : {}) } };
}

/**
 * A business gives back a job it accepted, with a reason. Its first answer stays as it was
 * (`answeredAt`, so its response time does not move); the lead then moves on as after a
 * decline (advance). Only an accepted offer can be withdrawn; a second withdrawal is a repeat.
 */
export function applyWithdraw(
  lead: Lead,
  businessId: string,
  reason: WithdrawReason,
  now: number,
): { lead: Lead | null; outcome: AnswerOutcome } {
  const routing = lead.routing;
  const delivery = routing?.deliveries.find((d) => d.businessId === businessId);
  if (!routing || !delivery) return { lead: null, outcome: "closed" };
  if (delivery.state === "withdrawn") return { lead: null, outcome: "repeated" };
  if (delivery.state !== "accepted") return { lead: null, outcome: "closed" };
  const at = iso(now);
  const deliveries = routing.deliveries.map((d) =>
    d === delivery ? { ...d, state: "withdrawn" as const, withdrawnAt: at, reason } : d,
  );
  const event: RoutingEvent = { at, kind: "withdrawn", businessId, reason };
  return {
    lead: { ...lead, routing: { ...routing, deliveries, events: [...routing.events, event] } },
    outcome: "applied",
  };
}

/**
 * A business reports the lead as a bad lead (wrong area, not its kind of job, bad contact
 * details, duplicate, spam). Its offer stops there: one still waiting reads as declined, an
 * accepted job as given back, each with the report's reason; the report is the `reported`
 * event, which goes to the operator. When nobody else holds the lead or may still answer, the
 * operator takes it (escalated, "reported"), never a next pro: a reported lead is checked by a
 * person first. Once per business; any offer of the lead can be reported, whatever its state.
 */
export function applyReport(
  lead: Lead,
  businessId: string,
  reason: ReportReason,
  now: number,
): { lead: Lead | null; outcome: AnswerOutcome } {
  const routing = lead.routing;
  const delivery = routing?.deliveries.find((d) => d.businessId === businessId);
  if (!routing || !delivery) return { lead: null, outcome: "closed" };
  if (delivery.reportedAt) return { lead: null, outcome: "repeated" };
  const at = iso(now);
  const stopped: Partial<Delivery> =
    delivery.state === "waiting"
      ? { state: "declined", reason }
      : delivery.state === "accepted"
        ? { state: "withdrawn", withdrawnAt: at, reason }
        : {};
  const deliveries = routing.deliveries.map((d) =>
    d === delivery ? { ...d, ...stopped, report: reason, reportedAt: at } : d,
  );
  const events: RoutingEvent[] = [...routing.events, { at, kind: "reported", businessId, reason }];
  const someoneHasIt = deliveries.some((d) => d.state === "accepted" || d.state === "waiting");
  const escalate = !routing.escalatedAt && !someoneHasIt;
  if (escalate) events.push({ at, kind: "escalated", reason: "reported" });
  return {
    lead: { ...lead, routing: { ...routing, deliveries, events, ...(escalate ? { escalatedAt: at } : {}) } },
    outcome: "applied",
  };
}

/** When the homeowner said a business's job is done (ISO), if they did. */
export const completedAt = (lead: Pick<Lead, "routing">, businessId: string): string | undefined =>
  lead.routing?.events.find((e) => e.kind === "completed" && e.businessId === businessId)?.at;

/**
 * The homeowner marks the job a business accepted as done: its review invitation may go at
 * once (compose.ts). Once per business; a job nobody accepted (or one given back) cannot be done.
 */
export function applyComplete(
  lead: Lead,
  businessId: string,
  now: number,
): { lead: Lead | null; outcome: AnswerOutcome } {
  const routing = lead.routing;
  const delivery = routing?.deliveries.find((d) => d.businessId === businessId);
  if (!routing || delivery?.state !== "accepted") return { lead: null, outcome: "closed" };
  if (completedAt(lead, businessId)) return { lead: null, outcome: "repeated" };
  const event: RoutingEvent = { at: iso(now), kind: "completed", businessId };
  return { lead: { ...lead, routing: { ...routing, events: [...routing.events, event] } }, outcome: "applied" };
}

/**
 * Offers no channel could take to their business (the notifier found every message of the
 * offer refused or only kept: docs/lead-delivery.md, "Undelivered"): each waiting one becomes
 * `undelivered`, with its event. Moving the lead on is the clock's step (`advance`), run
 * right after. Null when none of them is waiting any more.
 */
export function markUndelivered(lead: Lead, businessIds: readonly string[], now: number): Lead | null {
  const routing = lead.routing;
  if (!routing) return null;
  const at = iso(now);
  const ids = new Set(businessIds);
  const events: RoutingEvent[] = [...routing.events];
  const deliveries = routing.deliveries.map((d) => {
    if (d.state !== "waiting" || !ids.has(d.businessId)) return d;
    events.push({ at, kind: "undelivered", businessId: d.businessId });
    return { ...d, state: "undelivered" as const };
  });
  if (events.length === routing.events.length) return null;
  return { ...lead, routing: { ...routing, deliveries, events } };
}

/**
 * The operator offers the lead to businesses by hand: the same offer, answer link and clock
 * as any other (event reason "operator"), nearest first as given. A lead the operator had
 * (escalated) is reopened; when nobody accepts it comes back to the operator. Businesses
 * already offered it are skipped; null when none is left.
 */
export function operatorOffer(lead: Lead, candidates: readonly Candidate[], now: number): Lead | null {
  const routing: Routing = lead.routing ?? { deliveries: [], events: [] };
  const offered = new Set(routing.deliveries.map((d) => d.businessId));
  const fresh: Candidate[] = [];
  for (const c of candidates) {
    if (offered.has(c.businessId)) continue;
    offered.add(c.businessId);
    fresh.push(c);
  }
  if (fresh.length === 0) return null;
  const at = iso(now);
  const { escalatedAt: _reopened, ...open } = routing;
  return {
    ...lead,
    routing: {
      ...open,
      deliveries: [...routing.deliveries, ...fresh.map((c) => offer(c, lead.urgency ?? "routine", now))],
      events: [
        ...routing.events,
        ...fresh.map((c) => ({ at, kind: "offered" as const, businessId: c.businessId, reason: "operator" })),
      ],
    },
  };
}

/**
 * What happened to a request, for the visitor's confirmation (JSON reply and the no-JS page
 * alike): how many businesses have it (undelivered offers not counted), near where, the
 * answer window and the earliest deadline, the job's time zone, and why the operator has it
 * when nobody was offered it.
 */
export function offerSummary(
  lead: Pick<Lead, "routing" | "urgency" | "timeZone" | "place">,
  /** No provider here carries offers to businesses: they are only kept for the team. */
  { kept = false }: { kept?: boolean } = {},
): OfferSummary {
  const urgency = lead.urgency ?? "routine";
  const deliveries = (lead.routing?.deliveries ?? []).filter((d) => d.state !== "undelivered");
  const waiting = deliveries.filter((d) => d.state === "waiting").map((d) => Date.parse(d.deadlineAt));
  const first = lead.routing?.events[0];
  const toOperator = NO_MATCH_REASONS.find((r) => first?.kind === "escalated" && first.reason === r);
  return {
    offered: deliveries.length,
    near: lead.place ? (lead.place.zip ?? lead.place.label) : null,
    aroundTheClock: COUNTS_NIGHT[urgency],
    ...(deliveries.length > 0 ? { answerMinutes: ANSWER_WINDOW_MINUTES[urgency] } : {}),
    ...(waiting.length > 0 ? { answerBy: iso(Math.min(...waiting)) } : {}),
    timeZone: lead.timeZone ?? DEFAULT_TIME_ZONE,
    ...(toOperator ? { toOperator } : {}),
    ...(kept && deliveries.length > 0 ? { kept: true } : {}),
    ...(isHeld(lead) ? { held: true } : {}),
  };
}
