/**
 * Webhooks per business (docs/webhooks.md): the events a business may subscribe to, the retry
 * schedule, the endpoint, delivery and API key shapes the store keeps, the forms and the
 * Zapier/Make REST-hook bodies, and every message the owner page and the API say about them.
 * Browser-safe: the owner page, the functions and the docs' tests read the same facts.
 */
import { z } from "./zod.ts";

/** What a business can be told about, in the order the owner page lists them. */
export const WEBHOOK_EVENTS = [
  { value: "offer.made", label: "Offer made: a lead was offered to you" },
  { value: "offer.answered", label: "Offer answered: you accepted or declined a lead" },
  { value: "lead.updated", label: "Lead updated: a lead you were offered expired, was given back or marked done" },
  { value: "review.posted", label: "Review posted: a customer reviewed your business" },
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]["value"];
export const WebhookEventType = z.enum(WEBHOOK_EVENTS.map((e) => e.value) as [WebhookEvent, ...WebhookEvent[]]);

/**
 * Delay before each attempt after the first (ms): about a day in all (27.6 hours), as
 * Standard Webhooks suggests. The scheduled run comes every 5 minutes, so the short ones are
 * "the next run".
 */
export const WEBHOOK_RETRY_DELAYS_MS = [
  60_000,
  5 * 60_000,
  30 * 60_000,
  2 * 60 * 60_000,
  5 * 60 * 60_000,
  10 * 60 * 60_000,
  10 * 60 * 60_000,
] as const;
/** Attempts per delivery: the first and one per retry delay. */
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_MS.length + 1;
/** Failed attempts in a row (any delivery) after which the owner is warned, before anything is disabled. */
export const WEBHOOK_WARN_AFTER = 4;
/** A receiver has this long to answer (ms); it should queue the event and answer at once. */
export const WEBHOOK_TIMEOUT_MS = 5_000;
/**
 * Events older than this are not sent to an endpoint (a lead read again weeks later sends
 * nothing new); a delivery that left the log is kept a day longer, so the same event is still
 * known as sent (its answer link lasts as long).
 */
export const WEBHOOK_EVENT_HORIZON_MS = 7 * 24 * 60 * 60_000;
/** Endpoints per business (each is tried on every event it takes). */
export const MAX_WEBHOOK_ENDPOINTS = 5;
/** API keys per business. */
export const MAX_API_KEYS = 5;
/** Attempts kept in one delivery's log, and deliveries in one endpoint's log. */
export const WEBHOOK_LOG_SIZE = 50;

/** Where an endpoint came from: the owner page, or a Zapier/Make subscription with an API key. */
export const WEBHOOK_SOURCES = ["owner", "rest-hook"] as const;

/** One endpoint of one business. */
export const WebhookEndpoint = z.object({
  /** `we_...`, random. */
  id: z.string().regex(/^we_[A-Za-z0-9_-]{8,40}$/),
  /** The business it belongs to. */
  businessId: z.string().min(1).max(64),
  /** Where events are posted (https; checked again at every send). */
  url: z.string().max(2000),
  /** The signing secret, `whsec_` and base64 (shown to the owner once). */
  secret: z.string().startsWith("whsec_").max(200),
  /** The events it takes. */
  events: z.array(WebhookEventType).min(1),
  /** Where it was made. */
  source: z.enum(WEBHOOK_SOURCES),
  /** When it was made (ISO). */
  createdAt: z.iso.datetime({ offset: true }),
  /** When its secret last changed (ISO). */
  secretAt: z.iso.datetime({ offset: true }),
  /** Set while it is disabled (410, or every retry of a delivery failed); events then skip it. */
  disabled: z
    .object({
      /** When (ISO). */
      at: z.iso.datetime({ offset: true }),
      /** Why, in words the owner reads. */
      reason: z.string().max(300),
    })
    .optional(),
  /** Failed attempts in a row; 0 after any success. */
  failures: z.number().int().min(0).default(0),
  /** Set once the owner was warned about failures in a row (cleared by a success). */
  warnedAt: z.iso.datetime({ offset: true }).optional(),
  /** What became of the last e-mail to the owner about this endpoint, as it happened. */
  lastNotice: z
    .object({
      /** What it was about. */
      kind: z.enum(["failing", "disabled"]),
      /** When (ISO). */
      at: z.iso.datetime({ offset: true }),
      /** sent: the e-mail provider took it; retrying: it failed for now; kept: nothing sends e-mail here; none: no owner address. */
      outcome: z.enum(["sent", "retrying", "kept", "failed", "none"]),
    })
    .optional(),
});
export type WebhookEndpoint = z.output<typeof WebhookEndpoint>;

/** One attempt to deliver an event to an endpoint. */
export const WebhookAttempt = z.object({
  /** When it started (ISO). */
  at: z.iso.datetime({ offset: true }),
  /** The receiver's HTTP status, if it answered. */
  status: z.number().int().optional(),
  /** Why it failed, without the receiver's body. */
  error: z.string().max(300).optional(),
  /** How long it took (ms). */
  ms: z.number().int().min(0),
  /** true when this attempt was the owner's "Send again". */
  manual: z.boolean().optional(),
});
export type WebhookAttempt = z.output<typeof WebhookAttempt>;

/** pending: waiting for an attempt; delivered: a 2xx; failed: every attempt failed or the endpoint went away. */
export const WEBHOOK_DELIVERY_STATES = ["pending", "delivered", "failed"] as const;

