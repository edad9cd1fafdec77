/**
 * The notifier: turns a lead's state into messages and sends them (docs/lead-delivery.md).
 *
 *   lead write or routing change (lead + outbox item, one atomic step) -> answer
 *     -> context.waitUntil(notifyLead): claim the lead's item, compose its messages
 *        (delivery/compose.ts), store the new ones, send the due ones, settle the item
 *     -> every 5 minutes notify-outbox.mts: drainOutbox does the same for whatever is due
 *
 * Channels: Resend e-mail (RESEND_API_KEY; the operator's also needs NOTIFY_EMAIL_TO), Twilio
 * SMS (TWILIO_*), a Slack-compatible webhook (NOTIFY_WEBHOOK_URL). A message whose channel
 * has no provider is kept ("kept") for /admin's Messages view. A failed send is retried with
 * backoff (one message at a time: a retry never repeats a message that went), a refused one
 * ("failed") is not, and an offer no business could receive goes to the operator instead.
 * Nothing here throws to its caller; logs carry ids, kinds, channels and status codes only.
 */
import type { OutboxItem } from "../../../src/lib/schemas/outbox.ts";
import { isPending, type Message } from "../../../src/lib/schemas/message.ts";
import { env as currentEnv, type Env } from "../../../src/lib/env.ts";
import type { Store } from "../store/index.ts";
import { keyspace } from "../store/keys.ts";
import { CLAIM_OUTBOX } from "../store/lua.ts";
import { composeMessages, undeliverableMessages, type ChannelSetup } from "../delivery/compose.ts";
import { signerFor } from "../delivery/signing.ts";
import { DeliveryError, sendEmail, sendSms, sendWebhook, type EmailProvider, type SmsProvider } from "./channels.ts";

export { SEND_TIMEOUT_MS } from "./channels.ts";

/** The operator's channels, as the admin's Notifications tab names them. */
export type Channel = "webhook" | "email";

/** First retry after a minute, doubling up to this cap; a message that can go is never given up on. */
export const BACKOFF_BASE_MS = 60_000;
export const BACKOFF_MAX_MS = 6 * 60 * 60_000;
/** Long enough for every send's timeout; a crashed notifier's items come back after it. */
export const CLAIM_LEASE_MS = 60_000;
/** Items per scheduled run (each costs at most SEND_TIMEOUT_MS, messages sent in parallel). */
export const DRAIN_BATCH = 25;

export interface NotifyConfig {
  webhookUrl?: string;
  /** The operator's e-mail: Resend and NOTIFY_EMAIL_TO. */
  email?: { to: string[]; from: string; apiKey: string; apiUrl: string };
  /** Resend for every e-mail (visitors, businesses, the operator). */
  resend?: EmailProvider;
  sms?: SmsProvider;
  /** Origin for every link. */
  siteUrl: string;
}

/** The providers the configuration sets up (env.ts: NOTIFY_*, RESEND_*, TWILIO_*, SITE_URL). */
export function notifyConfig(env: Env = currentEnv()): NotifyConfig {
  const { NOTIFY_EMAIL_TO: to, RESEND_API_KEY: apiKey } = env;
  const resend = apiKey ? { from: env.NOTIFY_EMAIL_FROM, apiKey, apiUrl: env.RESEND_API_URL } : undefined;
  const email = to.length > 0 && resend ? { to, ...resend } : undefined;
  const sms =
    env.TWILIO_ACCOUNT_SID && env.TWILIO_AUTH_TOKEN && env.TWILIO_FROM
      ? {
          accountSid: env.TWILIO_ACCOUNT_SID,
          authToken: env.TWILIO_AUTH_TOKEN,
          from: env.TWILIO_FROM,
          apiUrl: env.TWILIO_API_URL,
        }
      : undefined;
  return { webhookUrl: env.NOTIFY_WEBHOOK_URL, email, resend, sms, siteUrl: env.siteUrl };
}

/** The operator's configured channels (none: their messages are kept for /admin). */
export const channelsOf = (config: NotifyConfig): Channel[] => [
  ...(config.webhookUrl ? ["webhook" as const] : []),
  ...(config.email ? ["email" as const] : []),
];

export const setupOf = (config: NotifyConfig): ChannelSetup => ({
  email: config.resend !== undefined,
  operatorEmails: config.email?.to ?? [],
  webhook: config.webhookUrl !== undefined,
  sms: config.sms !== undefined,
});

/** Delay before attempt n+1 after n failed attempts. */
export const backoffMs = (attempts: number) =>
  Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));

/** Seams for tests; production uses the defaults. */
export interface NotifyDeps {
  /** The configuration (tests: parseEnv({ ... })); default env(). */
  env?: Env;
  fetch?: typeof fetch;
  now?: () => number;
}

