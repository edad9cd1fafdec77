/**
 * Businesses' webhooks, part of the repository contract run by contract.ts on every transport
 * (embedded, real Redis, Upstash REST): endpoints per business (a cap, replace only what
 * exists, delete only one's own, with its log), deliveries stored once per id with the log
 * newest first and no longer than WEBHOOK_LOG_SIZE (what leaves it expires later), API keys by hash (a cap, revoke only
 * one's own), damaged records read as none.
 */
import { describe, expect, it } from "vitest";
import {
  WEBHOOK_LOG_SIZE,
  type ApiKeyRecord,
  type WebhookDelivery,
  type WebhookEndpoint,
} from "../../../src/lib/webhooks.ts";
import { TRIMMED_TTL_SECONDS } from "../../../netlify/lib/store/repos/webhooks.ts";
import type { StoreHarness } from "./contract.types.ts";

const at = (minute: number) => new Date(Date.UTC(2026, 10, 29, 12, minute)).toISOString();

const endpoint = (n: number, businessId = "b1", over: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
  id: `we_endpoint${String(n).padStart(4, "0")}`,
  businessId,
  url: `https://crm.example/hook/${n}`,
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  events: ["offer.made"],
  source: "owner",
  createdAt: at(n),
  secretAt: at(n),
  failures: 0,
  ...over,
});

const delivery = (n: number, endpointId = "we_endpoint0001"): WebhookDelivery => ({
  id: `wd_delivery${String(n).padStart(4, "0")}`,
  endpointId,
  businessId: "b1",
  eventId: `evt_ld_x_${n}`,
  type: "offer.made",
  body: `{"n":${n}}`,
  createdAt: at(n),
  state: "pending",
  attempts: 0,
  nextAttemptAt: at(n),
  log: [],
});

const key = (n: number, businessId = "b1"): ApiKeyRecord => ({
  id: `ak_apikey${String(n).padStart(4, "0")}`,
  businessId,
  hint: "tlk_abcd...",
  createdAt: at(n),
});
const hash = (n: number) => n.toString(16).padStart(64, "0");

