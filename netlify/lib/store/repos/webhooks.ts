/**
 * Webhooks per business (docs/webhooks.md): the endpoints a business set up (on the owner page
 * or by a Zapier/Make subscription), each event's delivery to each endpoint with its attempts
 * (the delivery log), and the business's API keys, kept by their sha256 only. The outbox
 * (./outbox.ts) holds the retry schedule; a delivery here holds what was sent and what came back.
 */
import type { Redis } from "@upstash/redis";
import {
  ApiKeyRecord,
  WEBHOOK_EVENT_HORIZON_MS,
  WEBHOOK_LOG_SIZE,
  WebhookDelivery,
  WebhookEndpoint,
} from "../../../../src/lib/webhooks.ts";
import { asJson, asString } from "../decode.ts";
import type { Keys } from "../keys.ts";
import { COMPARE_AND_SET } from "../lua.ts";

export interface WebhooksRepository {
  /** Adds an endpoint unless the business has `max` already; false then. */
  addEndpoint(endpoint: WebhookEndpoint, max: number): Promise<boolean>;
  endpoint(id: string): Promise<WebhookEndpoint | null>;
  /** A business's endpoints, oldest first. */
  endpoints(businessId: string): Promise<WebhookEndpoint[]>;
  /** Replaces a stored endpoint; false (nothing written) when it is gone. */
  saveEndpoint(endpoint: WebhookEndpoint): Promise<boolean>;
  /**
   * Changes a stored endpoint atomically (compare-and-set, retried on a concurrent change):
   * `change` gets it as stored and returns the next one, or null for no change. Returns the
   * endpoint as stored afterwards, or null when it is gone.
   */
  updateEndpoint(
    id: string,
    change: (endpoint: WebhookEndpoint) => WebhookEndpoint | null,
  ): Promise<WebhookEndpoint | null>;
  /** Deletes the business's endpoint and its log; false when it is not the business's. */
  removeEndpoint(businessId: string, id: string): Promise<boolean>;
  /**
   * Stores a new delivery and puts it at the top of its endpoint's log (the oldest beyond
   * WEBHOOK_LOG_SIZE leave it, and are kept TRIMMED_TTL_SECONDS more); false when one with its
   * id exists (the event reached the endpoint before: nothing changes).
   */
  addDelivery(delivery: WebhookDelivery): Promise<boolean>;
  delivery(id: string): Promise<WebhookDelivery | null>;
  /** Replaces a stored delivery (never re-creates one that is gone). */
  saveDelivery(delivery: WebhookDelivery): Promise<void>;
  /** An endpoint's log, newest first. */
  deliveries(endpointId: string, limit?: number): Promise<WebhookDelivery[]>;
  /** Stores an API key's record under its hash. */
  addApiKey(record: ApiKeyRecord, hash: string, max: number): Promise<boolean>;
  /** The record of the key with this sha256, or null. */
  apiKey(hash: string): Promise<ApiKeyRecord | null>;
  /** A business's keys (records only), oldest first. */
  apiKeys(businessId: string): Promise<ApiKeyRecord[]>;
  /** Revokes a key of the business; false when it is not one of them. */
  removeApiKey(businessId: string, id: string): Promise<boolean>;
}

/** How long a delivery that left its endpoint's log is kept (a day past the event horizon). */
export const TRIMMED_TTL_SECONDS = WEBHOOK_EVENT_HORIZON_MS / 1000 + 86_400;

function parsed<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } }, v: unknown) {
  const r = schema.safeParse(asJson(v));
  return r.success ? r.data : null;
}

