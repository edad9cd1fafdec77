/**
 * Making and changing a business's webhook endpoints and API keys (the owner page and the
 * Zapier/Make REST hooks share these): an endpoint's URL is checked as a send checks it
 * (./net.ts) before anything is stored; secrets (`whsec_`) and API keys (`tlk_`) are random,
 * shown once; an API key is stored as its sha256 only, and the business it acts for is read
 * from that record, never from anything else the caller says.
 */
import { createHash, randomBytes } from "node:crypto";
import {
  API_KEY_PREFIX,
  MAX_API_KEYS,
  MAX_WEBHOOK_ENDPOINTS,
  WEBHOOK_MESSAGES,
  type ApiKeyRecord,
  type WebhookEndpoint,
  type WebhookEvent,
} from "../../../src/lib/webhooks.ts";
import type { Store } from "../store/index.ts";
import { checkWebhookUrl, WebhookUrlError, type WebhookNet } from "./net.ts";

/** A Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
export const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

const randomId = (prefix: string) => `${prefix}_${randomBytes(12).toString("base64url")}`;

/** Refused: too many, or a URL that may not be used (its message is for the person). */
export class EndpointRefused extends Error {
  override name = "EndpointRefused";
}

/** Checks the URL, then stores a new endpoint; returns it (with its secret, to show once). */
export async function createEndpoint(
  store: Store,
  businessId: string,
  input: { url: string; events: readonly WebhookEvent[]; source: WebhookEndpoint["source"] },
  now: number,
  net: WebhookNet = {},
): Promise<WebhookEndpoint> {
  try {
    await checkWebhookUrl(input.url, net);
  } catch (error) {
    if (error instanceof WebhookUrlError) throw new EndpointRefused(error.message);
    throw error;
  }
  const at = new Date(now).toISOString();
  const endpoint: WebhookEndpoint = {
    id: randomId("we"),
    businessId,
    url: input.url,
    secret: newSecret(),
    events: [...new Set(input.events)],
    source: input.source,
    createdAt: at,
    secretAt: at,
    failures: 0,
  };
  if (!(await store.webhooks.addEndpoint(endpoint, MAX_WEBHOOK_ENDPOINTS)))
    throw new EndpointRefused(WEBHOOK_MESSAGES.tooMany);
  return endpoint;
}

/** The business's endpoint, or null when the id is not one of its own. */
export async function ownEndpoint(store: Store, businessId: string, id: string): Promise<WebhookEndpoint | null> {
  const ep = await store.webhooks.endpoint(id);
  return ep && ep.businessId === businessId ? ep : null;
}

/** A new secret for the endpoint (the old one signs nothing from now on); returns the endpoint, null when it is gone. */
export async function rotateSecret(store: Store, ep: WebhookEndpoint, now: number): Promise<WebhookEndpoint | null> {
  const secret = newSecret();
  const next = await store.webhooks.updateEndpoint(ep.id, (current) => ({
    ...current,
    secret,
    secretAt: new Date(now).toISOString(),
  }));
  return next;
}

/** Enabled again (its URL checked again), failures forgotten. */
export async function enableEndpoint(store: Store, ep: WebhookEndpoint, net: WebhookNet = {}): Promise<void> {
  try {
    await checkWebhookUrl(ep.url, net);
  } catch (error) {
    if (error instanceof WebhookUrlError) throw new EndpointRefused(error.message);
    throw error;
  }
  await store.webhooks.updateEndpoint(ep.id, ({ disabled: _d, warnedAt: _w, ...rest }) => ({ ...rest, failures: 0 }));
}

/** An API key's fingerprint, the only form of it the store holds. */
export const keyHash = (key: string) => createHash("sha256").update(key, "utf8").digest("hex");

/** Makes an API key for the business; returns the key (shown once) and its record. */
export async function createApiKey(
  store: Store,
  businessId: string,
  now: number,
): Promise<{ key: string; record: ApiKeyRecord }> {
  const key = `${API_KEY_PREFIX}${randomBytes(24).toString("base64url")}`;
  const record: ApiKeyRecord = {
    id: randomId("ak"),
    businessId,
    hint: `${key.slice(0, 8)}...`,
    createdAt: new Date(now).toISOString(),
  };
  if (!(await store.webhooks.addApiKey(record, keyHash(key), MAX_API_KEYS)))
    throw new EndpointRefused(WEBHOOK_MESSAGES.tooManyKeys);
  return { key, record };
}

/** The business an API key acts for, or null (unknown, revoked or malformed). */
export async function businessForKey(store: Store, key: string): Promise<string | null> {
  if (!key.startsWith(API_KEY_PREFIX) || key.length > 100) return null;
  const record = await store.webhooks.apiKey(keyHash(key));
  return record?.businessId ?? null;
}
