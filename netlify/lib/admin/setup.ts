/**
 * The launch checklist: one line per thing a live site needs (the store, e-mail, SMS, Claude,
 * the link-signing key, each scheduled function, the data), each ready, a warning or not
 * ready, with one sentence of what to do. The same lines feed /admin > Setup
 * (GET /api/admin/setup) and the server's log at start (runtime/serve.mjs, logSetup), so the
 * two never disagree. Reads the configuration and the store; writes only what reading the
 * link key has always written (the store's own key, drawn once when LINK_SIGNING_SECRET is
 * unset) and the store's own write probe.
 */
import type { AdminSetupReply, SetupFact, SetupLine, SetupState } from "../../../src/lib/admin-setup.ts";
import { env as currentEnv, type Env } from "../../../src/lib/env.ts";
import {
  SCHEDULED_FUNCTIONS,
  type RunRecord,
  type ScheduledFunction,
  type SendChannel,
  type SendResult,
} from "../../../src/lib/schemas/runs.ts";
import { SITE } from "../../../src/lib/site.ts";
import { linkSecret } from "../delivery/signing.ts";
import { endpoint, errorName, jsonResponse, storeCall } from "../http.ts";
import { RESEND_TEST_SENDER, emailReady, senderAddress, smsReady } from "../notify/config.ts";
import { SCHEDULE_EVERY_MS } from "../scheduled-run.ts";
import type { Store } from "../store/index.ts";
import { adminSpec, type AdminDeps, type AdminHandler } from "./endpoint.ts";

/** A schedule whose last run is older than this many of its intervals (plus a minute) has stopped. */
export const STALE_RUNS = 3;
/** Claims read to count claimed businesses (200 a page); past that the count says "at least". */
export const CLAIMS_READ = 2_000;

/** What the lines are computed from: the configuration, the store, the clock. */
export interface SetupInput {
  store: Store;
  env?: Env;
  now?: () => number;
}

const line = (
  id: string,
  label: string,
  state: SetupState,
  text: string,
  facts: (SetupFact | null | false | undefined)[] = [],
): SetupLine => ({ id, label, state, text, facts: facts.filter((f): f is SetupFact => !!f) });

/** "2026-11-28 22:05 UTC": a time in a sentence the log prints too. */
export const utc = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** A number with thousands separators (US English). */
const n = (value: number) => value.toLocaleString("en-US");

/** A failure read as "unknown" rather than stopping the whole checklist. */
async function attempt<T>(read: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: string }> {
  try {
    return { ok: true, value: await read() };
  } catch (error) {
    return { ok: false, error: errorName(error) };
  }
}

// --- the store ---------------------------------------------------------------------------

export function storeLine(store: Pick<Store, "kind" | "description">, writable: boolean): SetupLine {
  const facts = [{ label: "Store", value: store.description }];
  if (!writable) {
    return line(
      "store",
      "Store",
      "not-ready",
      store.kind === "embedded"
        ? `The ${store.description} does not take writes: check that the server can write its data folder (TREELINE_DATA_DIR).`
        : `${store.description} does not take writes: check that it is running and reachable, and that its credentials allow writes.`,
      facts,
    );
  }
  if (store.kind === "embedded" && store.description.endsWith("in memory")) {
    return line(
      "store",
      "Store",
      "not-ready",
      "The embedded store keeps everything in memory and loses it when the process stops: set UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN (or REDIS_URL), or run npm start, which keeps it in TREELINE_DATA_DIR.",
      facts,
    );
  }
  if (store.kind === "embedded") {
    return line(
      "store",
      "Store",
      "ready",
      "The embedded store takes writes and keeps them on this server's disk: back up its folder, and on Netlify set UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN instead.",
      facts,
    );
  }
  return line(
    "store",
    "Store",
    "ready",
    `${store.kind === "upstash" ? "Upstash Redis" : "Redis"} takes writes: nothing to do.`,
    facts,
  );
}

// --- e-mail and SMS ------------------------------------------------------------------------

const CHANNEL_WORDS: Record<SendChannel, string> = { email: "e-mail", sms: "text", webhook: "webhook call" };

