/**
 * From a written message to a stored one: which channel it takes, whether a provider can send
 * it (without one it is "kept" for /admin's Messages view, so a default install still shows
 * everything), and an id fixed by its subject, event and channel, so composing it again adds
 * nothing. Lead messages (delivery/compose.ts) and owners' messages (./owners.ts) both end here.
 */
import type { Message, MessageAudience, MessageChannel } from "../../../src/lib/schemas/message.ts";
import type { Written } from "../messages/parts.ts";

/** Which providers are configured (./config.ts reads them from env). */
export interface ChannelSetup {
  /** Resend is configured (e-mail to the operator can go). */
  email: boolean;
  /**
   * E-mail reaches visitors, businesses and owners too: Resend with a sender of the operator's
   * own (config.ts emailReady). With Resend's test sender their e-mail is kept, not sent.
   */
  emailReady: boolean;
  /** The operator's addresses (NOTIFY_EMAIL_TO), used when `email`. */
  operatorEmails: readonly string[];
  /** A Slack-compatible webhook for the operator. */
  webhook: boolean;
  /** Twilio is configured. */
  sms: boolean;
}

/** What a message's log entry says about its delivery when no send explains it. */
export const NOTES = {
  noEmail: "Not sent: no e-mail provider configured (RESEND_API_KEY).",
  testSender:
    "Not sent: NOTIFY_EMAIL_FROM is Resend's test sender (onboarding@resend.dev), which reaches only the Resend account's own address.",
  noSms: "Not sent: no SMS provider configured (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM).",
  noOperator:
    "Not sent: no operator channel configured (NOTIFY_WEBHOOK_URL, or NOTIFY_EMAIL_TO with RESEND_API_KEY). Shown here only.",
  providerGone: "Not sent: its provider is no longer configured.",
  sentBeforeLog: "Sent before the message log existed.",
} as const;

/** One message to one receiver on one channel, before it is stored. */
export interface Draft {
  /** The event it is about ("receipt", "ev3", an owner message's kind): part of its id. */
  key: string;
  /** What it says (schemas/message.ts `kind`). */
  kind: string;
  audience: MessageAudience;
  channel: MessageChannel;
  /** Address, phone number, "webhook" or "operator". */
  to: string;
  toName?: string;
  written: Written;
  /** When it was made (ISO). */
  at: string;
  /** Send no sooner than this (ISO): the review invitation waits for the job to be done. */
  notBefore?: string;
}

/** What a message is about: a lead, or an owner's claim (`cl_...`). */
export interface MessageSubject {
  id: string;
  reference?: string;
}

/** An operator message on every operator channel configured, or kept for /admin when there is none. */
export function operatorDrafts(setup: ChannelSetup, d: Pick<Draft, "key" | "kind" | "written" | "at">): Draft[] {
  const byEmail = setup.email && setup.operatorEmails.length > 0;
  const base = { ...d, audience: "operator" as const };
  if (!setup.webhook && !byEmail) return [{ ...base, channel: "admin", to: "operator" }];
  return [
    ...(setup.webhook ? [{ ...base, channel: "webhook" as const, to: "webhook" }] : []),
    ...(byEmail ? [{ ...base, channel: "email" as const, to: setup.operatorEmails.join(", ") }] : []),
  ];
}

function keptNote(channel: MessageChannel, audience: MessageAudience, setup: ChannelSetup): string | undefined {
  switch (channel) {
    case "admin":
      return NOTES.noOperator;
    case "email":
      if (!setup.email) return NOTES.noEmail;
      // The operator may well be the Resend account's owner; nobody else can get the test sender's mail.
      return audience === "operator" || setup.emailReady ? undefined : NOTES.testSender;
    case "sms":
      return setup.sms ? undefined : NOTES.noSms;
    case "webhook":
      return setup.webhook ? undefined : NOTES.noOperator;
  }
}

export function toMessage(about: MessageSubject, d: Draft, setup: ChannelSetup): Message {
  const note = keptNote(d.channel, d.audience, setup);
  const { written } = d;
  return {
    id: `${about.id}~${d.key}~${d.channel}`,
    leadId: about.id,
    ...(about.reference ? { reference: about.reference } : {}),
    kind: d.kind,
    audience: d.audience,
    channel: d.channel,
    to: d.to,
    ...(d.toName ? { toName: d.toName.slice(0, 200) } : {}),
    subject: written.subject.slice(0, 300),
    text: d.channel === "sms" ? (written.sms ?? written.text) : written.text,
    ...((d.channel === "email" || d.channel === "admin") && written.html ? { html: written.html } : {}),
    ...(d.channel === "webhook" && written.webhook ? { payload: JSON.stringify(written.webhook) } : {}),
    state: note ? "kept" : "queued",
    ...(note ? { note } : {}),
    ...(!note && d.notBefore ? { nextAttemptAt: d.notBefore } : {}),
    createdAt: d.at,
    attempts: 0,
  };
}
