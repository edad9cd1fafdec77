/**
 * Every message the site sends about a lead (the operator's alert, the visitor's receipt and
 * updates, the offers to businesses), kept in the store whether or not a provider is set up:
 * the admin's Messages view reads these, so on a default install nothing is sent and nothing
 * is hidden. Written by netlify/lib/delivery; the content is fixed when the message is made.
 */
import { z } from "../zod.ts";

/** email: Resend; sms: Twilio; webhook: Slack-compatible; admin: no channel, kept for /admin. */
export const MESSAGE_CHANNELS = ["email", "sms", "webhook", "admin"] as const;
export const MessageChannel = z.enum(MESSAGE_CHANNELS);
export type MessageChannel = z.infer<typeof MessageChannel>;

export const MESSAGE_AUDIENCES = ["visitor", "business", "operator"] as const;
export const MessageAudience = z.enum(MESSAGE_AUDIENCES);
export type MessageAudience = z.infer<typeof MessageAudience>;

/**
 * queued: to be sent; retrying: a send failed and will be tried again; sent: the provider
 * took it; failed: the provider refused it for good; kept: no provider configured, so it
 * was only kept here.
 */
export const MESSAGE_STATES = ["queued", "retrying", "sent", "failed", "kept"] as const;
export const MessageState = z.enum(MESSAGE_STATES);
export type MessageState = z.infer<typeof MessageState>;

export const Message = z.object({
  /** `{leadId}~{event key}~{channel}`: composing a lead's messages twice makes no duplicates. */
  id: z.string().min(1).max(200),
  /** The lead it is about; for an owner's sign-in link, code or claim decision, the claim (`cl_...`). */
  leadId: z.string().min(1).max(40),
  /** The lead's reference, for the admin list. */
  reference: z.string().max(20).optional(),
  /** What it says, e.g. "receipt", "offer", "accepted", "escalated". */
  kind: z.string().max(40),
  /** Who it is for. */
  audience: MessageAudience,
  /** How it goes. */
  channel: MessageChannel,
  /** Address, phone number, "webhook" or "operator". */
  to: z.string().max(300),
  /** The recipient's name when known (a business, the visitor). */
  toName: z.string().max(200).optional(),
  /** E-mail subject, or a one-line summary for the other channels. */
  subject: z.string().max(300),
  /** Plain text (the SMS body, the e-mail's text part). */
  text: z.string().max(10_000),
  /** The e-mail's HTML part. */
  html: z.string().max(50_000).optional(),
  /** The webhook's JSON body (Slack blocks), when it says more than `text`. */
  payload: z.string().max(50_000).optional(),
  /** Delivery state. */
  state: MessageState,
  /** Why it was kept or failed, or the last retry's error: no personal data. */
  note: z.string().max(300).optional(),
  /** When it was made (ISO). */
  createdAt: z.iso.datetime({ offset: true }),
  /** Send attempts so far. */
  attempts: z.number().int().min(0),
  /** Earliest next attempt while retrying (ISO). */
  nextAttemptAt: z.iso.datetime({ offset: true }).optional(),
  /** When the provider took it (ISO). */
  sentAt: z.iso.datetime({ offset: true }).optional(),
  /** The provider's id for it (Resend e-mail id, Twilio message SID). */
  providerId: z.string().max(100).optional(),
});
export type Message = z.infer<typeof Message>;

/** Messages still to be sent. */
export const isPending = (m: Pick<Message, "state">) => m.state === "queued" || m.state === "retrying";
