/**
 * The notifier's providers, read from the configuration: Resend e-mail (RESEND_API_KEY; the
 * operator's also needs NOTIFY_EMAIL_TO), Twilio SMS (TWILIO_*), a Slack-compatible webhook
 * (NOTIFY_WEBHOOK_URL), and the origin for every link (SITE_URL).
 */
import { env as currentEnv, type Env } from "../../../src/lib/env.ts";
import type { EmailProvider, SmsProvider } from "./channels.ts";
import type { ChannelSetup } from "./drafts.ts";
import type { WebhookNet } from "../webhooks/net.ts";

/** The operator's channels, as the admin's Notifications tab names them. */
export type Channel = "webhook" | "email";

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

/**
 * Resend's test sender, the default NOTIFY_EMAIL_FROM: Resend takes mail from it only to the
 * Resend account's own address, so a visitor or a business never gets it.
 */
export const RESEND_TEST_SENDER = "onboarding@resend.dev";

/** The address in a sender like "Treeline <leads@example.com>", lowercased. */
export const senderAddress = (from: string): string => (/<([^>]*)>/.exec(from)?.[1] ?? from).trim().toLowerCase();

/** Whether a sender is one of Resend's test addresses (@resend.dev: no one can verify that domain). */
export const isTestSender = (from: string): boolean => senderAddress(from).endsWith("@resend.dev");

/** Why e-mail cannot reach visitors, businesses or owners here (/admin Setup and the server log show these). */
export const EMAIL_NOT_READY = {
  noKey: "RESEND_API_KEY is not set: no e-mail is sent, every message is kept in /admin Messages.",
  testSender: `NOTIFY_EMAIL_FROM is Resend's test sender (${RESEND_TEST_SENDER}), which reaches only the Resend account's own address: set it to an address on a domain verified with Resend.`,
} as const;

/** Why text messages cannot be sent here. */
export const SMS_NOT_READY = {
  missing: (names: readonly string[]) =>
    `${names.join(", ")} ${names.length === 1 ? "is" : "are"} not set: no text message is sent.`,
} as const;

/** null when e-mail can reach anyone; else why not (EMAIL_NOT_READY). */
export function emailNotReady(env: Env = currentEnv()): string | null {
  if (!env.RESEND_API_KEY) return EMAIL_NOT_READY.noKey;
  // An unset NOTIFY_EMAIL_FROM defaults to the test sender (src/lib/env.ts), so this covers both.
  if (isTestSender(env.NOTIFY_EMAIL_FROM)) return EMAIL_NOT_READY.testSender;
  return null;
}

/**
 * E-mail can reach a visitor, a business or an owner: a Resend key, and a sender of the
 * operator's own (NOTIFY_EMAIL_FROM set, and not Resend's test address). Without it, nothing
 * may say an e-mail is sent or on its way to them.
 */
export const emailReady = (env: Env = currentEnv()): boolean => emailNotReady(env) === null;

const TWILIO_SETTINGS = ["TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN", "TWILIO_FROM"] as const;

/** null when text messages can be sent; else why not (SMS_NOT_READY). */
export function smsNotReady(env: Env = currentEnv()): string | null {
  const missing = TWILIO_SETTINGS.filter((name) => !env[name]);
  return missing.length > 0 ? SMS_NOT_READY.missing(missing) : null;
}

/** Twilio is configured: a text message can be sent (it is still only "texted" once Twilio took it). */
export const smsReady = (env: Env = currentEnv()): boolean => smsNotReady(env) === null;

/**
 * Whether an offer can reach a business at all here: by e-mail (Resend with a real sender:
 * the test sender reaches no business) or text (Twilio).
 */
export const offersCanBeSent = (env: Env = currentEnv()): boolean => emailReady(env) || smsReady(env);

/** The operator's configured channels (none: their messages are kept for /admin). */
export const channelsOf = (config: NotifyConfig): Channel[] => [
  ...(config.webhookUrl ? ["webhook" as const] : []),
  ...(config.email ? ["email" as const] : []),
];

export const setupOf = (config: NotifyConfig): ChannelSetup => ({
  email: config.resend !== undefined,
  emailReady: config.resend !== undefined && !isTestSender(config.resend.from),
  operatorEmails: config.email?.to ?? [],
  webhook: config.webhookUrl !== undefined,
  sms: config.sms !== undefined,
});

/** Seams for tests; production uses the defaults. */
export interface NotifyDeps {
  /** The configuration (tests: parseEnv({ ... })); default env(). */
  env?: Env;
  fetch?: typeof fetch;
  now?: () => number;
  /**
   * The end of the caller's scheduled run (ms on `now`'s clock, ../run-budget.ts): no work
   * starts that cannot end by then, and no send is given more time than is left. Default
   * none (a request's own attempt, which only has the send timeout).
   */
  deadline?: number;
  /** Where businesses' webhooks may go (tests: a receiver on 127.0.0.1, a fake resolver); default the internet. */
  webhookNet?: WebhookNet;
}

export const resolveDeps = (deps: NotifyDeps): Required<NotifyDeps> => ({
  env: deps.env ?? currentEnv(),
  fetch: deps.fetch ?? fetch,
  now: deps.now ?? Date.now,
  deadline: deps.deadline ?? Infinity,
  webhookNet: deps.webhookNet ?? {},
});