/** One event for one endpoint, with its attempts: the delivery log's row. */
export const WebhookDelivery = z.object({
  /** `wd_...`, derived from the endpoint and the event, so one event reaches one endpoint once. */
  id: z.string().regex(/^wd_[A-Za-z0-9_-]{8,80}$/),
  /** The endpoint. */
  endpointId: z.string(),
  /** The business. */
  businessId: z.string().min(1).max(64),
  /** The event's id (`webhook-id`), the same on every attempt and every endpoint. */
  eventId: z.string().max(120),
  /** The event's type. */
  type: WebhookEventType,
  /** The JSON body as signed and sent, byte for byte. */
  body: z.string().max(20_000),
  /** When the event happened (ISO). */
  createdAt: z.iso.datetime({ offset: true }),
  /** Where it stands. */
  state: z.enum(WEBHOOK_DELIVERY_STATES),
  /** The scheduled attempts made (a "Send again" is logged but not counted). */
  attempts: z.number().int().min(0),
  /** The next attempt, while pending (ISO). */
  nextAttemptAt: z.iso.datetime({ offset: true }).optional(),
  /** Every attempt, newest last (the latest WEBHOOK_LOG_SIZE). */
  log: z.array(WebhookAttempt).max(WEBHOOK_LOG_SIZE),
});
export type WebhookDelivery = z.output<typeof WebhookDelivery>;

/** A per-business API key as stored: its hash only (the key is shown once). */
export const ApiKeyRecord = z.object({
  /** `ak_...`, random: names the key on the owner page. */
  id: z.string().regex(/^ak_[A-Za-z0-9_-]{8,40}$/),
  /** The business the key acts for. */
  businessId: z.string().min(1).max(64),
  /** The key's first characters, to tell keys apart (`tlk_AbC1...`). */
  hint: z.string().max(20),
  /** When it was made (ISO). */
  createdAt: z.iso.datetime({ offset: true }),
});
export type ApiKeyRecord = z.output<typeof ApiKeyRecord>;

/** Prefixes of what is shown once. */
export const API_KEY_PREFIX = "tlk_";

export const WEBHOOK_MESSAGES = {
  url: "Enter the https:// address your software gave you.",
  https: "The address must start with https://.",
  credentials: "Leave the user name and password out of the address.",
  forbidden: (address: string) =>
    `That address leads to ${address}, a private, local or cloud-internal address. Webhooks only go to the public internet.`,
  unresolved: "That address's host name does not resolve. Check it for typos.",
  events: "Choose at least one event to send.",
  tooMany: `A business can have ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints. Delete one first.`,
  tooManyKeys: `A business can have ${MAX_API_KEYS} API keys. Revoke one first.`,
  unknownEndpoint: "That webhook endpoint is not one of yours (it may have been deleted).",
  unknownDelivery: "That delivery is not in the log any more.",
  unknownKey: "That API key is not one of yours (it may have been revoked).",
  added: (secret: string) =>
    `Webhook added. Its signing secret, shown only now: ${secret} . Copy it into your software to verify our signatures.`,
  rotated: (secret: string) =>
    `New signing secret, shown only now: ${secret} . The old one no longer signs anything; update your software.`,
  deleted: "Webhook deleted. Nothing more is sent to it.",
  enabled: "Webhook enabled again. New events go to it; use Send again for any you missed.",
  resent: (status: string) => `Sent again: ${status}.`,
  keyMade: (key: string) =>
    `API key made, shown only now: ${key} . Paste it into Zapier or Make; we keep only a fingerprint of it.`,
  keyRevoked: "API key revoked. Anything using it is refused from now on.",
  redirect: (status: number) => `The endpoint answered ${status}, a redirect. Redirects are not followed.`,
  gone: "The endpoint answered 410 Gone, so it was disabled.",
  exhausted: `Every attempt over about a day failed, so it was disabled.`,
  apiKey: "Send your Treeline API key in the X-API-Key header (or Authorization: Bearer).",
  subscribeUrl: "hookUrl: the https:// address to send events to.",
  subscribeEvent: `event: one of ${WEBHOOK_EVENTS.map((e) => e.value).join(", ")}.`,
} as const;

/** The owner page's "add a webhook" form. */
export const EndpointForm = z.object({
  /** The receiver's address. */
  url: z.string({ error: WEBHOOK_MESSAGES.url }).trim().min(1, WEBHOOK_MESSAGES.url).max(2000, WEBHOOK_MESSAGES.url),
  /** The events it takes (a checkbox group). */
  events: z.array(WebhookEventType, { error: WEBHOOK_MESSAGES.events }).min(1, WEBHOOK_MESSAGES.events),
});

/** A Zapier or Make subscribe call: `hookUrl` (Zapier's name; `target_url` and `url` too) and one event. */
export const SubscribeInput = z
  .object({
    /** Where to send events (Zapier's bundle.targetUrl). */
    hookUrl: z.string().trim().min(1).max(2000).optional(),
    /** The same, as some clients name it. */
    target_url: z.string().trim().min(1).max(2000).optional(),
    /** The same, as Make names it. */
    url: z.string().trim().min(1).max(2000).optional(),
    /** The event the trigger wants. */
    event: WebhookEventType.default("offer.made"),
  })
  .transform((v, ctx) => {
    const hookUrl = v.hookUrl ?? v.target_url ?? v.url;
    if (!hookUrl) {
      ctx.addIssue({ code: "custom", path: ["hookUrl"], message: WEBHOOK_MESSAGES.subscribeUrl });
      return z.NEVER;
    }
    return { hookUrl, event: v.event };
  });

/** An unsubscribe call: the id the subscribe call answered with. */
export const UnsubscribeInput = z.object({
  /** The subscription's id (`we_...`). */
  id: z.string().regex(/^we_[A-Za-z0-9_-]{8,40}$/, "id: the id the subscribe call answered with."),
});
