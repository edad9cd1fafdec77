/**
 * Webhook deliveries through the outbox (docs/webhooks.md, "Retries"). An event for a business
 * becomes one delivery per endpoint that takes it (`queueEvents`: stored once, its id derived
 * from the endpoint and the event, so a lead read again adds nothing) and one outbox item of
 * type "webhook" under the delivery's id. The notifier (../notify/index.ts) hands such items
 * here: one signed POST (Standard Webhooks, the `standardwebhooks` package), its attempt
 * logged, then:
 *   2xx            delivered; the endpoint's failures in a row go back to 0
 *   410 Gone       the endpoint is disabled and its owner told by e-mail
 *   anything else  tried again on WEBHOOK_RETRY_DELAYS_MS (about a day); after
 *                  WEBHOOK_WARN_AFTER failures in a row the owner is warned once, and when a
 *                  delivery's last attempt fails the endpoint is disabled and the owner told.
 * What the e-mail became (sent, retrying, kept, no address) is kept on the endpoint, so the
 * owner page says only what happened. A disabled or deleted endpoint's waiting deliveries are
 * dropped. Nothing here throws to the notifier for a receiver's failure.
 */
import { createHash } from "node:crypto";
import { Webhook } from "standardwebhooks";
import {
  WEBHOOK_EVENT_HORIZON_MS,
  WEBHOOK_LOG_SIZE,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_MESSAGES,
  WEBHOOK_RETRY_DELAYS_MS,
  WEBHOOK_TIMEOUT_MS,
  WEBHOOK_WARN_AFTER,
  type WebhookAttempt,
  type WebhookDelivery,
  type WebhookEndpoint,
} from "../../../src/lib/webhooks.ts";
import type { OutboxItem } from "../../../src/lib/schemas/outbox.ts";
import { webhookDisabled, webhookFailing } from "../messages/webhooks.ts";
import { notifyConfig, resolveDeps, type NotifyDeps } from "../notify/config.ts";
import { sendToOwner } from "../notify/owners.ts";
import { roomToSend } from "../notify/send.ts";
import { deliveryOf } from "../owners/reach.ts";
import type { Store } from "../store/index.ts";
import { WebhookSendError, WebhookUrlError, postWebhook, type WebhookNet } from "./net.ts";
import { bodyOf, reviewEvent, type BusinessEvent } from "./payload.ts";
import { businessPath } from "../../../src/lib/directory.ts";
import type { Review } from "../../../src/lib/schemas/review.ts";

/** The outbox's lease on a claimed delivery (longer than any send's timeout). */
const LEASE_MS = 60_000;

/** One event reaches one endpoint once: the delivery's id is derived from both. */
export const deliveryId = (endpointId: string, eventId: string) =>
  `wd_${createHash("sha256").update(`${endpointId}\n${eventId}`).digest("base64url").slice(0, 32)}`;

/** The outbox item that makes a delivery due at `at` (ms). */
const itemFor = (d: WebhookDelivery, at: number, attempts = d.attempts): OutboxItem => ({
  leadId: d.id,
  type: "webhook",
  createdAt: d.createdAt,
  attempts,
  nextAttemptAt: new Date(at).toISOString(),
  delivered: [],
});

/**
 * Addresses events to the endpoints of their business that take them (enabled, made before
 * the event happened, and the event within WEBHOOK_EVENT_HORIZON_MS): a new delivery and its
 * outbox item, due at once. Returns the new deliveries' ids.
 */
export async function queueEvents(store: Store, events: readonly BusinessEvent[], now: number): Promise<string[]> {
  const byBusiness = new Map<string, BusinessEvent[]>();
  for (const e of events) byBusiness.set(e.businessId, [...(byBusiness.get(e.businessId) ?? []), e]);
  const created: string[] = [];
  for (const [businessId, list] of byBusiness) {
    const endpoints = (await store.webhooks.endpoints(businessId)).filter((ep) => !ep.disabled);
    for (const ep of endpoints) {
      for (const event of list) {
        if (!ep.events.includes(event.type) || event.at < ep.createdAt) continue;
        if (Date.parse(event.at) < now - WEBHOOK_EVENT_HORIZON_MS) continue;
        const delivery: WebhookDelivery = {
          id: deliveryId(ep.id, event.id),
          endpointId: ep.id,
          businessId,
          eventId: event.id,
          type: event.type,
          body: bodyOf(event),
          createdAt: event.at,
          state: "pending",
          attempts: 0,
          nextAttemptAt: new Date(now).toISOString(),
          log: [],
        };
        // Stored first, then put in line: a crash between leaves it pending, and the next
        // reading of the event puts it in line (below).
        if (await store.webhooks.addDelivery(delivery)) {
          await store.outbox.schedule(itemFor(delivery, now));
          created.push(delivery.id);
        } else {
          const stored = await store.webhooks.delivery(delivery.id);
          if (stored?.state === "pending" && !(await store.outbox.get(delivery.id)))
            await store.outbox.schedule(itemFor(stored, now));
        }
      }
    }
  }
  return created;
}