export function webhooksRepository(redis: Redis, keys: Keys): WebhooksRepository {
  async function endpointsOf(ids: string[]): Promise<WebhookEndpoint[]> {
    if (ids.length === 0) return [];
    const docs = await redis.mget<unknown[]>(...ids.map(keys.webhookEndpoint));
    return docs.flatMap((d) => parsed<WebhookEndpoint>(WebhookEndpoint, d) ?? []);
  }

  const ids = (v: unknown[]) => v.map((x) => asString(x) ?? "").filter(Boolean);

  const casScript = redis.createScript<unknown>(COMPARE_AND_SET);

  const endpoint = async (id: string) =>
    parsed<WebhookEndpoint>(WebhookEndpoint, await redis.get(keys.webhookEndpoint(id)));

  return {
    async addEndpoint(endpoint, max) {
      const doc = WebhookEndpoint.parse(endpoint);
      if ((await redis.zcard(keys.businessWebhooks(doc.businessId))) >= max) return false;
      const tx = redis.multi();
      tx.set(keys.webhookEndpoint(doc.id), JSON.stringify(doc));
      tx.zadd(keys.businessWebhooks(doc.businessId), { score: Date.parse(doc.createdAt), member: doc.id });
      await tx.exec();
      return true;
    },

    endpoint,

    async endpoints(businessId) {
      return endpointsOf(ids(await redis.zrange<unknown[]>(keys.businessWebhooks(businessId), 0, -1)));
    },

    async saveEndpoint(endpoint) {
      const doc = WebhookEndpoint.parse(endpoint);
      const reply = await redis.set(keys.webhookEndpoint(doc.id), JSON.stringify(doc), { xx: true });
      return reply !== null;
    },

    async updateEndpoint(id, change) {
      for (let attempt = 0; attempt < 8; attempt++) {
        const stored = asString(await redis.get(keys.webhookEndpoint(id)));
        const current = stored === null ? null : parsed<WebhookEndpoint>(WebhookEndpoint, stored);
        if (!stored || !current) return null;
        const next = change(current);
        if (next === null) return current;
        const doc = WebhookEndpoint.parse(next);
        const reply = asString(await casScript.exec([keys.webhookEndpoint(id)], [stored, JSON.stringify(doc)]));
        if (reply === "ok") return doc;
        if (reply === "gone") return null;
      }
      throw new Error("The webhook endpoint kept changing; try again.");
    },

    async removeEndpoint(businessId, id) {
      const stored = await endpoint(id);
      if (!stored || stored.businessId !== businessId) return false;
      const log = ids(await redis.zrange<unknown[]>(keys.webhookLog(id), 0, -1));
      const tx = redis.multi();
      tx.del(keys.webhookEndpoint(id), keys.webhookLog(id), ...log.map(keys.webhookDelivery));
      tx.zrem(keys.businessWebhooks(businessId), id);
      await tx.exec();
      return true;
    },

    async addDelivery(delivery) {
      const doc = WebhookDelivery.parse(delivery);
      const created = await redis.set(keys.webhookDelivery(doc.id), JSON.stringify(doc), { nx: true });
      if (created === null) return false;
      const log = keys.webhookLog(doc.endpointId);
      await redis.zadd(log, { score: Date.parse(doc.createdAt), member: doc.id });
      // Only the newest stay in the log. What leaves it is kept past the event horizon, then
      // goes: until then the same event is known as sent and is not queued again.
      const over = ids(await redis.zrange<unknown[]>(log, 0, -(WEBHOOK_LOG_SIZE + 1)));
      if (over.length > 0) {
        const tx = redis.multi();
        tx.zrem(log, ...over);
        for (const id of over) tx.expire(keys.webhookDelivery(id), TRIMMED_TTL_SECONDS);
        await tx.exec();
      }
      return true;
    },

    async delivery(id) {
      return parsed<WebhookDelivery>(WebhookDelivery, await redis.get(keys.webhookDelivery(id)));
    },

    async saveDelivery(delivery) {
      const doc = WebhookDelivery.parse(delivery);
      await redis.set(keys.webhookDelivery(doc.id), JSON.stringify(doc), { xx: true });
    },

    async deliveries(endpointId, limit = WEBHOOK_LOG_SIZE) {
      const list = ids(await redis.zrange<unknown[]>(keys.webhookLog(endpointId), 0, limit - 1, { rev: true }));
      if (list.length === 0) return [];
      const docs = await redis.mget<unknown[]>(...list.map(keys.webhookDelivery));
      return docs.flatMap((d) => parsed<WebhookDelivery>(WebhookDelivery, d) ?? []);
    },

    async addApiKey(record, hash, max) {
      const doc = ApiKeyRecord.parse(record);
      if ((await redis.hlen(keys.businessApiKeys(doc.businessId))) >= max) return false;
      const tx = redis.multi();
      tx.set(keys.apiKey(hash), JSON.stringify(doc));
      tx.hset(keys.businessApiKeys(doc.businessId), { [doc.id]: hash });
      await tx.exec();
      return true;
    },

    async apiKey(hash) {
      if (!/^[0-9a-f]{64}$/.test(hash)) return null;
      return parsed<ApiKeyRecord>(ApiKeyRecord, await redis.get(keys.apiKey(hash)));
    },

    async apiKeys(businessId) {
      const all = (await redis.hgetall<Record<string, unknown>>(keys.businessApiKeys(businessId))) ?? {};
      const hashes = Object.values(all).map((h) => asString(h) ?? "");
      if (hashes.length === 0) return [];
      const docs = await redis.mget<unknown[]>(...hashes.map(keys.apiKey));
      return docs
        .flatMap((d) => parsed<ApiKeyRecord>(ApiKeyRecord, d) ?? [])
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    },

    async removeApiKey(businessId, id) {
      const hash = asString(await redis.hget(keys.businessApiKeys(businessId), id));
      if (!hash) return false;
      const tx = redis.multi();
      tx.del(keys.apiKey(hash));
      tx.hdel(keys.businessApiKeys(businessId), id);
      await tx.exec();
      return true;
    },
  };
}
