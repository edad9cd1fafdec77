/**
 * The handlers behind a lead's links (one function file each):
 *   GET/POST /respond/:token        a business's answer page and its answer
 *   POST     /respond/:token/call   the answer page's `ping` when the customer's number is tapped
 *   GET      /respond/:token/photo  the customer's photo, for that business only
 * (The visitor's status page, /requests/:leadId/:sig, is an Astro page: src/pages/requests.)
 * A link that is tampered with, expired or not for this lead and business answers 4xx with
 * a page and changes nothing (signing.ts).
 */
import { z } from "../../../src/lib/zod.ts";
import { optionValues } from "../../../src/lib/options.ts";
import { fieldErrors } from "../../../src/lib/schemas/forms.ts";
import type { Delivery, Lead } from "../../../src/lib/schemas/lead.ts";
import { netlifyPhotoStore, type PhotoStore } from "../blobs.ts";
import {
  BASE_HEADERS,
  HttpError,
  KB,
  endpoint,
  errorName,
  htmlResponse,
  jsonResponse,
  storeCall,
  type Endpoint,
  type EndpointDeps,
  type FunctionContext,
} from "../http.ts";
import { notifyLead, type NotifyDeps } from "../notify/index.ts";
import { problemPage } from "../pages.ts";
import type { Store } from "../store/index.ts";
import { netlifyPurge, type Purge } from "../directory.ts";
import {
  ANSWER_PAGE_CSP,
  ANSWER_PAGE_REFERRER_POLICY,
  PRIVATE_PAGE_HEADERS,
  answerPage,
  linkProblemPage,
} from "./pages.ts";
import { answerLead } from "./progress.ts";
import { DECLINE_REASONS, type Answer } from "./routing.ts";
import { signerFor } from "./signing.ts";

export const RESPOND_ROUTE = "/respond/:token";
export const RESPOND_CALL_ROUTE = "/respond/:token/call";
export const RESPOND_PHOTO_ROUTE = "/respond/:token/photo";

/** Answers per minute per address: a person taps a few times; a script guessing links gets nowhere anyway. */
const ANSWERS_PER_MINUTE = 30;

export const ANSWER_MESSAGES = {
  action: "Choose Accept or Decline.",
  reason: "Choose a reason for declining.",
  window: "Keep the time window under 200 characters.",
  price: "Keep the price under 100 characters.",
} as const;

const optionalText = (max: number, message: string) =>
  z
    .string({ error: message })
    .trim()
    .max(max, message)
    .optional()
    .transform((v) => v || undefined);

/** The answer form (JSON or a no-JS form post). */
export const AnswerForm = z.discriminatedUnion(
  "action",
  [
    z.object({
      /** Accept the job. */
      action: z.literal("accept"),
      /** When they can come, in their words. */
      window: optionalText(200, ANSWER_MESSAGES.window),
      /** Their price, in their words. */
      price: optionalText(100, ANSWER_MESSAGES.price),
    }),
    z.object({
      /** Decline the job. */
      action: z.literal("decline"),
      /** Why (DECLINE_REASONS). */
      reason: z.enum(optionValues(DECLINE_REASONS), { error: ANSWER_MESSAGES.reason }),
    }),
  ],
  { error: ANSWER_MESSAGES.action },
);

export interface DeliveryDeps extends EndpointDeps {
  photos?: () => PhotoStore;
  notify?: NotifyDeps;
  /** Drops a business page's CDN copy when its response-time figure changes. */
  purge?: Purge;
}

const TOKEN = /^[A-Za-z0-9._-]{20,200}$/;
const privateHtml = (html: string, status = 200, headers: Record<string, string> = {}) =>
  htmlResponse(html, status, { ...PRIVATE_PAGE_HEADERS, ...headers });

/** The answer page posts to itself: its own script policy and referrer policy. */
const ANSWER_PAGE_HEADERS = {
  "content-security-policy": ANSWER_PAGE_CSP,
  "referrer-policy": ANSWER_PAGE_REFERRER_POLICY,
} as const;

