/**
 * The three ways a message leaves: Resend (one JSON POST /emails), Twilio (one form POST to
 * the Messages API) and a Slack-compatible webhook. Each returns the provider's id for the
 * message or throws a DeliveryError that says whether trying again can help.
 */
import type { Message } from "../../../src/lib/schemas/message.ts";

/** One slow receiver must not eat a whole scheduled run. */
export const SEND_TIMEOUT_MS = 10_000;
/** A send is not started with less than this left in its run: it waits for the next run instead. */
export const MIN_SEND_MS = 1_000;

export class DeliveryError extends Error {
  /** True when the provider refused this message for good (a bad address, a bad number). */
  constructor(
    message: string,
    readonly permanent = false,
  ) {
    super(message);
  }
}

export interface EmailProvider {
  from: string;
  apiKey: string;
  apiUrl: string;
}

export interface SmsProvider {
  accountSid: string;
  authToken: string;
  /** A phone number (+1...) or a Messaging Service SID (MG...). */
  from: string;
  apiUrl: string;
}

/** 4xx other than timeouts and rate limits will fail again the same way. */
const permanentStatus = (status: number) => status >= 400 && status < 500 && status !== 408 && status !== 429;

/** `timeoutMs`: the send timeout, or less when the caller's run has less time left. */
async function call(
  doFetch: typeof fetch,
  url: string,
  { timeoutMs, ...init }: RequestInit & { timeoutMs: number },
): Promise<unknown> {
  const res = await doFetch(url, {
    ...init,
    method: "POST",
    signal: AbortSignal.timeout(timeoutMs),
    redirect: "error",
  });
  // Read the body so the connection is reused; only the provider's id is kept from it.
  const body = await res.text().catch(() => "");
  if (!res.ok) throw new DeliveryError(`HTTP ${res.status}`, permanentStatus(res.status));
  try {
    return JSON.parse(body);
  } catch {
    return null;
  }
}

const idFrom = (body: unknown, key: string): string | undefined => {
  const value = body && typeof body === "object" ? (body as Record<string, unknown>)[key] : undefined;
  return typeof value === "string" ? value.slice(0, 100) : undefined;
};

export async function sendEmail(
  doFetch: typeof fetch,
  provider: EmailProvider,
  m: Message,
  timeoutMs = SEND_TIMEOUT_MS,
): Promise<string | undefined> {
  const to = m.to
    .split(",")
    .map((a) => a.trim())
    .filter(Boolean);
  const body = await call(doFetch, provider.apiUrl, {
    timeoutMs,
    // Resend sends a repeated key once (24 h): a retry after a lost answer never mails twice.
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${provider.apiKey}`,
      "idempotency-key": m.id.slice(0, 256),
    },
    body: JSON.stringify({
      from: provider.from,
      to,
      subject: m.subject,
      text: m.text,
      ...(m.html ? { html: m.html } : {}),
    }),
  });
  return idFrom(body, "id");
}

/** "(512) 555-0142" -> "+15125550142" (US numbers; an already international number stays). */
export function e164(phone: string): string | null {
  const digits = phone.replace(/\D/g, "");
  if (phone.trim().startsWith("+") && digits.length >= 8 && digits.length <= 15) return `+${digits}`;
  if (digits.length === 10) return `+1${digits}`;
  if (digits.length === 11 && digits.startsWith("1")) return `+${digits}`;
  return null;
}

export async function sendSms(
  doFetch: typeof fetch,
  provider: SmsProvider,
  m: Message,
  timeoutMs = SEND_TIMEOUT_MS,
): Promise<string | undefined> {
  const to = e164(m.to);
  if (!to) throw new DeliveryError("not a phone number", true);
  const form = new URLSearchParams({ To: to, Body: m.text });
  form.set(provider.from.startsWith("MG") ? "MessagingServiceSid" : "From", provider.from);
  const url = `${provider.apiUrl}/2010-04-01/Accounts/${encodeURIComponent(provider.accountSid)}/Messages.json`;
  const auth = Buffer.from(`${provider.accountSid}:${provider.authToken}`).toString("base64");
  const body = await call(doFetch, url, {
    timeoutMs,
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${auth}` },
    body: form.toString(),
  });
  return idFrom(body, "sid");
}

export async function sendWebhook(
  doFetch: typeof fetch,
  url: string,
  m: Message,
  timeoutMs = SEND_TIMEOUT_MS,
): Promise<undefined> {
  await call(doFetch, url, {
    timeoutMs,
    headers: { "content-type": "application/json" },
    body: m.payload ?? JSON.stringify({ text: m.text }),
  });
  return undefined;
}
