/**
 * The Zapier and Make REST hooks (netlify/lib/webhooks/api.ts), in process on an embedded
 * store: a Zapier-shaped subscribe call with the business's API key receives the next offer
 * and unsubscribe stops it; the business is the key's (another business's key cannot end the
 * subscription, no key is 401); a private address is refused with its message; the sample
 * endpoint answers a list shaped like a real event.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { Webhook } from "standardwebhooks";
import { createStore, type Store } from "../../../netlify/lib/store/index.ts";
import { notifyLead } from "../../../netlify/lib/notify/index.ts";
import { createApiKey, keyHash } from "../../../netlify/lib/webhooks/endpoints.ts";
import { sampleHandler, subscribeHandler, unsubscribeHandler } from "../../../netlify/lib/webhooks/api.ts";
import { parseEnv } from "../../../src/lib/env.ts";
import { WEBHOOK_MESSAGES } from "../../../src/lib/webhooks.ts";
import { getRequest, jsonRequest, nextIp, testBusiness } from "../../helpers/functions.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../../helpers/webhook-receiver.ts";

/** A parsed JSON body, read by path in assertions. */
type Loose = { [key: string]: Loose };

const LOOPBACK = { allowLoopback: true } as const;
const env = parseEnv({ SITE_URL: "https://treeline.test", RATE_LIMIT_PER_MINUTE: "1000" });

let store: Store;
let zap: WebhookReceiver;
let n = 0;

beforeAll(async () => {
  zap = await startWebhookReceiver("/hooks/catch/123/abc");
  vi.spyOn(console, "info").mockImplementation(() => {});
});
afterAll(async () => {
  vi.restoreAllMocks();
  await zap.close();
});
beforeEach(async () => {
  zap.calls.length = 0;
  store = createStore({ transport: "embedded", prefix: `hooks-api-${process.pid}-${++n}:` });
  await store.businesses.upsert(testBusiness("b1", { name: "Oak & Sons" }));
  await store.businesses.upsert(testBusiness("b2"));
});

const deps = () => ({ store: () => store, env, webhookNet: LOOPBACK });
const withKey = (key: string) => ({ "x-api-key": key });

/** A lead offered to b1 now; its outbox item is queued with it. */
async function offerToB1() {
  const at = new Date().toISOString();
  const { lead } = await store.leads.create(
    "find-pros",
    { name: "Jane Customer", email: "jane@example.com", phone: "512-555-0199", serviceType: "tree-removal" },
    {
      sourcePage: "/find-pros",
      routing: {
        deliveries: [
          {
            businessId: "b1",
            name: "Oak & Sons",
            slug: "business-b1",
            email: "office@b1.example",
            offeredAt: at,
            deadlineAt: new Date(Date.now() + 3_600_000).toISOString(),
            state: "waiting",
          },
        ],
        events: [{ at, kind: "offered", businessId: "b1" }],
      },
    },
  );
  await notifyLead(store, lead.id, { env, webhookNet: LOOPBACK });
  return lead;
}

