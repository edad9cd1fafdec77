/**
 * The one submit pipeline behind POST /api/quote, /api/audit, /api/assessment,
 * /api/find-pros and /api/booking-request. Each function file only picks its endpoint
 * definition:
 *
 *   method (405) -> content type (415) -> per-IP limit (429) -> body size (413) ->
 *   parse (400) -> schema + uploads (400) -> store check (404/400, booking) ->
 *   bot checks (silent fake success) -> photo + lead write (503 on failure) ->
 *   201 JSON / 200 HTML
 *
 * JSON in gets JSON out. A plain form post (urlencoded or multipart, the no-JavaScript
 * path) gets a server-rendered page, unless it sends `Accept: application/json` (a script
 * posting FormData with a photo).
 */
import { createHash } from "node:crypto";
import type { z } from "zod";
import { estimate } from "../../src/lib/estimate.ts";
import {
  ASSESSMENT_FORM,
  AUDIT_FORM,
  BOOKING_FORM,
  QUOTE_FORM,
  bookingForm,
  formValuesToPayload,
  type FormDef,
} from "../../src/lib/forms/fields.ts";
import {
  HONEYPOT_FIELD,
  IDEMPOTENCY_FIELD,
  SOURCE_FIELD,
  STARTED_FIELD,
  entriesToFormValues,
  type FormValues,
} from "../../src/lib/forms/markup.ts";
import { BUSINESS_NOT_FOUND } from "../../src/lib/directory.ts";
import { BOOKING_MESSAGES, bookingRequestSchema, BookingRequest } from "../../src/lib/schemas/booking.ts";
import {
  AssessmentRequest,
  AuditRequest,
  QuoteRequest,
  VALIDATION_ERROR,
  fieldErrors,
  type FieldErrors,
} from "../../src/lib/schemas/forms.ts";
import type { LeadType } from "../../src/lib/schemas/lead.ts";
import { siteUrl } from "../../src/lib/site.ts";
import { netlifyPhotoStore, type ImageType, type PhotoStore } from "./blobs.ts";
import {
  HttpError,
  MAX_BODY_LIMIT,
  wantsPage,
  bodyKind,
  TEXT_BODY_LIMIT,
  bugReport,
  clientIp,
  CROSS_SITE_ERROR,
  decodeText,
  errorName,
  htmlResponse,
  isCrossSite,
  jsonError,
  jsonResponse,
  parseJsonObject,
  parseMultipart,
  readBody,
  sameSitePath,
  type BodyKind,
} from "./http.ts";
import {
  bookingConfirmationPage,
  formErrorPage,
  growthConfirmationPage,
  problemPage,
  quoteConfirmationPage,
} from "./pages.ts";
import { notifyLead } from "./notify/index.ts";
import { RATE_LIMIT_ERROR, checkRateLimit, rateLimitPerMinute } from "./ratelimit.ts";
import { timeId } from "./store/ids.ts";
import { IdempotencyConflictError, getStore, type Store } from "./store/index.ts";
import { requestFingerprint } from "./store/repos/leads.ts";

export const SAVE_ERROR = "We couldn't save your request right now. Please try again or call us.";
/** 409: an Idempotency-Key (or _idempotencyKey) sent again with different content. */
export const IDEMPOTENCY_CONFLICT =
  "This idempotency key was already used for a different request. Send a new key for new content, or the same content to repeat the request.";
/** People take longer than this to fill in any of the forms; scripts do not. */
export const MIN_FILL_MS = 2_500;
/** Find-pros multipart: a 5 MB photo plus the fields and multipart overhead (the largest body). */
export const PHOTO_BODY_LIMIT = MAX_BODY_LIMIT;
const MAX_IDEMPOTENCY_KEY = 255;

/** A checked upload waiting to be written (find-pros photo). */
interface Upload {
  bytes: Uint8Array;
  contentType: ImageType;
}

/** What an endpoint's store check decided: go on with (possibly enriched) data, or refuse. */
export type LeadCheck<T> = { data: T } | { status: 404; error: string } | { errors: FieldErrors };