/** A failure described without anything from the message or the receiver's body. */
function describe(error: unknown): string {
  if (error instanceof DeliveryError) return error.message;
  if (error instanceof Error) {
    const code = (error.cause as { code?: unknown } | undefined)?.code;
    return typeof code === "string" && /^[A-Z_]+$/.test(code) ? `${error.name} (${code})` : error.name;
  }
  return typeof error;
}

function send(m: Message, config: NotifyConfig, doFetch: typeof fetch): Promise<string | undefined> {
  switch (m.channel) {
    case "email":
      return sendEmail(doFetch, config.resend!, m);
    case "sms":
      return sendSms(doFetch, config.sms!, m);
    case "webhook":
      return sendWebhook(doFetch, config.webhookUrl!, m);
    default:
      return Promise.reject(new DeliveryError("no channel", true));
  }
}

/** A provider that was configured when the message was made may be gone now: keep it instead. */
function providerGone(m: Message, config: NotifyConfig): boolean {
  return (
    (m.channel === "email" && !config.resend) ||
    (m.channel === "sms" && !config.sms) ||
    (m.channel === "webhook" && !config.webhookUrl)
  );
}

/** Sends the due messages; returns them as they are now. */
async function sendDue(messages: Message[], config: NotifyConfig, deps: Required<NotifyDeps>): Promise<Message[]> {
  const now = deps.now();
  return Promise.all(
    messages.map(async (m): Promise<Message> => {
      if (!isPending(m) || (m.nextAttemptAt && Date.parse(m.nextAttemptAt) > now)) return m;
      let next: Message;
      if (providerGone(m, config)) {
        next = { ...m, state: "kept", note: "Not sent: its provider is no longer configured." };
      } else {
        try {
          const providerId = await send(m, config, deps.fetch);
          const { nextAttemptAt: _n, note: _e, ...rest } = m;
          next = {
            ...rest,
            state: "sent",
            attempts: m.attempts + 1,
            sentAt: new Date(deps.now()).toISOString(),
            ...(providerId ? { providerId } : {}),
          };
        } catch (error) {
          const attempts = m.attempts + 1;
          const note = `Attempt ${attempts}: ${describe(error)}`.slice(0, 300);
          next =
            error instanceof DeliveryError && error.permanent
              ? { ...m, state: "failed", attempts, note }
              : {
                  ...m,
                  state: "retrying",
                  attempts,
                  note,
                  nextAttemptAt: new Date(now + backoffMs(attempts)).toISOString(),
                };
        }
      }
      console.info(`[notify] ${m.leadId} ${m.kind} ${m.channel}: ${next.state}${next.note ? ` (${next.note})` : ""}`);
      return next;
    }),
  );
}

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

export type Outcome = "delivered" | "retry" | "dropped";

/** Handles one claimed item: compose, store, send, settle. */
async function handle(
  store: Store,
  item: OutboxItem,
  leaseUntil: number,
  config: NotifyConfig,
  deps: Required<NotifyDeps>,
): Promise<Outcome> {
  const lead = await store.leads.get(item.leadId);
  if (!lead) {
    // Nothing left to announce (a lead is never deleted by the app; this is manual clean-up).
    await store.outbox.settle(item.leadId, leaseUntil, null);
    console.warn(`[notify] ${item.leadId}: lead is gone; dropped its messages`);
    return "dropped";
  }
  const signer = await signerFor(store, deps.env);
  const ctx = { setup: setupOf(config), signer, siteUrl: config.siteUrl };
  const composed = composeMessages(lead, ctx);
  // An item from before the message log records which operator channels already went.
  for (const m of composed) {
    if (m.kind === "new-lead" && (item.delivered as string[]).includes(m.channel) && isPending(m)) {
      Object.assign(m, { state: "sent", note: "Sent before the message log existed." });
    }
  }
  let messages = await store.messages.ensure(composed);
  const sendAll = async (list: Message[]) => {
    const sent = await sendDue(list, config, deps);
    await store.messages.update(...sent.filter((m, i) => m !== list[i]));
    return sent;
  };
  messages = await sendAll(messages);
  // An offer no business could receive goes to the operator instead, saying why.
  const fallback = undeliveredOffers(messages).flatMap((key) => undeliverableMessages(lead, key, ctx));
  if (fallback.length > 0) messages = [...messages, ...(await sendAll(await store.messages.ensure(fallback)))];

  const pending = messages.filter(isPending);
  if (pending.length === 0) {
    await store.outbox.settle(item.leadId, leaseUntil, null);
    return "delivered";
  }
  const nextAt = Math.min(...pending.map((m) => (m.nextAttemptAt ? Date.parse(m.nextAttemptAt) : deps.now())));
  const now = deps.now();
  // Failed sends count as attempts; a message only waiting for its time (a review invitation) does not.
  const failing = pending.filter((m) => m.state === "retrying");
  const { lastError: _previous, ...rest } = item;
  await store.outbox.settle(item.leadId, leaseUntil, {
    ...rest,
    attempts: item.attempts + (failing.length > 0 ? 1 : 0),
    lastAttemptAt: new Date(now).toISOString(),
    ...(failing.length > 0
      ? {
          lastError: failing
            .map((m) => `${m.channel}: ${m.note ?? "failed"}`)
            .join("; ")
            .slice(0, 300),
        }
      : {}),
    nextAttemptAt: new Date(Math.max(nextAt, now + 1_000)).toISOString(),
  });
  return failing.length > 0 ? "retry" : "delivered";
}

