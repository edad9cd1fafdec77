/**
 * Sends the form to POST /api/find-pros as multipart (the photo rides along) and turns
 * every answer into one of three outcomes the island can render. The endpoint answers
 * JSON because we ask for it; without JavaScript the same URL answers an HTML page.
 */
import { z } from "../../lib/zod.ts";
import { FIND_PROS_FORM } from "../../lib/forms/fields.ts";
import { urgencyOf } from "../../lib/lead-urgency.ts";
import { readOffers, readStormNotice } from "../../lib/offers.ts";
import type { StormNotice } from "../../lib/storm.ts";
import { receiptOf, type Receipt } from "../../lib/receipt.ts";
import type { OfferSummary } from "../../lib/received.ts";
import type { FieldErrors } from "../../lib/schemas/forms.ts";

/** A pro the request was passed to. Ratings are numeric strings in the directory data. */
const Match = z.object({
  name: z.string(),
  slug: z.string(),
  phone: z.string().nullish(),
  rating: z.union([z.number(), z.string()]).transform(Number),
  reviewCount: z.coerce.number().default(0),
  /** Miles from the job. */
  distanceMiles: z.number().optional(),
  /** A sample business (a demo): marked "Sample listing". */
  isSample: z.boolean().optional(),
  /** Inside a storm: it said it is taking storm jobs (offered first, marked). */
  takingStormJobs: z.boolean().optional(),
});
export type Match = z.infer<typeof Match>;

/**
 * 201 body; `message` is the server's own wording for what happens when nothing matched.
 * receiptOf reads the receipt fields from the same body.
 */
const Created = z.object({
  ok: z.literal(true),
  id: z.string(),
  matches: z.array(Match).default([]),
  message: z.string().optional(),
});
const Problem = z.object({ error: z.string().optional(), fields: z.record(z.string(), z.string()).optional() });

export type SubmitOutcome =
  | {
      kind: "sent";
      id: string;
      matches: Match[];
      message?: string;
      receipt: Receipt;
      offers?: OfferSummary;
      /** The storm notice when the job's place is inside a declared storm. */
      storm?: StormNotice;
    }
  | { kind: "invalid"; fields: FieldErrors; message?: string }
  | { kind: "failed"; status: number; message?: string };

/** Posts the form data once; `key` makes a retry of the same request safe to repeat. */
export async function submitFindPros(data: FormData, key: string, signal?: AbortSignal): Promise<SubmitOutcome> {
  let response: Response;
  try {
    response = await fetch(FIND_PROS_FORM.action, {
      method: "POST",
      body: data, // the browser writes the multipart boundary itself
      headers: { Accept: "application/json", "Idempotency-Key": key },
      credentials: "same-origin",
      signal,
    });
  } catch {
    return { kind: "failed", status: 0 };
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (response.ok) {
    const created = Created.safeParse(body);
    // The form's own timeline counts too, so an emergency is never promised a day.
    const receipt = receiptOf(body, urgencyOf("find-pros", { timeline: data.get("timeline") }));
    const offers = readOffers(body);
    const storm = readStormNotice((body as { storm?: unknown } | null)?.storm);
    // A 2xx we cannot read still means the request was stored: confirm without matches.
    return created.success
      ? {
          kind: "sent",
          id: created.data.id,
          matches: created.data.matches,
          message: created.data.message,
          receipt,
          ...(offers ? { offers } : {}),
          ...(storm ? { storm } : {}),
        }
      : { kind: "sent", id: "", matches: [], receipt };
  }
  const problem = Problem.safeParse(body);
  const message = problem.success ? problem.data.error : undefined;
  if (
    response.status === 400 &&
    problem.success &&
    problem.data.fields &&
    Object.keys(problem.data.fields).length > 0
  ) {
    return { kind: "invalid", fields: problem.data.fields, message };
  }
  return { kind: "failed", status: response.status, message };
}

/** A fresh idempotency key (older browsers without randomUUID get a random fallback). */
export function newIdempotencyKey(): string {
  if (typeof crypto !== "undefined" && "randomUUID" in crypto) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
}
