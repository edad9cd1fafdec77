/**
 * Lead notifications against a real Redis and a local webhook receiver on 127.0.0.1: the
 * attempt right after the response (waitUntil), retries with backoff from the scheduled
 * run, a receiver that is down (the item waits, the lead is intact), the e-mail channel,
 * Slack-safe escaping, and logs that never carry the visitor's details.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { QUOTE_ENDPOINT } from "../../netlify/lib/lead-endpoints.ts";
import { BACKOFF_BASE_MS, backoffMs, drainOutbox, notifyLead } from "../../netlify/lib/notify/index.ts";
import { adminLeadUrl, newLeadAlert } from "../../netlify/lib/messages/operator.ts";
import { leadFacts } from "../../netlify/lib/messages/parts.ts";
import {
  functionsHarness,
  humanStarted,
  jsonRequest,
  nextIp,
  validQuote,
  type FunctionsHarness,
} from "../helpers/functions.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.ts";
import { parseEnv } from "../../src/lib/env.ts";

const SITE = "https://treeline.test";
const h = await functionsHarness("notify");
/**
 * A quote as the operator alone handles it (no routing: as stored before quotes were offered
 * to businesses), so each lead here owes exactly its alert and its receipt; routing's own
 * messages are tests/integration/delivery.test.ts's.
 */
const OPERATOR_QUOTE = { ...QUOTE_ENDPOINT, check: undefined, route: undefined, replyOffers: false };

