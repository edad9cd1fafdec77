/**
 * The notifier: delivers outbox items (one per new lead) to the operator's channels.
 *
 *   lead write (lead + outbox item, one MULTI) -> 201 to the visitor
 *     -> context.waitUntil(notifyLead): claim that item, send, remove or reschedule
 *     -> every 5 minutes notify-outbox.mts: drainOutbox claims whatever is due and does the same
 *
 * Channels: NOTIFY_WEBHOOK_URL (Slack-compatible JSON) and, when NOTIFY_EMAIL_TO and
 * RESEND_API_KEY are both set, an e-mail through Resend's HTTP API. A retry only sends the
 * channels that have not succeeded yet. Nothing here throws to its caller and nothing it
 * logs or stores names the visitor: ids, types, channels and status codes only.
 */
import type { OutboxItem } from "../../../src/lib/schemas/outbox.ts";
import type { Lead } from "../../../src/lib/schemas/lead.ts";
import { env as currentEnv, type Env } from "../../../src/lib/env.ts";
import type { Store } from "../store/index.ts";
import { emailMessage, webhookMessage } from "./message.ts";

export type Channel = "webhook" | "email";

/** First retry after a minute, doubling up to this cap; items are never given up on. */
export const BACKOFF_BASE_MS = 60_000;
export const BACKOFF_MAX_MS = 6 * 60 * 60_000;
/** Long enough for every channel's timeout; a crashed notifier's items come back after it. */
export const CLAIM_LEASE_MS = 60_000;
/** One slow receiver must not eat the whole scheduled run. */
export const SEND_TIMEOUT_MS = 10_000;
/** Items per scheduled run (each costs at most SEND_TIMEOUT_MS per channel, sent in parallel). */
export const DRAIN_BATCH = 25;

export interface NotifyConfig {
  webhookUrl?: string;
  email?: { to: string[]; from: string; apiKey: string; apiUrl: string };
  /** Origin for the links to /admin. */
  siteUrl: string;
}

/** The channels the configuration sets up (env.ts: NOTIFY_*, RESEND_*, SITE_URL). */
export function notifyConfig(env: Env = currentEnv()): NotifyConfig {
  const { NOTIFY_EMAIL_TO: to, RESEND_API_KEY: apiKey } = env;
  const email =
    to.length > 0 && apiKey ? { to, from: env.NOTIFY_EMAIL_FROM, apiKey, apiUrl: env.RESEND_API_URL } : undefined;
  return { webhookUrl: env.NOTIFY_WEBHOOK_URL, email, siteUrl: env.siteUrl };
}

export const channelsOf = (config: NotifyConfig): Channel[] => [
  ...(config.webhookUrl ? ["webhook" as const] : []),
  ...(config.email ? ["email" as const] : []),
];

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

/** A failure described without anything from the lead or the receiver's body. */
function describe(error: unknown): string {
  if (error instanceof DeliveryError) return error.message;
  if (error instanceof Error) {
    const code = (error.cause as { code?: unknown } | undefined)?.code;
    return typeof code === "string" && /^[A-Z_]+$/.test(code) ? `${error.name} (${code})` : error.name;
  }
  return typeof error;
}

class DeliveryError extends Error {}

async function post(
  doFetch: typeof fetch,
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<void> {
  const res = await doFetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    redirect: "error",
  });
  // Drain the body so the connection is reused; its content may echo the lead and is not kept.
  await res.arrayBuffer().catch(() => undefined);
  if (!res.ok) throw new DeliveryError(`HTTP ${res.status}`);
}

async function send(channel: Channel, lead: Lead, config: NotifyConfig, doFetch: typeof fetch): Promise<void> {
  if (channel === "webhook") return post(doFetch, config.webhookUrl!, webhookMessage(lead, config.siteUrl));
  const email = config.email!;
  const message = emailMessage(lead, config.siteUrl);
  await post(
    doFetch,
    email.apiUrl,
    { from: email.from, to: email.to, ...message },
    { authorization: `Bearer ${email.apiKey}` },
  );
}

export type Outcome = "delivered" | "retry" | "dropped";

/** Sends one claimed item and settles it in the outbox. */
async function deliver(
  store: Store,
  item: OutboxItem,
  config: NotifyConfig,
  deps: Required<NotifyDeps>,
): Promise<Outcome> {
  const lead = await store.leads.get(item.leadId);
  if (!lead) {
    // Nothing left to announce (a lead is never deleted by the app; this is manual clean-up).
    await store.outbox.done(item.leadId);
    console.warn(`[notify] ${item.leadId}: lead is gone; dropped its notification`);
    return "dropped";
  }
  const pending = channelsOf(config).filter((c) => !item.delivered.includes(c));
  const results = await Promise.allSettled(pending.map((c) => send(c, lead, config, deps.fetch)));
  const delivered = [...item.delivered];
  const errors: string[] = [];
  results.forEach((r, i) => {
    if (r.status === "fulfilled") delivered.push(pending[i]!);
    else errors.push(`${pending[i]}: ${describe(r.reason)}`);
  });
  if (errors.length === 0) {
    await store.outbox.done(item.leadId);
    console.info(
      `[notify] ${item.type} ${item.leadId}: delivered via ${pending.join(" + ") || "nothing new"} (attempt ${item.attempts + 1})`,
    );
    return "delivered";
  }
  const attempts = item.attempts + 1;
  const now = deps.now();
  const wait = backoffMs(attempts);
  const lastError = errors.join("; ").slice(0, 300);
  await store.outbox.reschedule({
    ...item,
    attempts,
    delivered,
    lastError,
    lastAttemptAt: new Date(now).toISOString(),
    nextAttemptAt: new Date(now + wait).toISOString(),
  });
  console.warn(
    `[notify] ${item.type} ${item.leadId}: attempt ${attempts} failed (${lastError}); next in ${Math.round(wait / 60_000)} min`,
  );
  return "retry";
}

function resolve(deps: NotifyDeps): Required<NotifyDeps> {
  return { env: deps.env ?? currentEnv(), fetch: deps.fetch ?? fetch, now: deps.now ?? Date.now };
}

/**
 * The attempt right after a lead's response. Skips quietly when no channel is configured
 * or when the item is not due (another notifier holds it, or it waits for its retry).
 */
export async function notifyLead(store: Store, leadId: string, deps: NotifyDeps = {}): Promise<Outcome | "skipped"> {
  const d = resolve(deps);
  const config = notifyConfig(d.env);
  if (channelsOf(config).length === 0) return "skipped";
  try {
    const now = d.now();
    const item = await store.outbox.claim(leadId, now, now + CLAIM_LEASE_MS);
    if (!item) return "skipped";
    return await deliver(store, item, config, d);
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
  /** True when no channel is configured (nothing was claimed). */
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
  if (report.disabled) return report;
  for (let batch = 0; batch < (deps.maxBatches ?? 8); batch++) {
    const now = d.now();
    const items = await store.outbox.claimDue(now, now + CLAIM_LEASE_MS, DRAIN_BATCH);
    if (items.length === 0) break;
    report.claimed += items.length;
    const outcomes = await Promise.all(
      items.map((item) =>
        deliver(store, item, config, d).catch((error) => {
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