const problem = (status: number, message: string) =>
  status === 404
    ? linkProblemPage("invalid")
    : problemPage(status === 429 ? "Too many requests" : "Something went wrong", message);

interface Opened {
  lead: Lead;
  delivery: Delivery;
  leadId: string;
  businessId: string;
}

/** The lead and delivery a token grants, or the page that says why not (thrown). */
async function open(store: Store, token: string, env: EndpointDeps["env"], now: number): Promise<Opened> {
  const signer = await storeCall(() => signerFor(store, env), { step: "link key" });
  const grant = signer.readAnswer(token, now);
  if (!grant.ok) throw new PageError(grant.reason === "expired" ? 410 : 404, linkProblemPage(grant.reason));
  const lead = await storeCall(() => store.leads.get(grant.leadId), { step: "read" });
  const delivery = lead?.routing?.deliveries.find((d) => d.businessId === grant.businessId);
  if (!lead || !delivery) throw new PageError(404, linkProblemPage("gone"));
  return { lead, delivery, leadId: grant.leadId, businessId: grant.businessId };
}

/** A refusal that is a whole page. */
class PageError extends Error {
  constructor(
    readonly status: number,
    readonly html: string,
  ) {
    super("page");
  }
}

const asPage = async (run: () => Promise<Response>): Promise<Response> => {
  try {
    return await run();
  } catch (error) {
    if (error instanceof PageError) return privateHtml(error.html, error.status);
    throw error;
  }
};

function notifyLater(store: Store, leadId: string, context: FunctionContext | null | undefined, deps: DeliveryDeps) {
  const run = notifyLead(store, leadId, { env: deps.env, ...deps.notify }).catch((error) =>
    console.error(`[delivery] ${leadId}: notify failed (${errorName(error)})`),
  );
  context?.waitUntil?.(run);
}

const NOTICES = {
  applied: {
    accept: "Thanks: you accepted this job. The customer's request page shows it; please call them to confirm.",
    decline: "Thanks for letting us know. We've passed the job on.",
  },
  repeated: "You already answered this job; your first answer stands.",
  closed: "The time to answer this job has passed, so nothing was changed.",
} as const;

/** GET shows the answer page; POST records an answer and shows the page again with a notice. */
export function respondHandler(deps: DeliveryDeps = {}): Endpoint {
  return endpoint(
    {
      log: "[delivery] respond",
      methods: ["GET", "HEAD", "POST"],
      route: { path: RESPOND_ROUTE, valid: (v) => TOKEN.test(v), notFound: "This link isn't valid." },
      body: { urlencoded: 4 * KB, json: 4 * KB },
      sameSiteOnly: true,
      rateLimit: { name: "respond", perMinute: () => ANSWERS_PER_MINUTE },
      page: problem,
      pagesOnly: true,
    },
    deps,
    async ({ store, env, now, params, body, context, html }) =>
      asPage(async () => {
        const path = `/respond/${params.token}`;
        const opened = await open(store, params.token, env, now());
        const photoKey = (opened.lead.data as Record<string, unknown> | null)?.photoKey;
        const photoPath = typeof photoKey === "string" ? `${path}/photo` : undefined;
        const render = (lead: Lead, notice?: { kind: "ok" | "error"; text: string }, status = 200) => {
          const delivery = lead.routing!.deliveries.find((d) => d.businessId === opened.businessId)!;
          return privateHtml(
            answerPage({ lead, delivery, path, photoPath, notice, now: now() }),
            status,
            ANSWER_PAGE_HEADERS,
          );
        };
        if (!body) return render(opened.lead);

        const raw =
          body.kind === "json"
            ? body.value
            : Object.fromEntries([...body.value].filter(([, v]) => typeof v === "string"));
        const parsed = AnswerForm.safeParse(raw);
        if (!parsed.success) {
          const fields = fieldErrors(parsed.error);
          if (!html) throw new HttpError(400, "Please check the answer.", { extra: { fields } });
          return render(opened.lead, { kind: "error", text: Object.values(fields)[0] ?? ANSWER_MESSAGES.action }, 400);
        }
        const form = parsed.data;
        const answer: Answer =
          form.action === "accept"
            ? { kind: "accept", window: form.window, price: form.price }
            : { kind: "decline", reason: form.reason };
        const result = await storeCall(
          () => answerLead(store, opened.leadId, opened.businessId, answer, now(), deps.purge ?? netlifyPurge),
          {
            step: "answer",
          },
        );
        if (!result) throw new PageError(404, linkProblemPage("gone"));
        if (result.outcome === "applied") notifyLater(store, opened.leadId, context, deps);
        const state = result.lead.routing?.deliveries.find((d) => d.businessId === opened.businessId)?.state;
        console.info(`[delivery] ${opened.leadId} ${opened.businessId}: ${form.action} -> ${result.outcome}`);
        if (!html)
          return jsonResponse(
            { ok: result.outcome !== "closed", outcome: result.outcome, state },
            result.outcome === "closed" ? 409 : 200,
          );
        const text = result.outcome === "applied" ? NOTICES.applied[form.action] : NOTICES[result.outcome];
        return render(
          result.lead,
          { kind: result.outcome === "closed" ? "error" : "ok", text },
          result.outcome === "closed" ? 409 : 200,
        );
      }),
  );
}

