/**
 * Scheduled runs keep to their time budget (netlify/lib/run-budget.ts) on a real Redis, with a
 * fake clock and a fake Resend whose every call takes 10 s on that clock (calls in flight
 * together overlap; a call given less time by its abort signal is cut off there, as a real
 * timeout would). Nothing waits in real time and nothing is timed: the runs' own clock says
 * when they returned.
 *
 * - notify-outbox: 10,000 pending owner messages. A run returns within its budget having sent
 *   what fits, the next run continues, and in the end every message went exactly once.
 * - A send is given only the time left in its run, and one with no time left waits, untried.
 * - lead-clock: more due leads than one run can reach; each run moves on what it can send for
 *   within its budget, the rest stay on the clock; with the notifier's runs after them, every
 *   message goes exactly once.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { runClock } from "../../netlify/lib/delivery/progress.ts";
import { initialRouting } from "../../netlify/lib/delivery/routing.ts";
import { DRAIN_BATCH, MIN_SEND_MS, SEND_TIMEOUT_MS, drainOutbox } from "../../netlify/lib/notify/index.ts";
import { RUN_BUDGET_MS } from "../../netlify/lib/run-budget.ts";
import { keyspace } from "../../netlify/lib/store/keys.ts";
import type { Store } from "../../netlify/lib/store/index.ts";
import { parseEnv } from "../../src/lib/env.ts";
import { Message } from "../../src/lib/schemas/message.ts";
import { OutboxItem } from "../../src/lib/schemas/outbox.ts";
import { functionsHarness } from "../helpers/functions.ts";

const MIN = 60_000;
/** How long the fake provider takes per call. */
const CALL_MS = 10_000;
const h = await functionsHarness("run-budget");