/** Headers of one signed attempt (Standard Webhooks 1.0). */
export function signedHeaders(ep: Pick<WebhookEndpoint, "secret">, d: WebhookDelivery, at: Date) {
  return {
    "content-type": "application/json",
    "user-agent": "Treeline-Webhooks/1.0",
    "webhook-id": d.eventId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(ep.secret).sign(d.eventId, at, d.body),
  };
}

/** One POST of a delivery: its attempt as the log keeps it, and whether the receiver took it or said 410. */
export async function attempt(
  ep: WebhookEndpoint,
  d: WebhookDelivery,
  now: () => number,
  net: WebhookNet,
  timeoutMs?: number,
): Promise<{ attempt: WebhookAttempt; result: "ok" | "gone" | "failed" }> {
  const started = now();
  const at = new Date(started);
  const took = () => Math.max(0, now() - started);
  try {
    const { status } = await postWebhook(ep.url, d.body, signedHeaders(ep, d, at), net, timeoutMs);
    const base = { at: at.toISOString(), status, ms: took() };
    if (status >= 200 && status < 300) return { attempt: base, result: "ok" };
    if (status === 410) return { attempt: { ...base, error: WEBHOOK_MESSAGES.gone }, result: "gone" };
    const error =
      status >= 300 && status < 400 ? WEBHOOK_MESSAGES.redirect(status) : `The endpoint answered ${status}.`;
    return { attempt: { ...base, error }, result: "failed" };
  } catch (error) {
    const message =
      error instanceof WebhookUrlError || error instanceof WebhookSendError
        ? error.message
        : `Failed (${error instanceof Error ? error.name : typeof error}).`;
    return { attempt: { at: at.toISOString(), error: message.slice(0, 300), ms: took() }, result: "failed" };
  }
}

const withLog = (d: WebhookDelivery, a: WebhookAttempt): WebhookDelivery["log"] =>
  [...d.log, a].slice(-WEBHOOK_LOG_SIZE);

/** A notice's id in the message log and the outbox (at most 40 characters, as a lead's). */
const noticeId = (endpointId: string, kind: string, at: string, i: number) =>
  `wn_${createHash("sha256").update(`${endpointId}\n${kind}\n${at}\n${i}`).digest("base64url").slice(0, 24)}`;

/** E-mails the business's owners about an endpoint; returns what became of it, as the page says it. */
async function tellOwners(
  store: Store,
  ep: WebhookEndpoint,
  kind: "failing" | "disabled",
  reason: string,
  deps: Required<NotifyDeps>,
): Promise<NonNullable<WebhookEndpoint["lastNotice"]>> {
  const at = new Date(deps.now()).toISOString();
  const [owners, business] = await Promise.all([store.owners.list(ep.businessId), store.businesses.get(ep.businessId)]);
  if (owners.length === 0) return { kind, at, outcome: "none" };
  const siteUrl = notifyConfig(deps.env).siteUrl;
  const message = (kind === "failing" ? webhookFailing : webhookDisabled)({
    businessName: business?.name ?? "your business",
    url: ep.url,
    reason,
    pageUrl: `${siteUrl}/owner/webhooks`,
  });
  const outcomes = await Promise.all(
    owners.map(async (o, i) => {
      try {
        const sent = await sendToOwner(
          store,
          // The message log's subject: one per endpoint, notice, time and owner (never a claim of anyone's).
          { claimId: noticeId(ep.id, kind, at, i), to: o.email },
          message,
          deps,
        );
        return deliveryOf(sent);
      } catch (error) {
        console.error(
          `[webhooks] ${ep.id}: owner notice not stored (${error instanceof Error ? error.name : "error"})`,
        );
        return "failed" as const;
      }
    }),
  );
  // The best of them: "sent" when any owner's provider took it.
  const order = ["sent", "retrying", "kept", "failed"] as const;
  const outcome = order.find((o) => outcomes.includes(o)) ?? "failed";
  return { kind, at, outcome };
}

