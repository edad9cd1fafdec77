/**
 * The launch checklist (netlify/lib/admin/setup.ts): every line's state from the configuration
 * and what the store holds (each branch), the whole list on an embedded store as it fills up,
 * the server's log lines, the scheduled functions' runs as they keep them
 * (netlify/lib/scheduled-run.ts), and the send path's last result per channel
 * (netlify/lib/notify/send.ts). No Redis needed.
 */
import { readdirSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  CLAIMS_READ,
  claudeLine,
  contactLine,
  dataLine,
  emailLine,
  linkSecretLine,
  logLine,
  logSetup,
  scheduleLine,
  setupChecklist,
  smsLine,
  storeLine,
  type DataFacts,
} from "../../netlify/lib/admin/setup.ts";
import { RESEND_TEST_SENDER, emailReady, senderAddress, smsReady } from "../../netlify/lib/notify/config.ts";
import { sendAndRecord, sendResultOf } from "../../netlify/lib/notify/send.ts";
import { notifyConfig, resolveDeps } from "../../netlify/lib/notify/config.ts";
import {
  SCHEDULES,
  SCHEDULE_EVERY_MS,
  clockSummary,
  drainSummary,
  recordRun,
} from "../../netlify/lib/scheduled-run.ts";
import { createStore, type Store } from "../../netlify/lib/store/index.ts";
import { nextRun } from "../../runtime/cron.ts";
import type { SetupLine } from "../../src/lib/admin-setup.ts";
import { parseEnv, type RawEnv } from "../../src/lib/env.ts";
import type { Message } from "../../src/lib/schemas/message.ts";
import { SCHEDULED_FUNCTIONS, type RunRecord, type SendResult } from "../../src/lib/schemas/runs.ts";
import type { Claim } from "../../src/lib/owners/claims.ts";
import { testBusiness } from "../helpers/functions.ts";

const NOW = Date.parse("2026-11-28T22:00:00.000Z");
const KEY = { RESEND_API_KEY: "re_test_key" };
const OWN_SENDER = { ...KEY, NOTIFY_EMAIL_FROM: "Treeline <hello@treeline-pros.com>" };
const TWILIO = { TWILIO_ACCOUNT_SID: "AC123", TWILIO_AUTH_TOKEN: "secret", TWILIO_FROM: "+15125550100" };
const env = (raw: RawEnv = {}) => parseEnv(raw);
const iso = (ms: number) => new Date(ms).toISOString();

const accepted = (channel: SendResult["channel"]): SendResult => ({
  channel,
  outcome: "accepted",
  at: iso(NOW - 60_000),
  kind: "receipt",
});
const failed = (channel: SendResult["channel"], error = "HTTP 403"): SendResult => ({
  channel,
  outcome: "failed",
  at: iso(NOW - 60_000),
  error,
});
const run = (over: Partial<RunRecord> = {}): RunRecord => ({
  name: "lead-clock",
  startedAt: iso(NOW - 30_000),
  finishedAt: iso(NOW - 29_000),
  durationMs: 1_000,
  outcome: "ok",
  counts: { due: 2, handled: 2, changed: 1, failed: 0, left: 0 },
  ...over,
});
const stores: Store[] = [];
const embedded = (label: string) => {
  const store = createStore({ transport: "embedded", prefix: `setup:${label}:` });
  stores.push(store);
  return store;
};
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
  vi.restoreAllMocks();
});

