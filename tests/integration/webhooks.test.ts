/**
 * Businesses' webhooks end to end, in process (docs/webhooks.md): a lead offered to a business
 * reaches its endpoint through the outbox, signed per Standard Webhooks and verified here with
 * the `standardwebhooks` verifier; a tampered body or an old timestamp fails that check; 500,
 * 500, 200 is one event three times with one id on the retry schedule; 410 disables the
 * endpoint and the owner is told by e-mail (to a fake Resend); failures in a row warn the
 * owner before the last one disables it; the contacts join the payload only once the business
 * accepted; "Send again" logs a manual attempt. A local receiver on 127.0.0.1 is reached only
 * through the test seam (allowLoopback); with it off, and for private, link-local and metadata
 * addresses, names resolving to them and redirects to them, nothing is sent. Fake clock (Date
 * only), embedded store.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { Webhook } from "standardwebhooks";
import { createStore, type Store } from "../../netlify/lib/store/index.ts";
import { drainOutbox, notifyLead, type NotifyDeps } from "../../netlify/lib/notify/index.ts";
import { applyAnswer } from "../../netlify/lib/delivery/routing.ts";
import { addOwner } from "../../netlify/lib/owners/session.ts";
import { createEndpoint, EndpointRefused } from "../../netlify/lib/webhooks/endpoints.ts";
import { queueEvents, reviewPosted, sendAgain } from "../../netlify/lib/webhooks/deliver.ts";
import { checkWebhookUrl, isPublicAddress, postWebhook } from "../../netlify/lib/webhooks/net.ts";
import {
  WEBHOOK_EVENT_HORIZON_MS,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_MESSAGES,
  WEBHOOK_RETRY_DELAYS_MS,
  WEBHOOK_WARN_AFTER,
  type WebhookEvent,
} from "../../src/lib/webhooks.ts";
import { parseEnv } from "../../src/lib/env.ts";
import type { Lead } from "../../src/lib/schemas/lead.ts";
import { testBusiness } from "../helpers/functions.ts";
import { startWebhookReceiver, type ReceivedCall, type WebhookReceiver } from "../helpers/webhook-receiver.ts";

/** A parsed JSON body, read by path in assertions. */
type Loose = { [key: string]: Loose };

const T0 = Date.parse("2026-11-29T15:00:00Z");
const SITE = "https://treeline.test";
const LOOPBACK = { allowLoopback: true } as const;

let receiver: WebhookReceiver;
let mail: WebhookReceiver;
let store: Store;
let n = 0;

beforeAll(async () => {
  receiver = await startWebhookReceiver("/crm");
  mail = await startWebhookReceiver("/emails");
  vi.spyOn(console, "info").mockImplementation(() => {});
});
afterAll(async () => {
  vi.restoreAllMocks();
  await receiver.close();
  await mail.close();
});
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(T0);
  store = createStore({ transport: "embedded", prefix: `hooks-${process.pid}-${++n}:` });
});
afterEach(async () => {
  vi.useRealTimers();
  receiver.calls.length = 0;
  receiver.route = null;
  receiver.redirectTo = null;
  mail.calls.length = 0;
  await store.close();
});

const advance = (ms: number) => vi.setSystemTime(Date.now() + ms);

const env = (over: Record<string, string> = {}) =>
  parseEnv({
    SITE_URL: SITE,
    RESEND_API_KEY: "re_test",
    RESEND_API_URL: mail.url,
    NOTIFY_EMAIL_FROM: "Treeline <leads@treeline.test>",
    ...over,
  });
const deps = (over: Partial<NotifyDeps> = {}): NotifyDeps => ({
  env: env(),
  now: () => Date.now(),
  webhookNet: LOOPBACK,
  ...over,
});

/** A business with an owner and one endpoint at the receiver; returns the endpoint. */
async function setup(events: WebhookEvent[] = ["offer.made", "offer.answered"]) {
  await store.businesses.upsert(testBusiness("b1", { email: "office@b1.example", name: "Oak & Sons" }));
  await addOwner(store, "b1", "owner@b1.example", "email", Date.now());
  return createEndpoint(store, "b1", { url: receiver.url, events, source: "owner" }, Date.now(), LOOPBACK);
}