/** The last send as facts: its outcome and when, and why it failed. */
function lastSendFacts(last: SendResult | undefined): SetupFact[] {
  if (!last) return [{ label: "Last send", value: "None yet" }];
  return [
    { label: "Last send", value: last.outcome === "accepted" ? "Accepted by the provider" : "Failed" },
    { label: "When", at: last.at },
    ...(last.error ? [{ label: "Error", value: last.error }] : []),
  ];
}

/** "; the provider accepted the last e-mail (2026-11-28 22:05 UTC)." or the failure. */
function lastSendText(channel: SendChannel, last: SendResult | undefined): string {
  const word = CHANNEL_WORDS[channel];
  if (!last) return `no ${word} has been sent yet.`;
  return last.outcome === "accepted"
    ? `the provider accepted the last ${word} (${utc(last.at)}).`
    : `the last ${word} failed (${utc(last.at)}${last.error ? `, ${last.error}` : ""})`;
}

// --- contact ---------------------------------------------------------------------------------

/** 555-0100 to 555-0199: the numbers set aside for fiction, which reach nobody. */
const FICTIONAL_PHONE = /\b555[-. ]?01\d\d\b/;
/** Domains reserved for examples (RFC 2606), which take no mail. */
const EXAMPLE_DOMAIN = /@(?:[\w-]+\.)*(?:example(?:\.(?:com|net|org))?|test|invalid)$/i;

/**
 * Treeline's own line and address, printed on every page (src/lib/site.ts, built into the static
 * pages): a homeowner in an emergency calls this number, so a placeholder is not ready.
 */
export function contactLine(site: { phone: string; email: string } = SITE): SetupLine {
  const facts = [
    { label: "24/7 line", value: site.phone },
    { label: "E-mail", value: site.email },
  ];
  const placeholders = [
    ...(FICTIONAL_PHONE.test(site.phone) ? [`the 24/7 line ${site.phone} is a fictional 555 number`] : []),
    ...(EXAMPLE_DOMAIN.test(site.email) ? [`the e-mail ${site.email} is an example address`] : []),
  ];
  if (placeholders.length > 0) {
    return line(
      "contact",
      "Contact",
      "not-ready",
      `Every page shows Treeline's own contact, and ${placeholders.join(" and ")} that reaches nobody: set the real ones in src/lib/site.ts and deploy again.`,
      facts,
    );
  }
  return line("contact", "Contact", "ready", `Every page shows ${site.phone} and ${site.email}.`, facts);
}

export function emailLine(env: Env, last: SendResult | undefined): SetupLine {
  const sender = env.NOTIFY_EMAIL_FROM;
  const operator = env.NOTIFY_EMAIL_TO.length > 0 ? env.NOTIFY_EMAIL_TO.join(", ") : "None (NOTIFY_EMAIL_TO unset)";
  const facts = [
    { label: "Sender", value: sender },
    { label: "Operator alerts to", value: operator },
    ...lastSendFacts(last),
  ];
  if (!env.RESEND_API_KEY) {
    return line(
      "email",
      "E-mail",
      "not-ready",
      "No e-mail is sent (every one is kept in Messages): set RESEND_API_KEY, and NOTIFY_EMAIL_FROM to an address on your domain verified with Resend.",
      facts,
    );
  }
  if (!emailReady(env)) {
    return line(
      "email",
      "E-mail",
      "not-ready",
      `RESEND_API_KEY uses Resend's test sender ${RESEND_TEST_SENDER}, set NOTIFY_EMAIL_FROM to an address on your verified domain.`,
      facts,
    );
  }
  const from = senderAddress(sender);
  if (last?.outcome === "failed") {
    return line(
      "email",
      "E-mail",
      "warning",
      `Sending as ${from}, but ${lastSendText("email", last)}: check RESEND_API_KEY, and that ${from.split("@")[1] ?? from} is verified in Resend.`,
      facts,
    );
  }
  return line("email", "E-mail", "ready", `Sending as ${from}; ${lastSendText("email", last)}`, facts);
}

const TWILIO = ["TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN", "TWILIO_FROM"] as const;

