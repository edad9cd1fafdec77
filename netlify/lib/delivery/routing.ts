/**
 * What happens to a lead after it arrives, as pure functions over its routing state
 * (schemas/lead.ts Routing): who it is offered to, each business's answer, and the clock
 * moving it on. The store applies them with compare-and-set (leads.mutate), so two answers
 * or two clock runs at once never lose a change, and each returns null when nothing changes
 * (answering twice is a no-op).
 *
 *   offered -> accepted | declined | expired (deadline passed)
 *   accepted -> withdrawn (given back with a reason: the lead moves on as after a decline)
 *   nothing accepted and nothing waiting -> the next pro (find-pros, EXTRA_PROS of them),
 *   then the operator (escalated)
 */
import { DEFAULT_TIME_ZONE } from "../../../src/lib/hours.ts";
import type { UrgencyLevel } from "../../../src/lib/lead-urgency.ts";
import type { Delivery, Lead, Routing, RoutingEvent } from "../../../src/lib/schemas/lead.ts";
import type { DeclineReason, WithdrawReason } from "../../../src/lib/lead-routing.ts";
import { EXTRA_PROS, answerDeadline } from "./clock.ts";

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
 * should go to businesses but has none (no match) goes to the operator at once.
 */
export function initialRouting(candidates: readonly Candidate[], urgency: UrgencyLevel, now: number): Routing {
  if (candidates.length === 0) {
    return { deliveries: [], events: [{ at: iso(now), kind: "escalated", reason: "no-pros" }], escalatedAt: iso(now) };
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

/** Held for the operator: no e-mail goes to the address the lead gives. */
export const isHeld = (lead: Pick<Lead, "routing">) => lead.routing?.events[0]?.reason === "too-fast";

/** Someone has it: an accepted offer, or the operator. */
export const isSettled = (routing: Routing) =>
  routing.escalatedAt !== undefined || routing.deliveries.some((d) => d.state === "accepted");

/** Pros the clock has added after the first offers. */
const extraPros = (routing: Routing) =>
  routing.events.filter((e) => e.kind === "offered" && e.reason === "next-pro").length;

/**
 * What the clock wants next for this lead at `now`: nothing, or a next pro looked up by the
 * caller (it needs the directory), or a decision it can make alone.
 */
export function needsNextPro(lead: Lead, now: number): boolean {
  const routing = lead.routing;
  if (!routing || isSettled(routing)) return false;
  const waiting = routing.deliveries.some((d) => d.state === "waiting" && Date.parse(d.deadlineAt) > now);
  return !waiting && lead.type === "find-pros" && extraPros(routing) < EXTRA_PROS;
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
    if (fresh && lead.type === "find-pros" && extraPros(routing) < EXTRA_PROS) {
      deliveries = [...deliveries, offer(fresh, lead.urgency ?? "routine", now)];
      events.push({ at, kind: "offered", businessId: fresh.businessId, reason: "next-pro" });
    } else {
      const allDeclined = deliveries.length > 0 && deliveries.every((d) => d.state === "declined");
      const withdrew = deliveries.some((d) => d.state === "withdrawn");
      escalatedAt = at;
      events.push({
        at,
        kind: "escalated",
        reason: withdrew ? "withdrawn" : allDeclined ? "all-declined" : "no-answer",
      });
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
