/**
 * What the lead forms' no-JS pages show: a form's own page (/forms/{form}: the form again
 * with the values and messages a refused post left in its flash, or fresh), and a stored
 * lead's confirmation (/requests/{id}/{sig}/received), read from the lead itself so a reload
 * shows the same thing without posting again.
 */
import { randomUUID } from "node:crypto";
import {
  BOOKING_FORM,
  LEAD_FORMS,
  bookingForm,
  type FormDef,
  type LeadFormName,
} from "../../../src/lib/forms/fields.ts";
import { IDEMPOTENCY_FIELD, SOURCE_FIELD, STARTED_FIELD, type FormValues } from "../../../src/lib/forms/markup.ts";
import type { Receipt } from "../../../src/lib/receipt.ts";
import type { FieldErrors } from "../../../src/lib/schemas/forms.ts";
import type { Lead } from "../../../src/lib/schemas/lead.ts";
import type { ReceivedLead, ReceivedMatch } from "../../../src/lib/received.ts";
import { isHeld, offerSummary } from "../delivery/routing.ts";
import { signerFor } from "../delivery/signing.ts";
import { env as currentEnv } from "../../../src/lib/env.ts";
import { STORE_UNAVAILABLE, errorName } from "../http.ts";
import { getStore, type Store } from "../store/index.ts";
import { readFlash } from "./flash.ts";

export interface FormPage {
  form: FormDef;
  /** The status to answer with: 200, or the refused post's. */
  status: number;
  values: FormValues;
  errors: FieldErrors;
  problem?: string;
  notice?: string;
  /** The pipeline's hidden inputs: a fresh clock and idempotency key, the page it came from. */
  hidden: Record<typeof SOURCE_FIELD | typeof STARTED_FIELD | typeof IDEMPOTENCY_FIELD, string>;
}

const FORM_NAMES = new Set<string>([...Object.keys(LEAD_FORMS), "booking"]);
export const isLeadFormName = (name: string): name is LeadFormName => FORM_NAMES.has(name);

/** The form for /forms/{name} at `url`, with its flash; null for an unknown form. */
export async function loadFormPage(name: string, url: URL, store: () => Store = getStore): Promise<FormPage | null> {
  if (!isLeadFormName(name)) return null;
  const flash = await readFlash(url, store);
  const values: FormValues = flash?.values ?? {};
  let form = name === "booking" ? BOOKING_FORM : LEAD_FORMS[name];
  if (name === "booking") {
    const id = typeof values.businessId === "string" ? values.businessId : (url.searchParams.get("business") ?? "");
    const business = id
      ? await store()
          .businesses.get(id)
          .catch(() => null)
      : null;
    if (business) form = bookingForm(business);
  }
  const source = values[SOURCE_FIELD];
  return {
    form,
    status: flash?.status ?? 200,
    values,
    errors: flash?.errors ?? {},
    problem: flash?.problem,
    notice: flash?.notice,
    hidden: {
      // A fresh clock: the correction is a new attempt, and a person takes more than 2.5 s.
      [STARTED_FIELD]: String(Date.now()),
      [SOURCE_FIELD]: typeof source === "string" ? source : "",
      // Double-clicking the corrected form's submit stores one lead.
      [IDEMPOTENCY_FIELD]: randomUUID(),
    },
  };
}

export interface ReceivedPage {
  lead: ReceivedLead;
  receipt: Receipt;
}

const str = (v: unknown) => (typeof v === "string" ? v : undefined);

/** What the confirmation shows for a stored lead. */
export function receivedOf(lead: Lead, statusUrl: string, emailConfigured: boolean): ReceivedPage {
  const data = (lead.data && typeof lead.data === "object" ? lead.data : {}) as Record<string, unknown>;
  const receipt: Receipt = {
    reference: lead.reference ?? "",
    statusUrl,
    urgency: lead.urgency ?? "routine",
    // Every lead form asks for an e-mail; it is only sent with a provider, and not for a held lead.
    emailed: emailConfigured && !isHeld(lead),
  };
  const matches = Array.isArray(data.matchedBusinesses) ? (data.matchedBusinesses as ReceivedMatch[]) : [];
  // What happened to a request routed to businesses (leads stored before it have no place or offers to tell).
  const offers = lead.routing ? { offers: offerSummary(lead) } : {};
  switch (lead.type) {
    case "quote":
      return { receipt, lead: { kind: "quote", estimate: str(data.estimatedCost) ?? "", matches, ...offers } };
    case "audit":
    case "assessment":
      return { receipt, lead: { kind: lead.type } };
    case "booking":
      return {
        receipt,
        lead: { kind: "booking", businessName: str(data.businessName) ?? "the business", slug: str(data.businessSlug) },
      };
    case "find-pros":
      return { receipt, lead: { kind: "find-pros", matches, ...offers } };
  }
}

/** The confirmation for /requests/{leadId}/{sig}/received: null when the link opens nothing, "unavailable" on an outage. */
export async function loadReceived(
  leadId: string,
  sig: string,
  store: () => Store = getStore,
): Promise<ReceivedPage | null | "unavailable"> {
  try {
    const s = store();
    const signer = await signerFor(s);
    if (!signer.checkStatus(leadId, sig)) return null;
    const lead = await s.leads.get(leadId);
    if (!lead) return null;
    return receivedOf(lead, signer.statusPath(leadId), currentEnv().RESEND_API_KEY !== undefined);
  } catch (error) {
    console.error(`[lead] confirmation page: store unavailable (${errorName(error)})`);
    return "unavailable";
  }
}

export interface ReviewFormPage {
  business: { id: string; name: string; slug: string } | null;
  status: number;
  values: Record<string, string>;
  errors: FieldErrors;
  problem?: string;
  /** Set once the review is stored: the page thanks instead of showing the form. */
  notice?: string;
}

/** A business's review form as a page (/forms/review/{id}), with its flash; business null when unknown. */
export async function loadReviewFormPage(
  businessId: string,
  url: URL,
  store: () => Store = getStore,
): Promise<ReviewFormPage> {
  const flash = await readFlash(url, store);
  let business: ReviewFormPage["business"] = null;
  let unavailable = false;
  try {
    const found = await store().businesses.get(businessId);
    if (found) business = { id: found.id, name: found.name, slug: found.slug };
  } catch (error) {
    console.error(`[review] form page: store unavailable (${errorName(error)})`);
    unavailable = true;
  }
  const values = Object.fromEntries(
    Object.entries(flash?.values ?? {}).filter((e): e is [string, string] => typeof e[1] === "string"),
  );
  return {
    business,
    status: unavailable ? 503 : !business ? 404 : (flash?.status ?? 200),
    values,
    errors: flash?.errors ?? {},
    problem: unavailable ? STORE_UNAVAILABLE : flash?.problem,
    notice: flash?.notice,
  };
}
