/**
 * /owner/webhooks: the signed-in owner's webhooks and API keys (docs/webhooks.md). The page
 * (src/pages/owner/webhooks.astro) works without JavaScript: each action is a button in a form
 * posting `intent` here, answered 303 back to the page with a notice or the form's messages.
 *
 *   add        url + events[]: checked (https, public address after DNS) and stored; the
 *              secret is in the notice, shown this once
 *   rotate     a new secret (in the notice, once); the old one signs nothing more
 *   enable     a disabled endpoint takes events again (its URL checked again)
 *   delete     the endpoint and its log go
 *   resend     "Send again": one more signed attempt of a delivery in the log, now
 *   key        a new API key for Zapier or Make (in the notice, once; stored as its sha256)
 *   revoke     an API key stops working
 */
import {
  WEBHOOK_EVENTS,
  WEBHOOK_MESSAGES,
  EndpointForm,
  MAX_API_KEYS,
  MAX_WEBHOOK_ENDPOINTS,
} from "../../../src/lib/webhooks.ts";
import type { WebhookDelivery, WebhookEndpoint } from "../../../src/lib/webhooks.ts";
import { fieldErrors, type FieldErrors } from "../../../src/lib/schemas/forms.ts";
import type { WebhookDeliveryView, WebhookEndpointView, WebhooksView } from "../../../src/lib/owner-views.ts";
import { KB, storeCall, type Endpoint, type EndpointDeps, type Env } from "../http.ts";
import type { NotifyDeps } from "../notify/config.ts";
import type { Store } from "../store/index.ts";
import { sendAgain } from "../webhooks/deliver.ts";
import {
  EndpointRefused,
  createApiKey,
  createEndpoint,
  enableEndpoint,
  ownEndpoint,
  rotateSecret,
} from "../webhooks/endpoints.ts";
import type { WebhookNet } from "../webhooks/net.ts";
import { INVALID_STATUS, backToPage, ownerEndpoint, postedValues, seeOwnerPage, type FlashValues } from "./page.ts";

export const OWNER_WEBHOOKS_PATH = "/owner/webhooks";
/** Deliveries shown per endpoint (the newest). */
const LOG_SHOWN = 20;

export interface OwnerWebhooksDeps extends EndpointDeps {
  /** Tests: a receiver on 127.0.0.1, a fake resolver. */
  webhookNet?: WebhookNet;
  /** The notifier's seams for "Send again" (tests: the clock). */
  notify?: NotifyDeps;
}

const LABEL = new Map<string, string>(WEBHOOK_EVENTS.map((e) => [e.value, e.label.split(":")[0]!]));

const when = (iso: string) => ({
  iso,
  text: new Date(iso).toLocaleString("en-US", {
    month: "short",
    day: "numeric",
    year: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZone: "UTC",
    timeZoneName: "short",
  }),
});

/** What became of the owner's e-mail about the endpoint: only "we e-mailed you" when the provider took it. */
function noticeLine(n: NonNullable<WebhookEndpoint["lastNotice"]>): string {
  const about = n.kind === "disabled" ? "that it was disabled" : "that it was failing";
  const at = when(n.at).text;
  switch (n.outcome) {
    case "sent":
      return `We e-mailed you ${about} on ${at}.`;
    case "retrying":
      return `Our e-mail ${about} (${at}) could not be sent yet; we keep trying.`;
    case "none":
      return `No owner e-mail is on file, so nobody was e-mailed ${about}.`;
    default:
      return `E-mail cannot be sent from this site right now, so nobody was e-mailed ${about} (${at}); the Treeline team can see it.`;
  }
}

function deliveryView(d: WebhookDelivery): WebhookDeliveryView {
  const state =
    d.state === "delivered"
      ? "Delivered"
      : d.state === "failed"
        ? "Failed"
        : d.nextAttemptAt
          ? `Waiting; next try ${when(d.nextAttemptAt).text}`
          : "Waiting";
  return {
    id: d.id,
    eventId: d.eventId,
    type: LABEL.get(d.type) ?? d.type,
    when: when(d.createdAt),
    state,
    attempts: d.log
      .slice()
      .reverse()
      .map((a) => ({
        when: when(a.at),
        status: a.status !== undefined ? String(a.status) : "No answer",
        ...(a.error ? { error: a.error } : {}),
        manual: a.manual === true,
      })),
  };
}

const one = (v: FlashValues, k: string) => {
  const x = v[k];
  return typeof x === "string" ? x : (x?.[0] ?? "");
};