describe("launch checklist: the store", () => {
  it("Redis or Upstash that takes writes is ready", () => {
    expect(storeLine({ kind: "redis", description: "Redis at redis://127.0.0.1:6379" }, true)).toMatchObject({
      state: "ready",
      text: "Redis takes writes: nothing to do.",
      facts: [{ label: "Store", value: "Redis at redis://127.0.0.1:6379" }],
    });
    expect(storeLine({ kind: "upstash", description: "Upstash Redis over REST at https://x" }, true).text).toBe(
      "Upstash Redis takes writes: nothing to do.",
    );
  });

  it("a store that does not take writes is not ready, and says where to look", () => {
    const redis = storeLine({ kind: "redis", description: "Redis at redis://db:6379" }, false);
    expect(redis.state).toBe("not-ready");
    expect(redis.text).toMatch(/^Redis at redis:\/\/db:6379 does not take writes: check that it is running/);
    const local = storeLine({ kind: "embedded", description: "embedded store persisted to .data/store.json" }, false);
    expect(local.state).toBe("not-ready");
    expect(local.text).toContain("TREELINE_DATA_DIR");
  });

  it("the embedded store: in memory is not ready, on disk is ready for one server", () => {
    const memory = storeLine({ kind: "embedded", description: "embedded store in memory" }, true);
    expect(memory.state).toBe("not-ready");
    expect(memory.text).toContain("set UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN");
    const disk = storeLine(
      { kind: "embedded", description: "this server's embedded store persisted to .data/store.json" },
      true,
    );
    expect(disk.state).toBe("ready");
    expect(disk.text).toContain("on Netlify set UPSTASH_REDIS_REST_URL");
  });
});

describe("launch checklist: e-mail", () => {
  it("without RESEND_API_KEY nothing is sent: not ready", () => {
    const l = emailLine(env(), undefined);
    expect(l.state).toBe("not-ready");
    expect(l.text).toMatch(/^No e-mail is sent .*set RESEND_API_KEY, and NOTIFY_EMAIL_FROM/);
    expect(emailReady(env())).toBe(false);
  });

  it("RESEND_API_KEY with the default sender shows e-mail not ready", () => {
    const config = env(KEY);
    expect(config.NOTIFY_EMAIL_FROM).toBe(`Treeline <${RESEND_TEST_SENDER}>`);
    expect(emailReady(config)).toBe(false);
    const l = emailLine(config, undefined);
    expect(l.state).toBe("not-ready");
    expect(l.text).toBe(
      "RESEND_API_KEY uses Resend's test sender onboarding@resend.dev, set NOTIFY_EMAIL_FROM to an address on your verified domain.",
    );
    expect(l.facts).toContainEqual({ label: "Sender", value: "Treeline <onboarding@resend.dev>" });
    // Even after the account owner got a test e-mail through.
    expect(emailLine(config, accepted("email")).state).toBe("not-ready");
  });

  it("the test sender set by hand, in any case or without a name, is not ready either", () => {
    for (const from of ["ONBOARDING@resend.dev", "Us <Onboarding@Resend.dev>", " onboarding@resend.dev "]) {
      expect(senderAddress(from)).toBe(RESEND_TEST_SENDER);
      expect(emailLine(env({ ...KEY, NOTIFY_EMAIL_FROM: from }), undefined).state).toBe("not-ready");
    }
  });

  it("a sender of the operator's own is ready; before any send it says none went yet", () => {
    const config = env({ ...OWN_SENDER, NOTIFY_EMAIL_TO: "ops@treeline-pros.com" });
    expect(emailReady(config)).toBe(true);
    const l = emailLine(config, undefined);
    expect(l).toMatchObject({
      state: "ready",
      text: "Sending as hello@treeline-pros.com; no e-mail has been sent yet.",
    });
    expect(l.facts).toContainEqual({ label: "Operator alerts to", value: "ops@treeline-pros.com" });
    expect(l.facts).toContainEqual({ label: "Last send", value: "None yet" });
  });

  it("the last send accepted: ready, with when", () => {
    const l = emailLine(env(OWN_SENDER), accepted("email"));
    expect(l.state).toBe("ready");
    expect(l.text).toBe(
      "Sending as hello@treeline-pros.com; the provider accepted the last e-mail (2026-11-28 21:59 UTC).",
    );
    expect(l.facts).toContainEqual({ label: "Last send", value: "Accepted by the provider" });
    expect(l.facts).toContainEqual({ label: "When", at: iso(NOW - 60_000) });
    expect(l.facts).toContainEqual({ label: "Operator alerts to", value: "None (NOTIFY_EMAIL_TO unset)" });
  });

  it("the last send failed: a warning with the error", () => {
    const l = emailLine(env(OWN_SENDER), failed("email"));
    expect(l.state).toBe("warning");
    expect(l.text).toBe(
      "Sending as hello@treeline-pros.com, but the last e-mail failed (2026-11-28 21:59 UTC, HTTP 403): check RESEND_API_KEY, and that treeline-pros.com is verified in Resend.",
    );
    expect(l.facts).toContainEqual({ label: "Error", value: "HTTP 403" });
  });
});

