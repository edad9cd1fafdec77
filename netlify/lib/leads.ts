/**
 * The one submit pipeline behind POST /api/quote, /api/audit, /api/assessment,
 * /api/find-pros and /api/booking-request. Each function file only picks its endpoint
 * definition (lead-endpoints.ts, find-pros.ts). After the steps every endpoint takes
 * (http.ts: method, content type, cross-site, store, per-IP limit, body size and parsing):
 *
 *   schema + uploads (400) -> store check (404/400, booking) ->
 *   honeypot (silent fake success) -> photo + lead write (409 key reuse, 503 on failure;
 *   a post faster than a person types is stored but held for the operator) -> 201 JSON / 303
 *
 * JSON in gets JSON out. A plain form post (urlencoded or multipart, the no-JavaScript path)
 * unless it sends `Accept: application/json` (a script posting FormData with a photo) ends in
 * a 303 (post/redirect/get): on to the lead's confirmation page once stored, or back to the
 * form's own page (/forms/{form}) with the values, the field messages and the problem.
 */
import { createHash, randomBytes } from "node:crypto";
import { SOURCE_FIELD, type FormValues } from "../../src/lib/forms/markup.ts";
import { leadFormPage, receivedPage } from "../../src/lib/forms/pages.ts";
import { VALIDATION_ERROR, fieldErrors, type FieldErrors } from "../../src/lib/schemas/forms.ts";
import { urgencyOf } from "../../src/lib/lead-urgency.ts";
import { heldRouting, initialRouting, offerSummary } from "./delivery/routing.ts";
import { signerFor } from "./delivery/signing.ts";
import { newReference } from "./store/reference.ts";
import { netlifyPhotoStore, type PhotoStore } from "./blobs.ts";
import {
  HttpError,
  MAX_BODY_LIMIT,
  TEXT_BODY_LIMIT,
  endpoint,
  errorName,
  jsonError,
  jsonResponse,
  refusalOf,
  storeCall,
  type Endpoint,
  type EndpointDeps,
  type Env,
  type FunctionContext,
} from "./http.ts";
import { byField, readSubmission, type Submission } from "./lead-submission.ts";
import type { LeadEndpoint, Upload } from "./leads.types.ts";
import { redirectWithFlash, seeOther } from "./form-flash.ts";
import { emailReady, offersCanBeSent } from "./notify/config.ts";
import { notifyLead } from "./notify/index.ts";
import { timeId } from "./store/ids.ts";
import { IdempotencyConflictError, type Store } from "./store/index.ts";
import { requestFingerprint } from "./store/repos/leads.ts";

export const SAVE_ERROR = "We couldn't save your request right now. Please try again or call us.";
/** 409: an Idempotency-Key (or _idempotencyKey) sent again with different content. */
export const IDEMPOTENCY_CONFLICT =
  "This idempotency key was already used for a different request. Send a new key for new content, or the same content to repeat the request.";
/** People take longer than this to fill in any of the forms; scripts do not. */
export const MIN_FILL_MS = 2_500;
/** Find-pros multipart: a photo plus the fields and multipart overhead (the largest body; src/lib/photos.ts). */
export const PHOTO_BODY_LIMIT = MAX_BODY_LIMIT;

/** Seams for tests and local scripts; production uses the defaults. */
export interface LeadDeps extends EndpointDeps {
  photos?: () => PhotoStore;
  /** Announces a stored lead (the notifier by default); its outcome never reaches the visitor. */
  notify?: (store: Store, leadId: string) => Promise<unknown>;
}

export type LeadContext = FunctionContext;
export type LeadHandler = Endpoint;