export function smsLine(env: Env, last: SendResult | undefined): SetupLine {
  const set = TWILIO.filter((name) => Boolean(env[name]));
  const facts = [
    { label: "From", value: env.TWILIO_FROM ?? "Not set" },
    ...(set.length > 0 ? lastSendFacts(last) : []),
  ];
  if (set.length === 0) {
    return line(
      "sms",
      "SMS",
      "warning",
      `No texts are sent, so owners and businesses are ${emailReady(env) ? "offered e-mail only" : "reached by no message at all while e-mail is not ready either"}: to text them, set TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM.`,
      facts,
    );
  }
  if (!smsReady(env)) {
    const missing = TWILIO.filter((name) => !env[name]);
    return line(
      "sms",
      "SMS",
      "not-ready",
      `Twilio is set up only in part and sends nothing: set ${missing.join(" and ")} as well.`,
      facts,
    );
  }
  if (last?.outcome === "failed") {
    return line(
      "sms",
      "SMS",
      "warning",
      `Twilio is set up, but ${lastSendText("sms", last)}: check the account, its balance and TWILIO_FROM in Twilio's console.`,
      facts,
    );
  }
  return line("sms", "SMS", "ready", `Twilio sends texts from ${env.TWILIO_FROM}; ${lastSendText("sms", last)}`, facts);
}

// --- Claude -----------------------------------------------------------------------------------

/** `used`: tokens counted today, or null when the store could not say. */
export function claudeLine(env: Env, used: number | null): SetupLine {
  const budget = env.CHAT_DAILY_TOKEN_BUDGET;
  if (!env.ANTHROPIC_API_KEY) {
    return line(
      "claude",
      "Claude",
      "warning",
      "The built-in assistant answers chat (fixed answers, no model): set ANTHROPIC_API_KEY to let Claude answer.",
      [{ label: "Assistant", value: "Built-in" }],
    );
  }
  const facts: SetupFact[] = [
    { label: "Model", value: env.ANTHROPIC_MODEL },
    { label: "Daily budget", value: `${n(budget)} tokens` },
  ];
  if (budget <= 0) {
    return line(
      "claude",
      "Claude",
      "warning",
      "ANTHROPIC_API_KEY is set but CHAT_DAILY_TOKEN_BUDGET is 0, so the built-in assistant answers: set a daily budget to turn Claude on.",
      facts,
    );
  }
  if (used === null) {
    return line(
      "claude",
      "Claude",
      "warning",
      "Claude answers chat, but today's budget could not be read from the store: check the store line.",
      facts,
    );
  }
  const left = Math.max(0, budget - used);
  facts.push({ label: "Left today", value: `${n(left)} tokens` });
  if (left === 0) {
    return line(
      "claude",
      "Claude",
      "warning",
      `Claude has used today's ${n(budget)} tokens, so the built-in assistant answers until midnight UTC: raise CHAT_DAILY_TOKEN_BUDGET if this happens often.`,
      facts,
    );
  }
  return line(
    "claude",
    "Claude",
    "ready",
    `Claude (${env.ANTHROPIC_MODEL}) answers chat, with ${n(left)} of ${n(budget)} tokens left today.`,
    facts,
  );
}

// --- the link-signing key -----------------------------------------------------------------------

/** `drawn`: whether the store holds (or just drew) its own key; null when it is unset and unreadable. */
export function linkSecretLine(env: Env, drawn: boolean | null): SetupLine {
  if (env.LINK_SIGNING_SECRET) {
    return line("link-secret", "Link-signing secret", "ready", "Set in LINK_SIGNING_SECRET: nothing to do.", [
      { label: "Key", value: "LINK_SIGNING_SECRET" },
    ]);
  }
  if (drawn) {
    return line(
      "link-secret",
      "Link-signing secret",
      "ready",
      "Drawn by the store and kept in it, so links stay valid while the data does; set LINK_SIGNING_SECRET (32+ characters) to keep them valid across a move to another store.",
      [{ label: "Key", value: "Drawn by the store" }],
    );
  }
  return line(
    "link-secret",
    "Link-signing secret",
    "not-ready",
    "LINK_SIGNING_SECRET is unset and the store could not keep a key of its own, so no status or answer link can be made: fix the store, or set LINK_SIGNING_SECRET (32+ characters).",
    [{ label: "Key", value: "None" }],
  );
}

// --- schedules ---------------------------------------------------------------------------------