/** Records what became of the owners' e-mail on the endpoint (if it is still there). */
const keepNotice = (store: Store, id: string, lastNotice: NonNullable<WebhookEndpoint["lastNotice"]>) =>
  store.webhooks.updateEndpoint(id, (current) => ({ ...current, lastNotice }));

/**
 * Disables an endpoint and tells its owners, once: when several deliveries fail at the same
 * time, only the one that disables it (compare-and-set) sends the e-mail.
 */
async function disable(store: Store, id: string, reason: string, deps: Required<NotifyDeps>) {
  const at = new Date(deps.now()).toISOString();
  let disabledNow = false;
  const stored = await store.webhooks.updateEndpoint(id, (current) => {
    disabledNow = !current.disabled;
    return current.disabled ? null : { ...current, disabled: { at, reason } };
  });
  if (!stored || !disabledNow) return;
  const lastNotice = await tellOwners(store, stored, "disabled", reason, deps);
  await keepNotice(store, id, lastNotice);
  console.info(`[webhooks] ${id}: disabled (${reason}); owner notice ${lastNotice.outcome}`);
}

/** What one attempt did to its endpoint: failures in a row counted (atomically), the owner warned once. */
async function afterAttempt(
  store: Store,
  id: string,
  result: "ok" | "failed",
  deps: Required<NotifyDeps>,
): Promise<WebhookEndpoint | null> {
  if (result === "ok") {
    return store.webhooks.updateEndpoint(id, (current) => {
      if (current.failures === 0 && !current.warnedAt) return null;
      const { warnedAt: _w, ...rest } = current;
      return { ...rest, failures: 0 };
    });
  }
  let warnNow = false;
  const stored = await store.webhooks.updateEndpoint(id, (current) => {
    const failures = current.failures + 1;
    warnNow = failures >= WEBHOOK_WARN_AFTER && !current.warnedAt && !current.disabled;
    return { ...current, failures, ...(warnNow ? { warnedAt: new Date(deps.now()).toISOString() } : {}) };
  });
  if (stored && warnNow) {
    const lastNotice = await tellOwners(store, stored, "failing", `${stored.failures} attempts in a row failed`, deps);
    return keepNotice(store, id, lastNotice);
  }
  return stored;
}

export type WebhookOutcome = "delivered" | "retry" | "dropped" | "left";

/** Handles one claimed "webhook" outbox item (the notifier's step for it). */
export async function handleWebhookItem(
  store: Store,
  item: OutboxItem,
  leaseUntil: number,
  deps: Required<NotifyDeps>,
): Promise<WebhookOutcome> {
  const d = await store.webhooks.delivery(item.leadId);
  const ep = d ? await store.webhooks.endpoint(d.endpointId) : null;
  if (!d || d.state !== "pending" || !ep || ep.disabled) {
    if (d && d.state === "pending") {
      const { nextAttemptAt: _n, ...rest } = d;
      await store.webhooks.saveDelivery({ ...rest, state: "failed" });
    }
    await store.outbox.settle(item.leadId, leaseUntil, null);
    return "dropped";
  }
  if (!roomToSend(deps)) {
    await store.outbox.settle(item.leadId, leaseUntil, { ...item, nextAttemptAt: new Date(deps.now()).toISOString() });
    return "left";
  }
  // Never longer than the run has left (../run-budget.ts).
  const timeoutMs = Math.min(deps.webhookNet.timeoutMs ?? WEBHOOK_TIMEOUT_MS, deps.deadline - deps.now());
  const { attempt: a, result } = await attempt(ep, d, deps.now, deps.webhookNet, timeoutMs);
  const attempts = d.attempts + 1;
  const now = deps.now();
  const { nextAttemptAt: _n, ...base } = d;
  if (result === "ok") {
    await store.webhooks.saveDelivery({ ...base, state: "delivered", attempts, log: withLog(d, a) });
    await store.outbox.settle(d.id, leaseUntil, null);
    await afterAttempt(store, ep.id, "ok", deps);
    return "delivered";
  }
  if (result === "gone") {
    await store.webhooks.saveDelivery({ ...base, state: "failed", attempts, log: withLog(d, a) });
    await store.outbox.settle(d.id, leaseUntil, null);
    await disable(store, ep.id, WEBHOOK_MESSAGES.gone, deps);
    return "dropped";
  }
  const last = attempts >= WEBHOOK_MAX_ATTEMPTS;
  const nextAt = now + (WEBHOOK_RETRY_DELAYS_MS[attempts - 1] ?? 0);
  await store.webhooks.saveDelivery(
    last
      ? { ...base, state: "failed", attempts, log: withLog(d, a) }
      : { ...base, attempts, nextAttemptAt: new Date(nextAt).toISOString(), log: withLog(d, a) },
  );
  await afterAttempt(store, ep.id, "failed", deps);
  if (last) {
    await store.outbox.settle(d.id, leaseUntil, null);
    await disable(store, ep.id, WEBHOOK_MESSAGES.exhausted, deps);
    return "dropped";
  }
  await store.outbox.settle(d.id, leaseUntil, {
    ...itemFor(d, nextAt, attempts),
    lastAttemptAt: a.at,
    lastError: `webhook: ${a.error ?? "failed"}`.slice(0, 300),
  });
  return "retry";
}

