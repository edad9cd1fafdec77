/**
 * Which messages a lead owes, worked out from the lead alone: its arrival (the operator's
 * alert, the visitor's receipt) and each routing event (offers, answers, hand-overs). The
 * notifier composes them every time it handles the lead and stores the new ones
 * (messages.ensure), so a crash between a change and its messages loses nothing and a
 * repeat sends nothing twice. What each one says is in ../messages; the lead is summarized
 * once per composition and that summary is handed to every message.
 */
import { NO_MATCH_REASONS } from "../../../src/lib/lead-routing.ts";
import type { Lead, Delivery } from "../../../src/lib/schemas/lead.ts";
import { isPending, type Message } from "../../../src/lib/schemas/message.ts";
import { offer } from "../messages/job.ts";
import { adminLeadUrl, escalation, newLeadAlert } from "../messages/operator.ts";
import { leadFacts, type LeadFacts, type Written } from "../messages/parts.ts";
import { reviewInvite } from "../messages/review.ts";
import { answerUpdate, operatorHasIt, passedOn, receipt, withdrawnUpdate } from "../messages/visitor.ts";
import { operatorDrafts, toMessage, type ChannelSetup, type Draft } from "../notify/drafts.ts";
import { ANSWER_LINK_TTL_MS, type Signer } from "./signing.ts";
import { isHeld } from "./routing.ts";
import { REVIEW_INVITE_DELAY_MS, acceptedAt, reviewTime } from "./review-time.ts";

export { REVIEW_INVITE_DELAY_MS };
/** An invitation's link works this long after its time came (the job's day over, or done). */
export const REVIEW_LINK_TTL_MS = 60 * 24 * 60 * 60_000;
/** Why a waiting invitation was never sent: the business gave the job back first. */
export const INVITE_WITHDRAWN_NOTE = "Not sent: the business gave the job back before its time came.";

export interface ComposeContext {
  setup: ChannelSetup;
  signer: Signer;
  siteUrl: string;
}

/** Absolute links for a lead's messages. */
export function linksFor(lead: Lead, { signer, siteUrl }: Pick<ComposeContext, "signer" | "siteUrl">) {
  return {
    statusUrl: `${siteUrl}${signer.statusPath(lead.id)}`,
    answerUrl: (d: Delivery) =>
      `${siteUrl}${signer.answerPath(lead.id, d.businessId, Date.parse(d.offeredAt) + ANSWER_LINK_TTL_MS)}`,
    adminUrl: adminLeadUrl(siteUrl, lead.id),
    reviewUrl: (d: Delivery, dueAt: number) =>
      `${siteUrl}${signer.reviewPath(lead.id, d.businessId, dueAt + REVIEW_LINK_TTL_MS)}`,
  };
}

const about = (lead: Lead) => ({ id: lead.id, ...(lead.reference ? { reference: lead.reference } : {}) });