const EVERY: Record<ScheduledFunction, string> = {
  "lead-clock": "every minute",
  "notify-outbox": "every 5 minutes",
  "storm-alerts": "every 15 minutes",
};

/** "due 3, handled 3, left 0". */
const countsText = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([name, value]) => `${name} ${n(value)}`)
    .join(", ");

export function scheduleLine(name: ScheduledFunction, last: RunRecord | null, now: number): SetupLine {
  const id = `schedule:${name}`;
  const label = `Schedule: ${name}`;
  if (!last) {
    return line(
      id,
      label,
      "warning",
      `No run recorded yet: it runs ${EVERY[name]} (on Netlify only on the published deploy); look again after its next run.`,
      [{ label: "Runs", value: EVERY[name] }],
    );
  }
  const facts: SetupFact[] = [
    { label: "Runs", value: EVERY[name] },
    { label: "Last run", at: last.startedAt },
    { label: "Took", value: `${n(last.durationMs)} ms` },
    {
      label: "Outcome",
      value: { ok: "Done", partial: "Out of time, rest left for the next run", failed: "Failed" }[last.outcome],
    },
    ...(Object.keys(last.counts).length > 0 ? [{ label: "Counts", value: countsText(last.counts) }] : []),
    ...(last.error ? [{ label: "Error", value: last.error }] : []),
  ];
  const when = utc(last.startedAt);
  if (last.outcome === "failed") {
    return line(
      id,
      label,
      "not-ready",
      `The last run (${when}) failed with ${last.error ?? "an error"}: see the function's log; its work waits for the next run.`,
      facts,
    );
  }
  const every = SCHEDULE_EVERY_MS[name];
  if (now - Date.parse(last.startedAt) > STALE_RUNS * every + 60_000) {
    return line(
      id,
      label,
      "warning",
      `It has not run since ${when}: check that scheduled functions run (Netlify: the Functions tab of the published deploy).`,
      facts,
    );
  }
  if (last.outcome === "partial") {
    return line(
      id,
      label,
      "warning",
      `The last run (${when}) ran out of time and left ${n(last.counts.left ?? 0)} for the next run: a backlog, or a slow provider; nothing is lost.`,
      facts,
    );
  }
  return line(
    id,
    label,
    "ready",
    `Last run ${when}, ${n(last.durationMs)} ms${Object.keys(last.counts).length > 0 ? `: ${countsText(last.counts)}` : ""}.`,
    facts,
  );
}

// --- data -----------------------------------------------------------------------------------

export interface DataFacts {
  businesses: number;
  /** Businesses with an owner (claims proved or approved). */
  claimed: number;
  /** True when the claims read stopped at CLAIMS_READ. */
  claimedAtLeast: boolean;
  /** The generated sample directory's seeding, if it was loaded. */
  sample: { at: string; file: string } | null;
}

/** "1 business", "4,000 businesses". */
const businesses = (count: number) => `${n(count)} business${count === 1 ? "" : "es"}`;

export function dataLine(kind: Store["kind"], data: DataFacts): SetupLine {
  const claimed = `${data.claimedAtLeast ? "at least " : ""}${n(data.claimed)}`;
  const facts: SetupFact[] = [
    { label: "Businesses", value: n(data.businesses) },
    { label: "Claimed by their owners", value: claimed },
    { label: "Data", value: data.sample ? `Sample (${data.sample.file})` : "Imported" },
    ...(data.sample ? [{ label: "Sample loaded", at: data.sample.at }] : []),
  ];
  if (data.businesses === 0) {
    return line(
      "data",
      "Data",
      "not-ready",
      "The directory is empty: import your businesses with npm run import -- file.csv (a dry run; then --apply).",
      facts,
    );
  }
  if (data.sample) {
    return line(
      "data",
      "Data",
      kind === "embedded" ? "warning" : "not-ready",
      kind === "embedded"
        ? `The directory holds the generated sample businesses (${businesses(data.businesses)} in all, samples marked on every page): a demo. A launch runs on Redis or Upstash, where only npm run import loads businesses.`
        : `The directory holds the generated sample businesses (${businesses(data.businesses)} in all): a demo on a store that looks like production. Launch on a store holding only what npm run import loaded.`,
      facts,
    );
  }
  return line("data", "Data", "ready", `${businesses(data.businesses)}, ${claimed} claimed by their owners.`, facts);
}

