/**
 * How /admin names a lead's messages and its delivery to businesses: states, audiences,
 * channels, routing events and reasons, and the line saying which providers send. Browser-safe.
 * The reasons come from lead-routing.ts, as the answer page and the e-mails read them.
 */
import type { AdminChannels } from "./admin.ts";
import { DECLINE_REASONS, REPORT_REASONS, ROUTING_REASON_LABELS } from "./lead-routing.ts";
import type { DeliveryState, RoutingEvent } from "./schemas/lead.ts";
import type { MessageAudience, MessageChannel, MessageState } from "./schemas/message.ts";

export const MESSAGE_STATE_LABELS: Record<MessageState, string> = {
  sent: "Sent",
  kept: "Kept (not sent)",
  retrying: "Retrying",
  failed: "Failed",
  queued: "Queued",
};

export const MESSAGE_AUDIENCE_LABELS: Record<MessageAudience, string> = {
  visitor: "Visitor",
  business: "Business",
  operator: "Operator",
};

export const MESSAGE_CHANNEL_LABELS: Record<MessageChannel, string> = {
  email: "E-mail",
  sms: "SMS",
  webhook: "Webhook",
  admin: "Admin only",
};

/** Message kinds (worded in netlify/lib/messages); an unknown kind shows as it is. */
export const MESSAGE_KIND_LABELS: Record<string, string> = {
  "new-lead": "New lead alert",
  receipt: "Receipt",
  offer: "Offer",
  accepted: "Accepted",
  declined: "Declined",
  called: "Called",
  "passed-on": "Passed to the next pro",
  escalated: "Needs the operator",
  "operator-has-it": "Operator has it",
  unreachable: "Business unreachable",
  undeliverable: "Offer undeliverable",
  "review-invite": "Review invitation",
  "owner-sign-in": "Owner sign-in link",
  "owner-code": "Owner sign-in code",
  "claim-approved": "Claim approved",
  "claim-refused": "Claim refused",
};

export const DELIVERY_STATE_LABELS: Record<DeliveryState, string> = {
  waiting: "Waiting for an answer",
  accepted: "Accepted",
  declined: "Declined",
  expired: "No answer in time",
  undelivered: "Offer not delivered",
  withdrawn: "Withdrew after accepting",
};

export const ROUTING_EVENT_LABELS: Record<RoutingEvent["kind"], string> = {
  offered: "Offered",
  accepted: "Accepted",
  declined: "Declined",
  called: "Called the customer",
  expired: "No answer in time",
  escalated: "Passed to the operator",
  undelivered: "Offer not delivered",
  withdrawn: "Withdrew after accepting",
  completed: "Homeowner marked the job done",
  reported: "Reported as a bad lead",
};

/** A business's reason to decline (or, on a reported offer, to report it), by value. */
export const DECLINE_REASON_LABELS: Readonly<Record<string, string>> = Object.fromEntries(
  [...DECLINE_REASONS, ...REPORT_REASONS].map((r) => [r.value, r.label]),
);

export { ROUTING_REASON_LABELS };

/** What a default install says: nothing leaves the site, and nothing is hidden. */
export const NOTHING_SENT =
  "Nothing is sent: no e-mail, SMS or webhook provider is configured; every message is kept here.";

const PROVIDERS = [
  { on: (c: AdminChannels) => c.visitorEmail, name: "e-mail", setting: "RESEND_API_KEY with NOTIFY_EMAIL_FROM" },
  { on: (c: AdminChannels) => c.sms, name: "SMS", setting: "TWILIO_*" },
  { on: (c: AdminChannels) => c.webhook, name: "webhook", setting: "NOTIFY_WEBHOOK_URL" },
] as const;

/** One line on top of the Messages view: which providers send, and what is only kept. */
export function providersLine(channels: AdminChannels): string {
  const on = PROVIDERS.filter((p) => p.on(channels));
  if (on.length === 0) return NOTHING_SENT;
  const off = PROVIDERS.filter((p) => !p.on(channels));
  const parts = [`Sending by ${on.map((p) => p.name).join(", ")}.`];
  if (off.length > 0) {
    parts.push(`No ${off.map((p) => `${p.name} (${p.setting})`).join(" or ")} provider: those messages are kept here.`);
  }
  if (!channels.email && !channels.webhook) {
    parts.push("Operator alerts are kept here (set NOTIFY_WEBHOOK_URL, or NOTIFY_EMAIL_TO).");
  }
  return parts.join(" ");
}