export interface LeadEndpoint<T = unknown> {
  type: LeadType;
  form: FormDef;
  schema: z.ZodType<T>;
  /** For rules that depend on the date: the schema on the handler's clock (replaces `schema`). */
  schemaAt?(now: () => number): z.ZodType<T>;
  /** Body cap for multipart posts (text-only posts are capped at TEXT_BODY_LIMIT). */
  multipartLimit: number;
  /** Checks a multipart post's files; messages join the schema's field errors. */
  readUploads?(form: FormData): Promise<{ errors: FieldErrors; upload?: Upload }>;
  /**
   * Rules that need the store (the booked business exists and offers the service), run on
   * valid data before the bot checks, so a fake success carries the same reply fields.
   */
  check?(data: T, store: Store): Promise<LeadCheck<T>>;
  /** The form to re-render on a no-JS 400 when it depends on stored data (the business's services). */
  errorForm?(values: FormValues, store: Store): Promise<FormDef>;
  /** What to store for valid data, and reply fields known before the write. */
  prepare(data: T): { stored: Record<string, unknown>; reply: Record<string, unknown> };
  /** Reply fields that need the store once the lead exists (find-pros matches). */
  after?(data: T, store: Store): Promise<Record<string, unknown>>;
  /** The no-JS confirmation page. */
  confirmation(data: T, reply: Record<string, unknown>): string;
}

/** Seams for tests and local scripts; production uses the defaults. */
export interface LeadDeps {
  store?: () => Store;
  photos?: () => PhotoStore;
  env?: Record<string, string | undefined>;
  now?: () => number;
  /** Announces a stored lead (the notifier by default); its outcome never reaches the visitor. */
  notify?: (store: Store, leadId: string) => Promise<unknown>;
}

/** What Netlify passes as the second argument, as far as the pipeline cares. */
export interface LeadContext {
  ip?: string;
  /** Keeps the function alive for work after the response (the lead's notification). */
  waitUntil?(promise: Promise<unknown>): void;
}

export type LeadHandler = (req: Request, context?: LeadContext | null) => Promise<Response>;

// ---------------------------------------------------------------------------------------
// Endpoints

export const QUOTE_ENDPOINT: LeadEndpoint<QuoteRequest> = {
  type: "quote",
  form: QUOTE_FORM,
  schema: QuoteRequest,
  multipartLimit: TEXT_BODY_LIMIT,
  prepare(data) {
    // The visitor's figure is kept for reference only; the price we stand by is our own.
    const { estimatedCost: clientEstimate, ...rest } = data;
    const { text } = estimate(data.serviceType, data.urgency);
    return {
      stored: { ...rest, estimatedCost: text, ...(clientEstimate ? { clientEstimate } : {}) },
      reply: { estimatedCost: text },
    };
  },
  confirmation: (_data, reply) => quoteConfirmationPage(String(reply.estimatedCost)),
};

export const AUDIT_ENDPOINT: LeadEndpoint<AuditRequest> = {
  type: "audit",
  form: AUDIT_FORM,
  schema: AuditRequest,
  multipartLimit: TEXT_BODY_LIMIT,
  prepare: (data) => ({ stored: { ...data }, reply: {} }),
  confirmation: () => growthConfirmationPage("audit"),
};

export const ASSESSMENT_ENDPOINT: LeadEndpoint<AssessmentRequest> = {
  type: "assessment",
  form: ASSESSMENT_FORM,
  schema: AssessmentRequest,
  multipartLimit: TEXT_BODY_LIMIT,
  prepare: (data) => ({ stored: { ...data }, reply: {} }),
  confirmation: () => growthConfirmationPage("assessment"),
};

// FIND_PROS_ENDPOINT lives in find-pros.ts with its matching, so the other lead
// functions do not load the ZIP dataset the matching reads.

/** A booking after the store check: the request plus the business it is for. */
export type BookingLead = BookingRequest & { businessName?: string; businessSlug?: string };