describe("launch checklist: contact", () => {
  it("the shipped placeholders (a 555-01xx line, an example.* address) are not ready; real ones are", () => {
    const placeholder = contactLine();
    expect(placeholder.state).toBe("not-ready");
    expect(placeholder.text).toContain("is a fictional 555 number");
    expect(contactLine({ phone: "(512) 555-0142", email: "help@treeline.com" }).text).not.toContain("example address");
    expect(contactLine({ phone: "(512) 555-2368", email: "help@treeline.com" })).toMatchObject({ state: "ready" });
    expect(contactLine({ phone: "(512) 800-0142", email: "ops@mail.example.com" }).state).toBe("not-ready");
  });
});

describe("launch checklist: SMS", () => {
  it("no Twilio at all: a warning (texts are optional), saying what to set", () => {
    const l = smsLine(env(), undefined);
    expect(l.state).toBe("warning");
    expect(l.text).toContain("set TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM");
    expect(smsReady(env())).toBe(false);
  });

  it("no Twilio and no e-mail: says that nothing reaches owners and businesses", () => {
    expect(smsLine(env(), undefined).text).toContain("reached by no message at all");
    expect(smsLine(env(OWN_SENDER), undefined).text).toContain("offered e-mail only");
  });

  it("Twilio in part sends nothing: not ready, naming what is missing", () => {
    const l = smsLine(env({ TWILIO_ACCOUNT_SID: "AC1" }), undefined);
    expect(l).toMatchObject({
      state: "not-ready",
      text: "Twilio is set up only in part and sends nothing: set TWILIO_AUTH_TOKEN and TWILIO_FROM as well.",
    });
  });

  it("Twilio set up: ready before any send and after an accepted one, a warning after a failure", () => {
    expect(smsReady(env(TWILIO))).toBe(true);
    expect(smsLine(env(TWILIO), undefined)).toMatchObject({
      state: "ready",
      text: "Twilio sends texts from +15125550100; no text has been sent yet.",
    });
    expect(smsLine(env(TWILIO), accepted("sms")).text).toContain("the provider accepted the last text");
    const bad = smsLine(env(TWILIO), failed("sms", "HTTP 401"));
    expect(bad.state).toBe("warning");
    expect(bad.text).toContain("the last text failed (2026-11-28 21:59 UTC, HTTP 401)");
    expect(bad.facts).toContainEqual({ label: "Error", value: "HTTP 401" });
  });
});