/** A find-pros lead offered to b1 now (the store queues its outbox item). */
async function offerLead(): Promise<Lead> {
  const at = new Date().toISOString();
  const { lead } = await store.leads.create(
    "find-pros",
    {
      name: "Jane Customer",
      email: "jane@example.com",
      phone: "512-555-0199",
      location: "123 Oak Street, Austin, TX 78701",
      serviceType: "tree-removal",
      timeline: "this-week",
      description: "A dead oak over the driveway.",
      photoKey: "photos/abc.jpg",
    },
    {
      sourcePage: "/find-pros",
      urgency: "urgent",
      place: { label: "Austin, TX 78701", zip: "78701", lat: 30.27, lng: -97.74 },
      routing: {
        deliveries: [
          {
            businessId: "b1",
            name: "Oak & Sons",
            slug: "business-b1",
            email: "office@b1.example",
            offeredAt: at,
            deadlineAt: new Date(Date.now() + 7_200_000).toISOString(),
            state: "waiting",
          },
        ],
        events: [{ at, kind: "offered", businessId: "b1" }],
      },
    },
  );
  return lead;
}

const crmCalls = () => receiver.calls.filter((c) => c.path === "/crm");
const headersOf = (c: ReceivedCall) => ({
  "webhook-id": String(c.headers["webhook-id"]),
  "webhook-timestamp": String(c.headers["webhook-timestamp"]),
  "webhook-signature": String(c.headers["webhook-signature"]),
});
const emailsTo = (to: string) =>
  mail.calls.filter((c) => JSON.stringify((c.body as { to?: unknown }).to ?? "").includes(to));