export function webhooksContract(h: StoreHarness) {
  describe("webhooks", () => {
    it("keeps each business's endpoints, oldest first, up to a cap; replaces only what exists; deletes only its own", async () => {
      const store = await h.fresh("webhooks-endpoints");
      expect(await store.webhooks.endpoints("b1")).toEqual([]);
      expect(await store.webhooks.addEndpoint(endpoint(2), 2)).toBe(true);
      expect(await store.webhooks.addEndpoint(endpoint(1), 2)).toBe(true);
      expect(await store.webhooks.addEndpoint(endpoint(3), 2)).toBe(false);
      expect(await store.webhooks.addEndpoint(endpoint(4, "b2"), 2)).toBe(true);
      expect((await store.webhooks.endpoints("b1")).map((e) => e.id)).toEqual(["we_endpoint0001", "we_endpoint0002"]);
      expect(await store.webhooks.endpoint("we_endpoint0003")).toBeNull();

      const disabled = { ...endpoint(1), disabled: { at: at(9), reason: "Gone" }, failures: 3 };
      expect(await store.webhooks.saveEndpoint(disabled)).toBe(true);
      expect(await store.webhooks.endpoint("we_endpoint0001")).toEqual(disabled);
      expect(await store.webhooks.saveEndpoint(endpoint(7))).toBe(false);
      expect(await store.webhooks.endpoint("we_endpoint0007")).toBeNull();

      await store.webhooks.addDelivery(delivery(1, "we_endpoint0001"));
      expect(await store.webhooks.removeEndpoint("b2", "we_endpoint0001")).toBe(false);
      expect(await store.webhooks.removeEndpoint("b1", "we_endpoint0001")).toBe(true);
      expect(await store.webhooks.endpoint("we_endpoint0001")).toBeNull();
      expect(await store.webhooks.delivery("wd_delivery0001")).toBeNull();
      expect((await store.webhooks.endpoints("b1")).map((e) => e.id)).toEqual(["we_endpoint0002"]);

      // A damaged record reads as none.
      await store.redis.set(`${store.prefix}wh:ep:we_endpoint0002`, "{not json");
      expect(await store.webhooks.endpoints("b1")).toEqual([]);
    });

    it("updates an endpoint atomically: concurrent changes all count; null changes nothing; a gone one is null", async () => {
      const store = await h.fresh("webhooks-update");
      await store.webhooks.addEndpoint(endpoint(1), 5);
      await Promise.all(
        Array.from({ length: 6 }, () =>
          store.webhooks.updateEndpoint("we_endpoint0001", (e) => ({ ...e, failures: e.failures + 1 })),
        ),
      );
      expect((await store.webhooks.endpoint("we_endpoint0001"))!.failures).toBe(6);
      expect(await store.webhooks.updateEndpoint("we_endpoint0001", () => null)).toMatchObject({ failures: 6 });
      expect(await store.webhooks.updateEndpoint("we_gone000000", (e) => e)).toBeNull();
    });

    it("stores a delivery once, keeps the newest WEBHOOK_LOG_SIZE in the log, newest first", async () => {
      const store = await h.fresh("webhooks-deliveries");
      expect(await store.webhooks.addDelivery(delivery(1))).toBe(true);
      const again = { ...delivery(1), body: "changed" };
      expect(await store.webhooks.addDelivery(again)).toBe(false);
      expect((await store.webhooks.delivery("wd_delivery0001"))!.body).toBe('{"n":1}');

      const sent = {
        ...delivery(1),
        state: "delivered" as const,
        attempts: 1,
        log: [{ at: at(1), status: 200, ms: 12 }],
      };
      const { nextAttemptAt: _n, ...withoutNext } = sent;
      await store.webhooks.saveDelivery(withoutNext);
      expect(await store.webhooks.delivery("wd_delivery0001")).toEqual(withoutNext);
      // Never re-creates one that is gone.
      await store.webhooks.saveDelivery(delivery(99));
      expect(await store.webhooks.delivery("wd_delivery0099")).toBeNull();

      for (let i = 2; i <= WEBHOOK_LOG_SIZE + 3; i++) await store.webhooks.addDelivery(delivery(i));
      const log = await store.webhooks.deliveries("we_endpoint0001");
      expect(log).toHaveLength(WEBHOOK_LOG_SIZE);
      expect(log[0]!.id).toBe(`wd_delivery${String(WEBHOOK_LOG_SIZE + 3).padStart(4, "0")}`);
      expect(log.at(-1)!.id).toBe("wd_delivery0004");
      // What left the log is kept a while (so the event is still known as sent), then goes.
      expect(await store.webhooks.delivery("wd_delivery0003")).not.toBeNull();
      const ttl = await store.redis.ttl(`${store.prefix}wh:dl:wd_delivery0003`);
      expect(ttl).toBeGreaterThan(TRIMMED_TTL_SECONDS - 60);
      expect(ttl).toBeLessThanOrEqual(TRIMMED_TTL_SECONDS);
      expect(await store.redis.ttl(`${store.prefix}wh:dl:wd_delivery0004`)).toBe(-1);
      expect((await store.webhooks.deliveries("we_endpoint0001", 2)).map((d) => d.id)).toEqual(
        log.slice(0, 2).map((d) => d.id),
      );
      expect(await store.webhooks.deliveries("we_other")).toEqual([]);
    });

    it("finds API keys by hash, lists a business's, caps them and revokes only its own", async () => {
      const store = await h.fresh("webhooks-keys");
      expect(await store.webhooks.addApiKey(key(2), hash(2), 2)).toBe(true);
      expect(await store.webhooks.addApiKey(key(1), hash(1), 2)).toBe(true);
      expect(await store.webhooks.addApiKey(key(3), hash(3), 2)).toBe(false);
      expect(await store.webhooks.addApiKey(key(4, "b2"), hash(4), 2)).toBe(true);
      expect(await store.webhooks.apiKey(hash(1))).toEqual(key(1));
      expect(await store.webhooks.apiKey(hash(3))).toBeNull();
      expect(await store.webhooks.apiKey("not-a-hash")).toBeNull();
      expect((await store.webhooks.apiKeys("b1")).map((k) => k.id)).toEqual(["ak_apikey0001", "ak_apikey0002"]);
      expect(await store.webhooks.removeApiKey("b2", "ak_apikey0001")).toBe(false);
      expect(await store.webhooks.removeApiKey("b1", "ak_apikey0001")).toBe(true);
      expect(await store.webhooks.apiKey(hash(1))).toBeNull();
      expect((await store.webhooks.apiKeys("b1")).map((k) => k.id)).toEqual(["ak_apikey0002"]);
      expect(await store.webhooks.apiKeys("b3")).toEqual([]);
    });
  });
}
