/**
 * /owner/webhooks in process (netlify/lib/owners/webhooks.ts and the page's loader), on an
 * embedded store, as a browser without JavaScript uses it: each action a form post answered
 * 303 back to the page. Adding shows the secret once (in the notice) and the endpoint; a
 * private address is refused with its message and the form keeps what was typed; a new
 * secret replaces the old; the log shows each attempt and "Send again" adds a manual one;
 * an API key is shown once and stored hashed; another business's endpoint cannot be touched.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createStore, type Store } from "../../../netlify/lib/store/index.ts";
import { ownerWebhooksHandler } from "../../../netlify/lib/owners/webhooks.ts";
import { loadWebhooks } from "../../../netlify/lib/page-data/owner.ts";
import { queueEvents, sendNow } from "../../../netlify/lib/webhooks/deliver.ts";
import { keyHash } from "../../../netlify/lib/webhooks/endpoints.ts";
import { parseEnv } from "../../../src/lib/env.ts";
import { WEBHOOK_MESSAGES } from "../../../src/lib/webhooks.ts";
import { ORIGIN, formRequest, nextIp, ownedBusiness } from "../../helpers/functions.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../../helpers/webhook-receiver.ts";

const env = parseEnv({
  RATE_LIMIT_PER_MINUTE: "1000",
  LINK_SIGNING_SECRET: "x".repeat(40),
  SITE_URL: "https://treeline.test",
});
const LOOPBACK = { allowLoopback: true } as const;

let store: Store;
let receiver: WebhookReceiver;
let n = 0;

beforeAll(async () => {
  receiver = await startWebhookReceiver("/crm");
  vi.spyOn(console, "info").mockImplementation(() => {});
});
afterAll(async () => {
  vi.restoreAllMocks();
  await receiver.close();
});
beforeEach(() => {
  receiver.calls.length = 0;
  store = createStore({ transport: "embedded", prefix: `owner-hooks-${process.pid}-${++n}:` });
});

const handler = () => ownerWebhooksHandler({ store: () => store, env, webhookNet: LOOPBACK });

/** Posts the form and opens the page it answers 303 to, as the browser would. */
async function post(cookie: string, fields: [string, string][]) {
  const res = await handler()(formRequest("/owner/webhooks", fields, { origin: ORIGIN, cookie }), nextIp());
  expect(res.status).toBe(303);
  const location = res.headers.get("location")!;
  const page = await loadWebhooks(new Request(new URL(location, ORIGIN), { headers: { cookie } }), {
    store: () => store,
    env,
  });
  return page;
}