describe.skipIf(!h)("lead notifications", () => {
  let harness: FunctionsHarness;
  let hook: WebhookReceiver;
  let mail: WebhookReceiver;
  const logs: string[] = [];

  beforeAll(async () => {
    harness = h!;
    hook = await startWebhookReceiver("/hook");
    mail = await startWebhookReceiver("/emails");
    for (const level of ["log", "info", "warn", "error"] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logs.push(args.map(String).join(" ")));
    }
  });
  afterEach(() => {
    hook.calls.length = 0;
    mail.calls.length = 0;
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await hook.close();
    await mail.close();
    await h?.teardown();
    // Whatever happened above, no visitor detail reached a log line.
    for (const secret of [
      "Jane Customer",
      "jane@example.com",
      "512-555-0199",
      "123 Oak Street",
      "Wanda Webhook",
      "wanda@example.com",
    ]) {
      expect(logs.filter((l) => l.includes(secret))).toEqual([]);
    }
    expect(logs.some((l) => /\[lead\] quote: stored ld_/.test(l))).toBe(true);
  });

  const env = () => ({ RATE_LIMIT_PER_MINUTE: "1000", NOTIFY_WEBHOOK_URL: hook.url, SITE_URL: SITE });

  /** Submits a quote through the real pipeline; returns the id and the work it left for after the response. */
  async function submit(envOver: Record<string, string> = {}, over: Record<string, unknown> = {}) {
    const pending: Promise<unknown>[] = [];
    const quote = harness.handler(OPERATOR_QUOTE, { env: parseEnv({ ...env(), ...envOver }) });
    const res = await quote(jsonRequest("/api/quote", { ...validQuote(), ...over, _started: humanStarted() }), {
      ...nextIp(),
      waitUntil: (p) => void pending.push(p),
    });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    return { id, after: () => Promise.all(pending) };
  }

  it("delivers to the webhook right after the response and empties the outbox", async () => {
    const { id, after } = await submit();
    expect(await harness.store.outbox.get(id)).not.toBeNull();
    await after();
    expect(hook.calls).toHaveLength(1);
    const body = hook.calls[0]!.body as {
      text: string;
      blocks: { type: string; fields?: { text: string }[]; elements?: { url?: string }[] }[];
    };
    const { reference } = (await harness.store.leads.get(id))!;
    expect(body.text).toBe(
      `EMERGENCY New quote request (${reference}) from Jane Customer: Tree Removal, Emergency (ASAP) - call <tel:+15125550199|512-555-0199> - estimate $900 - $4,500 - <${SITE}/admin#lead=${id}|open in admin>`,
    );
    const fields = body.blocks.find((b) => b.type === "section")!.fields!.map((f) => f.text);
    expect(fields).toEqual(
      expect.arrayContaining([
        "*Who*\nJane Customer",
        "*Phone*\n<tel:+15125550199|512-555-0199>",
        "*Estimate*\n$900 - $4,500",
        "*E-mail*\n<mailto:jane@example.com|jane@example.com>",
      ]),
    );
    expect(body.blocks.find((b) => b.type === "actions")!.elements![0]!.url).toBe(`${SITE}/admin#lead=${id}`);
    expect(hook.calls[0]!.headers["content-type"]).toBe("application/json");
    expect(await harness.store.outbox.get(id)).toBeNull();
    expect(await harness.store.leads.get(id)).toMatchObject({ id, status: "new" });
  });

  it("retries a 500 with backoff from the scheduled run, then delivers", async () => {
    hook.respondWith(500);
    const { id, after } = await submit();
    await after();
    const t0 = Date.now();
    const waiting = await harness.store.outbox.get(id);
    expect(waiting).toMatchObject({ attempts: 1, lastError: "webhook: Attempt 1: HTTP 500", delivered: [] });
    const [alert] = (await harness.store.messages.forLead(id)).filter((m) => m.channel === "webhook");
    expect(alert).toMatchObject({ state: "retrying", attempts: 1, note: "Attempt 1: HTTP 500" });
    expect(Date.parse(waiting!.nextAttemptAt) - t0).toBeGreaterThan(BACKOFF_BASE_MS - 5_000);

    // Not due yet: the scheduled run leaves it alone.
    expect(await drainOutbox(harness.store, { env: parseEnv(env()) })).toMatchObject({ claimed: 0 });
    // A run after the backoff delivers it.
    const later = () => t0 + BACKOFF_BASE_MS + 1_000;
    const report = await drainOutbox(harness.store, { env: parseEnv(env()), now: later });
    expect(report).toMatchObject({ delivered: 1, retry: 0 });
    expect(hook.calls).toHaveLength(2);
    expect(await harness.store.outbox.get(id)).toBeNull();
    expect(await harness.store.messages.get(alert!.id)).toMatchObject({ state: "sent", attempts: 2 });
  });

  it("keeps the item (and the lead) while the receiver is down, with a growing backoff", async () => {
    const down = await startWebhookReceiver();
    const url = down.url;
    await down.close();
    const started = Date.now();
    const { id, after } = await submit(
      { NOTIFY_WEBHOOK_URL: url },
      { name: "Wanda Webhook", email: "wanda@example.com" },
    );
    expect(Date.now() - started).toBeLessThan(2_000);
    await after();
    const first = await harness.store.outbox.get(id);
    expect(first).toMatchObject({ attempts: 1, delivered: [] });
    expect(first!.lastError).toMatch(/^webhook: \w+/);
    expect(first!.lastError).not.toMatch(/Wanda|wanda|127\.0\.0\.1/);
    let clock = Date.parse(first!.nextAttemptAt) + 1;
    await drainOutbox(harness.store, { env: parseEnv({ ...env(), NOTIFY_WEBHOOK_URL: url }), now: () => clock });
    const second = await harness.store.outbox.get(id);
    expect(second?.attempts).toBe(2);
    expect(Date.parse(second!.nextAttemptAt) - clock).toBe(backoffMs(2));
    expect(await harness.store.leads.get(id)).toMatchObject({ id, data: { name: "Wanda Webhook" } });
    // Back up: the next run after the backoff delivers it.
    clock = Date.parse(second!.nextAttemptAt) + 1;
    expect(await drainOutbox(harness.store, { env: parseEnv(env()), now: () => clock })).toMatchObject({
      delivered: 1,
    });
    expect(await harness.store.outbox.get(id)).toBeNull();
  });

  it("sends the e-mail through the provider API too, and a retry only sends what failed", async () => {
    const emailEnv = {
      NOTIFY_EMAIL_TO: "ops@treeline.test, boss@treeline.test",
      RESEND_API_KEY: "re_test_key",
      RESEND_API_URL: mail.url,
      NOTIFY_EMAIL_FROM: "Leads <leads@treeline.test>",
    };
    // Two e-mails go at once (the operator's and the visitor's receipt): both fail the first time.
    mail.respondWith(503, 503);
    const { id, after } = await submit(emailEnv);
    await after();
    const toOps = () => mail.calls.filter((c) => (c.body as { to: string[] }).to.includes("ops@treeline.test"));
    const toVisitor = () => mail.calls.filter((c) => (c.body as { to: string[] }).to.includes("jane@example.com"));
    expect(hook.calls).toHaveLength(1);
    expect(toOps()).toHaveLength(1);
    expect(toVisitor()).toHaveLength(1);
    expect(await harness.store.outbox.get(id)).toMatchObject({ attempts: 1 });
    expect((await harness.store.outbox.get(id))!.lastError).toContain("email: Attempt 1: HTTP 503");

    const item = (await harness.store.outbox.get(id))!;
    await drainOutbox(harness.store, {
      env: parseEnv({ ...env(), ...emailEnv }),
      now: () => Date.parse(item.nextAttemptAt) + 1,
    });
    // The webhook went the first time and is not sent again.
    expect(hook.calls).toHaveLength(1);
    expect(toOps()).toHaveLength(2);
    expect(toVisitor()).toHaveLength(2);
    const sent = toOps()[1]!;
    expect(sent.headers.authorization).toBe("Bearer re_test_key");
    expect(sent.body).toMatchObject({
      from: "Leads <leads@treeline.test>",
      to: ["ops@treeline.test", "boss@treeline.test"],
      subject: expect.stringMatching(/^EMERGENCY Quote request: Jane Customer \(TL-[0-9A-Z]{4}-[0-9A-Z]{2}\)$/),
      text: expect.stringContaining(`Open in admin: ${SITE}/admin#lead=${id}`),
      html: expect.stringContaining('<a href="tel:+15125550199">512-555-0199</a>'),
    });
    expect(toVisitor()[1]!.body).toMatchObject({
      to: ["jane@example.com"],
      subject: expect.stringMatching(/^Emergency request TL-[0-9A-Z]{4}-[0-9A-Z]{2} is in$/),
      text: expect.stringContaining(`${SITE}/requests/${id}/`),
    });
    expect(await harness.store.outbox.get(id)).toBeNull();
  });

  it("never sends the same item twice at once (the scheduled run next to the response's attempt)", async () => {
    // The response's own attempt is held back, so three notifiers race for the item.
    const quote = harness.handler(OPERATOR_QUOTE, { env: parseEnv(env()), notify: async () => undefined });
    const res = await quote(jsonRequest("/api/quote", { ...validQuote(), _started: humanStarted() }), nextIp());
    const { id } = (await res.json()) as { id: string };
    const runs = await Promise.all([
      notifyLead(harness.store, id, { env: parseEnv(env()) }),
      drainOutbox(harness.store, { env: parseEnv(env()) }),
      notifyLead(harness.store, id, { env: parseEnv(env()) }),
    ]);
    expect(hook.calls.filter((c) => JSON.stringify(c.body).includes(id))).toHaveLength(1);
    expect(runs).toContain("skipped");
  });

  it("without any provider, every message is kept for /admin and nothing is sent", async () => {
    const { id, after } = await submit({ NOTIFY_WEBHOOK_URL: "" });
    await after();
    expect(hook.calls).toHaveLength(0);
    expect(mail.calls).toHaveLength(0);
    expect(await harness.store.outbox.get(id)).toBeNull();
    const messages = await harness.store.messages.forLead(id);
    expect(messages.map((m) => [m.kind, m.audience, m.channel, m.state])).toEqual([
      ["new-lead", "operator", "admin", "kept"],
      ["receipt", "visitor", "email", "kept"],
    ]);
    expect(messages[0]!.note).toMatch(/no operator channel configured/);
    expect(messages[1]!.note).toMatch(/RESEND_API_KEY/);
    expect(messages[1]).toMatchObject({ to: "jane@example.com", subject: expect.stringContaining("TL-") });
    // A later run composes nothing new.
    expect(await drainOutbox(harness.store, { env: parseEnv({ SITE_URL: SITE }) })).toMatchObject({ disabled: true });
    expect(await harness.store.messages.forLead(id)).toHaveLength(2);
  });

  it("escapes Slack markup in what the visitor typed", () => {
    const id = "ld_000000000000000000x";
    const alert = newLeadAlert(
      leadFacts({
        id,
        type: "quote",
        createdAt: "2025-01-01T00:00:00.000Z",
        sourcePage: "/",
        status: "new",
        data: { name: "<!channel> & <https://evil|x>", phone: "512-555-0100" },
      }),
      adminLeadUrl(SITE, id),
    );
    const message = alert.webhook!;
    expect(message.text).toContain("&lt;!channel&gt; &amp; &lt;https://evil|x&gt;");
    expect(message.text).not.toContain("<!channel>");
    expect(JSON.stringify(message.blocks)).not.toContain("<!channel>");
  });
});
