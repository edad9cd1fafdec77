/**
 * The notifier: sends what the outbox holds (docs/lead-delivery.md). The outbox is the one
 * retry queue, for a lead's messages and for an owner's alike.
 *
 *   lead write or routing change (lead + outbox item, one atomic step) -> answer
 *     -> context.waitUntil(notifyLead): claim the lead's item, compose its messages
 *        (./lead.ts), store the new ones, send the due ones, settle the item
 *   owner's link, code or claim answer -> sent at once (./owners.ts); a failed one -> an item
 *   every 5 minutes notify-outbox.mts: drainOutbox does the same for whatever item is due,
 *     within the run's budget (../run-budget.ts); what it does not reach stays due
 *
 * A message whose channel has no provider is kept ("kept") for /admin's Messages view. A
 * failed send is retried with backoff (one message at a time: a retry never repeats a message
 * that went), a refused one ("failed") is not. Claims are leased, so two runs never send one
 * message twice and a crashed run's items come back when the lease ends. Nothing here throws
 * to its caller; logs carry ids, kinds, channels and status codes only.
 */
import type { OutboxItem } from "../../../src/lib/schemas/outbox.ts";
import { isPending, type Message } from "../../../src/lib/schemas/message.ts";
import type { Store } from "../store/index.ts";
import { channelsOf, notifyConfig, resolveDeps, type NotifyConfig, type NotifyDeps } from "./config.ts";
import { deliverLead } from "./lead.ts";
import { adoptLegacyRetries, deliverOwner, failureOf } from "./owners.ts";
import { RUN_BUDGET_MS, runDeadline } from "../run-budget.ts";
import { describe, roomToSend, wasDeferred } from "./send.ts";
import { handleWebhookItem } from "../webhooks/deliver.ts";

export { MIN_SEND_MS, SEND_TIMEOUT_MS } from "./channels.ts";
export { channelsOf, notifyConfig, setupOf, type Channel, type NotifyConfig, type NotifyDeps } from "./config.ts";
export { BACKOFF_BASE_MS, BACKOFF_MAX_MS, backoffMs } from "./send.ts";
export { sendToOwner } from "./owners.ts";

/** Long enough for every send's timeout; a crashed notifier's items come back after it. */
export const CLAIM_LEASE_MS = 60_000;
/** Items claimed at a time (handled in parallel, their messages too: a batch costs about one send). */
export const DRAIN_BATCH = 25;

/** "left": some of its due messages were not tried, the run being out of time; the item stays due. */
export type Outcome = "delivered" | "retry" | "dropped" | "left";

/** Settles a claimed item from its messages as they are now: gone when none waits, else due again. */
async function settle(
  store: Store,
  item: OutboxItem,
  leaseUntil: number,
  messages: Message[],
  now: number,
): Promise<Outcome> {
  const pending = messages.filter(isPending);
  // A message the run had no time for was not attempted: it makes the item due again, not a failure.
  const left = pending.some(wasDeferred);
  if (pending.length === 0) {
    await store.outbox.settle(item.leadId, leaseUntil, null);
    return "delivered";
  }
  const nextAt = Math.min(...pending.map((m) => (m.nextAttemptAt ? Date.parse(m.nextAttemptAt) : now)));
  // Failed sends count as attempts; a message only waiting for its time (a review invitation) does not.
  const failing = pending.filter((m) => m.state === "retrying" && !wasDeferred(m));
  if (left && failing.length === 0) {
    // Left untried for lack of time: due at once for the next run (this one has stopped), no attempt counted.
    await store.outbox.settle(item.leadId, leaseUntil, {
      ...item,
      nextAttemptAt: new Date(Math.min(nextAt, now)).toISOString(),
    });
    return "left";
  }
  const { lastError: _previous, ...rest } = item;
  await store.outbox.settle(item.leadId, leaseUntil, {
    ...rest,
    attempts: item.attempts + (failing.length > 0 ? 1 : 0),
    lastAttemptAt: new Date(now).toISOString(),
    ...(failing.length > 0 ? { lastError: failureOf(failing) } : {}),
    nextAttemptAt: new Date(Math.max(nextAt, now + 1_000)).toISOString(),
  });
  return failing.length > 0 ? "retry" : "delivered";
}

/**
 * Passes over one lead at most: its first messages, then (an offer reached nobody, so the
 * lead moved on) the operator's alert and the next offer, then one more if that reached
 * nobody either, then the hand-over.
 */
const MAX_PASSES = 4;