function resolve(deps: NotifyDeps): Required<NotifyDeps> {
  return { env: deps.env ?? currentEnv(), fetch: deps.fetch ?? fetch, now: deps.now ?? Date.now };
}

/**
 * The attempt right after a lead's response or a routing change. Skips quietly when the
 * item is not due (another notifier holds it, or it waits for its retry).
 */
export async function notifyLead(store: Store, leadId: string, deps: NotifyDeps = {}): Promise<Outcome | "skipped"> {
  const d = resolve(deps);
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
  /** True when the operator has no channel (their messages are kept for /admin). */
  disabled: boolean;
}

/** The scheduled run: every due item, DRAIN_BATCH at a time, until none is due. */
export async function drainOutbox(store: Store, deps: NotifyDeps & { maxBatches?: number } = {}): Promise<DrainReport> {
  const d = resolve(deps);
  const config = notifyConfig(d.env);
  const report: DrainReport = {
    claimed: 0,
    delivered: 0,
    retry: 0,
    dropped: 0,
    disabled: channelsOf(config).length === 0,
  };
  for (let batch = 0; batch < (deps.maxBatches ?? 8); batch++) {
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
  return report;
}

/**
 * Messages that are not about a lead's outbox item (an owner's sign-in link or code, a claim's
 * answer): stored (an existing id wins, so a retried request sends nothing twice), then the
 * due ones sent at once and their state stored. A provider's failure leaves the message in
 * the log as "retrying" or "failed" and is never thrown; a store failure is.
 */
export async function deliverNow(store: Store, messages: Message[], deps: NotifyDeps = {}): Promise<Message[]> {
  const d = resolve(deps);
  const stored = await store.messages.ensure(messages);
  const sent = await sendDue(stored, notifyConfig(d.env), d);
  await store.messages.update(...sent.filter((m, i) => m !== stored[i]));
  await trackRetries(
    store,
    sent,
    stored.map((m) => m.state === "retrying"),
  );
  return sent;
}

/**
 * Messages sent outside a lead's outbox have no outbox item to bring them back: one to try again
 * waits in `msgs:retry` until its next attempt; a settled one (sent, refused, kept) leaves it.
 */
async function trackRetries(store: Store, after: readonly Message[], waiting: readonly boolean[]): Promise<void> {
  const key = keyspace(store.prefix).messagesRetry;
  const p = store.redis.pipeline();
  let calls = 0;
  after.forEach((m, i) => {
    if (m.state === "retrying" && m.nextAttemptAt) {
      p.zadd(key, { score: Date.parse(m.nextAttemptAt), member: m.id });
      calls++;
    } else if (waiting[i]) {
      // Only a message that was waiting can be in the set: a first send that went costs nothing.
      p.zrem(key, m.id);
      calls++;
    }
  });
  if (calls > 0) await p.exec();
}

/**
 * The scheduled run's second half: sends again the standalone messages whose next attempt is due
 * (claimed with a lease, as outbox items are, so two runs never send one twice). Returns how many
 * it tried.
 */
export async function retryStandalone(store: Store, deps: NotifyDeps = {}): Promise<number> {
  const d = resolve(deps);
  const key = keyspace(store.prefix).messagesRetry;
  const now = d.now();
  const reply = await store.redis.eval(
    CLAIM_OUTBOX,
    [key],
    [String(now), String(now + CLAIM_LEASE_MS), String(DRAIN_BATCH)],
  );
  const ids = String(reply ?? "")
    .split(" ")
    .filter(Boolean);
  if (ids.length === 0) return 0;
  const messages = await store.messages.getMany(ids);
  const gone = ids.filter((id) => !messages.some((m) => m.id === id));
  if (gone.length > 0) await store.redis.zrem(key, ...gone);
  const sent = await sendDue(messages, notifyConfig(d.env), d);
  await store.messages.update(...sent.filter((m, i) => m !== messages[i]));
  // Every one claimed here was in the set.
  await trackRetries(
    store,
    sent,
    messages.map(() => true),
  );
  return messages.length;
}
