/**
 * Zapier and Make REST hooks (docs/webhooks.md, "Zapier and Make"), authenticated with a
 * business's API key (made on the owner page; `X-API-Key: tlk_...` or `Authorization: Bearer
 * tlk_...`). The business is the key's: nothing the caller writes names it.
 *
 *   POST /api/hooks/subscribe     {hookUrl, event} -> 201 {id, event, url, secret}: an endpoint
 *                                 that takes that event (checked like the owner page's)
 *   POST /api/hooks/unsubscribe   {id} -> 200 {id, deleted: true}; 404 for an id not the key's business's
 *   GET  /api/hooks/sample?event= -> 200 [payload]: one made-up event of that type, as a
 *                                 trigger's sample data (and a check that the key works)
 *
 * A missing or unknown key is 401 (with WWW-Authenticate); bad input 400 with the fields'
 * messages.
 */
import { fieldErrors } from "../../../src/lib/schemas/forms.ts";
import {
  SubscribeInput,
  UnsubscribeInput,
  WEBHOOK_MESSAGES,
  WebhookEventType,
  type WebhookEvent,
} from "../../../src/lib/webhooks.ts";
import { HttpError, KB, endpoint, jsonResponse, storeCall, type Endpoint, type EndpointDeps } from "../http.ts";
import type { Store } from "../store/index.ts";
import { businessForKey, createEndpoint, EndpointRefused, ownEndpoint } from "./endpoints.ts";
import type { WebhookNet } from "./net.ts";
import { sampleEvent } from "./sample.ts";

export interface HooksApiDeps extends EndpointDeps {
  /** Tests: a receiver on 127.0.0.1 (allowLoopback) or a fake resolver. */
  webhookNet?: WebhookNet;
}

const NO_STORE = { "cache-control": "no-store" };

/** The API key a request carries, or "". */
function keyOf(req: Request): string {
  const header = req.headers.get("x-api-key")?.trim();
  if (header) return header;
  const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.get("authorization") ?? "");
  return bearer?.[1] ?? "";
}

/** The business the request's key acts for; 401 otherwise. */
async function businessOf(req: Request, store: Store): Promise<string> {
  const key = keyOf(req);
  const businessId = key ? await storeCall(() => businessForKey(store, key), { step: "key" }) : null;
  if (!businessId)
    throw new HttpError(401, WEBHOOK_MESSAGES.apiKey, { headers: { "www-authenticate": 'Bearer realm="treeline"' } });
  return businessId;
}

const invalid = (error: import("zod").ZodError) => {
  const fields = fieldErrors(error);
  return new HttpError(400, Object.values(fields)[0] ?? WEBHOOK_MESSAGES.subscribeUrl, { extra: { fields } });
};

export function subscribeHandler(deps: HooksApiDeps = {}): Endpoint {
  return endpoint(
    {
      log: "[hooks] subscribe",
      methods: ["POST"],
      body: { json: 8 * KB },
      rateLimit: { name: "hooks-subscribe", perMinute: () => 30 },
      headers: NO_STORE,
    },
    deps,
    async ({ req, store, body, now }) => {
      const businessId = await businessOf(req, store);
      const parsed = SubscribeInput.safeParse(body!.value);
      if (!parsed.success) throw invalid(parsed.error);
      // A subscribe sent again (a retry after a lost answer) gets the same subscription back,
      // not a second endpoint delivering every event twice.
      const existing = (await storeCall(() => store.webhooks.endpoints(businessId), { step: "read" })).find(
        (ep) =>
          ep.source === "rest-hook" &&
          !ep.disabled &&
          ep.url === parsed.data.hookUrl &&
          ep.events.length === 1 &&
          ep.events[0] === parsed.data.event,
      );
      if (existing)
        return jsonResponse(
          { id: existing.id, event: parsed.data.event, url: existing.url, secret: existing.secret },
          200,
          NO_STORE,
        );
      try {
        const ep = await createEndpoint(
          store,
          businessId,
          { url: parsed.data.hookUrl, events: [parsed.data.event], source: "rest-hook" },
          now(),
          deps.webhookNet,
        );
        console.info(`[hooks] subscribe ${businessId}: ${ep.id} (${parsed.data.event})`);
        return jsonResponse({ id: ep.id, event: parsed.data.event, url: ep.url, secret: ep.secret }, 201, NO_STORE);
      } catch (error) {
        if (error instanceof EndpointRefused)
          throw new HttpError(400, error.message, { extra: { fields: { hookUrl: error.message } } });
        throw error;
      }
    },
  );
}

export function unsubscribeHandler(deps: EndpointDeps = {}): Endpoint {
  return endpoint(
    {
      log: "[hooks] unsubscribe",
      methods: ["POST"],
      body: { json: 4 * KB },
      rateLimit: { name: "hooks-unsubscribe", perMinute: () => 30 },
      headers: NO_STORE,
    },
    deps,
    async ({ req, store, body }) => {
      const businessId = await businessOf(req, store);
      const parsed = UnsubscribeInput.safeParse(body!.value);
      if (!parsed.success) throw invalid(parsed.error);
      const ep = await storeCall(() => ownEndpoint(store, businessId, parsed.data.id), { step: "read" });
      if (!ep) throw new HttpError(404, WEBHOOK_MESSAGES.unknownEndpoint);
      await storeCall(() => store.webhooks.removeEndpoint(businessId, ep.id), { step: "delete" });
      console.info(`[hooks] unsubscribe ${businessId}: ${ep.id}`);
      return jsonResponse({ id: ep.id, deleted: true }, 200, NO_STORE);
    },
  );
}

export function sampleHandler(deps: EndpointDeps = {}): Endpoint {
  return endpoint({ log: "[hooks] sample", methods: ["GET"], headers: NO_STORE }, deps, async ({ req, store, env }) => {
    const businessId = await businessOf(req, store);
    const asked = new URL(req.url).searchParams.get("event") ?? "offer.made";
    const event = WebhookEventType.safeParse(asked);
    if (!event.success)
      throw new HttpError(400, WEBHOOK_MESSAGES.subscribeEvent, {
        extra: { fields: { event: WEBHOOK_MESSAGES.subscribeEvent } },
      });
    const business = await storeCall(() => store.businesses.get(businessId), { step: "read" });
    // Zapier reads a list (newest first) and takes the first as the trigger's sample.
    return jsonResponse(
      [sampleEvent(event.data as WebhookEvent, { id: businessId, name: business?.name ?? "" }, env.siteUrl)],
      200,
      NO_STORE,
    );
  });
}