describe.skipIf(!h)("scheduled runs within their budget", () => {
  const store = () => h!.store;
  const env = parseEnv({
    RESEND_API_KEY: "re_test",
    RESEND_API_URL: "https://resend.test/emails",
    NOTIFY_EMAIL_FROM: "Treeline <leads@treeline.test>",
    NOTIFY_EMAIL_TO: "ops@treeline.test",
    SITE_URL: "https://treeline.test",
    LINK_SIGNING_SECRET: "test-link-secret-0123456789abcdefghijkl",
  });

  /** The fake clock every run reads. */
  let clock = 0;
  const now = () => clock;

  /** The time each send's abort signal allows, so the fake provider can honor it on the fake clock. */
  const timeouts = new WeakMap<AbortSignal, number>();
  beforeAll(() => {
    vi.spyOn(AbortSignal, "timeout").mockImplementation((ms: number) => {
      const signal = new AbortController().signal;
      timeouts.set(signal, ms);
      return signal;
    });
    vi.spyOn(console, "info").mockImplementation(() => {});
  });
  afterEach(() => {
    fake.accepted.clear();
    fake.cut = 0;
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await h?.teardown();
  });

  /** A Resend that takes CALL_MS per call on the fake clock; counts what it accepted, by idempotency key. */
  const fake = {
    accepted: new Map<string, number>(),
    calls: 0,
    cut: 0,
    /** The timeout each call was given. */
    given: [] as number[],
    fetch: (async (_url: string | URL | Request, init?: RequestInit) => {
      const start = clock;
      const allowed = timeouts.get(init!.signal!) ?? Infinity;
      fake.calls++;
      fake.given.push(allowed);
      // Calls started together are in flight together.
      await new Promise((resolve) => setImmediate(resolve));
      if (CALL_MS > allowed) {
        clock = Math.max(clock, start + allowed);
        fake.cut++;
        throw new DOMException("The operation was aborted due to timeout", "TimeoutError");
      }
      clock = Math.max(clock, start + CALL_MS);
      const key = new Headers(init!.headers).get("idempotency-key")!;
      fake.accepted.set(key, (fake.accepted.get(key) ?? 0) + 1);
      return Response.json({ id: `re_${fake.calls}` });
    }) as typeof fetch,
  };

  /** `count` owner messages waiting in the outbox (one e-mail per claim), written in pipelines. */
  async function seedOwnerMessages(s: Store, prefix: string, count: number, at: number): Promise<string[]> {
    const keys = keyspace(s.prefix);
    const ids: string[] = [];
    const iso = new Date(at).toISOString();
    for (let from = 0; from < count; from += 1_000) {
      const p = s.redis.pipeline();
      for (let i = from; i < Math.min(count, from + 1_000); i++) {
        const claimId = `cl_${prefix}${String(i).padStart(5, "0")}`;
        const m = Message.parse({
          id: `${claimId}~sign-in-link~email`,
          leadId: claimId,
          kind: "sign-in-link",
          audience: "business",
          channel: "email",
          to: `owner${i}@pros.test`,
          subject: "Sign in to manage your business",
          text: "Your sign-in link.",
          state: "retrying",
          attempts: 1,
          createdAt: iso,
          nextAttemptAt: iso,
        });
        const item = OutboxItem.parse({
          leadId: claimId,
          type: "owner",
          createdAt: iso,
          attempts: 1,
          nextAttemptAt: iso,
          delivered: [],
        });
        p.set(keys.message(m.id), JSON.stringify(m));
        p.zadd(keys.messages, { score: at, member: m.id });
        p.sadd(keys.leadMessages(claimId), m.id);
        p.set(keys.outboxItem(claimId), JSON.stringify(item));
        p.zadd(keys.outbox, { score: at, member: claimId });
        ids.push(m.id);
      }
      await p.exec();
    }
    return ids;
  }

  it("10,000 pending messages, 10 s a send: each run returns within its budget, the next continues, each goes once", async () => {
    const t0 = Date.parse("2026-06-01T12:00:00Z");
    const ids = await seedOwnerMessages(store(), "bulk", 10_000, t0 - MIN);
    clock = t0;

    const runs: { sent: number; due: number }[] = [];
    for (let run = 0; run < 1_000; run++) {
      const started = clock;
      const before = fake.accepted.size;
      const report = await drainOutbox(store(), { env, fetch: fake.fetch, now });
      const sent = fake.accepted.size - before;
      // Within its budget on its own clock, whatever the backlog.
      expect(clock - started).toBeLessThanOrEqual(RUN_BUDGET_MS);
      // A send takes 10 s and a batch starts only while a whole send fits: two batches at most.
      expect(report.claimed).toBeLessThanOrEqual(2 * DRAIN_BATCH);
      expect(report.delivered).toBe(sent);
      runs.push({ sent, due: report.due });
      if (report.due === 0) break;
      expect(sent).toBeGreaterThan(0);
      expect(report.outOfTime).toBe(true);
      // The next scheduled run, five minutes on.
      clock = started + 5 * MIN;
    }

    // The first run did what fit and said how much it left.
    expect(runs[0]!.sent).toBeGreaterThan(0);
    expect(runs[0]!.due).toBe(10_000 - runs[0]!.sent);
    expect(runs.length).toBeGreaterThan(100);
    // Nothing lost, nothing sent twice.
    expect(fake.accepted.size).toBe(10_000);
    expect([...fake.accepted.values()].every((n) => n === 1)).toBe(true);
    expect(fake.cut).toBe(0);
    const stored = await store().messages.getMany(ids);
    expect(stored.filter((m) => m.state === "sent")).toHaveLength(10_000);
    expect(await store().outbox.list({ limit: 1 })).toMatchObject({ total: 0 });
  }, 120_000);

  it("a send gets only the time left in its run; with almost none left it waits, untried", async () => {
    const t0 = Date.parse("2026-06-02T12:00:00Z");
    const [cutId, waitId] = [
      ...(await seedOwnerMessages(store(), "cut", 1, t0 - MIN)),
      ...(await seedOwnerMessages(store(), "wait", 1, t0 - MIN)),
    ];
    /** The store as a slow one answers: reading a claim's messages takes `delay` on the fake clock. */
    const slow = (delay: number): Store => ({
      ...store(),
      messages: {
        ...store().messages,
        forLead: async (id: string) => {
          clock += delay;
          return store().messages.forLead(id);
        },
      },
    });
    const claim = (id: string) => id.split("~")[0]!;

    // 12 s left: the batch starts; the store takes 5 s, so the send gets 7 s and is cut off at the budget's end.
    await store().outbox.retryNow([claim(waitId!)], t0 + 60 * MIN);
    clock = t0;
    fake.given.length = 0;
    const cut = await drainOutbox(slow(5_000), { env, fetch: fake.fetch, now, deadline: t0 + 12_000 });
    expect(fake.given).toEqual([7_000]);
    expect(clock).toBe(t0 + 12_000);
    expect(cut).toMatchObject({ claimed: 1, retry: 1 });
    expect(await store().messages.get(cutId!)).toMatchObject({ state: "retrying", attempts: 2 });

    // 12 s left, but the store takes 11.5 s: too little for a send, so none is tried and nothing counts as a failure.
    await store().outbox.retryNow([claim(waitId!)], t0);
    clock = t0 + MIN;
    const callsBefore = fake.calls;
    const waited = await drainOutbox(slow(11_500), { env, fetch: fake.fetch, now, deadline: clock + 12_000 });
    expect(fake.calls).toBe(callsBefore);
    expect(waited).toMatchObject({ claimed: 1, left: 1, retry: 0, due: 1, outOfTime: true });
    expect(await store().messages.get(waitId!)).toMatchObject({ state: "retrying", attempts: 1 });
    expect(await store().outbox.get(claim(waitId!))).toMatchObject({ attempts: 1 });

    // The next run sends each once.
    clock = t0 + 10 * MIN;
    expect(await drainOutbox(store(), { env, fetch: fake.fetch, now })).toMatchObject({ delivered: 2, due: 0 });
    expect(fake.accepted.get(cutId!)).toBe(1);
    expect(fake.accepted.get(waitId!)).toBe(1);
    expect(MIN_SEND_MS).toBeLessThan(SEND_TIMEOUT_MS);
  });

  it("the clock's run: each run moves on what it can send for within its budget, the rest stay due", async () => {
    const t0 = Date.now();
    const leads: string[] = [];
    for (let i = 0; i < 120; i++) {
      const routing = initialRouting(
        [{ businessId: `rb-${i}`, name: `Pro ${i}`, slug: `pro-${i}`, email: `pro${i}@pros.test` }],
        "emergency",
        t0,
      );
      const { lead } = await store().leads.create(
        "booking",
        { customerName: "Rita Run", customerEmail: `rita${i}@example.com`, customerPhone: "512-555-0123" },
        { sourcePage: "/directory/pro", urgency: "emergency", routing },
      );
      leads.push(lead.id);
    }
    // Past every offer's 10 minutes: all 120 are due.
    clock = t0 + 11 * MIN;
    expect(await store().leads.clockDueCount(clock)).toBe(120);

    const handled: number[] = [];
    for (let run = 0; run < 50; run++) {
      const started = clock;
      const report = await runClock(store(), { env, fetch: fake.fetch, now, purge: async () => {} });
      expect(clock - started).toBeLessThanOrEqual(RUN_BUDGET_MS);
      expect(report.failed).toBe(0);
      handled.push(report.handled);
      if (report.left === 0) break;
      expect(report.handled).toBeGreaterThan(0);
      expect(report.outOfTime).toBe(true);
      expect(report.left).toBe(report.due - report.handled);
      // The next run, a minute on.
      clock = started + MIN;
    }
    // The budget, not the backlog, bounded each run: a chunk's sends take 10 s, so two chunks at most.
    expect(Math.max(...handled)).toBeLessThanOrEqual(2 * DRAIN_BATCH);
    expect(handled.reduce((a, b) => a + b, 0)).toBe(120);

    // A lead moved on whose messages no longer fitted in its run left them due in the outbox:
    // the notifier's scheduled runs send them.
    for (let run = 0; run < 20; run++) {
      clock += 5 * MIN;
      const started = clock;
      const report = await drainOutbox(store(), { env, fetch: fake.fetch, now });
      expect(clock - started).toBeLessThanOrEqual(RUN_BUDGET_MS);
      if (report.due === 0) break;
    }

    // Every lead moved on to the operator, and every message it owed went exactly once.
    for (const id of leads) {
      const lead = await store().leads.get(id);
      expect(lead!.routing!.deliveries.map((d) => d.state)).toEqual(["expired"]);
      const messages = await store().messages.forLead(id);
      expect(messages.filter((m) => m.state === "queued" || m.state === "retrying")).toEqual([]);
      for (const m of messages.filter((m) => m.state === "sent")) expect(fake.accepted.get(m.id)).toBe(1);
    }
    expect([...fake.accepted.values()].every((n) => n === 1)).toBe(true);
    expect(fake.cut).toBe(0);
  }, 60_000);
});