describe("Zapier and Make REST hooks", () => {
  it("subscribe with the business's key receives the next offer; unsubscribe stops it", async () => {
    const { key } = await createApiKey(store, "b1", Date.now());
    const subscribe = subscribeHandler(deps());
    const res = await subscribe(
      jsonRequest("/api/hooks/subscribe", { hookUrl: zap.url, event: "offer.made" }, withKey(key)),
      nextIp(),
    );
    expect(res.status).toBe(201);
    const sub = (await res.json()) as { id: string; secret: string; event: string };
    expect(sub).toMatchObject({
      id: expect.stringMatching(/^we_/),
      event: "offer.made",
      secret: expect.stringMatching(/^whsec_/),
    });
    expect((await store.webhooks.endpoint(sub.id))!.businessId).toBe("b1");
    // The same call again (a retry) is the same subscription, not a second endpoint.
    const again = await subscribe(
      jsonRequest("/api/hooks/subscribe", { hookUrl: zap.url, event: "offer.made" }, withKey(key)),
      nextIp(),
    );
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ id: sub.id, secret: sub.secret });
    expect(await store.webhooks.endpoints("b1")).toHaveLength(1);

    const first = await offerToB1();
    expect(zap.calls).toHaveLength(1);
    const call = zap.calls[0]!;
    const verified = new Webhook(sub.secret).verify(call.text, {
      "webhook-id": String(call.headers["webhook-id"]),
      "webhook-timestamp": String(call.headers["webhook-timestamp"]),
      "webhook-signature": String(call.headers["webhook-signature"]),
    }) as { type: string; data: { lead: { id: string } } };
    expect(verified).toMatchObject({ type: "offer.made", data: { lead: { id: first.id } } });

    const unsubscribe = unsubscribeHandler(deps());
    const gone = await unsubscribe(jsonRequest("/api/hooks/unsubscribe", { id: sub.id }, withKey(key)), nextIp());
    expect(gone.status).toBe(200);
    expect(await gone.json()).toEqual({ id: sub.id, deleted: true });
    await offerToB1();
    expect(zap.calls).toHaveLength(1);
  });

  it("the business is the key's: no key is 401, another business's key cannot unsubscribe, a revoked key stops working", async () => {
    const subscribe = subscribeHandler(deps());
    const none = await subscribe(jsonRequest("/api/hooks/subscribe", { hookUrl: zap.url }), nextIp());
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(((await none.json()) as { error: string }).error).toBe(WEBHOOK_MESSAGES.apiKey);
    // A header naming a business is nothing: only a key says who it is.
    const named = await subscribe(
      jsonRequest("/api/hooks/subscribe", { hookUrl: zap.url, businessId: "b1" }, { "x-business-id": "b1" }),
      nextIp(),
    );
    expect(named.status).toBe(401);

    const mine = await createApiKey(store, "b1", Date.now());
    const theirs = await createApiKey(store, "b2", Date.now());
    const res = await subscribe(
      jsonRequest("/api/hooks/subscribe", { target_url: zap.url }, { authorization: `Bearer ${mine.key}` }),
      nextIp(),
    );
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const unsubscribe = unsubscribeHandler(deps());
    const refused = await unsubscribe(jsonRequest("/api/hooks/unsubscribe", { id }, withKey(theirs.key)), nextIp());
    expect(refused.status).toBe(404);
    expect(await store.webhooks.endpoint(id)).not.toBeNull();

    // Only the key's fingerprint is stored.
    expect(await store.webhooks.apiKey(keyHash(mine.key))).toMatchObject({ businessId: "b1" });
    expect(JSON.stringify(await store.webhooks.apiKeys("b1"))).not.toContain(mine.key);
    await store.webhooks.removeApiKey("b1", mine.record.id);
    const revoked = await unsubscribe(jsonRequest("/api/hooks/unsubscribe", { id }, withKey(mine.key)), nextIp());
    expect(revoked.status).toBe(401);
  });

  it("refuses private addresses and bad input with the fields' messages", async () => {
    const { key } = await createApiKey(store, "b1", Date.now());
    const subscribe = subscribeHandler({ store: () => store, env });
    const metadata = await subscribe(
      jsonRequest("/api/hooks/subscribe", { hookUrl: "https://169.254.169.254/latest/meta-data/" }, withKey(key)),
      nextIp(),
    );
    expect(metadata.status).toBe(400);
    expect(await metadata.json()).toMatchObject({
      error: WEBHOOK_MESSAGES.forbidden("169.254.169.254"),
      fields: { hookUrl: WEBHOOK_MESSAGES.forbidden("169.254.169.254") },
    });
    // Production refuses the local receiver too (the test seam is off here).
    const local = await subscribe(jsonRequest("/api/hooks/subscribe", { hookUrl: zap.url }, withKey(key)), nextIp());
    expect(local.status).toBe(400);
    const noUrl = await subscribe(jsonRequest("/api/hooks/subscribe", { event: "offer.made" }, withKey(key)), nextIp());
    expect(await noUrl.json()).toMatchObject({ fields: { hookUrl: WEBHOOK_MESSAGES.subscribeUrl } });
    const badEvent = await subscribe(
      jsonRequest("/api/hooks/subscribe", { hookUrl: zap.url, event: "lead.deleted" }, withKey(key)),
      nextIp(),
    );
    expect(badEvent.status).toBe(400);
    expect(await store.webhooks.endpoints("b1")).toEqual([]);
  });

  it("sample data: a list with one event shaped like a real one", async () => {
    const { key } = await createApiKey(store, "b1", Date.now());
    const sample = sampleHandler({ store: () => store, env });
    const res = await sample(getRequest("/api/hooks/sample?event=offer.answered", { headers: withKey(key) }), nextIp());
    expect(res.status).toBe(200);
    const [event] = (await res.json()) as Loose[];
    expect(event).toMatchObject({
      type: "offer.answered",
      data: { business: { id: "b1", name: "Oak & Sons" }, lead: { customer: { phone: expect.any(String) } } },
    });
    const made = await sample(getRequest("/api/hooks/sample", { headers: withKey(key) }), nextIp());
    const [offer] = (await made.json()) as Loose[];
    expect(offer.type).toBe("offer.made");
    expect(offer.data.lead.customer).toEqual({ name: "Sam" });
    expect((await sample(getRequest("/api/hooks/sample"), nextIp())).status).toBe(401);
  });
});