describe("/owner/webhooks", () => {
  it("adds a webhook (secret shown once), refuses a private one keeping the form, rotates, logs and sends again", async () => {
    const { id, cookie } = await ownedBusiness(store, env, "b1");
    const added = await post(cookie, [
      ["intent", "add"],
      ["url", receiver.url],
      ["events", "offer.made"],
      ["events", "review.posted"],
    ]);
    expect(added.status).toBe(200);
    const [ep] = await store.webhooks.endpoints(id);
    expect(ep).toMatchObject({ url: receiver.url, events: ["offer.made", "review.posted"], source: "owner" });
    expect(added.shell).toMatchObject({ notice: WEBHOOK_MESSAGES.added(ep!.secret) });
    expect(added.view!.endpoints).toHaveLength(1);
    // The page itself never shows the secret: only the notice right after the post.
    expect(JSON.stringify(added.view)).not.toContain(ep!.secret);

    const refused = await post(cookie, [
      ["intent", "add"],
      ["url", "https://10.0.0.1/hook"],
      ["events", "offer.made"],
    ]);
    expect(refused.status).toBe(422);
    expect(refused.view!.form.url).toBe("https://10.0.0.1/hook");
    expect(refused.view!.form.errors.url).toBe(WEBHOOK_MESSAGES.forbidden("10.0.0.1"));
    expect(await store.webhooks.endpoints(id)).toHaveLength(1);
    const noEvents = await post(cookie, [
      ["intent", "add"],
      ["url", receiver.url],
    ]);
    expect(noEvents.view!.form.errors.events).toBe(WEBHOOK_MESSAGES.events);

    const rotated = await post(cookie, [
      ["intent", "rotate"],
      ["endpointId", ep!.id],
    ]);
    const after = (await store.webhooks.endpoint(ep!.id))!;
    expect(after.secret).not.toBe(ep!.secret);
    expect(rotated.shell).toMatchObject({ notice: WEBHOOK_MESSAGES.rotated(after.secret) });

    // A review event goes out; the log shows it, and Send again adds a manual attempt.
    const created = await queueEvents(
      store,
      [
        {
          id: "evt_review_r1",
          type: "review.posted",
          businessId: id,
          at: new Date().toISOString(),
          data: { review: {} },
        },
      ],
      Date.now(),
    );
    await sendNow(store, created, { env, webhookNet: LOOPBACK });
    const [d] = await store.webhooks.deliveries(ep!.id);
    const resent = await post(cookie, [
      ["intent", "resend"],
      ["endpointId", ep!.id],
      ["deliveryId", d!.id],
    ]);
    expect(resent.shell).toMatchObject({ notice: WEBHOOK_MESSAGES.resent("the endpoint answered 200") });
    const [row] = resent.view!.endpoints[0]!.deliveries;
    expect(row!.state).toBe("Delivered");
    expect(row!.attempts.map((a) => [a.status, a.manual])).toEqual([
      ["200", true],
      ["200", false],
    ]);
    expect(receiver.calls.map((c) => c.headers["webhook-id"])).toEqual(["evt_review_r1", "evt_review_r1"]);

    const deleted = await post(cookie, [
      ["intent", "delete"],
      ["endpointId", ep!.id],
    ]);
    expect(deleted.shell).toMatchObject({ notice: WEBHOOK_MESSAGES.deleted });
    expect(await store.webhooks.endpoints(id)).toEqual([]);
  });

  it("makes an API key (shown once, stored hashed) and revokes it", async () => {
    const { id, cookie } = await ownedBusiness(store, env, "b1");
    const made = await post(cookie, [["intent", "key"]]);
    const key = /(tlk_[\w-]+)/.exec((made.shell as { notice?: string }).notice ?? "")?.[1];
    expect(key).toBeDefined();
    expect(await store.webhooks.apiKey(keyHash(key!))).toMatchObject({ businessId: id });
    expect(made.view!.keys).toHaveLength(1);
    expect(JSON.stringify(made.view)).not.toContain(key!);
    const revoked = await post(cookie, [
      ["intent", "revoke"],
      ["keyId", made.view!.keys[0]!.id],
    ]);
    expect(revoked.shell).toMatchObject({ notice: WEBHOOK_MESSAGES.keyRevoked });
    expect(await store.webhooks.apiKey(keyHash(key!))).toBeNull();
  });

  it("cannot touch another business's endpoint; signed out, nothing changes", async () => {
    const { cookie } = await ownedBusiness(store, env, "b1");
    const other = await ownedBusiness(store, env, "b2", {}, { email: "other@example.com" });
    await post(other.cookie, [
      ["intent", "add"],
      ["url", receiver.url],
      ["events", "offer.made"],
    ]);
    const [theirs] = await store.webhooks.endpoints("b2");
    const refused = await post(cookie, [
      ["intent", "delete"],
      ["endpointId", theirs!.id],
    ]);
    expect(refused.status).toBe(404);
    expect(refused.shell).toMatchObject({ problem: WEBHOOK_MESSAGES.unknownEndpoint });
    expect(await store.webhooks.endpoint(theirs!.id)).not.toBeNull();

    const res = await handler()(formRequest("/owner/webhooks", [["intent", "key"]], { origin: ORIGIN }), nextIp());
    expect(res.status).toBe(303);
    expect(await store.webhooks.apiKeys("b1")).toEqual([]);
  });
});
