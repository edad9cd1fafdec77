/**
 * Where a form's no-JS post leads (post/redirect/get): back to the form's own page with the
 * values and messages when it is refused; a lead on to its confirmation once stored, a
 * review to its page's thanks.
 */
import type { LeadFormName } from "./fields.ts";

/** The form's page (src/pages/forms/[form].astro). */
export const leadFormPage = (name: LeadFormName) => `/forms/${name}`;

/** A stored lead's confirmation, under its private status page (a reload shows it again). */
export const receivedPage = (statusPath: string) => `${statusPath}/received`;

/** A business's review form as a page (src/pages/forms/review/[id].astro). */
export const reviewFormPage = (businessId: string) => `/forms/review/${encodeURIComponent(businessId)}`;

/** The review fields a no-JS form sends (first value of each; anything else is ignored). */
export const REVIEW_FORM_FIELDS = [
  "customerName",
  "customerEmail",
  "rating",
  "title",
  "reviewText",
  "serviceType",
] as const;

/** The review form's fields as a no-JS post sends them back. */
export type ReviewFormValues = Partial<Record<(typeof REVIEW_FORM_FIELDS)[number], string>>;