describe("launch checklist: Claude", () => {
  const key = { ANTHROPIC_API_KEY: "sk-ant-test", CHAT_DAILY_TOKEN_BUDGET: "1000000" };

  it("no key: the built-in assistant answers, a warning", () => {
    expect(claudeLine(env(), 0)).toMatchObject({
      state: "warning",
      facts: [{ label: "Assistant", value: "Built-in" }],
    });
    expect(claudeLine(env(), 0).text).toContain("set ANTHROPIC_API_KEY");
  });

  it("a key with budget left is ready and says how much is left", () => {
    const l = claudeLine(env(key), 250_000);
    expect(l.state).toBe("ready");
    expect(l.text).toBe("Claude (claude-haiku-5-5) answers chat, with 750,000 of 1,000,000 tokens left today.");
    expect(l.facts).toContainEqual({ label: "Left today", value: "750,000 tokens" });
  });

  it("a budget of 0, a day's budget used up, or a budget the store cannot read: warnings", () => {
    expect(claudeLine(env({ ...key, CHAT_DAILY_TOKEN_BUDGET: "0" }), 0).text).toContain("CHAT_DAILY_TOKEN_BUDGET is 0");
    const spent = claudeLine(env(key), 1_200_000);
    expect(spent.state).toBe("warning");
    expect(spent.text).toContain("until midnight UTC");
    expect(spent.facts).toContainEqual({ label: "Left today", value: "0 tokens" });
    expect(claudeLine(env(key), null)).toMatchObject({ state: "warning" });
    expect(claudeLine(env(key), null).text).toContain("could not be read");
  });
});

describe("launch checklist: link-signing secret", () => {
  it("set in the environment, or drawn by the store: ready; neither: not ready", () => {
    const secret = { LINK_SIGNING_SECRET: "a-link-signing-secret-of-32-chars-or-more" };
    expect(linkSecretLine(env(secret), null)).toMatchObject({
      state: "ready",
      text: "Set in LINK_SIGNING_SECRET: nothing to do.",
    });
    const drawn = linkSecretLine(env(), true);
    expect(drawn.state).toBe("ready");
    expect(drawn.text).toMatch(/^Drawn by the store/);
    expect(linkSecretLine(env(), false).state).toBe("not-ready");
    expect(linkSecretLine(env(), null).state).toBe("not-ready");
  });
});

describe("launch checklist: schedules", () => {
  it("no run yet: a warning", () => {
    const l = scheduleLine("notify-outbox", null, NOW);
    expect(l).toMatchObject({ id: "schedule:notify-outbox", label: "Schedule: notify-outbox", state: "warning" });
    expect(l.text).toContain("No run recorded yet: it runs every 5 minutes");
  });

  it("a recent run that did everything: ready, with its time, duration and counts", () => {
    const l = scheduleLine("lead-clock", run(), NOW);
    expect(l.state).toBe("ready");
    expect(l.text).toBe("Last run 2026-11-28 21:59 UTC, 1,000 ms: due 2, handled 2, changed 1, failed 0, left 0.");
    expect(l.facts).toEqual([
      { label: "Runs", value: "every minute" },
      { label: "Last run", at: iso(NOW - 30_000) },
      { label: "Took", value: "1,000 ms" },
      { label: "Outcome", value: "Done" },
      { label: "Counts", value: "due 2, handled 2, changed 1, failed 0, left 0" },
    ]);
  });

  it("a failed run: not ready, with the error", () => {
    const l = scheduleLine("lead-clock", run({ outcome: "failed", counts: {}, error: "TypeError" }), NOW);
    expect(l.state).toBe("not-ready");
    expect(l.text).toContain("failed with TypeError");
    expect(l.facts).toContainEqual({ label: "Error", value: "TypeError" });
  });

  it("a run out of time: a warning naming what it left; an old run: the schedule stopped", () => {
    const partial = scheduleLine(
      "notify-outbox",
      run({ name: "notify-outbox", outcome: "partial", counts: { left: 9950 } }),
      NOW,
    );
    expect(partial.state).toBe("warning");
    expect(partial.text).toContain("left 9,950 for the next run");
    const every = SCHEDULE_EVERY_MS["lead-clock"];
    const old = run({ startedAt: iso(NOW - 3 * every - 61_000) });
    expect(scheduleLine("lead-clock", old, NOW)).toMatchObject({ state: "warning" });
    expect(scheduleLine("lead-clock", old, NOW).text).toMatch(/^It has not run since/);
    // Just inside the window it is still ready.
    expect(scheduleLine("lead-clock", run({ startedAt: iso(NOW - 3 * every - 59_000) }), NOW).state).toBe("ready");
  });

  it("lists every scheduled function, with the schedule its file gives Netlify", async () => {
    const dir = new URL("../../netlify/functions/", import.meta.url);
    const scheduled: Record<string, string> = {};
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".mts"))) {
      const mod = (await import(new URL(file, dir).href)) as { config: { schedule?: string } };
      if (mod.config.schedule) scheduled[file.replace(/\.mts$/, "")] = mod.config.schedule;
    }
    expect(scheduled).toEqual(SCHEDULES);
    expect(Object.keys(scheduled).sort()).toEqual([...SCHEDULED_FUNCTIONS].sort());
    for (const name of SCHEDULED_FUNCTIONS) {
      const first = nextRun(SCHEDULES[name], new Date(NOW));
      expect(nextRun(SCHEDULES[name], first).getTime() - first.getTime()).toBe(SCHEDULE_EVERY_MS[name]);
    }
  });
});

