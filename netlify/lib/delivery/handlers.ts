/**
 * The handlers behind a lead's links (one function file each):
 *   POST     /respond/:token        a business's answer (the answer page's forms, or JSON):
 *                                   accept (and call), decline, or give an accepted job back;
 *                                   and its capacity (taking storm jobs, fully booked until)
 *   POST     /respond/:token/call   the answer page's `ping` when the customer's number is
 *                                   tapped (only a business that accepted has it)
 *   GET      /respond/:token/photo  the customer's photo, for that business only
 *   POST     /requests/:leadId/:sig/done   the homeowner marks the job done (status page)
 * The pages themselves (the answer page, the visitor's status page) are Astro pages
 * (src/pages/respond, src/pages/requests). A link that is tampered with, expired or not for
 * this lead and business changes nothing (signing.ts): JSON gets a 4xx, a form post goes back
 * to the page, which says why.
 */
import { z } from "../../../src/lib/zod.ts";
import { optionValues } from "../../../src/lib/options.ts";
import { fieldErrors } from "../../../src/lib/schemas/forms.ts";
import { netlifyPhotoStore, type PhotoStore } from "../blobs.ts";
import {
  BASE_HEADERS,
  HttpError,
  KB,
  endpoint,
  errorName,
  jsonResponse,
  storeCall,
  type Endpoint,
  type EndpointDeps,
  type FunctionContext,
} from "../http.ts";
import { redirectWithFlash } from "../form-flash.ts";
import { notifyLead, type NotifyDeps } from "../notify/index.ts";
import type { Store } from "../store/index.ts";
import { netlifyPurge, type Purge } from "../directory.ts";
import { capacitySavedNotice, readCapacityForm, saveCapacity } from "../capacity.ts";
import { DEFAULT_TIME_ZONE } from "../../../src/lib/hours.ts";
import { DONE_FORM, completeLead, withdrawLead } from "./accepted.ts";
import { answerLead } from "./progress.ts";
import { DECLINE_REASONS, WITHDRAW_REASONS, type Answer, type AnswerOutcome } from "./routing.ts";
import { REPORT_REASONS } from "../../../src/lib/lead-routing.ts";
import { reportLead } from "./report.ts";
import { signerFor } from "./signing.ts";

export const RESPOND_ROUTE = "/respond/:token";
export const RESPOND_CALL_ROUTE = "/respond/:token/call";
export const RESPOND_PHOTO_ROUTE = "/respond/:token/photo";

/** Answers per minute per address: a person taps a few times; a script guessing links gets nowhere anyway. */
const ANSWERS_PER_MINUTE = 30;