export const BOOKING_ENDPOINT: LeadEndpoint<BookingLead> = {
  type: "booking",
  form: BOOKING_FORM,
  schema: BookingRequest,
  schemaAt: (now) => bookingRequestSchema(now),
  multipartLimit: TEXT_BODY_LIMIT,
  async check(data, store) {
    const business = await store.businesses.get(data.businessId);
    if (!business) return { status: 404, error: BUSINESS_NOT_FOUND };
    let serviceType = data.serviceType;
    if (serviceType !== undefined) {
      const wanted = serviceType.toLowerCase();
      serviceType = business.services.find((s) => s.toLowerCase() === wanted);
      if (serviceType === undefined) return { errors: { serviceType: BOOKING_MESSAGES.serviceType } };
    }
    // The admin reads leads without the directory at hand, so the lead names the business.
    return { data: { ...data, serviceType, businessName: business.name, businessSlug: business.slug } };
  },
  async errorForm(values, store) {
    const id = typeof values.businessId === "string" ? values.businessId.trim() : "";
    const business = id ? await store.businesses.get(id).catch(() => null) : null;
    return business ? bookingForm(business) : BOOKING_FORM;
  },
  prepare: (data) => ({ stored: { ...data }, reply: { businessName: data.businessName } }),
  confirmation: (data) => bookingConfirmationPage(data.businessName ?? "the business", data.businessSlug),
};

// ---------------------------------------------------------------------------------------
// Pipeline

interface Meta {
  honeypot: boolean;
  started: number | null;
  source: string | undefined;
  idempotencyKey: string | undefined;
}

interface Submission {
  payload: Record<string, unknown>;
  /** Flat values for re-rendering a form post; null for JSON. */
  values: FormValues | null;
  /** Multipart body, for uploads. */
  formData: FormData | null;
  meta: Meta;
}

function startedAt(value: unknown): number | null {
  const n = typeof value === "number" ? value : typeof value === "string" && /^\d{1,16}$/.test(value.trim()) ? Number(value) : NaN;
  return Number.isFinite(n) && n > 0 ? n : null;
}

function idempotencyKey(header: string | null, field: unknown): string | undefined {
  const raw = header ?? (typeof field === "string" ? field : undefined);
  if (raw === undefined || raw.trim() === "") return undefined;
  const key = raw.trim();
  if (key.length > MAX_IDEMPOTENCY_KEY || !/^[\x21-\x7e]+$/.test(key)) {
    throw new HttpError(400, `The idempotency key must be 1 to ${MAX_IDEMPOTENCY_KEY} visible ASCII characters.`);
  }
  return key;
}

function metaFrom(req: Request, get: (name: string) => unknown, siteOrigin: string): Meta {
  const trap = get(HONEYPOT_FIELD);
  return {
    // Anything in the trap (a string, or a JSON number/object a script filled in) is a bot.
    honeypot: trap !== undefined && trap !== null && trap !== false && !(typeof trap === "string" && trap.trim() === ""),
    started: startedAt(get(STARTED_FIELD)),
    source:
      sameSitePath(typeof get(SOURCE_FIELD) === "string" ? (get(SOURCE_FIELD) as string) : undefined, req.url, siteOrigin) ??
      sameSitePath(req.headers.get("referer"), req.url, siteOrigin),
    idempotencyKey: idempotencyKey(req.headers.get("idempotency-key"), get(IDEMPOTENCY_FIELD)),
  };
}

async function readSubmission(req: Request, kind: BodyKind, endpoint: LeadEndpoint, siteOrigin: string): Promise<Submission> {
  const limit = kind === "multipart" ? endpoint.multipartLimit : TEXT_BODY_LIMIT;
  const bytes = await readBody(req, limit);
  if (kind === "json") {
    const payload = parseJsonObject(decodeText(bytes));
    const get = (name: string) => (Object.hasOwn(payload, name) ? payload[name] : undefined);
    return { payload, values: null, formData: null, meta: metaFrom(req, get, siteOrigin) };
  }
  let entries: [string, FormDataEntryValue][];
  let formData: FormData | null = null;
  if (kind === "urlencoded") {
    entries = [...new URLSearchParams(decodeText(bytes))];
  } else {
    formData = await parseMultipart(bytes, req.headers.get("content-type") ?? "");
    entries = [...formData];
  }
  const strings = entries.filter((e): e is [string, string] => typeof e[1] === "string");
  const get = (name: string) => strings.find(([k]) => k === name)?.[1];
  return {
    payload: formValuesToPayload(endpoint.form, strings),
    values: entriesToFormValues(endpoint.form, strings),
    formData,
    meta: metaFrom(req, get, siteOrigin),
  };
}

