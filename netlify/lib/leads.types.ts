/**
 * What one lead endpoint (lead-endpoints.ts, find-pros.ts) gives the submit pipeline
 * (leads.ts): its form, schema, store checks and replies.
 */
import type { z } from "zod";
import type { FormDef } from "../../src/lib/forms/fields.ts";
import type { FieldErrors } from "../../src/lib/schemas/forms.ts";
import type { NoMatchReason } from "../../src/lib/lead-routing.ts";
import type { LeadPlace, LeadType } from "../../src/lib/schemas/lead.ts";
import type { ImageType } from "./blobs.ts";
import type { Candidate } from "./delivery/routing.ts";
import type { Store } from "./store/index.ts";

/** A checked upload waiting to be written (find-pros photo). */
export interface Upload {
  bytes: Uint8Array;
  contentType: ImageType;
}

/** Who a new lead is offered to, and where its job is (quote, find-pros, booking). */
export interface LeadRoute {
  /** Offered to each at once, nearest first; none: the operator has it at once. */
  candidates: Candidate[];
  /** Why nobody was offered it (with no candidates); default "no-pros". */
  noMatch?: NoMatchReason;
  /** Where the job is, as matched. */
  place?: LeadPlace;
  /** The job's IANA time zone. */
  timeZone?: string;
  /** The active storm event an emergency arrived inside (surge routing: STORM_OFFER_PROS at once). */
  storm?: string;
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
  /** The 413 text for a multipart post over that cap (a photo form's: PHOTO_TEXT.tooLargeToSend). */
  multipartTooLarge?: string;
  /** Checks a multipart post's files; messages join the schema's field errors. */
  readUploads?(form: FormData): Promise<{ errors: FieldErrors; upload?: Upload }>;
  /**
   * Rules that need the store (the booked business exists and offers the service; the
   * businesses near the job, open at `now` for an emergency), run on valid data before the
   * bot checks, so a fake success carries the same reply fields.
   */
  check?(data: T, store: Store, now: number): Promise<LeadCheck<T>>;
  /** What to store for valid data, and reply fields known before the write. */
  prepare(data: T): { stored: Record<string, unknown>; reply: Record<string, unknown> };
  /**
   * Who a new lead is offered to and where its job is (a booking's business, the quote's and
   * find-pros matches); absent for the leads only the operator handles.
   */
  route?(data: T): LeadRoute;
  /** The reply says what happened to the request (`offers`: OfferSummary): quote and find-pros. */
  replyOffers?: boolean;
  /** Reply fields that need the store once the lead exists (find-pros matches). */
  after?(data: T, store: Store): Promise<Record<string, unknown>>;
}
