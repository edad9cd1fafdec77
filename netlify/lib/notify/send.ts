/**
 * Sending stored messages: each due one goes to its provider once, and comes back as it is
 * now (sent with the provider's id, "retrying" with its next attempt after a failure that may
 * pass, "failed" when the provider refused it for good, "kept" when its provider is gone).
 * A sign-in link or code in a message that went, or never can, leaves the log in that same
 * write: only its receiver may hold it. Nothing here throws; logs carry ids, kinds, channels
 * and status codes only.
 */
import { isPending, type Message } from "../../../src/lib/schemas/message.ts";
import { SendChannel, type SendResult } from "../../../src/lib/schemas/runs.ts";
import { errorName } from "../http-responses.ts";
import { withoutSignInSecrets } from "../messages/owner.ts";
import type { Store } from "../store/index.ts";
import { DeliveryError, MIN_SEND_MS, SEND_TIMEOUT_MS, sendEmail, sendSms, sendWebhook } from "./channels.ts";
import type { NotifyConfig, NotifyDeps } from "./config.ts";
import { NOTES } from "./drafts.ts";

/** First retry after a minute, doubling up to this cap; a message that can go is never given up on. */
export const BACKOFF_BASE_MS = 60_000;
export const BACKOFF_MAX_MS = 6 * 60 * 60_000;

/** Delay before attempt n+1 after n failed attempts. */
export const backoffMs = (attempts: number) =>
  Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));

/** A failure described without anything from the message or the receiver's body. */
export function describe(error: unknown): string {
  if (error instanceof DeliveryError) return error.message;
  if (error instanceof Error) {
    const code = (error.cause as { code?: unknown } | undefined)?.code;
    return typeof code === "string" && /^[A-Z_]+$/.test(code) ? `${error.name} (${code})` : error.name;
  }
  return typeof error;
}

function send(m: Message, config: NotifyConfig, doFetch: typeof fetch, timeoutMs: number): Promise<string | undefined> {
  switch (m.channel) {
    case "email":
      return sendEmail(doFetch, config.resend!, m, timeoutMs);
    case "sms":
      return sendSms(doFetch, config.sms!, m, timeoutMs);
    case "webhook":
      return sendWebhook(doFetch, config.webhookUrl!, m, timeoutMs);
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

/** Whether a message is waiting and its time has come. */
export const isDue = (m: Message, now: number) =>
  isPending(m) && !(m.nextAttemptAt && Date.parse(m.nextAttemptAt) > now);

/** Time left in the caller's run (Infinity outside a scheduled run). */
export const timeLeft = (deps: Required<NotifyDeps>): number => deps.deadline - deps.now();

/** Whether a whole send still fits in the run: work that sends something starts only then. */
export const roomToSend = (deps: Required<NotifyDeps>): boolean => timeLeft(deps) >= SEND_TIMEOUT_MS;

/**
 * Messages that were due but not tried because their run had no time left: unchanged, still
 * due, and no failed attempt (the outbox item is not backed off for them).
 */
const deferred = new WeakSet<Message>();
export const wasDeferred = (m: Message): boolean => deferred.has(m);

async function sendOne(
  m: Message,
  config: NotifyConfig,
  deps: Required<NotifyDeps>,
  now: number,
  timeoutMs: number,
): Promise<Message> {
  if (providerGone(m, config)) return { ...m, state: "kept", note: NOTES.providerGone };
  try {
    const providerId = await send(m, config, deps.fetch, timeoutMs);
    const { nextAttemptAt: _n, note: _e, ...rest } = withoutSignInSecrets(m);
    return {
      ...rest,
      state: "sent",
      attempts: m.attempts + 1,
      sentAt: new Date(deps.now()).toISOString(),
      ...(providerId ? { providerId } : {}),
    };
  } catch (error) {
    const attempts = m.attempts + 1;
    const note = `Attempt ${attempts}: ${describe(error)}`.slice(0, 300);
    return error instanceof DeliveryError && error.permanent
      ? { ...withoutSignInSecrets(m), state: "failed", attempts, note }
      : { ...m, state: "retrying", attempts, note, nextAttemptAt: new Date(now + backoffMs(attempts)).toISOString() };
  }
}

/**
 * Sends the messages `which` picks (default: every due one), in parallel; returns the list with
 * each sent one replaced by its new state (the others are returned as they were, same object).
 * Each send gets the send timeout or the time left in the run, whichever is less, so none
 * outlasts the run; with less than MIN_SEND_MS left a message is not tried (wasDeferred).
 */
export async function sendDue(
  messages: Message[],
  config: NotifyConfig,
  deps: Required<NotifyDeps>,
  which: (m: Message, now: number) => boolean = isDue,
): Promise<Message[]> {
  const now = deps.now();
  const left = deps.deadline - now;
  return Promise.all(
    messages.map(async (m) => {
      if (!which(m, now)) return m;
      if (left < MIN_SEND_MS) {
        deferred.add(m);
        return m;
      }
      const next = await sendOne(m, config, deps, now, Math.min(SEND_TIMEOUT_MS, left));
      console.info(`[notify] ${m.leadId} ${m.kind} ${m.channel}: ${next.state}${next.note ? ` (${next.note})` : ""}`);
      return next;
    }),
  );
}

/**
 * What an attempt says for the launch checklist's "last send" (/admin > Setup): accepted, or
 * failed with its reason; null when nothing went to a provider (kept, or not tried).
 */
export function sendResultOf(m: Message, now: number): SendResult | null {
  const channel = SendChannel.safeParse(m.channel);
  if (!channel.success) return null;
  if (m.state === "sent") {
    return { channel: channel.data, outcome: "accepted", at: m.sentAt ?? new Date(now).toISOString(), kind: m.kind };
  }
  if (m.state !== "failed" && m.state !== "retrying") return null;
  const error = m.note?.replace(/^Attempt \d+: /, "");
  return {
    channel: channel.data,
    outcome: "failed",
    at: new Date(now).toISOString(),
    kind: m.kind,
    ...(error ? { error } : {}),
  };
}

/**
 * sendDue, then the new state of every message it tried stored in one round trip, and each
 * channel's result kept as its last send (a failure to keep that is logged, never thrown).
 */
export async function sendAndRecord(
  store: Store,
  messages: Message[],
  config: NotifyConfig,
  deps: Required<NotifyDeps>,
  which?: (m: Message, now: number) => boolean,
): Promise<Message[]> {
  const sent = await sendDue(messages, config, deps, which);
  const tried = sent.filter((m, i) => m !== messages[i]);
  const now = deps.now();
  const results = tried.flatMap((m) => sendResultOf(m, now) ?? []);
  await Promise.all([
    store.messages.update(...tried),
    results.length === 0
      ? undefined
      : store.runs
          .recordSends(results)
          .catch((error) => console.error(`[notify] last send not kept (${errorName(error)})`)),
  ]);
  return sent;
}
