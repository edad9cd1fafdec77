/**
 * What the owners' pages may say about a message to an owner (docs/owners.md "Say only what
 * happened"): which channels can deliver here at all, and what became of one message. A page
 * says "sent" or "texted" only when the provider took the message; otherwise what really
 * happens (tried again by the scheduled run, or kept for the Treeline team, who will contact
 * the owner).
 */
import type { Message } from "../../../src/lib/schemas/message.ts";
import type { Env } from "../http.ts";
import { emailReady, smsReady } from "../notify/config.ts";

/**
 * Whether an e-mail to an owner can reach them here: Resend with a sender of the operator's own
 * (`emailReady`: not Resend's test sender, which reaches nobody but the account owner).
 */
export const canEmail = (env: Env): boolean => emailReady(env);

/** Whether a text to an owner can go out here (Twilio is set up: `smsReady`). */
export const canText = (env: Env): boolean => smsReady(env);

/**
 * What became of a message, as the visitor is told: the provider took it (`sent`), a send failed
 * for now and the scheduled run tries again (`retrying`), or nothing will send it (`kept`: no
 * provider, or refused for good) and the Treeline team has it.
 */
export type Delivery = "sent" | "retrying" | "kept";

export const deliveryOf = (m: Pick<Message, "state">): Delivery =>
  m.state === "sent" ? "sent" : m.state === "kept" || m.state === "failed" ? "kept" : "retrying";
