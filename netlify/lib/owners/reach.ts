/**
 * What the owners' pages may say about a message to an owner (docs/owners.md "Say only what
 * happened"): which channels can deliver here at all, and what became of one message. A page
 * says "sent" or "texted" only when the provider took the message; otherwise what really
 * happens (tried again by the scheduled run, or kept for the Treeline team, who will contact
 * the owner).
 */
import type { Message } from "../../../src/lib/schemas/message.ts";
import type { Env } from "../http.ts";
import { notifyConfig } from "../notify/config.ts";

/** Whether an e-mail to an owner can go out here (a provider is set up). */
export const canEmail = (env: Env): boolean => notifyConfig(env).resend !== undefined;

/** Whether a text to an owner can go out here (Twilio is set up). */
export const canText = (env: Env): boolean => notifyConfig(env).sms !== undefined;

/**
 * What became of a message, as the visitor is told: the provider took it (`sent`), a send failed
 * for now and the scheduled run tries again (`retrying`), or nothing will send it (`kept`: no
 * provider, or refused for good) and the Treeline team has it.
 */
export type Delivery = "sent" | "retrying" | "kept";

export const deliveryOf = (m: Pick<Message, "state">): Delivery =>
  m.state === "sent" ? "sent" : m.state === "kept" || m.state === "failed" ? "kept" : "retrying";
