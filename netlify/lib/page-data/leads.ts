/**
 * What the lead forms' no-JS pages show: a form's own page (/forms/{form}: the form again
 * with the values and messages a refused post left in its flash, or fresh), and a business's
 * review form. A stored lead's confirmation is ./received.ts.
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
import type { FieldErrors } from "../../../src/lib/schemas/forms.ts";
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
