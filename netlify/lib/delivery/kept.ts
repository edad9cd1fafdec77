/**
 * An offer that was only kept: every message of it is in the message log as `kept` (no
 * provider here carries offers: docs/lead-delivery.md, "Message states"). Its business never
 * had it, so past its deadline the status page says it was not reached, never "didn't answer
 * in time", and its response figures get no outcome for it.
 */
import type { Message } from "../../../src/lib/schemas/message.ts";
import type { Lead } from "../../../src/lib/schemas/lead.ts";

/** The messages of the business's latest offer of the lead (ids `{leadId}~ev{i}~{channel}`: compose.ts). */
export function offerMessages(lead: Lead, businessId: string, messages: readonly Message[]): Message[] {
  const offered = (lead.routing?.events ?? []).findLastIndex(
    (e) => e.kind === "offered" && e.businessId === businessId,
  );
  if (offered < 0) return [];
  const key = `ev${offered}`;
  return messages.filter((m) => m.kind === "offer" && m.id.split("~")[1] === key);
}

/** Whether the business's offer was only kept: it has messages and none of them left. */
export function offerKept(lead: Lead, businessId: string, messages: readonly Message[]): boolean {
  const group = offerMessages(lead, businessId, messages);
  return group.length > 0 && group.every((m) => m.state === "kept");
}
