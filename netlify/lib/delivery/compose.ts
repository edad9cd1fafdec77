/**
 * Which messages a lead owes, worked out from the lead alone: its arrival (the operator's
 * alert, the visitor's receipt) and each routing event (offers, answers, hand-overs). The
 * notifier composes them every time it handles the lead and stores the new ones
 * (messages.ensure), so a crash between a change and its messages loses nothing and a
 * repeat sends nothing twice. A channel without a provider makes a "kept" message instead:
 * the admin's Messages view shows it, so a default install still shows the whole loop.
 */
import type { Lead, Delivery } from "../../../src/lib/schemas/lead.ts";
import type { Message, MessageAudience, MessageChannel } from "../../../src/lib/schemas/message.ts";
import { summarizeLead } from "../../../src/lib/lead-summary.ts";
import { adminLeadUrl, emailMessage, webhookMessage } from "../notify/message.ts";
import {
  answerUpdate,
  escalation,
  offer,
  operatorHasIt,
  passedOn,
  receipt,
  reviewInvite,
  type Written,
} from "./content.ts";
import { ANSWER_LINK_TTL_MS, type Signer } from "./signing.ts";
import { isHeld } from "./routing.ts";

/** Which providers are configured (notify/index.ts reads them from env). */
export interface ChannelSetup {
  /** Resend is configured (any e-mail can go). */
  email: boolean;
  /** The operator's addresses (NOTIFY_EMAIL_TO), used when `email`. */
  operatorEmails: readonly string[];
  /** A Slack-compatible webhook for the operator. */
  webhook: boolean;
  /** Twilio is configured. */
  sms: boolean;
}

export const KEPT_NOTES = {
  email: "Not sent: no e-mail provider configured (RESEND_API_KEY).",
  sms: "Not sent: no SMS provider configured (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM).",
  operator:
    "Not sent: no operator channel configured (NOTIFY_WEBHOOK_URL, or NOTIFY_EMAIL_TO with RESEND_API_KEY). Shown here only.",
} as const;

interface Draft {
  key: string;
  kind: string;
  audience: MessageAudience;
  channel: MessageChannel;
  to: string;
  toName?: string;
  written: Written;
  /** SMS text instead of the written text. */
  sms?: string;
  payload?: unknown;
  at: string;
  /** Send no sooner than this (ISO): the review invitation waits for the job to be done. */
  notBefore?: string;
}

/** The visitor is asked to review a pro this long after it accepted (the job should be done). */
export const REVIEW_INVITE_DELAY_MS = 3 * 24 * 60 * 60_000;
/** An invitation's link works this long after the acceptance. */
export const REVIEW_LINK_TTL_MS = 60 * 24 * 60 * 60_000;

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
    reviewUrl: (d: Delivery, acceptedAt: string) =>
      `${siteUrl}${signer.reviewPath(lead.id, d.businessId, Date.parse(acceptedAt) + REVIEW_LINK_TTL_MS)}`,
  };
}