/** "currentChallenges.3" -> "currentChallenges": a list is one field on the form. */
function byField(errors: FieldErrors): FieldErrors {
  const out: FieldErrors = {};
  for (const [key, message] of Object.entries(errors)) out[key.replace(/(?:\.\d+)+$/, "")] ??= message;
  return out;
}

const TITLES: Record<number, string> = {
  400: "We couldn't read that form",
  403: "This form was sent from another website",
  404: "We couldn't find that business",
  409: "This request was already sent with other details",
  413: "That upload is too large",
  429: "Too many requests",
  503: "We couldn't save your request",
};

/** Builds the request handler for one lead endpoint. */
export function leadHandler<T>(endpoint: LeadEndpoint<T>, deps: LeadDeps = {}): LeadHandler {
  const storeOf = deps.store ?? getStore;
  const photosOf = deps.photos ?? defaultPhotos;
  const env = deps.env ?? process.env;
  const now = deps.now ?? Date.now;
  const schema = endpoint.schemaAt ? endpoint.schemaAt(now) : endpoint.schema;
  const notify = deps.notify ?? ((store: Store, leadId: string) => notifyLead(store, leadId, { env }));

  /** Starts the lead's notification without holding the response (the outbox retries it). */
  function announce(store: Store, leadId: string, context?: LeadContext | null): void {
    const attempt = notify(store, leadId).catch((error) => console.error(`[lead] ${endpoint.type} ${leadId}: notify failed (${errorName(error)})`));
    if (context?.waitUntil) context.waitUntil(attempt);
  }

  const fail = (html: boolean, status: number, message: string, headers: Record<string, string> = {}) =>
    html ? htmlResponse(problemPage(TITLES[status] ?? "Something went wrong", message), status, headers) : jsonError(status, message, {}, headers);

  async function handle(req: Request, context?: LeadContext | null): Promise<Response> {
    if (req.method !== "POST") return jsonError(405, "Method not allowed. Use POST.", {}, { allow: "POST" });
    const kind = bodyKind(req);
    if (!kind) {
      return jsonError(415, "Unsupported content type. Send application/json, application/x-www-form-urlencoded or multipart/form-data.");
    }
    const html = wantsPage(req);
    // Another site's page must not be able to make its visitors' browsers submit leads here.
    if (isCrossSite(req, siteUrl(env))) return fail(html, 403, CROSS_SITE_ERROR);

    let store: Store;
    try {
      store = storeOf();
    } catch (error) {
      console.error(`[lead] ${endpoint.type}: store unavailable (${errorName(error)})`);
      return fail(html, 503, SAVE_ERROR);
    }

    const limited = await checkRateLimit(store, endpoint.type, clientIp(req, context), rateLimitPerMinute(env), now);
    if (!limited.ok) return fail(html, 429, RATE_LIMIT_ERROR, { "retry-after": String(limited.retryAfterSeconds) });

    let submission: Submission;
    try {
      submission = await readSubmission(req, kind, endpoint as LeadEndpoint, siteUrl(env));
    } catch (error) {
      if (error instanceof HttpError) return fail(html, error.status, error.message, error.headers);
      throw error;
    }

    const parsed = schema.safeParse(submission.payload);
    const errors: FieldErrors = parsed.success ? {} : byField(fieldErrors(parsed.error));
    let upload: Upload | undefined;
    if (submission.formData && endpoint.readUploads) {
      const uploads = await endpoint.readUploads(submission.formData);
      Object.assign(errors, uploads.errors);
      upload = uploads.upload;
    }
    const invalid = async (fields: FieldErrors) => {
      if (!html) return jsonError(400, VALIDATION_ERROR, { fields });
      const values = submission.values ?? {};
      const form = endpoint.errorForm ? await endpoint.errorForm(values, store) : endpoint.form;
      return htmlResponse(formErrorPage(form, values, fields, submission.meta.source), 400);
    };
    if (!parsed.success || Object.keys(errors).length > 0) return invalid(errors);
    let data = parsed.data;
    if (endpoint.check) {
      let checked: LeadCheck<T>;
      try {
        checked = await endpoint.check(data, store);
      } catch (error) {
        console.error(`[lead] ${endpoint.type}: store check failed (${errorName(error)})`);
        return fail(html, 503, SAVE_ERROR);
      }
      if ("status" in checked) return fail(html, checked.status, checked.error);
      if ("errors" in checked) return invalid(checked.errors);
      data = checked.data;
    }
    const { stored, reply } = endpoint.prepare(data);
    const { meta } = submission;

    const elapsed = meta.started === null ? null : now() - meta.started;
    // A future _started is clock skew between browser and server, not a bot.
    const tooFast = elapsed !== null && elapsed >= 0 && elapsed < MIN_FILL_MS;
    if (meta.honeypot || tooFast) {
      console.info(`[lead] ${endpoint.type}: dropped a bot submission (${meta.honeypot ? "honeypot" : "too fast"})`);
      // Indistinguishable from success, so the bot learns nothing.
      const extra = endpoint.after ? await endpoint.after(data, store) : {};
      return succeed(html, endpoint, data, timeId("ld"), { ...reply, ...extra });
    }

    // What the idempotency key is bound to: the validated content, the photo by its hash.
    const fingerprint = requestFingerprint({ stored, photo: upload ? createHash("sha256").update(upload.bytes).digest("hex") : null });
    let photoKey: string | undefined;
    if (upload) {
      // The lead id is assigned inside the write, so the photo gets its own key and the
      // lead records it; writing the photo first means a stored lead never points nowhere.
      photoKey = timeId("ph");
      try {
        await photosOf().put(photoKey, upload.bytes, { contentType: upload.contentType, size: upload.bytes.byteLength, uploadedAt: new Date(now()).toISOString() });
      } catch (error) {
        console.error(`[lead] ${endpoint.type}: photo upload failed (${errorName(error)})`);
        return fail(html, 503, SAVE_ERROR);
      }
      stored.photoKey = photoKey;
      stored.photoType = upload.contentType;
    }

    let id: string;
    try {
      const result = await store.leads.create(endpoint.type, stored, { sourcePage: meta.source ?? "/", idempotencyKey: meta.idempotencyKey, fingerprint });
      id = result.lead.id;
      const firstPhoto = (result.lead.data as Record<string, unknown> | null)?.photoKey;
      if (photoKey && result.duplicate && firstPhoto !== photoKey) await discardPhoto(photosOf, photoKey);
      console.info(`[lead] ${endpoint.type}: stored ${id}${result.duplicate ? " (idempotent replay)" : ""}`);
      if (!result.duplicate) announce(store, id, context);
    } catch (error) {
      if (photoKey) await discardPhoto(photosOf, photoKey);
      if (error instanceof IdempotencyConflictError) return fail(html, 409, IDEMPOTENCY_CONFLICT);
      console.error(`[lead] ${endpoint.type}: write failed (${errorName(error)})`);
      return fail(html, 503, SAVE_ERROR);
    }

    const extra = endpoint.after ? await endpoint.after(data, store) : {};
    return succeed(html, endpoint, data, id, { ...reply, ...extra });
  }

  return async (req, context) => {
    try {
      return await handle(req, context);
    } catch (error) {
      // Only a bug gets here: user input is answered with 4xx above.
      console.error(`[lead] ${endpoint.type}: unexpected failure: ${bugReport(error)}`);
      return jsonError(500, "Something went wrong on our side. Please try again or call us.");
    }
  };
}

function succeed<T>(html: boolean, endpoint: LeadEndpoint<T>, data: T, id: string, reply: Record<string, unknown>): Response {
  if (html) return htmlResponse(endpoint.confirmation(data, reply), 200);
  return jsonResponse({ ok: true, id, ...reply }, 201);
}

async function discardPhoto(photosOf: () => PhotoStore, key: string): Promise<void> {
  try {
    await photosOf().delete(key);
  } catch (error) {
    console.warn(`[lead] could not remove orphaned photo ${key} (${errorName(error)})`);
  }
}

let photos: PhotoStore | undefined;
const defaultPhotos = () => (photos ??= netlifyPhotoStore());