describe("launch checklist: data", () => {
  const facts = (over: Partial<DataFacts> = {}): DataFacts => ({
    businesses: 12,
    claimed: 3,
    claimedAtLeast: false,
    sample: null,
    ...over,
  });

  it("an empty directory is not ready: import", () => {
    const l = dataLine("redis", facts({ businesses: 0, claimed: 0 }));
    expect(l.state).toBe("not-ready");
    expect(l.text).toContain("npm run import -- file.csv");
  });

  it("sample data: a warning on the embedded demo store, not ready on Redis or Upstash", () => {
    const sample = { at: iso(NOW), file: "content/directory/businesses.json" };
    expect(dataLine("embedded", facts({ sample })).state).toBe("warning");
    expect(dataLine("redis", facts({ sample })).state).toBe("not-ready");
    expect(dataLine("upstash", facts({ sample })).text).toContain("generated sample businesses (12 businesses in all)");
    expect(dataLine("embedded", facts({ sample })).text).toContain("only npm run import loads businesses");
    expect(dataLine("upstash", facts({ sample })).facts).toContainEqual({
      label: "Data",
      value: "Sample (content/directory/businesses.json)",
    });
  });

  it("imported businesses are ready, with how many are claimed", () => {
    expect(dataLine("upstash", facts())).toMatchObject({
      state: "ready",
      text: "12 businesses, 3 claimed by their owners.",
    });
    expect(dataLine("upstash", facts({ businesses: 4_000, claimed: 900, claimedAtLeast: true })).text).toBe(
      "4,000 businesses, at least 900 claimed by their owners.",
    );
  });
});