/** The page's view: endpoints with their logs, the add form (as last posted when refused), the keys. */
export async function webhooksView(
  store: Store,
  businessId: string,
  env: Env,
  flash: { values: FlashValues; errors: FieldErrors } | null,
): Promise<{ view: WebhooksView; problemHref?: string }> {
  const [endpoints, keys] = await Promise.all([
    storeCall(() => store.webhooks.endpoints(businessId), { step: "read" }),
    storeCall(() => store.webhooks.apiKeys(businessId), { step: "read" }),
  ]);
  const logs = await Promise.all(
    endpoints.map((ep) => storeCall(() => store.webhooks.deliveries(ep.id, LOG_SHOWN), { step: "read" })),
  );
  const adding = flash && one(flash.values, "intent") === "add" ? flash : null;
  const posted = adding ? adding.values.events : undefined;
  const chosen = new Set(typeof posted === "string" ? [posted] : (posted ?? ["offer.made", "offer.answered"]));
  const views: WebhookEndpointView[] = endpoints.map((ep, i) => ({
    id: ep.id,
    url: ep.url,
    events: ep.events.map((e) => LABEL.get(e) ?? e),
    source: ep.source === "owner" ? "Set up on this page" : "Zapier or Make subscription",
    secretAt: when(ep.secretAt),
    ...(ep.disabled ? { disabled: { text: `Disabled ${when(ep.disabled.at).text}: ${ep.disabled.reason}` } } : {}),
    ...(ep.lastNotice ? { notice: noticeLine(ep.lastNotice) } : {}),
    deliveries: logs[i]!.map(deliveryView),
  }));
  return {
    view: {
      action: OWNER_WEBHOOKS_PATH,
      endpoints: views,
      form: {
        url: adding ? one(adding.values, "url") : "",
        events: WEBHOOK_EVENTS.map((e) => ({ value: e.value, label: e.label, checked: chosen.has(e.value) })),
        errors: adding?.errors ?? {},
      },
      canAdd: endpoints.length < MAX_WEBHOOK_ENDPOINTS,
      keys: keys.map((k) => ({ id: k.id, hint: k.hint, created: when(k.createdAt) })),
      canAddKey: keys.length < MAX_API_KEYS,
      api: {
        subscribe: `${env.siteUrl}/api/hooks/subscribe`,
        unsubscribe: `${env.siteUrl}/api/hooks/unsubscribe`,
        sample: `${env.siteUrl}/api/hooks/sample`,
      },
    },
    ...(adding?.errors.url
      ? { problemHref: "#webhook-url" }
      : adding?.errors.events
        ? { problemHref: "#webhook-events" }
        : {}),
  };
}

export function ownerWebhooksHandler(deps: OwnerWebhooksDeps = {}): Endpoint {
  return ownerEndpoint(
    {
      log: "[owner] webhooks",
      body: { urlencoded: 8 * KB },
      rateLimit: { name: "owner-webhooks", perMinute: () => 30 },
    },
    deps,
    async (call, { business }) => {
      const { store, now } = call;
      const form = call.body!.value;
      const values = postedValues(form);
      const intent = form.get("intent") ?? "";
      const refused = (status: number, problem: string, errors: FieldErrors = {}) =>
        backToPage(store, { path: OWNER_WEBHOOKS_PATH, status, values, errors, problem });
      const done = (notice: string) => seeOwnerPage(store, OWNER_WEBHOOKS_PATH, notice);
      const endpointOf = async () => {
        const id = form.get("endpointId") ?? "";
        return id ? storeCall(() => ownEndpoint(store, business.id, id), { step: "read" }) : null;
      };

      try {
        switch (intent) {
          case "add": {
            const parsed = EndpointForm.safeParse({ url: form.get("url") ?? "", events: form.getAll("events") });
            if (!parsed.success) {
              const errors = fieldErrors(parsed.error);
              return refused(INVALID_STATUS, `The webhook was not added. ${Object.values(errors)[0]}`, errors);
            }
            const ep = await createEndpoint(
              store,
              business.id,
              { ...parsed.data, source: "owner" },
              now(),
              deps.webhookNet,
            );
            console.info(`[owner] webhooks ${business.id}: added ${ep.id}`);
            return done(WEBHOOK_MESSAGES.added(ep.secret));
          }
          case "rotate":
          case "enable":
          case "delete":
          case "resend": {
            const ep = await endpointOf();
            if (!ep) return refused(404, WEBHOOK_MESSAGES.unknownEndpoint);
            if (intent === "rotate") {
              const next = await storeCall(() => rotateSecret(store, ep, now()), { step: "write" });
              return next
                ? done(WEBHOOK_MESSAGES.rotated(next.secret))
                : refused(404, WEBHOOK_MESSAGES.unknownEndpoint);
            }
            if (intent === "enable") {
              await enableEndpoint(store, ep, deps.webhookNet);
              return done(WEBHOOK_MESSAGES.enabled);
            }
            if (intent === "delete") {
              await storeCall(() => store.webhooks.removeEndpoint(business.id, ep.id), { step: "write" });
              return done(WEBHOOK_MESSAGES.deleted);
            }
            const d = await storeCall(() => store.webhooks.delivery(form.get("deliveryId") ?? ""), { step: "read" });
            if (!d || d.endpointId !== ep.id) return refused(404, WEBHOOK_MESSAGES.unknownDelivery);
            const a = await sendAgain(store, ep, d, { now, webhookNet: deps.webhookNet, ...deps.notify });
            return done(
              WEBHOOK_MESSAGES.resent(
                a.status !== undefined
                  ? `the endpoint answered ${a.status}${a.error ? `. ${a.error}` : ""}`
                  : (a.error ?? "failed"),
              ),
            );
          }
          case "key": {
            const { key } = await createApiKey(store, business.id, now());
            console.info(`[owner] webhooks ${business.id}: API key made`);
            return done(WEBHOOK_MESSAGES.keyMade(key));
          }
          case "revoke": {
            const ok = await storeCall(() => store.webhooks.removeApiKey(business.id, form.get("keyId") ?? ""), {
              step: "write",
            });
            return ok ? done(WEBHOOK_MESSAGES.keyRevoked) : refused(404, WEBHOOK_MESSAGES.unknownKey);
          }
          default:
            return refused(400, "Choose an action on this page.");
        }
      } catch (error) {
        if (error instanceof EndpointRefused)
          return refused(INVALID_STATUS, `The webhook was not saved. ${error.message}`, { url: error.message });
        throw error;
      }
    },
  );
}
