/**
 * The configuration: every environment variable the site reads (docs/environment.md,
 * .env.example), parsed by one zod schema. Functions, the on-demand pages, the
 * build and the scripts call `env()`; tests build one with `parseEnv({ ... })` and pass it in.
 *
 * Every variable is optional. A blank value counts as unset. A value that does not parse is
 * replaced by the variable's default, with one warning that names the variable (never its
 * value), so a typo in the Netlify UI degrades a setting instead of failing every request.
 *
 * Server and build only: islands never import it (eslint.config.js). The schema is built on
 * first use, so a bundle that reaches this file without calling it drops it whole.
 */
import { z } from "./zod.ts";

/** A raw environment: process.env, or a record a test makes up. */
export type RawEnv = Readonly<Record<string, string | undefined>>;

const DEFAULT_SITE_URL = "https://treeline.example";

/** Trimmed; blank is unset. */
const clean = (value: unknown) => (typeof value === "string" ? value.trim() || undefined : value);

const text = () => z.preprocess(clean, z.string().optional());
const textOr = (fallback: string) => z.preprocess(clean, z.string().default(fallback));

/** A whole number in [min, max]; `_` and `,` may group digits ("2_000_000", "2,000,000"). */
const wholeNumber = (fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z.preprocess(
    (value) => {
      const v = clean(value);
      return typeof v === "string" && /^\d[\d_,]*$/.test(v) ? Number(v.replace(/[_,]/g, "")) : v;
    },
    z
      .number({ error: `expected a whole number from ${min}` })
      .int()
      .min(min, { error: `expected a whole number from ${min}` })
      .max(max, { error: `expected a whole number up to ${max}` })
      .default(fallback),
  );

/** A number in (0, max], decimals allowed. */
const positiveNumber = (fallback: number, max: number) =>
  z.preprocess(
    (value) => {
      const v = clean(value);
      return typeof v === "string" && /^\d+(\.\d+)?$/.test(v) ? Number(v) : v;
    },
    z
      .number({ error: `expected a number above 0, up to ${max}` })
      .gt(0, { error: `expected a number above 0, up to ${max}` })
      .max(max, { error: `expected a number above 0, up to ${max}` })
      .default(fallback),
  );

/** 1/true/yes/on or 0/false/no/off (any case); unset stays undefined ("the default for the case"). */
const flag = () =>
  z.preprocess(
    (value) => {
      const v = clean(value);
      if (typeof v !== "string") return v;
      if (/^(1|true|yes|on)$/i.test(v)) return true;
      if (/^(0|false|no|off)$/i.test(v)) return false;
      return v;
    },
    z.boolean({ error: "expected 1/true/yes/on or 0/false/no/off" }).optional(),
  );

const urlOf = (protocol: RegExp, expected: string) =>
  z.url({ protocol, error: `expected ${expected}` }).transform((u) => u.replace(/\/$/, ""));
const httpUrl = () => z.preprocess(clean, urlOf(/^https?$/, "an http(s) URL").optional());
const httpUrlOr = (fallback: string) => z.preprocess(clean, urlOf(/^https?$/, "an http(s) URL").default(fallback));

/** Comma-separated; blanks between commas are dropped. */
const list = () =>
  z.preprocess(
    (value) =>
      typeof value === "string"
        ? value
            .split(",")
            .map((item) => item.trim())
            .filter(Boolean)
        : value,
    z.array(z.string()).default([]),
  );

function buildSchema() {
  return z.object({
    // --- site --------------------------------------------------------------------------
    /** Canonical origin (an http(s) URL, trailing slash dropped). Default: Netlify's `URL`, then `https://treeline.example`. */
    SITE_URL: httpUrl(),
    /** Set by Netlify on its builds and functions: the site's main URL. Used when SITE_URL is unset. */
    URL: httpUrl(),
    /** `npm start`: port to listen on, 1-65535. Default 8888. */
    PORT: wholeNumber(8888, 1, 65_535),
    /** `npm start`: address to listen on. Default `127.0.0.1`. */
    HOST: textOr("127.0.0.1"),

    // --- store (netlify/lib/store) --------------------------------------------------------
    /** Upstash Redis over REST (http(s) URL); used with the token when both are set. */
    UPSTASH_REDIS_REST_URL: httpUrl(),
    /** Upstash REST token. */
    UPSTASH_REDIS_REST_TOKEN: text(),
    /** A Redis server (`redis://` or `rediss://`), used when Upstash is not configured. */
    REDIS_URL: z.preprocess(clean, urlOf(/^rediss?$/, "a redis:// or rediss:// URL").optional()),
    /** Prefix for every key. Default `treeline:`; set but empty means no prefix. */
    REDIS_KEY_PREFIX: z.string().default("treeline:"),
    /** Where the local server's embedded store persists. Default `.data`. */
    TREELINE_DATA_DIR: textOr(".data"),
    /** Boolean: persist the local server's embedded store. Default: yes, except under a test runner. */
    TREELINE_EMBEDDED_PERSIST: flag(),
    /** Boolean: seed the directory on first use when it is empty. Default: yes for the embedded store, no for Redis/Upstash. */
    TREELINE_AUTO_SEED: flag(),
    /** Seed file path. Default: the store's DEFAULT_SEED_FILE (`content/directory/businesses.json`). */
    TREELINE_SEED_FILE: text(),

    // --- limits ---------------------------------------------------------------------------
    /** Lead form submissions per minute per IP and endpoint, 0 = no limit. Default 5. */
    RATE_LIMIT_PER_MINUTE: wholeNumber(5),
    /** Reviews one business may receive per hour, across every visitor (429 beyond), 0 = no limit. Default 20. */
    REVIEW_BUSINESS_LIMIT_PER_HOUR: wholeNumber(20),
    /** Admin API requests per minute per IP, 0 = no limit. Default 120: a busy operator clicks fast, a script more. */
    ADMIN_RATE_LIMIT_PER_MINUTE: wholeNumber(120),
    /** Chat messages per minute per IP, 0 = no limit. Default 12: a brisk human types well under this. */
    CHAT_RATE_LIMIT_PER_MINUTE: wholeNumber(12),

    // --- chat assistant ---------------------------------------------------------------------
    /** Claude API key; unset = the built-in assistant answers. */
    ANTHROPIC_API_KEY: text(),
    /** Model id. Default `claude-haiku-5-5`, the current inexpensive Claude (platform.claude.com models overview). */
    ANTHROPIC_MODEL: textOr("claude-haiku-5-5"),
    /** Messages API origin (http(s) URL). Default `https://api.anthropic.com`. */
    ANTHROPIC_BASE_URL: httpUrlOr("https://api.anthropic.com"),
    /** Tokens (input + output, all calls) Claude may use per UTC day across all visitors, 0 = Claude off. Default 2,000,000. */
    CHAT_DAILY_TOKEN_BUDGET: wholeNumber(2_000_000),
    /** Percent of the daily budget one client (address) may use, above 0 up to 100, decimals allowed. Default 5 (20 clients share a day at least). */
    CHAT_CLIENT_BUDGET_PERCENT: positiveNumber(5, 100),

    // --- storm mode ---------------------------------------------------------------------------
    /** National Weather Service API origin (http(s) URL) the storm-alerts check reads. Default `https://api.weather.gov` (no key needed). */
    NWS_API_URL: httpUrlOr("https://api.weather.gov"),

    // --- admin ------------------------------------------------------------------------------
    /** The operator's sign-in token for /admin (at least 16 characters, checked by admin/auth.ts); unset = admin disabled. */
    ADMIN_TOKEN: text(),

    // --- lead notifications -------------------------------------------------------------------
    /** Slack-compatible incoming webhook (http(s) URL) that gets every new lead. */
    NOTIFY_WEBHOOK_URL: httpUrl(),
    /** Comma-separated addresses that get every new lead by e-mail (with RESEND_API_KEY). */
    NOTIFY_EMAIL_TO: list(),
    /** Sender of every e-mail the site sends (operator, visitors, businesses). Default `Treeline <onboarding@resend.dev>`. */
    NOTIFY_EMAIL_FROM: textOr("Treeline <onboarding@resend.dev>"),
    /** Resend API key; unset = no e-mail is sent (every message is kept in /admin Messages). Operator e-mail also needs NOTIFY_EMAIL_TO. */
    RESEND_API_KEY: text(),
    /** Resend endpoint (http(s) URL). Default `https://api.resend.com/emails`. */
    RESEND_API_URL: httpUrlOr("https://api.resend.com/emails"),

    // --- lead delivery (netlify/lib/delivery) ---------------------------------------------------
    /** Key for the status and answer links (at least 32 characters); unset = a key the store draws once and keeps. */
    LINK_SIGNING_SECRET: z.preprocess(
      clean,
      z.string().min(32, { error: "expected at least 32 characters" }).optional(),
    ),
    /** Twilio account SID; with TWILIO_AUTH_TOKEN and TWILIO_FROM, offers also go to businesses by SMS. */
    TWILIO_ACCOUNT_SID: text(),
    /** Twilio auth token. */
    TWILIO_AUTH_TOKEN: text(),
    /** Sender: a Twilio phone number (+15125550100) or a Messaging Service SID (MG...). */
    TWILIO_FROM: text(),
    /** Twilio API origin (http(s) URL). Default `https://api.twilio.com`. */
    TWILIO_API_URL: httpUrlOr("https://api.twilio.com"),

    // --- `npm run seed` against a deployed site -------------------------------------------------
    /** Netlify site id, to purge the CDN's cached directory pages after seeding. */
    SITE_ID: text(),
    /** Netlify personal access token for that purge. */
    NETLIFY_AUTH_TOKEN: text(),
    /** A purge-only Netlify token; preferred over NETLIFY_AUTH_TOKEN when both are set. */
    NETLIFY_PURGE_API_TOKEN: text(),

    // --- tooling ------------------------------------------------------------------------------
    /** Chromium for the tests and benchmarks. Default `/usr/bin/chromium`. */
    CHROME_PATH: textOr("/usr/bin/chromium"),
    /** Set by tooling: `test` under a test runner. */
    NODE_ENV: text(),
    /** Set by vitest. */
    VITEST: text(),
  });
}

type Schema = ReturnType<typeof buildSchema>;
export type Env = z.output<Schema> & {
  /** The canonical origin: SITE_URL, else Netlify's URL, else `https://treeline.example`; no trailing slash. */
  readonly siteUrl: string;
};

let schema: Schema | undefined;

/**
 * The configuration in `source`. Never throws: a variable that does not parse gets its
 * default, and `warn` gets one line naming it.
 */
export function parseEnv(source: RawEnv, warn: (line: string) => void = console.warn): Env {
  schema ??= buildSchema();
  const keys = Object.keys(schema.shape) as (keyof Schema["shape"])[];
  const input: Record<string, string | undefined> = {};
  for (const key of keys) input[key] = source[key];
  let parsed = schema.safeParse(input);
  if (!parsed.success) {
    const seen = new Set<string>();
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0]);
      if (seen.has(key)) continue;
      seen.add(key);
      warn(`[env] ${key} ignored (${issue.message}); using its default`);
      input[key] = undefined;
    }
    parsed = schema.safeParse(input);
  }
  // Unset, every field has a default or is optional, so this parse cannot fail.
  const data = parsed.success ? parsed.data : schema.parse({});
  return { ...data, siteUrl: data.SITE_URL ?? data.URL ?? DEFAULT_SITE_URL };
}

let memo: { key: string; env: Env } | undefined;

/**
 * The configuration of this process, parsed once. Parsed again only when one of its variables
 * changed: tests set some (REDIS_URL, a key prefix) before calling a function.
 */
export function env(): Env {
  schema ??= buildSchema();
  const key = Object.keys(schema.shape)
    .map((name) => process.env[name] ?? "\u0000")
    .join("\u0001");
  if (memo?.key !== key) memo = { key, env: parseEnv(process.env) };
  return memo.env;
}

/** The canonical origin (see Env.siteUrl). */
export function siteUrl(config: Env = env()): string {
  return config.siteUrl;
}