describe("launch checklist: the whole list", () => {
  const ids = (lines: SetupLine[]) => lines.map((l) => l.id);
  const byId = (lines: SetupLine[]) => Object.fromEntries(lines.map((l) => [l.id, l]));

  it("a fresh install: one line per item, in order, each with a state and a sentence", async () => {
    const store = embedded("fresh");
    const lines = await setupChecklist({ store, env: env(), now: () => NOW });
    expect(ids(lines)).toEqual([
      "store",
      "contact",
      "email",
      "sms",
      "claude",
      "link-secret",
      "schedule:lead-clock",
      "schedule:notify-outbox",
      "schedule:storm-alerts",
      "data",
    ]);
    const line = byId(lines);
    expect(line.store!.state).toBe("not-ready"); // in memory
    expect(line.email!.state).toBe("not-ready");
    expect(line.sms!.state).toBe("warning");
    expect(line.claude!.state).toBe("warning");
    expect(line["link-secret"]!.state).toBe("ready"); // drawn by the store on the way
    expect(line["schedule:lead-clock"]!.state).toBe("warning");
    expect(line.data!).toMatchObject({ state: "not-ready" });
    for (const l of lines) expect(l.text).toMatch(/^[A-Z].*[.]$/);
  });

  it("reads what the store holds: runs, last sends, the budget, the seeding and the claims", async () => {
    const store = embedded("filled");
    await store.runs.record(run());
    await store.runs.record(run({ name: "notify-outbox", outcome: "failed", counts: {}, error: "StoreError" }));
    await store.runs.recordSends([accepted("email"), failed("sms", "HTTP 401")]);
    await store.chatBudget.reserve(400_000, NOW, { total: 1_000_000 });
    await store.businesses.upsert(testBusiness("b-1"));
    const claim = (id: string, status: Claim["status"], businessId?: string): Claim => ({
      id,
      kind: "claim",
      ...(businessId ? { businessId } : {}),
      claimant: { name: "Ann", email: "ann@example.com", role: "owner" },
      proof: "email",
      status,
      createdAt: iso(NOW),
    });
    await store.claims.create(claim("cl_aaaaaaaaaaaaaaaaaaaa", "proved", "b-1"));
    await store.claims.create(claim("cl_bbbbbbbbbbbbbbbbbbbb", "approved", "b-1"));
    await store.claims.create(claim("cl_cccccccccccccccccccc", "refused", "b-2"));
    await store.claims.create(claim("cl_dddddddddddddddddddd", "pending", "b-3"));

    const config = env({ ...OWN_SENDER, ...TWILIO, ANTHROPIC_API_KEY: "sk-ant", CHAT_DAILY_TOKEN_BUDGET: "1000000" });
    let line = byId(await setupChecklist({ store, env: config, now: () => NOW }));
    expect(line.email!.state).toBe("ready");
    expect(line.sms!.state).toBe("warning");
    expect(line.claude!.text).toContain("600,000 of 1,000,000 tokens left today");
    expect(line["schedule:lead-clock"]!.state).toBe("ready");
    expect(line["schedule:notify-outbox"]!).toMatchObject({ state: "not-ready" });
    expect(line.data!).toMatchObject({ state: "ready", text: "1 business, 1 claimed by their owners." });

    await store.meta.seeded("content/directory/businesses.json", new Date(NOW), true);
    line = byId(await setupChecklist({ store, env: config, now: () => NOW }));
    expect(line.data!.state).toBe("warning");
    expect(line.data!.facts).toContainEqual({ label: "Sample loaded", at: iso(NOW) });
  });

  it("a store that cannot be read: each line that needs it says so, and the rest still show", async () => {
    const alive = embedded("dead");
    const fail = async () => {
      throw new TypeError("connection refused");
    };
    const store = {
      ...alive,
      writable: async () => false,
      runs: { ...alive.runs, latest: fail, lastSends: fail },
      businesses: { ...alive.businesses, count: fail },
      meta: { ...alive.meta, linkSecret: fail },
      chatBudget: { ...alive.chatBudget, used: fail },
    } as Store;
    const config = env({ ...OWN_SENDER, ANTHROPIC_API_KEY: "sk-ant" });
    const line = byId(await setupChecklist({ store, env: config, now: () => NOW }));
    expect(line.store!.state).toBe("not-ready");
    expect(line.email!.state).toBe("ready"); // no last send known
    expect(line.claude!.text).toContain("could not be read");
    expect(line["link-secret"]!.state).toBe("not-ready");
    expect(line["schedule:lead-clock"]!).toMatchObject({
      state: "not-ready",
      text: "Its last run could not be read from the store (TypeError): check the store line.",
    });
    expect(line.data!.text).toBe(
      "The directory's size could not be read from the store (TypeError): check the store line.",
    );
  });

  it("claims past what it reads make the claimed count 'at least'", async () => {
    expect(CLAIMS_READ % 200).toBe(0);
    const store = embedded("many-claims");
    const list = vi.fn(async ({ offset = 0 }: { offset?: number }) => ({
      items: [
        {
          id: `cl_${String(offset).padStart(20, "0")}`,
          kind: "claim" as const,
          businessId: `b-${offset}`,
          claimant: { name: "A", email: "a@example.com", role: "owner" as const },
          proof: "email" as const,
          status: "proved" as const,
          createdAt: iso(NOW),
        },
      ],
      total: CLAIMS_READ + 1,
      pending: 0,
    }));
    const lines = await setupChecklist({
      store: { ...store, claims: { ...store.claims, list } } as Store,
      env: env(),
      now: () => NOW,
    });
    expect(byId(lines).data!.facts).toContainEqual({
      label: "Claimed by their owners",
      value: `at least ${CLAIMS_READ / 200}`,
    });
    expect(list).toHaveBeenCalledTimes(CLAIMS_READ / 200);
  });
});