/** The answer page's ping: the business tapped the customer's number. */
export function respondCallHandler(deps: DeliveryDeps = {}): Endpoint {
  return endpoint(
    {
      log: "[delivery] call",
      methods: ["POST"],
      route: { path: RESPOND_CALL_ROUTE, valid: (v) => TOKEN.test(v), notFound: "This link isn't valid." },
      rateLimit: { name: "respond", perMinute: () => ANSWERS_PER_MINUTE },
    },
    deps,
    async ({ store, env, now, params, context }) => {
      // The body is the browser's "PING" (text/ping): nothing in it is read.
      const signer = await storeCall(() => signerFor(store, env), { step: "link key" });
      const grant = signer.readAnswer(params.token, now());
      if (!grant.ok) throw new HttpError(grant.reason === "expired" ? 410 : 404, "This link isn't valid.");
      const result = await storeCall(
        () => answerLead(store, grant.leadId, grant.businessId, { kind: "call" }, now(), deps.purge ?? netlifyPurge),
        {
          step: "call",
        },
      );
      if (!result) throw new HttpError(404, "This link isn't valid.");
      if (result.outcome === "applied") notifyLater(store, grant.leadId, context, deps);
      return new Response(null, { status: 204, headers: { ...BASE_HEADERS, "cache-control": "no-store" } });
    },
  );
}

/** The customer's photo for the business the link is for. */
export function respondPhotoHandler(deps: DeliveryDeps = {}): Endpoint {
  const photosOf = deps.photos ?? (() => netlifyPhotoStore());
  return endpoint(
    {
      log: "[delivery] photo",
      methods: ["GET", "HEAD"],
      route: { path: RESPOND_PHOTO_ROUTE, valid: (v) => TOKEN.test(v), notFound: "This link isn't valid." },
    },
    deps,
    async ({ store, env, now, params }) => {
      const signer = await storeCall(() => signerFor(store, env), { step: "link key" });
      const grant = signer.readAnswer(params.token, now());
      if (!grant.ok) throw new HttpError(grant.reason === "expired" ? 410 : 404, "This link isn't valid.");
      const lead = await storeCall(() => store.leads.get(grant.leadId), { step: "read" });
      const key = (lead?.data as Record<string, unknown> | null)?.photoKey;
      if (!lead?.routing?.deliveries.some((d) => d.businessId === grant.businessId) || typeof key !== "string") {
        throw new HttpError(404, "No photo.");
      }
      const photo = await storeCall(() => photosOf().get(key), { step: "photo" });
      if (!photo) throw new HttpError(404, "No photo.");
      return new Response(photo.bytes.slice().buffer, {
        headers: {
          "content-type": photo.contentType,
          "cache-control": "private, max-age=3600",
          "x-content-type-options": "nosniff",
          "content-security-policy": "default-src 'none'; sandbox",
          "referrer-policy": "no-referrer",
        },
      });
    },
  );
}
