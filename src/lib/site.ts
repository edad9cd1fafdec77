/**
 * The one place for the operator's identity and contact details. Pages, islands,
 * functions and the assistant's prompt all import from here so a phone-number change
 * is a one-line edit.
 */

/** Digits-only form of a display phone, prefixed for the `tel:` scheme (US numbers). */
export function telHref(display: string): string {
  const digits = display.replace(/\D/g, "");
  return `tel:+${digits.length === 10 ? `1${digits}` : digits}`;
}

const phoneDisplay = "(512) 555-0142";

export const SITE = {
  /** Brand name shown in the header, titles and structured data. */
  name: "Treeline",
  /** Short positioning line used in titles and Open Graph. */
  tagline: "Tree care, done right",
  /** Default meta description for pages that do not set their own. */
  description:
    "Instant tree-service estimates, vetted local tree pros, 24/7 emergency help and growth programs for tree-care businesses across the US.",
  /** Operator phone as people read it. */
  phone: phoneDisplay,
  /** The same phone as a `tel:` link for click-to-call. */
  phoneHref: telHref(phoneDisplay),
  /** Operator contact e-mail. */
  email: "hello@treeline.example",
  /** Emergency line is staffed around the clock. */
  emergency247: true,
  /** Copyright year printed in the footer (fixed by the specification). */
  copyrightYear: 2024,
  /** Locale used for dates and numbers. */
  locale: "en-US",
} as const;