/** Builds the request handler for one lead endpoint. */
export function leadHandler<T>(lead: LeadEndpoint<T>, deps: LeadDeps = {}): LeadHandler {
  const photosOf = deps.photos ?? defaultPhotos;
  const now = deps.now ?? Date.now;
  const schema = lead.schemaAt ? lead.schemaAt(now) : lead.schema;
  const notify = deps.notify ?? ((store: Store, leadId: string) => notifyLead(store, leadId, { env: deps.env }));

  /** Starts the lead's notification without holding the response (the outbox retries it). */
  function announce(store: Store, leadId: string, context: FunctionContext | null | undefined): void {
    const attempt = notify(store, leadId).catch((error) =>
      console.error(`[lead] ${lead.type} ${leadId}: notify failed (${errorName(error)})`),
    );
    if (context?.waitUntil) context.waitUntil(attempt);
  }

  const formPage = leadFormPage(lead.form.name);
  /** A no-JS post goes on to the lead's confirmation, a page of its own that a reload shows again. */
  const succeed = async (store: Store, html: boolean, id: string, reply: Record<string, unknown>) => {
    if (!html) return jsonResponse({ ok: true, id, ...reply }, 201);
    const statusUrl = typeof reply.statusUrl === "string" ? reply.statusUrl : undefined;
    if (statusUrl) return seeOther(receivedPage(statusUrl));
    // Stored, but the link key could not be read: the reference is all there is to give.
    const notice = `We've got your request. Your reference: ${String(reply.reference ?? "")}. Call us any time and quote it.`;
    return redirectWithFlash(store, { path: formPage, status: 200, notice });
  };

  const spec = {
    log: `[lead] ${lead.type}`,
    methods: ["POST"],
    body: { json: TEXT_BODY_LIMIT, urlencoded: TEXT_BODY_LIMIT, multipart: lead.multipartLimit },
    ...(lead.multipartTooLarge ? { tooLarge: { multipart: lead.multipartTooLarge } } : {}),
    sameSiteOnly: true,
    rateLimit: { name: lead.type, perMinute: (env: Env) => env.RATE_LIMIT_PER_MINUTE },
    unavailable: SAVE_ERROR,
    bug: "Something went wrong on our side. Please try again or call us.",
    formPage: () => formPage,
  } as const;

  return endpoint(spec, { store: deps.store, env: deps.env, now }, async (call) => {
    // POST is the only method, so there is always a body.
    const submission = readSubmission(call.req, call.body!, lead.form, call.env.siteUrl);
    if (!call.html) return submit(call, submission);
    try {
      return await submit(call, submission);
    } catch (error) {
      // Refused after the form was read: back to its page with what the visitor typed.
      const refused = refusalOf(error, SAVE_ERROR);
      if (!refused) throw error;
      if (refused.log) console.error(`[lead] ${lead.type}: ${refused.log}`);
      return redirectWithFlash(
        call.store,
        { path: formPage, status: refused.status, values: formValues(submission), problem: refused.message },
        refused.headers,
      );
    }
  });

  /** The form's values for its page again, with the page it was first sent from. */
  function formValues(submission: Submission): FormValues {
    return {
      ...(submission.values ?? {}),
      ...(submission.meta.source ? { [SOURCE_FIELD]: submission.meta.source } : {}),
    };
  }

  async function submit(
    {
      context,
      store,
      env,
      html,
    }: { context: FunctionContext | null | undefined; store: Store; env: Env; html: boolean },
    submission: Submission,
  ): Promise<Response> {
    const parsed = schema.safeParse(submission.payload);
    const errors: FieldErrors = parsed.success ? {} : byField(fieldErrors(parsed.error));
    let upload: Upload | undefined;
    if (submission.formData && lead.readUploads) {
      const uploads = await lead.readUploads(submission.formData);
      Object.assign(errors, uploads.errors);
      upload = uploads.upload;
    }
    const invalid = async (fields: FieldErrors) => {
      if (!html) return jsonError(400, VALIDATION_ERROR, { fields });
      return redirectWithFlash(store, { path: formPage, status: 422, values: formValues(submission), errors: fields });
    };
    if (!parsed.success || Object.keys(errors).length > 0) return invalid(errors);
    let data = parsed.data;
    if (lead.check) {
      const checked = await storeCall(() => lead.check!(data, store, now()), { step: "store check" });
      if ("status" in checked) throw new HttpError(checked.status, checked.error);
      if ("errors" in checked) return invalid(checked.errors);
      data = checked.data;
    }
    const { stored, reply } = lead.prepare(data);
    const { meta } = submission;
    const urgency = urgencyOf(lead.type, stored);
    const route = lead.route?.(data);
    const routing = route ? initialRouting(route.candidates, urgency, now(), route.noMatch) : undefined;
    const where = {
      ...(route?.timeZone ? { timeZone: route.timeZone } : {}),
      ...(route?.place ? { place: route.place } : {}),
      ...(route?.storm ? { storm: route.storm } : {}),
    };

    const elapsed = meta.started === null ? null : now() - meta.started;
    // A future _started is clock skew between browser and server, not a bot.
    const tooFast = elapsed !== null && elapsed >= 0 && elapsed < MIN_FILL_MS;
    // Only a script fills the hidden field: it gets a success that stores nothing.
    if (meta.honeypot) {
      console.info(`[lead] ${lead.type}: dropped a bot submission (honeypot)`);
      // Indistinguishable from success, so the bot learns nothing.
      const extra = lead.after ? await lead.after(data, store) : {};
      const fakeId = timeId("ld");
      const offers = lead.replyOffers
        ? { offers: offerSummary({ routing, urgency, ...where }, { kept: !offersCanBeSent(env) }) }
        : {};
      const receipt = {
        reference: newReference(),
        statusUrl: `/requests/${fakeId}/${randomBytes(16).toString("base64url").slice(0, 22)}`,
        urgency,
        willEmail: emailReady(env),
      };
      return succeed(store, html, fakeId, { ...reply, ...extra, ...offers, ...receipt });
    }

    // What the idempotency key is bound to: the validated content, the photo by its hash.
    const fingerprint = requestFingerprint({
      stored,
      photo: upload ? createHash("sha256").update(upload.bytes).digest("hex") : null,
    });
    let photoKey: string | undefined;
    if (upload) {
      // The lead id is assigned inside the write, so the photo gets its own key and the
      // lead records it; writing the photo first means a stored lead never points nowhere.
      const key = (photoKey = timeId("ph"));
      const { bytes, contentType } = upload;
      await storeCall(
        () =>
          photosOf().put(key, bytes, {
            contentType,
            size: bytes.byteLength,
            uploadedAt: new Date(now()).toISOString(),
          }),
        { step: "photo upload" },
      );
      stored.photoKey = photoKey;
      stored.photoType = contentType;
    }

    let created: Awaited<ReturnType<Store["leads"]["create"]>>;
    try {
      created = await storeCall(
        () =>
          store.leads.create(lead.type, stored, {
            sourcePage: meta.source ?? "/",
            idempotencyKey: meta.idempotencyKey,
            fingerprint,
            urgency,
            ...where,
            // Too fast to have been typed (autofill, or a script): kept, but held for the operator
            // to check: no offers to businesses and no e-mail to the address given (a script could
            // use the form to send mail), while the visitor's receipt and status page work as usual.
            ...(tooFast ? { routing: heldRouting(now()) } : routing ? { routing } : {}),
          }),
        { step: "write" },
      );
    } catch (error) {
      if (photoKey) await discardPhoto(photosOf, photoKey);
      if (error instanceof IdempotencyConflictError) throw new HttpError(409, IDEMPOTENCY_CONFLICT);
      throw error;
    }
    const id = created.lead.id;
    const firstPhoto = (created.lead.data as Record<string, unknown> | null)?.photoKey;
    if (photoKey && created.duplicate && firstPhoto !== photoKey) await discardPhoto(photosOf, photoKey);
    console.info(
      `[lead] ${lead.type}: stored ${id}${created.duplicate ? " (idempotent replay)" : ""}${tooFast ? " (held: sent too fast)" : ""}`,
    );
    if (!created.duplicate) announce(store, id, context);

    const extra = lead.after ? await lead.after(data, store) : {};
    // The status link is a courtesy on top of a stored lead: without the key, none is offered.
    const statusUrl = await signerFor(store, env)
      .then((s) => s.statusPath(id))
      .catch(() => undefined);
    // What happened to it, told from the stored lead (a repeat tells the first one's story).
    const offers = lead.replyOffers ? { offers: offerSummary(created.lead, { kept: !offersCanBeSent(env) }) } : {};
    const receipt = {
      reference: created.lead.reference,
      ...(statusUrl ? { statusUrl } : {}),
      urgency: created.lead.urgency ?? urgency,
      // Every lead form asks for an e-mail; it goes after this answer, only when e-mail can reach
      // the visitor (a Resend key and a sender of our own) and the request is not held.
      willEmail: emailReady(env) && !tooFast,
    };
    return succeed(store, html, id, { ...reply, ...extra, ...offers, ...receipt });
  }
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
