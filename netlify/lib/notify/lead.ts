/**
 * One lead's messages, for the notifier holding its outbox item: compose them from the lead
 * (delivery/compose.ts), store the new ones, send the due ones, and hand an offer no business
 * could receive to the operator instead, saying why.
 */
import type { OutboxItem } from "../../../src/lib/schemas/outbox.ts";
import { isPending, type Message } from "../../../src/lib/schemas/message.ts";
import type { Store } from "../store/index.ts";
import { composeMessages, rescheduled, undeliverableMessages } from "../delivery/compose.ts";
import { signerFor } from "../delivery/signing.ts";
import { setupOf, type NotifyConfig, type NotifyDeps } from "./config.ts";
import { NOTES } from "./drafts.ts";
import { sendAndRecord } from "./send.ts";

/** Offers that every channel refused for good (their event keys, e.g. "ev0"). */
function undeliveredOffers(messages: Message[]): string[] {
  const offers = new Map<string, Message[]>();
  for (const m of messages) {
    if (m.kind !== "offer") continue;
    const key = m.id.split("~")[1]!;
    offers.set(key, [...(offers.get(key) ?? []), m]);
  }
  return [...offers].filter(([, group]) => group.every((m) => m.state === "failed")).map(([key]) => key);
}

/** The lead's messages as they are after this attempt; null when the lead is gone. */
export async function deliverLead(
  store: Store,
  item: OutboxItem,
  config: NotifyConfig,
  deps: Required<NotifyDeps>,
): Promise<Message[] | null> {
  const lead = await store.leads.get(item.leadId);
  if (!lead) return null;
  const signer = await signerFor(store, deps.env);
  const ctx = { setup: setupOf(config), signer, siteUrl: config.siteUrl };
  const composed = composeMessages(lead, ctx);
  // An item from before the message log records which operator channels already went.
  for (const m of composed) {
    if (m.kind === "new-lead" && (item.delivered as string[]).includes(m.channel) && isPending(m)) {
      Object.assign(m, { state: "sent", note: NOTES.sentBeforeLog });
    }
  }
  let stored = await store.messages.ensure(composed);
  // A waiting review invitation follows the lead: sooner once the job is done, never once given back.
  const changed = rescheduled(stored, composed);
  if (changed.length > 0) {
    await store.messages.update(...changed);
    stored = stored.map((m) => changed.find((c) => c.id === m.id) ?? m);
  }
  const messages = await sendAndRecord(store, stored, config, deps);
  const fallback = undeliverableMessages(lead, undeliveredOffers(messages), ctx);
  if (fallback.length === 0) return messages;
  return [...messages, ...(await sendAndRecord(store, await store.messages.ensure(fallback), config, deps))];
}