/** Handles one claimed item: its messages sent, the item settled. */
async function handle(
  store: Store,
  claimed: OutboxItem,
  leaseUntil: number,
  config: NotifyConfig,
  deps: Required<NotifyDeps>,
): Promise<Outcome> {
  // A business's webhook delivery: one signed POST, its own schedule (../webhooks/deliver.ts).
  if (claimed.type === "webhook") return handleWebhookItem(store, claimed, leaseUntil, deps);
  let item = claimed;
  let lease = leaseUntil;
  for (let pass = 1; ; pass++) {
    const delivered =
      item.type === "owner"
        ? { messages: await deliverOwner(store, item, config, deps), moved: false }
        : await deliverLead(store, item, config, deps);
    if (!delivered?.messages) {
      // Nothing left to announce (a lead is never deleted by the app; this is manual clean-up).
      await store.outbox.settle(item.leadId, lease, null);
      console.warn(`[notify] ${item.leadId}: lead is gone; dropped its messages`);
      return "dropped";
    }
    const outcome = await settle(store, item, lease, delivered.messages, deps.now());
    // Out of time, the item the lead's change queued again stays due for the next run.
    if (!delivered.moved || pass === MAX_PASSES || !roomToSend(deps)) return outcome;
    // The lead moved on while held (its change queued it again): what that owes goes now, not at the next run.
    const now = deps.now();
    lease = now + CLAIM_LEASE_MS;
    const again = await store.outbox.claim(item.leadId, now, lease);
    if (!again) return outcome;
    item = again;
  }
}

/**
 * The attempt right after a lead's response or a routing change. Skips quietly when the
 * item is not due (another notifier holds it, or it waits for its retry).
 */
export async function notifyLead(store: Store, leadId: string, deps: NotifyDeps = {}): Promise<Outcome | "skipped"> {
  const d = resolveDeps(deps);
  const config = notifyConfig(d.env);
  try {
    const now = d.now();
    const leaseUntil = now + CLAIM_LEASE_MS;
    const item = await store.outbox.claim(leadId, now, leaseUntil);
    if (!item) return "skipped";
    return await handle(store, item, leaseUntil, config, d);
  } catch (error) {
    // The scheduled run picks the item up once its lease ends.
    console.error(`[notify] ${leadId}: notifier failed (${describe(error)})`);
    return "skipped";
  }
}

export interface DrainReport {
  /** Items claimed this run. */
  claimed: number;
  delivered: number;
  retry: number;
  dropped: number;
  /** Claimed items with messages the run had no time left to try (due again at once). */
  left: number;
  /** Items due when the run ended, for the next run (`left` among them). */
  due: number;
  /** True when the budget ended the run with items still due. */
  outOfTime: boolean;
  /** True when the operator has no channel (their messages are kept for /admin). */
  disabled: boolean;
}

/**
 * The scheduled run: due items, DRAIN_BATCH at a time, until none is due or the run's budget
 * (RUN_BUDGET_MS, or `deps.deadline`) has no room for another send. Whatever is not reached
 * stays due; claimed items are settled (or their lease ends), so nothing is lost or sent twice.
 */
export async function drainOutbox(store: Store, deps: NotifyDeps = {}): Promise<DrainReport> {
  const d = resolveDeps({ ...deps, deadline: deps.deadline ?? runDeadline(deps.now ?? Date.now, RUN_BUDGET_MS) });
  const config = notifyConfig(d.env);
  const report: DrainReport = {
    claimed: 0,
    delivered: 0,
    retry: 0,
    dropped: 0,
    left: 0,
    due: 0,
    outOfTime: false,
    disabled: channelsOf(config).length === 0,
  };
  await adoptLegacyRetries(store).catch((error) =>
    // Nothing is lost: the old queue stays as it was, and the next run tries again.
    console.error(`[notify] moving the old retry queue failed (${describe(error)})`),
  );
  for (;;) {
    // Claim only what the run can still send: a claimed item no one sends waits for its lease.
    if (!roomToSend(d)) {
      report.outOfTime = true;
      break;
    }
    const now = d.now();
    const leaseUntil = now + CLAIM_LEASE_MS;
    const items = await store.outbox.claimDue(now, leaseUntil, DRAIN_BATCH);
    if (items.length === 0) break;
    report.claimed += items.length;
    const outcomes = await Promise.all(
      items.map((item) =>
        handle(store, item, leaseUntil, config, d).catch((error) => {
          console.error(`[notify] ${item.leadId}: notifier failed (${describe(error)})`);
          return "retry" as const;
        }),
      ),
    );
    for (const o of outcomes) report[o]++;
    if (items.length < DRAIN_BATCH) break;
  }
  report.due = await store.outbox.dueCount(d.now());
  report.outOfTime = (report.outOfTime || report.left > 0) && report.due > 0;
  return report;
}