export const ANSWER_MESSAGES = {
  action: "Choose Accept or Decline.",
  reason: "Choose a reason for declining.",
  withdrawReason: "Choose a reason for giving the job back.",
  reportReason: "Choose what is wrong with this lead.",
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
      /** "call": an emergency's "Accept and call" (the page comes back with the number first). */
      then: z
        .string()
        .optional()
        .transform((v) => (v === "call" ? ("call" as const) : undefined)),
    }),
    z.object({
      /** Decline the job. */
      action: z.literal("decline"),
      /** Why (DECLINE_REASONS). */
      reason: z.enum(optionValues(DECLINE_REASONS), { error: ANSWER_MESSAGES.reason }),
    }),
    z.object({
      /** Give back a job already accepted. */
      action: z.literal("withdraw"),
      /** Why (WITHDRAW_REASONS). */
      reason: z.enum(optionValues(WITHDRAW_REASONS), { error: ANSWER_MESSAGES.withdrawReason }),
    }),
    z.object({
      /** Report the lead as a bad lead (it goes to the operator, never into the response figures). */
      action: z.literal("report"),
      /** What is wrong with it (REPORT_REASONS). */
      reason: z.enum(optionValues(REPORT_REASONS), { error: ANSWER_MESSAGES.reportReason }),
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
const LINK_INVALID = "This link isn't valid.";

/** The lead and business a token grants; a link that opens nothing is a 404 (410 expired). */
async function open(store: Store, token: string, env: EndpointDeps["env"], now: number) {
  const signer = await storeCall(() => signerFor(store, env), { step: "link key" });
  const grant = signer.readAnswer(token, now);
  if (!grant.ok) throw new HttpError(grant.reason === "expired" ? 410 : 404, LINK_INVALID);
  return grant;
}

function notifyLater(store: Store, leadId: string, context: FunctionContext | null | undefined, deps: DeliveryDeps) {
  const run = notifyLead(store, leadId, { env: deps.env, ...deps.notify }).catch((error) =>
    console.error(`[delivery] ${leadId}: notify failed (${errorName(error)})`),
  );
  context?.waitUntil?.(run);
}

/** What the answer page says after a post, by what the post did. */
export const NOTICES = {
  applied: {
    accept:
      "Thanks: you accepted this job. The customer's number, e-mail and address are below; please call them to confirm.",
    call: "You accepted this job. Call the customer now: their number is first on this page.",
    decline: "Thanks for letting us know. We've passed the job on.",
    withdraw: "You gave this job back. We've told the customer and passed the job on.",
    // The page's own box says the rest (when, why, and that it does not count).
    report: "Thanks for the report.",
  },
  reportedAgain: "You already reported this lead; your first report stands.",
  repeated: "You already answered this job; your first answer stands.",
  withdrawnAgain: "You already gave this job back.",
  closed: "The time to answer this job has passed, so nothing was changed.",
  notYours: "Only a job you accepted can be given back, so nothing was changed.",
  gaveBack: "You gave this job back, so nothing was changed.",
} as const;

/** The line after an answer: what it did, or why it did nothing. */
function noticeOf(
  action: "accept" | "call" | "decline" | "withdraw" | "report",
  outcome: AnswerOutcome,
  state?: string,
): string {
  if (outcome === "applied") return NOTICES.applied[action];
  if (action === "report") return outcome === "repeated" ? NOTICES.reportedAgain : NOTICES.closed;
  if (action === "withdraw") return outcome === "repeated" ? NOTICES.withdrawnAgain : NOTICES.notYours;
  if (state === "withdrawn") return NOTICES.gaveBack;
  return outcome === "repeated" ? NOTICES.repeated : NOTICES.closed;
}

/**
 * Records an answer. The answer page's form post goes back to the page (303) with a notice,
 * or with the field messages and the values typed; JSON gets `{ ok, outcome, state }`.
 */
export function respondHandler(deps: DeliveryDeps = {}): Endpoint {
  return endpoint(
    {
      log: "[delivery] respond",
      methods: ["POST"],
      route: { path: RESPOND_ROUTE, valid: (v) => TOKEN.test(v), notFound: LINK_INVALID },
      body: { urlencoded: 4 * KB, json: 4 * KB },
      sameSiteOnly: true,
      rateLimit: { name: "respond", perMinute: () => ANSWERS_PER_MINUTE },
      formPage: (req) => new URL(req.url).pathname,
      pagesOnly: true,
    },
    deps,
    async ({ store, env, now, params, body, html, context }) => {
      const path = `/respond/${params.token}`;
      const grant = await open(store, params.token, env, now());
      const raw =
        body!.kind === "json"
          ? body!.value
          : Object.fromEntries([...body!.value].filter((e): e is [string, string] => typeof e[1] === "string"));
      const form = typeof raw.action === "string" ? raw.action.slice(0, 20) : undefined;
      // The link names the business: its capacity needs no account either (any offer's link
      // works while it has not expired, whatever became of that offer).
      if (raw.action === "capacity")
        return answerCapacity(store, grant.businessId, raw, now(), path, html, deps.purge ?? netlifyPurge);
      const parsed = AnswerForm.safeParse(raw);
      if (!parsed.success) {
        const fields = fieldErrors(parsed.error);
        if (!html) throw new HttpError(400, "Please check the answer.", { extra: { fields } });
        const values = Object.fromEntries(
          Object.entries(raw).filter((e): e is [string, string] => typeof e[1] === "string" && e[0] !== "action"),
        );
        const problem = Object.values(fields)[0] ?? ANSWER_MESSAGES.action;
        return redirectWithFlash(store, { path, status: 422, values, errors: fields, problem, form });
      }
      const data = parsed.data;
      const result = await storeCall(
        () => {
          if (data.action === "withdraw")
            return withdrawLead(store, grant.leadId, grant.businessId, data.reason, now());
          if (data.action === "report")
            return reportLead(store, grant.leadId, grant.businessId, data.reason, now(), deps.purge ?? netlifyPurge);
          const answer: Answer =
            data.action === "accept"
              ? { kind: "accept", window: data.window, price: data.price }
              : { kind: "decline", reason: data.reason };
          return answerLead(store, grant.leadId, grant.businessId, answer, now(), deps.purge ?? netlifyPurge);
        },
        { step: "answer" },
      );
      if (!result) throw new HttpError(404, LINK_INVALID);
      if (result.outcome === "applied") notifyLater(store, grant.leadId, context, deps);
      const state = result.lead.routing?.deliveries.find((d) => d.businessId === grant.businessId)?.state;
      console.info(`[delivery] ${grant.leadId} ${grant.businessId}: ${data.action} -> ${result.outcome}`);
      if (!html)
        return jsonResponse(
          { ok: result.outcome !== "closed", outcome: result.outcome, state },
          result.outcome === "closed" ? 409 : 200,
        );
      const closed = result.outcome === "closed";
      const action = data.action === "accept" && data.then === "call" ? "call" : data.action;
      const text = noticeOf(action, result.outcome, state);
      return redirectWithFlash(store, {
        path,
        status: closed ? 409 : 200,
        ...(closed ? { problem: text } : { notice: text }),
        // "call" tells the page to put the customer's number first.
        form: action === "call" && state === "accepted" ? "call" : form,
      });
    },
  );
}

/** The answer page's capacity form: stored, then 303 back with a notice (JSON: what is stored). */
async function answerCapacity(
  store: Store,
  businessId: string,
  raw: Record<string, unknown>,
  now: number,
  path: string,
  html: boolean,
  purge: Purge,
): Promise<Response> {
  const business = await storeCall(() => store.businesses.get(businessId), { step: "business" });
  if (!business) throw new HttpError(404, LINK_INVALID);
  const read = readCapacityForm(raw, now, business.timeZone ?? DEFAULT_TIME_ZONE);
  if (!read.ok) {
    if (!html) throw new HttpError(400, "Please check your availability.", { extra: { fields: read.fields } });
    const until = typeof raw.until === "string" ? raw.until.slice(0, 20) : "";
    const problem = Object.values(read.fields)[0]!;
    return redirectWithFlash(store, {
      path,
      status: 422,
      values: { until },
      errors: read.fields,
      problem,
      form: "capacity",
    });
  }
  const capacity = await storeCall(() => saveCapacity(store, businessId, read.value, "answer", now, purge), {
    step: "capacity",
  });
  console.info(`[delivery] ${businessId}: capacity -> ${read.value.capacity}`);
  if (!html) return jsonResponse({ ok: true, capacity });
  return redirectWithFlash(store, { path, status: 200, notice: capacitySavedNotice(read.value), form: "capacity" });
}

/** Why the call ping is refused: the number comes with the acceptance. */
export const CALL_NOT_ACCEPTED = "Only a business that accepted this job can call the customer.";

/** The answer page's ping: the business tapped the customer's number (it accepted the job). */
export function respondCallHandler(deps: DeliveryDeps = {}): Endpoint {
  return endpoint(
    {
      log: "[delivery] call",
      methods: ["POST"],
      route: { path: RESPOND_CALL_ROUTE, valid: (v) => TOKEN.test(v), notFound: LINK_INVALID },
      rateLimit: { name: "respond", perMinute: () => ANSWERS_PER_MINUTE },
    },
    deps,
    async ({ store, env, now, params, context }) => {
      // The body is the browser's "PING" (text/ping): nothing in it is read.
      const grant = await open(store, params.token, env, now());
      const result = await storeCall(
        () => answerLead(store, grant.leadId, grant.businessId, { kind: "call" }, now(), deps.purge ?? netlifyPurge),
        { step: "call" },
      );
      if (!result) throw new HttpError(404, LINK_INVALID);
      if (result.outcome === "closed") throw new HttpError(403, CALL_NOT_ACCEPTED);
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
      route: { path: RESPOND_PHOTO_ROUTE, valid: (v) => TOKEN.test(v), notFound: LINK_INVALID },
    },
    deps,
    async ({ store, env, now, params }) => {
      const grant = await open(store, params.token, env, now());
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

export const JOB_DONE_ROUTE = "/requests/:leadId/:sig/done";
const STATUS_PARAM = /^[A-Za-z0-9_-]{1,40}$/;
const BUSINESS_PARAM = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** What the status page says after "The job is done". */
export const DONE_NOTICES = {
  applied: (business: string) => `Thanks for letting us know. You can review ${business} now with the link below.`,
  repeated: "You already marked this job done.",
  closed: "Only a job a pro accepted can be marked done, so nothing was changed.",
  choose: "Choose the pro who did the job.",
} as const;

/**
 * The homeowner's "The job is done" on their status page: the job a business accepted is
 * done, so that business's review invitation goes now instead of after the job's day. 303
 * back to the status page with a notice; JavaScript plays no part.
 */
export function jobDoneHandler(deps: DeliveryDeps = {}): Endpoint {
  return endpoint(
    {
      log: "[delivery] done",
      methods: ["POST"],
      route: { path: JOB_DONE_ROUTE, valid: (v) => STATUS_PARAM.test(v), notFound: LINK_INVALID },
      body: { urlencoded: 1 * KB },
      // Not sameSiteOnly: the status page is sent with `no-referrer`, so a browser posts its
      // form with `Origin: null`, which the cross-site check refuses. The signed address is
      // the key here: a page on another site cannot post to an address it does not know.
      rateLimit: { name: "respond", perMinute: () => ANSWERS_PER_MINUTE },
      formPage: (req) => new URL(req.url).pathname.replace(/\/done$/, ""),
      pagesOnly: true,
    },
    deps,
    async ({ store, env, now, params, body, context }) => {
      const path = `/requests/${params.leadId}/${params.sig}`;
      const signer = await storeCall(() => signerFor(store, env), { step: "link key" });
      if (!signer.checkStatus(params.leadId, params.sig)) throw new HttpError(404, LINK_INVALID);
      const businessId = body!.value.get("businessId") ?? "";
      if (!BUSINESS_PARAM.test(businessId))
        return redirectWithFlash(store, { path, status: 422, problem: DONE_NOTICES.choose, form: DONE_FORM });
      const result = await storeCall(() => completeLead(store, params.leadId, businessId, now()), { step: "done" });
      if (!result) throw new HttpError(404, LINK_INVALID);
      if (result.outcome === "applied") notifyLater(store, params.leadId, context, deps);
      console.info(`[delivery] ${params.leadId} ${businessId}: done -> ${result.outcome}`);
      const name = result.lead.routing?.deliveries.find((d) => d.businessId === businessId)?.name ?? "the pro";
      const closed = result.outcome === "closed";
      const text =
        result.outcome === "applied"
          ? DONE_NOTICES.applied(name)
          : closed
            ? DONE_NOTICES.closed
            : DONE_NOTICES.repeated;
      return redirectWithFlash(store, {
        path,
        status: closed ? 409 : 200,
        ...(closed ? { problem: text } : { notice: text }),
        form: DONE_FORM,
      });
    },
  );
}
