/**
 * One lead's messages, for the notifier holding its outbox item: compose them from the lead
 * (delivery/compose.ts), store the new ones, send the due ones, and find the offers that
 * reached nobody: those wait for nobody (delivery/undelivered.ts), so the operator hears at
 * once and the lead moves on.
 */
import type { OutboxItem } from "../../../src/lib/schemas/outbox.ts";
import type { Lead } from "../../../src/lib/schemas/lead.ts";
import { isPending, type Message } from "../../../src/lib/schemas/message.ts";
import type { Store } from "../store/index.ts";
import { composeMessages, rescheduled } from "../delivery/compose.ts";
import { offerMessages } from "../delivery/kept.ts";
import { signerFor } from "../delivery/signing.ts";
import { passOnUndelivered } from "../delivery/undelivered.ts";
import { setupOf, type NotifyConfig, type NotifyDeps } from "./config.ts";
import { NOTES, type ChannelSetup } from "./drafts.ts";
import { sendAndRecord } from "./send.ts";
import { queueEvents, sendNow } from "../webhooks/deliver.ts";
import { leadEvents } from "../webhooks/payload.ts";

/**
 * The businesses whose waiting offer no channel delivered (docs/lead-delivery.md,
 * "Undelivered"): it has no e-mail or phone at all, or every message of it was refused for
 * good ("failed") or only kept, while some provider is set up. On an install with no
 * provider at all every message is kept for /admin, offers included, and they wait as usual:
 * that is how a default install shows the whole loop.
 */
export function undeliveredOffers(lead: Lead, messages: readonly Message[], setup: ChannelSetup): string[] {
  const configured = setup.email || setup.sms || setup.webhook;
  return (lead.routing?.deliveries ?? [])
    .filter((d) => {
      if (d.state !== "waiting") return false;
      if (!d.email && !d.phone) return true;
      const group = offerMessages(lead, d.businessId, messages);
      if (group.length === 0) return false;
      const unsent = group.every((m) => m.state === "failed" || m.state === "kept");
      return unsent && (configured || group.some((m) => m.state === "failed"));
    })
    .map((d) => d.businessId);
}

/** The lead's messages as they are after this attempt, and whether the lead moved on meanwhile; null when it is gone. */
export async function deliverLead(
  store: Store,
  item: OutboxItem,
  config: NotifyConfig,
  deps: Required<NotifyDeps>,
): Promise<{ messages: Message[]; moved: boolean } | null> {
  const lead = await store.leads.get(item.leadId);
  if (!lead) return null;
  const signer = await signerFor(store, deps.env);
  const setup = setupOf(config);
  const composed = composeMessages(lead, { setup, signer, siteUrl: config.siteUrl });
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
  await webhooksOf(store, lead, signer, config.siteUrl, deps);
  const unreached = undeliveredOffers(lead, messages, setup);
  const moved = unreached.length > 0 && (await passOnUndelivered(store, lead.id, unreached, deps.now()));
  return { messages, moved };
}

/**
 * The lead's events for the businesses' webhooks (../webhooks/): new deliveries queued and
 * tried at once. A failure here is logged and never holds up the lead's messages: the next
 * pass over the lead queues what is missing.
 */
async function webhooksOf(
  store: Store,
  lead: Lead,
  signer: Awaited<ReturnType<typeof signerFor>>,
  siteUrl: string,
  deps: Required<NotifyDeps>,
): Promise<void> {
  try {
    const created = await queueEvents(store, leadEvents(lead, { signer, siteUrl }), deps.now());
    if (created.length > 0) await sendNow(store, created, deps);
  } catch (error) {
    console.error(`[webhooks] ${lead.id}: events not queued (${error instanceof Error ? error.name : typeof error})`);
  }
}