export function composeMessages(lead: Lead, ctx: ComposeContext): Message[] {
  const { setup } = ctx;
  const links = linksFor(lead, ctx);
  const facts = leadFacts(lead);
  const visitor = facts.summary;
  const drafts: Draft[] = [];
  /** Review invitations for jobs given back: composed (their keys stay theirs), never sent. */
  const withdrawnInvites = new Set<string>();

  const toOperator = (key: string, kind: string, written: Written, at: string) =>
    drafts.push(...operatorDrafts(setup, { key, kind, written, at }));
  const held = isHeld(lead);
  const toVisitor = (key: string, kind: string, written: Written, at: string, notBefore?: string) => {
    if (held) return;
    // Every lead form asks for an e-mail; an old lead without one gets its updates on the status page only.
    if (visitor.email)
      drafts.push({
        key,
        kind,
        audience: "visitor",
        channel: "email",
        to: visitor.email,
        toName: visitor.name,
        written,
        at,
        ...(notBefore ? { notBefore } : {}),
      });
  };

  toOperator("new", "new-lead", newLeadAlert(facts, links.adminUrl), lead.createdAt);
  toVisitor("receipt", "receipt", receipt(facts, links.statusUrl), lead.createdAt);

  const deliveries = new Map((lead.routing?.deliveries ?? []).map((d) => [d.businessId, d]));
  (lead.routing?.events ?? []).forEach((event, i) => {
    const key = `ev${i}`;
    const delivery = event.businessId ? deliveries.get(event.businessId) : undefined;
    switch (event.kind) {
      case "offered":
        if (!delivery) return;
        drafts.push(...offerDrafts(facts, delivery, key, event.at, links.answerUrl(delivery)));
        if (!delivery.email && !delivery.phone)
          toOperator(key, "unreachable", escalation(facts, "unreachable", links.adminUrl, delivery), event.at);
        if (event.reason === "next-pro")
          toVisitor(`${key}-v`, "passed-on", passedOn(facts, delivery, links.statusUrl), event.at);
        return;
      case "accepted": {
        if (!delivery) return;
        toVisitor(key, event.kind, answerUpdate(facts, delivery, event.kind, links.statusUrl), event.at);
        // Once the job should be done, an invitation to review that pro: the only way to a
        // "Verified" review (review-time.ts). A job the pro gave back gets none: its
        // invitation is kept unsent, and one already waiting is stopped (rescheduled).
        const due = reviewTime(lead, delivery);
        const at = due?.at ?? acceptedAt(lead, delivery) + REVIEW_INVITE_DELAY_MS;
        if (!due) withdrawnInvites.add(`${key}-invite`);
        toVisitor(
          `${key}-invite`,
          "review-invite",
          reviewInvite(facts, delivery, links.reviewUrl(delivery, at)),
          event.at,
          new Date(at).toISOString(),
        );
        return;
      }
      case "withdrawn":
        if (delivery) toVisitor(key, event.kind, withdrawnUpdate(facts, delivery, links.statusUrl), event.at);
        return;
      case "completed":
        // Brings the review invitation forward (the accepted event's); nothing else to say.
        return;
      case "declined":
      case "called":
        if (delivery) toVisitor(key, event.kind, answerUpdate(facts, delivery, event.kind, links.statusUrl), event.at);
        return;
      case "undelivered":
        // A business with no contact at all was already handed over when it was offered.
        if (delivery && (delivery.email || delivery.phone)) {
          const reason = channelFor(delivery, setup) ? "undeliverable" : "no-channel";
          toOperator(key, "undeliverable", escalation(facts, reason, links.adminUrl, delivery), event.at);
        }
        return;
      case "escalated":
        toOperator(key, "escalated", escalation(facts, event.reason ?? "no-answer", links.adminUrl), event.at);
        // A request nobody was offered already told the visitor so on its receipt.
        if (!NO_MATCH_REASONS.some((r) => r === event.reason) && event.reason !== "too-fast")
          toVisitor(`${key}-v`, "operator-has-it", operatorHasIt(facts, links.statusUrl), event.at);
        return;
      case "reported":
        // A bad lead, in the business's words: the operator checks it (the visitor hears only
        // when the operator takes the lead: the escalation that may follow).
        if (delivery)
          toOperator(
            key,
            "reported",
            escalation(facts, event.reason ?? "reported", links.adminUrl, delivery),
            event.at,
          );
        return;
      case "expired":
        return;
    }
  });

  return drafts.map((d) => {
    const message = toMessage(about(lead), d, setup);
    if (!withdrawnInvites.has(d.key)) return message;
    const { nextAttemptAt: _never, ...rest } = message;
    return { ...rest, state: "kept" as const, note: INVITE_WITHDRAWN_NOTE };
  });
}

/** An offer goes to a business by e-mail and by text, whichever it has. */
function offerDrafts(facts: LeadFacts, delivery: Delivery, key: string, at: string, answerUrl: string): Draft[] {
  const written = offer(facts, delivery, answerUrl);
  const base = { key, kind: "offer", audience: "business" as const, toName: delivery.name, written, at };
  return [
    ...(delivery.email ? [{ ...base, channel: "email" as const, to: delivery.email }] : []),
    ...(delivery.phone ? [{ ...base, channel: "sms" as const, to: delivery.phone }] : []),
  ];
}

/**
 * Stored messages still waiting for their time (a review invitation) that the lead now times
 * otherwise: brought forward to the time composed now (the homeowner marked the job done), or
 * never sent once composed as withdrawn (the pro gave the job back). The notifier stores these
 * before it sends; a message that went, or was tried, is history and stays as it is.
 */
export function rescheduled(stored: readonly Message[], composed: readonly Message[]): Message[] {
  const owed = new Map(composed.map((m) => [m.id, m]));
  return stored.flatMap((m): Message[] => {
    const now = owed.get(m.id);
    if (m.kind !== "review-invite" || !now || !isPending(m) || m.attempts > 0) return [];
    if (!isPending(now)) {
      const { nextAttemptAt: _waited, ...rest } = m;
      return [{ ...rest, state: now.state, ...(now.note ? { note: now.note } : {}) }];
    }
    return now.nextAttemptAt !== m.nextAttemptAt ? [{ ...m, nextAttemptAt: now.nextAttemptAt }] : [];
  });
}

/**
 * Whether a configured channel reaches the business at all (its e-mail with e-mail set up and
 * a real sender, its phone with SMS).
 */
export const channelFor = (delivery: Pick<Delivery, "email" | "phone">, setup: ChannelSetup) =>
  (delivery.email !== undefined && setup.emailReady) || (delivery.phone !== undefined && setup.sms);
