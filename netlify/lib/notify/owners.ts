/**
 * Owners' messages (a sign-in link, a code, a claim's answer, worded in messages/owner.ts).
 * They belong to no lead: the request that makes one stores it under its claim's id and sends
 * it at once; one whose send failed goes into the outbox under that id, and the scheduled run
 * (./index.ts) sends it again, leased like a lead's, until it goes.
 */
import { isPending, type Message } from "../../../src/lib/schemas/message.ts";
import type { OutboxItem } from "../../../src/lib/schemas/outbox.ts";
import { keepsSecrets, withoutSignInSecrets, type OwnerMessage } from "../messages/owner.ts";
import type { Store } from "../store/index.ts";
import { notifyConfig, resolveDeps, setupOf, type NotifyConfig, type NotifyDeps } from "./config.ts";
import { toMessage } from "./drafts.ts";
import { isDue, sendAndRecord, wasDeferred } from "./send.ts";

export interface OwnerRecipient {
  /** The claim the message is about (`cl_...`): its id in the message log and in the outbox. */
  claimId: string;
  to: string;
  toName?: string;
}

/** Why an attempt failed, as an outbox item says it: channel and note, never the receiver. */
export const failureOf = (failing: readonly Message[]) =>
  failing
    .map((m) => `${m.channel}: ${m.note ?? "failed"}`)
    .join("; ")
    .slice(0, 300);

/**
 * Stores the message (an existing id wins, so a retried request sends nothing twice) and sends
 * it, unless it was tried before: that one is the outbox's, whose lease keeps two senders
 * apart. A provider's failure leaves it "retrying" in the log and in the outbox, and is
 * never thrown; a store failure is.
 */
export async function sendToOwner(
  store: Store,
  recipient: OwnerRecipient,
  message: OwnerMessage,
  deps: NotifyDeps = {},
): Promise<Message> {
  const d = resolveDeps(deps);
  const config = notifyConfig(d.env);
  const at = new Date(d.now()).toISOString();
  const draft = toMessage(
    { id: recipient.claimId },
    {
      key: message.kind,
      kind: message.kind,
      audience: "business",
      channel: message.channel,
      to: recipient.to,
      ...(recipient.toName ? { toName: recipient.toName } : {}),
      written: message.written,
      at,
    },
    setupOf(config),
  );
  const [stored] = await store.messages.ensure([draft]);
  if (!stored) throw new Error("The message was not stored.");
  const [sent] = await sendAndRecord(store, [stored], config, d, (m, now) => m.attempts === 0 && isDue(m, now));
  // Failed for now, or not tried (a caller's run out of time): the outbox sends it later.
  if (sent!.state === "retrying" || wasDeferred(sent!)) {
    const tried = !wasDeferred(sent!);
    await store.outbox.schedule({
      leadId: recipient.claimId,
      type: "owner",
      createdAt: at,
      attempts: tried ? 1 : 0,
      nextAttemptAt: sent!.nextAttemptAt ?? at,
      ...(tried ? { lastAttemptAt: at, lastError: failureOf([sent!]) } : {}),
      delivered: [],
    });
  }
  return sent!;
}

/** A claim's waiting messages, for the notifier holding its outbox item: the due ones sent. */
export async function deliverOwner(
  store: Store,
  item: OutboxItem,
  config: NotifyConfig,
  deps: Required<NotifyDeps>,
): Promise<Message[]> {
  return sendAndRecord(store, await store.messages.forLead(item.leadId), config, deps);
}

/** Stores whose old retry queue was emptied by this process. */
const adopted = new WeakSet<Store>();

/**
 * The first scheduled run moves what still waits in the retry queue owners' messages had
 * before the outbox into the outbox (one item per claim, due when its first message was), so
 * nothing waiting is lost, and empties that queue. Returns how many entries it moved.
 */
export async function adoptLegacyRetries(store: Store): Promise<number> {
  if (adopted.has(store)) return 0;
  const entries = await store.outbox.legacyRetries();
  if (entries.length > 0) {
    const messages = new Map((await store.messages.getMany(entries.map((e) => e.messageId))).map((m) => [m.id, m]));
    const items = new Map<string, OutboxItem>();
    for (const { messageId, dueAt } of entries) {
      const m = messages.get(messageId);
      // Sent, refused or gone meanwhile: nothing to bring back.
      if (!m || !isPending(m)) continue;
      const seen = items.get(m.leadId);
      items.set(m.leadId, {
        leadId: m.leadId,
        type: "owner",
        createdAt: seen && seen.createdAt < m.createdAt ? seen.createdAt : m.createdAt,
        attempts: Math.max(m.attempts, seen?.attempts ?? 0),
        nextAttemptAt: new Date(Math.min(dueAt, seen ? Date.parse(seen.nextAttemptAt) : dueAt)).toISOString(),
        ...(m.note ? { lastError: failureOf([m]) } : {}),
        delivered: [],
      });
    }
    await store.outbox.adoptLegacyRetries(
      [...items.values()],
      entries.map((e) => e.messageId),
    );
    console.info(`[notify] moved ${entries.length} waiting owner message(s) from the old retry queue to the outbox`);
  }
  adopted.add(store);
  return entries.length;
}

/**
 * Rewrites the messages logged before sent ones dropped their sign-in link or code, so none is
 * left at rest (scripts/forget-sent-sign-ins.ts runs it once). Returns how many it read and
 * rewrote; running it again rewrites nothing.
 */
export async function forgetSentSignIns(store: Store, pageSize = 200): Promise<{ read: number; rewritten: number }> {
  let read = 0;
  let rewritten = 0;
  for (let offset = 0; ; offset += pageSize) {
    const { items, total } = await store.messages.list({ offset, limit: pageSize });
    read += items.length;
    const changed = items
      .filter((m) => !keepsSecrets(m))
      .flatMap((m) => {
        const clean = withoutSignInSecrets(m);
        return clean === m ? [] : [clean];
      });
    await store.messages.update(...changed);
    rewritten += changed.length;
    if (items.length === 0 || offset + pageSize >= total) break;
  }
  return { read, rewritten };
}