export function composeMessages(lead: Lead, ctx: ComposeContext): Message[] {
  const { setup } = ctx;
  const links = linksFor(lead, ctx);
  const visitor = summarizeLead(lead);
  const drafts: Draft[] = [];

  const toOperator = (key: string, kind: string, written: Written, at: string, payload?: unknown) =>
    drafts.push(
      ...operatorDrafts(setup, {
        key,
        kind,
        written,
        at,
        payload: payload ?? { text: `${written.subject}\n${links.adminUrl}` },
      }),
    );
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

  toOperator("new", "new-lead", emailMessage(lead, ctx.siteUrl), lead.createdAt, webhookMessage(lead, ctx.siteUrl));
  toVisitor("receipt", "receipt", receipt(lead, links.statusUrl), lead.createdAt);

  const deliveries = new Map((lead.routing?.deliveries ?? []).map((d) => [d.businessId, d]));
  (lead.routing?.events ?? []).forEach((event, i) => {
    const key = `ev${i}`;
    const delivery = event.businessId ? deliveries.get(event.businessId) : undefined;
    switch (event.kind) {
      case "offered": {
        if (!delivery) return;
        const written = offer(lead, delivery, links.answerUrl(delivery));
        if (delivery.email) {
          drafts.push({
            key,
            kind: "offer",
            audience: "business",
            channel: "email",
            to: delivery.email,
            toName: delivery.name,
            written,
            at: event.at,
          });
        }
        if (delivery.phone) {
          drafts.push({
            key,
            kind: "offer",
            audience: "business",
            channel: "sms",
            to: delivery.phone,
            toName: delivery.name,
            written,
            sms: written.sms,
            at: event.at,
          });
        }
        if (!delivery.email && !delivery.phone) {
          toOperator(key, "unreachable", escalation(lead, "unreachable", links.adminUrl, delivery), event.at);
        }
        if (event.reason === "next-pro")
          toVisitor(`${key}-v`, "passed-on", passedOn(lead, delivery, links.statusUrl), event.at);
        return;
      }
      case "accepted":
        if (!delivery) return;
        toVisitor(key, event.kind, answerUpdate(lead, delivery, event.kind, links.statusUrl), event.at);
        // Later, an invitation to review that pro: the only way to a "Verified" review.
        toVisitor(
          `${key}-invite`,
          "review-invite",
          reviewInvite(lead, delivery, links.reviewUrl(delivery, event.at)),
          event.at,
          new Date(Date.parse(event.at) + REVIEW_INVITE_DELAY_MS).toISOString(),
        );
        return;
      case "declined":
      case "called":
        if (delivery) toVisitor(key, event.kind, answerUpdate(lead, delivery, event.kind, links.statusUrl), event.at);
        return;
      case "escalated":
        toOperator(key, "escalated", escalation(lead, event.reason ?? "no-answer", links.adminUrl), event.at);
        // A request no pro matched already told the visitor so on its receipt.
        if (event.reason !== "no-pros" && event.reason !== "too-fast")
          toVisitor(`${key}-v`, "operator-has-it", operatorHasIt(lead, links.statusUrl), event.at);
        return;
      case "expired":
        return;
    }
  });

  return drafts.map((d) => toMessage(lead, d, setup));
}

/** An operator message on every operator channel configured, or kept for /admin when there is none. */
function operatorDrafts(
  setup: ChannelSetup,
  d: Pick<Draft, "key" | "kind" | "written" | "at"> & { payload: unknown },
): Draft[] {
  const byEmail = setup.email && setup.operatorEmails.length > 0;
  const base = { key: d.key, kind: d.kind, audience: "operator" as const, written: d.written, at: d.at };
  if (!setup.webhook && !byEmail) return [{ ...base, channel: "admin", to: "operator" }];
  return [
    ...(setup.webhook ? [{ ...base, channel: "webhook" as const, to: "webhook", payload: d.payload }] : []),
    ...(byEmail ? [{ ...base, channel: "email" as const, to: setup.operatorEmails.join(", ") }] : []),
  ];
}

/**
 * The operator's message when an offer could not be delivered at all (every channel refused
 * it for good): made by the notifier after its sends, keyed to the offer's event.
 */
export function undeliverableMessages(lead: Lead, offerKey: string, ctx: ComposeContext): Message[] {
  const links = linksFor(lead, ctx);
  const businessId = lead.routing?.events[Number(offerKey.slice(2))]?.businessId;
  const delivery = lead.routing?.deliveries.find((d) => d.businessId === businessId);
  const written = escalation(lead, "undeliverable", links.adminUrl, delivery);
  return operatorDrafts(ctx.setup, {
    key: `${offerKey}-undeliverable`,
    kind: "undeliverable",
    written,
    at: new Date().toISOString(),
    payload: { text: `${written.subject}\n${links.adminUrl}` },
  }).map((d) => toMessage(lead, d, ctx.setup));
}

function toMessage(lead: Lead, d: Draft, setup: ChannelSetup): Message {
  const provider = d.channel === "email" ? setup.email : d.channel === "sms" ? setup.sms : d.channel === "webhook";
  const note =
    d.channel === "admin"
      ? KEPT_NOTES.operator
      : !provider
        ? d.channel === "sms"
          ? KEPT_NOTES.sms
          : KEPT_NOTES.email
        : undefined;
  return {
    id: `${lead.id}~${d.key}~${d.channel}`,
    leadId: lead.id,
    ...(lead.reference ? { reference: lead.reference } : {}),
    kind: d.kind,
    audience: d.audience,
    channel: d.channel,
    to: d.to,
    ...(d.toName ? { toName: d.toName } : {}),
    subject: d.written.subject,
    text: d.sms ?? d.written.text,
    ...(d.channel === "email" || d.channel === "admin" ? { html: d.written.html } : {}),
    ...(d.payload !== undefined ? { payload: JSON.stringify(d.payload) } : {}),
    state: note ? "kept" : "queued",
    ...(note ? { note } : {}),
    ...(!note && d.notBefore ? { nextAttemptAt: d.notBefore } : {}),
    createdAt: d.at,
    attempts: 0,
  };
}