/** Businesses with an owner: those of claims proved by the contact on file or approved by the operator. */
async function claimedBusinesses(store: Store): Promise<{ claimed: number; atLeast: boolean }> {
  const owned = new Set<string>();
  for (let offset = 0; offset < CLAIMS_READ; offset += 200) {
    const page = await store.claims.list({ status: "all", offset, limit: 200 });
    for (const claim of page.items)
      if ((claim.status === "proved" || claim.status === "approved") && claim.businessId) owned.add(claim.businessId);
    if (offset + 200 >= page.total) return { claimed: owned.size, atLeast: false };
  }
  return { claimed: owned.size, atLeast: true };
}

// --- the whole checklist ---------------------------------------------------------------------

/** Every line, in the checklist's order. A store read that fails shows on its line, never stops the rest. */
export async function setupChecklist({ store, env = currentEnv(), now = Date.now }: SetupInput): Promise<SetupLine[]> {
  const at = now();
  const [writable, sends, runs, used, secret, data] = await Promise.all([
    store.writable().catch(() => false),
    attempt(() => store.runs.lastSends()),
    attempt(() => store.runs.latest(SCHEDULED_FUNCTIONS)),
    env.ANTHROPIC_API_KEY ? attempt(() => store.chatBudget.used(at)) : Promise.resolve(null),
    env.LINK_SIGNING_SECRET ? Promise.resolve(null) : attempt(() => linkSecret(store, env)),
    attempt(async () => {
      const [businesses, claims, seeding] = await Promise.all([
        store.businesses.count(),
        claimedBusinesses(store),
        store.meta.seeding(),
      ]);
      const sample = seeding?.sample ? { at: seeding.at, file: seeding.from } : null;
      return { businesses, claimed: claims.claimed, claimedAtLeast: claims.atLeast, sample } satisfies DataFacts;
    }),
  ]);
  const last = sends.ok ? sends.value : {};
  const unreadable = (id: string, label: string, what: string, error: string) =>
    line(id, label, "not-ready", `${what} could not be read from the store (${error}): check the store line.`);
  return [
    storeLine(store, writable),
    contactLine(),
    emailLine(env, last.email),
    smsLine(env, last.sms),
    claudeLine(env, used === null ? 0 : used.ok ? used.value : null),
    linkSecretLine(env, secret === null ? null : secret.ok),
    ...SCHEDULED_FUNCTIONS.map((name) =>
      runs.ok
        ? scheduleLine(name, runs.value[name], at)
        : unreadable(`schedule:${name}`, `Schedule: ${name}`, "Its last run", runs.error),
    ),
    data.ok ? dataLine(store.kind, data.value) : unreadable("data", "Data", "The directory's size", data.error),
  ];
}

/** A line as the server's log prints it: "[setup] e-mail: not ready: RESEND_API_KEY uses ...". */
export const logLine = (l: SetupLine): string =>
  `[setup] ${l.label.replace(/^Schedule: /, "schedule ").replace(/^(?!SMS|Claude)\S/, (c) => c.toLowerCase())}: ${
    { ready: "ready", warning: "warning", "not-ready": "not ready" }[l.state]
  }: ${l.text}`;

/** Logs the checklist, one line per item (runtime/serve.mjs at start). Never throws. */
export async function logSetup(input: SetupInput, log: (line: string) => void = console.log): Promise<void> {
  try {
    for (const l of await setupChecklist(input)) log(logLine(l));
  } catch (error) {
    log(`[setup] checklist not read (${errorName(error)}): see /admin > Setup`);
  }
}

/** GET /api/admin/setup -> AdminSetupReply. */
export function adminSetupHandler(deps: AdminDeps = {}): AdminHandler {
  return endpoint(adminSpec("setup", ["GET"]), deps, async ({ store, env, now }) => {
    const lines = await storeCall(() => setupChecklist({ store, env, now }));
    const reply: AdminSetupReply = { checkedAt: new Date(now()).toISOString(), lines };
    return jsonResponse(reply);
  });
}