/**
 * The first attempt of new deliveries, right away (the notifier's pass over a lead, a review's
 * post): each is claimed like the scheduled run claims it, so two senders never overlap.
 */
export async function sendNow(store: Store, ids: readonly string[], deps: NotifyDeps = {}): Promise<void> {
  const d = resolveDeps(deps);
  await Promise.all(
    ids.map(async (id) => {
      try {
        const now = d.now();
        const item = await store.outbox.claim(id, now, now + LEASE_MS);
        if (item) await handleWebhookItem(store, item, now + LEASE_MS, d);
      } catch (error) {
        // The scheduled run tries it once the lease ends.
        console.error(`[webhooks] ${id}: first attempt failed (${error instanceof Error ? error.name : typeof error})`);
      }
    }),
  );
}

/**
 * The owner's "Send again": one more attempt now, logged as manual, outside the schedule (a
 * pending delivery keeps its next attempt; a failed one becomes delivered if it goes now; a 410
 * disables the endpoint, as it does on schedule).
 * Returns the attempt.
 */
export async function sendAgain(
  store: Store,
  ep: WebhookEndpoint,
  d: WebhookDelivery,
  deps: NotifyDeps = {},
): Promise<WebhookAttempt> {
  const r = resolveDeps(deps);
  const { attempt: a, result } = await attempt(ep, d, r.now, r.webhookNet);
  const manual = { ...a, manual: true };
  const current = (await store.webhooks.delivery(d.id)) ?? d;
  if (result === "ok") {
    const { nextAttemptAt: _n, ...rest } = current;
    await store.webhooks.saveDelivery({ ...rest, state: "delivered", log: withLog(current, manual) });
    if (current.state === "pending") await store.outbox.done(current.id);
  } else await store.webhooks.saveDelivery({ ...current, log: withLog(current, manual) });
  if (result === "ok") await afterAttempt(store, ep.id, "ok", r);
  // 410 means the same by hand as on schedule: the receiver is gone, stop sending to it.
  if (result === "gone") await disable(store, ep.id, WEBHOOK_MESSAGES.gone, r);
  return manual;
}

/**
 * A review was stored: "review.posted" to the business's endpoints that take it, tried at once.
 * Never throws: a visitor's review is stored whatever a webhook does (the log shows the rest).
 */
export async function reviewPosted(
  store: Store,
  businessId: string,
  review: Review,
  deps: NotifyDeps = {},
): Promise<void> {
  try {
    const d = resolveDeps(deps);
    const business = await store.businesses.get(businessId);
    const page = `${notifyConfig(d.env).siteUrl}${business ? businessPath(business.slug) : ""}`;
    const created = await queueEvents(store, [reviewEvent(businessId, review, page)], d.now());
    if (created.length > 0) await sendNow(store, created, d);
  } catch (error) {
    console.error(
      `[webhooks] review ${review.id}: event not queued (${error instanceof Error ? error.name : typeof error})`,
    );
  }
}