describe("launch checklist: the server's log at start", () => {
  it("one line per item: '[setup] <item>: <state>: <what to do>'", async () => {
    const store = embedded("log");
    const logged: string[] = [];
    await logSetup({ store, env: env(KEY), now: () => NOW }, (l) => logged.push(l));
    expect(logged).toHaveLength(10);
    expect(logged).toContain(
      "[setup] e-mail: not ready: RESEND_API_KEY uses Resend's test sender onboarding@resend.dev, set NOTIFY_EMAIL_FROM to an address on your verified domain.",
    );
    expect(logged.map((l) => l.split(":")[0])).toEqual(
      Array(10)
        .fill("[setup] store")
        .map(
          (_, i) =>
            [
              "[setup] store",
              "[setup] contact",
              "[setup] e-mail",
              "[setup] SMS",
              "[setup] Claude",
              "[setup] link-signing secret",
              "[setup] schedule lead-clock",
              "[setup] schedule notify-outbox",
              "[setup] schedule storm-alerts",
              "[setup] data",
            ][i],
        ),
    );
    expect(logged[3]).toMatch(/^\[setup\] SMS: warning: No texts are sent/);
    expect(logLine({ id: "x", label: "Data", state: "ready", text: "Fine.", facts: [] })).toBe(
      "[setup] data: ready: Fine.",
    );
  });

  it("never throws: a checklist that cannot be read is one line", async () => {
    const logged: string[] = [];
    const store = {
      writable: () => {
        throw new RangeError("x");
      },
    } as unknown as Store;
    await logSetup({ store, env: env(), now: () => NOW }, (l) => logged.push(l));
    expect(logged).toEqual(["[setup] checklist not read (RangeError): see /admin > Setup"]);
  });
});

describe("scheduled runs are kept", () => {
  it("a run that finished: its times, duration, outcome and counts", async () => {
    const store = embedded("run-ok");
    let t = NOW;
    const report = { due: 3, handled: 3, changed: 2, failed: 0, left: 0, outOfTime: false };
    const got = await recordRun(
      store,
      "lead-clock",
      async () => ((t += 250), report),
      clockSummary,
      () => t,
    );
    expect(got).toBe(report);
    expect(await store.runs.recent("lead-clock")).toEqual([
      {
        name: "lead-clock",
        startedAt: iso(NOW),
        finishedAt: iso(NOW + 250),
        durationMs: 250,
        outcome: "ok",
        counts: { due: 3, handled: 3, changed: 2, failed: 0, left: 0 },
      },
    ]);
  });

  it("a run out of time is partial; the notifier's counts name what it left", async () => {
    const store = embedded("run-partial");
    const report = {
      claimed: 50,
      delivered: 50,
      retry: 0,
      dropped: 0,
      left: 0,
      due: 9950,
      outOfTime: true,
      disabled: false,
    };
    await recordRun(
      store,
      "notify-outbox",
      async () => report,
      drainSummary,
      () => NOW,
    );
    const [kept] = await store.runs.recent("notify-outbox");
    expect(kept).toMatchObject({
      outcome: "partial",
      counts: { claimed: 50, delivered: 50, retry: 0, dropped: 0, left: 9950 },
    });
  });

  it("a run that failed is kept with its error's class, then fails as before", async () => {
    const store = embedded("run-failed");
    await expect(
      recordRun(
        store,
        "lead-clock",
        () => Promise.reject(new RangeError("lead text here")),
        clockSummary,
        () => NOW,
      ),
    ).rejects.toThrow(RangeError);
    const [kept] = await store.runs.recent("lead-clock");
    expect(kept).toMatchObject({ outcome: "failed", error: "RangeError", counts: {} });
    expect(JSON.stringify(kept)).not.toContain("lead text");
  });

  it("a store that cannot keep it does not fail the run", async () => {
    const alive = embedded("run-unkept");
    const store = { ...alive, runs: { ...alive.runs, record: () => Promise.reject(new Error("down")) } } as Store;
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const report = { due: 0, handled: 0, changed: 0, failed: 0, left: 0, outOfTime: false };
    await expect(recordRun(store, "lead-clock", async () => report, clockSummary)).resolves.toBe(report);
    expect(error).toHaveBeenCalledWith("[runs] lead-clock: run not kept (Error)");
  });
});

