/**
 * The notifier's providers, read from the configuration: Resend e-mail (RESEND_API_KEY; the
 * operator's also needs NOTIFY_EMAIL_TO), Twilio SMS (TWILIO_*), a Slack-compatible webhook
 * (NOTIFY_WEBHOOK_URL), and the origin for every link (SITE_URL).
 */
import { env as currentEnv, type Env } from "../../../src/lib/env.ts";
import type { EmailProvider, SmsProvider } from "./channels.ts";
import type { ChannelSetup } from "./drafts.ts";

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

/** Resend's test sender (the default NOTIFY_EMAIL_FROM): Resend delivers its mail only to the account's owner. */
export const RESEND_TEST_SENDER = "onboarding@resend.dev";

/** The address inside a sender ("Treeline <hello@example.com>" -> "hello@example.com"), lower-cased. */
export const senderAddress = (from: string): string => (/<([^>]*)>/.exec(from)?.[1] ?? from).trim().toLowerCase();

/**
 * Whether e-mail can reach people: a Resend key and a sender of the operator's own
 * (NOTIFY_EMAIL_FROM set, not Resend's test sender, which reaches nobody but the account owner).
 */
export const emailReady = (env: Env = currentEnv()): boolean =>
  Boolean(env.RESEND_API_KEY) && senderAddress(env.NOTIFY_EMAIL_FROM) !== RESEND_TEST_SENDER;

/** Whether texts can go: every Twilio setting (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM). */
export const smsReady = (env: Env = currentEnv()): boolean => notifyConfig(env).sms !== undefined;

/** Whether an offer can reach a business at all here: by e-mail (Resend) or text (Twilio). */
export const offersCanBeSent = (env: Env = currentEnv()): boolean => {
  const config = notifyConfig(env);
  return config.resend !== undefined || config.sms !== undefined;
};

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
}

export const resolveDeps = (deps: NotifyDeps): Required<NotifyDeps> => ({
  env: deps.env ?? currentEnv(),
  fetch: deps.fetch ?? fetch,
  now: deps.now ?? Date.now,
  deadline: deps.deadline ?? Infinity,
});