describe("a business's webhook", () => {
  it("gets the offer signed per Standard Webhooks: it verifies, a tampered body or an old timestamp does not", async () => {
    const ep = await setup();
    const lead = await offerLead();
    await notifyLead(store, lead.id, deps());
    const [call] = crmCalls();
    expect(call).toBeDefined();
    const verifier = new Webhook(ep.secret);
    const body = verifier.verify(call!.text, headersOf(call!)) as Loose;
    expect(body.type).toBe("offer.made");
    expect(call!.headers["webhook-id"]).toBe(`evt_${lead.id}_0`);

    // What a CRM needs, and nothing the business was not sent before it accepts.
    const data = body.data.lead;
    expect(data.customer).toEqual({ name: "Jane" });
    expect(data.address).toEqual({ area: "Austin, TX 78701", zip: "78701" });
    expect(data.service.code).toBe("tree-removal");
    expect(data.urgency.code).toBe("urgent");
    expect(data.timeline.code).toBe("this-week");
    expect(data.description).toBe("A dead oak over the driveway.");
    expect(data.answerUrl).toMatch(new RegExp(`^${SITE}/respond/`));
    expect(data.photoUrl).toBe(`${String(data.answerUrl)}/photo`);
    for (const secret of ["jane@example.com", "512-555-0199", "123 Oak Street", "Customer"])
      expect(call!.text).not.toContain(secret);

    expect(() => verifier.verify(call!.text.replace("Jane", "Jant"), headersOf(call!))).toThrow();
    advance(10 * 60_000);
    expect(() => verifier.verify(call!.text, headersOf(call!))).toThrow(/timestamp/i);
    // Another endpoint's secret does not verify it either.
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 7).toString("base64")}`).verify(call!.text, headersOf(call!)),
    ).toThrow();

    // The log has the attempt; nothing waits in the outbox.
    const [logged] = await store.webhooks.deliveries(ep.id);
    expect(logged).toMatchObject({ state: "delivered", attempts: 1, eventId: `evt_${lead.id}_0` });
    expect(logged!.log[0]).toMatchObject({ status: 200 });
    expect((await store.outbox.list()).items).toEqual([]);
  });

  it("the accept adds the customer's contacts, as the answer page does", async () => {
    await setup();
    const lead = await offerLead();
    await notifyLead(store, lead.id, deps());
    await store.leads.mutate(
      lead.id,
      (l) => applyAnswer(l, "b1", { kind: "accept", window: "Tuesday 8-10" }, Date.now()).lead,
    );
    await notifyLead(store, lead.id, deps());
    const calls = crmCalls();
    expect(calls.map((c) => c.headers["webhook-id"])).toEqual([`evt_${lead.id}_0`, `evt_${lead.id}_1`]);
    const answered = calls[1]!.body as Loose;
    expect(answered.type).toBe("offer.answered");
    expect(answered.data.lead.customer).toEqual({
      name: "Jane Customer",
      phone: "512-555-0199",
      email: "jane@example.com",
    });
    expect(answered.data.lead.address.street).toContain("123 Oak Street");
    expect(answered.data.offer).toMatchObject({ state: "accepted", window: "Tuesday 8-10" });
    // Read again, the lead adds nothing: one event reaches an endpoint once.
    await notifyLead(store, lead.id, deps());
    expect(crmCalls()).toHaveLength(2);
  });

  it("500, 500, then 200: the same event three times, with one id, on the retry schedule", async () => {
    const ep = await setup();
    receiver.respondWith(500, 500);
    const lead = await offerLead();
    await notifyLead(store, lead.id, deps());
    expect(crmCalls()).toHaveLength(1);

    // Not due yet: the scheduled run sends nothing.
    await drainOutbox(store, deps());
    expect(crmCalls()).toHaveLength(1);
    advance(WEBHOOK_RETRY_DELAYS_MS[0]);
    await drainOutbox(store, deps());
    expect(crmCalls()).toHaveLength(2);
    advance(WEBHOOK_RETRY_DELAYS_MS[1] - 1_000);
    await drainOutbox(store, deps());
    expect(crmCalls()).toHaveLength(2);
    advance(1_000);
    await drainOutbox(store, deps());

    const calls = crmCalls();
    expect(calls).toHaveLength(3);
    expect(new Set(calls.map((c) => c.headers["webhook-id"]))).toEqual(new Set([`evt_${lead.id}_0`]));
    expect(new Set(calls.map((c) => c.text)).size).toBe(1);
    const verifier = new Webhook(ep.secret);
    expect(() => verifier.verify(calls[2]!.text, headersOf(calls[2]!))).not.toThrow();
    const [logged] = await store.webhooks.deliveries(ep.id);
    expect(logged!.log.map((a) => a.status)).toEqual([500, 500, 200]);
    expect(logged!.state).toBe("delivered");
    expect((await store.webhooks.endpoint(ep.id))!.failures).toBe(0);
    expect((await store.outbox.list()).items).toEqual([]);
  });

  it("410 disables the endpoint and the owner is told by e-mail; later events skip it", async () => {
    const ep = await setup();
    receiver.respondWith(410);
    const lead = await offerLead();
    await notifyLead(store, lead.id, deps());
    const stored = (await store.webhooks.endpoint(ep.id))!;
    expect(stored.disabled?.reason).toBe(WEBHOOK_MESSAGES.gone);
    expect(stored.lastNotice).toMatchObject({ kind: "disabled", outcome: "sent" });
    const [email] = emailsTo("owner@b1.example");
    expect((email!.body as { subject: string }).subject).toMatch(/webhook was disabled/);
    expect((await store.outbox.list()).items).toEqual([]);

    await store.leads.mutate(
      lead.id,
      (l) => applyAnswer(l, "b1", { kind: "decline", reason: "too-busy" }, Date.now()).lead,
    );
    await notifyLead(store, lead.id, deps());
    expect(crmCalls()).toHaveLength(1);
  });

  it("says honestly when the owner's e-mail could not go (no e-mail provider: kept)", async () => {
    const ep = await setup();
    receiver.respondWith(410);
    const lead = await offerLead();
    await notifyLead(store, lead.id, deps({ env: parseEnv({ SITE_URL: SITE }) }));
    expect((await store.webhooks.endpoint(ep.id))!.lastNotice).toMatchObject({ outcome: "kept" });
    expect(mail.calls).toEqual([]);
  });

  it("failures in a row warn the owner once, before the last retry disables it", async () => {
    const ep = await setup();
    receiver.route = (c) => (c.path === "/crm" ? 503 : undefined);
    const lead = await offerLead();
    await notifyLead(store, lead.id, deps());
    for (const delay of WEBHOOK_RETRY_DELAYS_MS) {
      advance(delay);
      await drainOutbox(store, deps());
      const now = (await store.webhooks.endpoint(ep.id))!;
      const failing = emailsTo("owner@b1.example").filter((c) =>
        /failing/.test((c.body as { subject: string }).subject),
      );
      expect(failing).toHaveLength(now.failures >= WEBHOOK_WARN_AFTER ? 1 : 0);
    }
    expect(crmCalls()).toHaveLength(WEBHOOK_MAX_ATTEMPTS);
    const stored = (await store.webhooks.endpoint(ep.id))!;
    expect(stored.disabled?.reason).toBe(WEBHOOK_MESSAGES.exhausted);
    const subjects = emailsTo("owner@b1.example").map((c) => (c.body as { subject: string }).subject);
    expect(subjects).toEqual([expect.stringMatching(/failing/), expect.stringMatching(/disabled/)]);
    // The whole schedule is about a day.
    expect(Date.now() - T0).toBeGreaterThan(20 * 3_600_000);
    expect(Date.now() - T0).toBeLessThan(30 * 3_600_000);
  });

  it("a review posted reaches the endpoints that take review.posted, and only those", async () => {
    const ep = await setup(["review.posted"]);
    const offers = await createEndpoint(
      store,
      "b1",
      { url: receiver.url.replace("/crm", "/offers"), events: ["offer.made"], source: "owner" },
      Date.now(),
      LOOPBACK,
    );
    const review = {
      id: "rv_1",
      customerName: "Rita R.",
      rating: 5,
      title: "Great crew",
      reviewText: "On time and tidy.",
      serviceType: "Tree Trimming",
      isVerified: true,
      createdAt: new Date().toISOString(),
    };
    await reviewPosted(store, "b1", review, deps());
    const [call] = crmCalls();
    const body = new Webhook(ep.secret).verify(call!.text, headersOf(call!)) as Loose;
    expect(body).toMatchObject({ type: "review.posted", data: { review: { id: "rv_1", rating: 5, verified: true } } });
    expect(body.data.review.url).toBe(`${SITE}/directory/business-b1`);
    expect(receiver.calls.filter((c) => c.path === "/offers")).toEqual([]);
    expect(await store.webhooks.deliveries(offers.id)).toEqual([]);
  });

  it("queues no event from before the endpoint was made, nor one older than the horizon", async () => {
    await setup(["review.posted"]);
    const event = (at: number) => ({
      id: `evt_review_${at}`,
      type: "review.posted" as const,
      businessId: "b1",
      at: new Date(at).toISOString(),
      data: {},
    });
    expect(await queueEvents(store, [event(Date.now() - 60_000)], Date.now())).toEqual([]);
    advance(WEBHOOK_EVENT_HORIZON_MS + 60_000);
    expect(await queueEvents(store, [event(T0 + 1_000)], Date.now())).toEqual([]);
    expect(await queueEvents(store, [event(Date.now() - 1_000)], Date.now())).toHaveLength(1);
  });

  it("Send again posts the same event once more and logs it as manual", async () => {
    const ep = await setup();
    const lead = await offerLead();
    await notifyLead(store, lead.id, deps());
    const [d] = await store.webhooks.deliveries(ep.id);
    advance(60_000);
    const a = await sendAgain(store, ep, d!, deps());
    expect(a).toMatchObject({ status: 200, manual: true });
    const calls = crmCalls();
    expect(calls.map((c) => c.headers["webhook-id"])).toEqual([`evt_${lead.id}_0`, `evt_${lead.id}_0`]);
    expect((await store.webhooks.delivery(d!.id))!.log).toHaveLength(2);
  });

  it("Send again that meets a 410 disables the endpoint, as a scheduled attempt does", async () => {
    const ep = await setup();
    const lead = await offerLead();
    await notifyLead(store, lead.id, deps());
    const [d] = await store.webhooks.deliveries(ep.id);
    receiver.respondWith(410);
    const a = await sendAgain(store, ep, d!, deps());
    expect(a).toMatchObject({ status: 410, manual: true });
    expect((await store.webhooks.endpoint(ep.id))!.disabled?.reason).toBe(WEBHOOK_MESSAGES.gone);
  });
});

describe("where a webhook may go", () => {
  const privateName = { resolve: async () => [{ address: "10.1.2.3", family: 4 as const }] };

  it.each([
    ["https://127.0.0.1/hook", "127.0.0.1"],
    ["https://10.0.0.1/hook", "10.0.0.1"],
    ["https://169.254.169.254/latest/meta-data/", "169.254.169.254"],
    ["https://[::1]/hook", "::1"],
    ["https://[::ffff:10.0.0.1]/hook", "::ffff:a00:1"],
    ["https://[fd00:ec2::254]/", "fd00:ec2::254"],
  ])("refuses %s at setup, with a clear message", async (url, address) => {
    await store.businesses.upsert(testBusiness("b1"));
    const refused = createEndpoint(store, "b1", { url, events: ["offer.made"], source: "owner" }, Date.now());
    await expect(refused).rejects.toThrow(EndpointRefused);
    await expect(refused).rejects.toThrow(WEBHOOK_MESSAGES.forbidden(address));
    expect(await store.webhooks.endpoints("b1")).toEqual([]);
  });

  it("refuses a name that resolves to a private address, and plain http", async () => {
    await expect(checkWebhookUrl("https://crm.internal.example/hook", privateName)).rejects.toThrow(
      WEBHOOK_MESSAGES.forbidden("10.1.2.3"),
    );
    const mixed = {
      resolve: async () => [
        { address: "93.184.215.14", family: 4 as const },
        { address: "192.168.1.5", family: 4 as const },
      ],
    };
    await expect(checkWebhookUrl("https://crm.example/hook", mixed)).rejects.toThrow(
      WEBHOOK_MESSAGES.forbidden("192.168.1.5"),
    );
    await expect(
      checkWebhookUrl("http://crm.example/hook", { resolve: async () => [{ address: "93.184.215.14", family: 4 }] }),
    ).rejects.toThrow(WEBHOOK_MESSAGES.https);
    await expect(checkWebhookUrl("https://user:pw@crm.example/hook", {})).rejects.toThrow(WEBHOOK_MESSAGES.credentials);
    expect(isPublicAddress("93.184.215.14")).toBe(true);
    expect(isPublicAddress("2606:4700::1111")).toBe(true);
  });

  it("without the test seam, the local receiver is refused at send too, and nothing reaches it", async () => {
    await expect(postWebhook(receiver.url, "{}", {})).rejects.toThrow(WEBHOOK_MESSAGES.https);
    await expect(postWebhook(receiver.url.replace("http:", "https:"), "{}", {})).rejects.toThrow(
      WEBHOOK_MESSAGES.forbidden("127.0.0.1"),
    );
    expect(crmCalls()).toEqual([]);
  });

  it("the loopback seam cannot be on outside tests: on Netlify it throws and nothing is sent", async () => {
    vi.stubEnv("NETLIFY", "true");
    try {
      await expect(checkWebhookUrl(receiver.url, LOOPBACK)).rejects.toThrow(/tests only/);
      await expect(postWebhook(receiver.url, "{}", {}, LOOPBACK)).rejects.toThrow(/tests only/);
    } finally {
      vi.unstubAllEnvs();
    }
    expect(crmCalls()).toEqual([]);
  });

  it("refuses at send an endpoint whose name now resolves to a private address (checked at every send)", async () => {
    const ep = await setup();
    const lead = await offerLead();
    // The name resolved to a public address at setup; now it answers 10.1.2.3. No request leaves.
    await store.webhooks.saveEndpoint({ ...ep, url: "https://crm.example/hook" });
    await notifyLead(store, lead.id, deps({ webhookNet: privateName }));
    const [d] = await store.webhooks.deliveries(ep.id);
    expect(d!.log[0]!.error).toBe(WEBHOOK_MESSAGES.forbidden("10.1.2.3"));
    expect(d!.state).toBe("pending");
    expect(crmCalls()).toEqual([]);
  });

  it("never follows a redirect (to a metadata address here): a failed attempt that says why", async () => {
    const ep = await setup();
    receiver.redirectTo = "http://169.254.169.254/latest/meta-data/";
    receiver.respondWith(302);
    const lead = await offerLead();
    await notifyLead(store, lead.id, deps());
    expect(crmCalls()).toHaveLength(1);
    const [d] = await store.webhooks.deliveries(ep.id);
    expect(d!.log[0]).toMatchObject({ status: 302, error: WEBHOOK_MESSAGES.redirect(302) });
  });

  it("gives up on a name that does not resolve in time", async () => {
    const stuck = { ...LOOPBACK, timeoutMs: 50, resolve: () => new Promise<never>(() => {}) };
    await expect(postWebhook("https://crm.example/hook", "{}", {}, stuck)).rejects.toThrow(/no answer within/);
  });

  it("gives up on a receiver that does not answer in time", async () => {
    receiver.route = () => undefined;
    const { createServer } = await import("node:http");
    const silent = createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    const port = (silent.address() as { port: number }).port;
    await expect(postWebhook(`http://127.0.0.1:${port}/`, "{}", {}, { ...LOOPBACK, timeoutMs: 50 })).rejects.toThrow(
      /no answer within/,
    );
    silent.closeAllConnections();
    await new Promise<void>((r) => silent.close(() => r()));
  });
});