describe("the last send on each channel", () => {
  const message = (over: Partial<Message>): Message => ({
    id: "ld_x~receipt~email",
    leadId: "ld_x",
    kind: "receipt",
    audience: "visitor",
    channel: "email",
    to: "ann@example.com",
    subject: "We have your request",
    text: "Hello",
    state: "queued",
    createdAt: iso(NOW - 1_000),
    attempts: 0,
    ...over,
  });

  it("reads accepted, failed and retrying as results, and nothing for a kept message or one not on a provider", () => {
    expect(sendResultOf(message({ state: "sent", sentAt: iso(NOW) }), NOW)).toEqual({
      channel: "email",
      outcome: "accepted",
      at: iso(NOW),
      kind: "receipt",
    });
    expect(sendResultOf(message({ channel: "sms", state: "retrying", note: "Attempt 2: HTTP 500" }), NOW)).toEqual({
      channel: "sms",
      outcome: "failed",
      at: iso(NOW),
      kind: "receipt",
      error: "HTTP 500",
    });
    expect(sendResultOf(message({ channel: "webhook", state: "failed" }), NOW)).toMatchObject({ outcome: "failed" });
    expect(sendResultOf(message({ state: "kept" }), NOW)).toBeNull();
    expect(sendResultOf(message({ state: "queued" }), NOW)).toBeNull();
    expect(sendResultOf(message({ channel: "admin", state: "sent" }), NOW)).toBeNull();
  });

  it("the send path keeps each channel's result: a provider that accepts, one that refuses", async () => {
    const store = embedded("sends");
    const config = notifyConfig(env({ ...OWN_SENDER, ...TWILIO, RESEND_API_URL: "http://resend.test/emails" }));
    const fetch = vi.fn(async (url: string | URL | Request) =>
      String(url).startsWith("http://resend.test")
        ? new Response(JSON.stringify({ id: "em_1" }), { status: 200, headers: { "content-type": "application/json" } })
        : new Response("no", { status: 401 }),
    ) as unknown as typeof globalThis.fetch;
    const deps = resolveDeps({ env: env(), fetch, now: () => NOW });
    const messages = [
      message({}),
      message({ id: "ld_x~offer~sms", kind: "offer", audience: "business", channel: "sms", to: "+15125550111" }),
    ];
    await store.messages.ensure(messages);
    const sent = await sendAndRecord(store, messages, config, deps);
    expect(sent.map((m) => m.state)).toEqual(["sent", "failed"]);
    const last = await store.runs.lastSends();
    expect(last.email).toMatchObject({ channel: "email", outcome: "accepted", kind: "receipt" });
    expect(last.sms).toMatchObject({ channel: "sms", outcome: "failed", kind: "offer", error: "HTTP 401" });
    expect(last.webhook).toBeUndefined();
  });
});
