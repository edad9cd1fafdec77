/**
 * What the lead forms say after a submit: the dialogs, their toasts
 * and the functions' no-JS confirmation pages all read these, and so do the e2e tests.
 */
import { EMERGENCY_RESPONSE as E, RESPONSE_TIMES, type UrgencyLevel } from "../lead-urgency.ts";
import type { Receipt } from "../receipt.ts";
import { SITE } from "../site.ts";
import type { ToastInput } from "../stores/dialogs.ts";

/** The routine contact promise, as every non-emergency confirmation words it. */
const WITHIN_PROMISE = `within ${RESPONSE_TIMES.contact}`;

/**
 * An emergency is never told to wait a day: every confirmation of one says call now, the
 * hotline first, with the emergency page's own figures (EMERGENCY_RESPONSE).
 */
const FIGURES = `crews dispatched within ${E.dispatchMinutes} minutes, on site within ${E.onSiteHours} hours`;

export const EMERGENCY_CONFIRMATION = {
  heading: "Emergency? Call us now",
  /** The hotline link's text. */
  call: `Call ${SITE.phone}`,
  figures: `Crews dispatched within ${E.dispatchMinutes} minutes, on site within ${E.onSiteHours} hours.`,
  /** The toasts' and the pages' one-line version, the phone first. */
  callNow: `Call ${SITE.phone} now: ${FIGURES}.`,
} as const;

export const QUOTE_TOASTS = {
  success: { title: "Quote Request Submitted", description: `We'll contact you ${WITHIN_PROMISE} with your estimate.` },
  // The quote dialog stays open on its confirmation, which leads with the call button already.
  emergency: { title: "Quote Request Submitted", description: EMERGENCY_CONFIRMATION.callNow },
  failure: { title: "Error", description: "Failed to submit quote request. Please try again.", variant: "destructive" },
} as const satisfies Record<string, ToastInput>;

/** The assessment dialog is the audit with a phase, so it says the same. */
export const AUDIT_TOASTS = {
  success: {
    title: "Audit Request Submitted",
    description: `We'll contact you ${WITHIN_PROMISE} to schedule your free consultation.`,
  },
  failure: { title: "Error", description: "Failed to submit audit request. Please try again.", variant: "destructive" },
} as const satisfies Record<string, ToastInput>;

export const QUOTE_CONFIRMATION = {
  title: "Your Quote Request Is In",
  estimateLabel: "Estimated cost",
  variesNote: "Final quote may vary after on-site inspection.",
  promises: [`We'll contact you ${WITHIN_PROMISE}`, "Free on-site assessment", "Fully insured and guaranteed work"],
  callPrompt: "Need help sooner? Call",
} as const;

/** The quote's success words for its urgency (the dialog's header, its toast, the no-JS page). */
export const quoteToast = (urgency: UrgencyLevel) =>
  urgency === "emergency" ? QUOTE_TOASTS.emergency : QUOTE_TOASTS.success;

/** What the quote confirmation promises: an emergency gets the emergency page's figures, not a day. */
export function quotePromises(urgency: UrgencyLevel): readonly string[] {
  if (urgency !== "emergency") return QUOTE_CONFIRMATION.promises;
  return [
    `Crews dispatched within ${E.dispatchMinutes} minutes`,
    `On site within ${E.onSiteHours} hours maximum`,
    "Fully insured and guaranteed work",
  ];
}

export const AUDIT_CONFIRMATION = {
  title: "Your Audit Request Is In",
  description: "Thanks! A growth advisor will be in touch shortly.",
  nextStepsHeading: "What happens next",
  nextSteps: [
    `30-minute discovery call ${WITHIN_PROMISE}`,
    "Custom growth roadmap",
    "Revenue potential analysis",
    "Automation opportunities assessment",
    "Exit strategy evaluation",
  ],
  outcomesHeading: "Expected outcomes",
  outcomes: ["3-5x revenue growth potential", "90% reduction in admin time", "Clear path to business sale"],
} as const;

export const BOOKING_TOASTS = {
  success: {
    title: "Booking Request Submitted",
    description: `We'll contact you ${WITHIN_PROMISE} to schedule your service.`,
  },
  // The booking dialog closes: the toast is the confirmation, so it carries the call button.
  emergency: { title: "Booking Request Submitted", description: EMERGENCY_CONFIRMATION.callNow, call: true },
  failure: {
    title: "Error",
    description: "Failed to submit booking request. Please try again.",
    variant: "destructive",
  },
} as const satisfies Record<string, ToastInput>;

export const REVIEW_TOASTS = {
  success: { title: "Review Submitted", description: "Thank you for your feedback!" },
  failure: { title: "Error", description: "Failed to submit review. Please try again.", variant: "destructive" },
} as const satisfies Record<string, ToastInput>;

/** The booking's success words for its urgency. */
export const bookingToast = (urgency: UrgencyLevel) =>
  urgency === "emergency" ? BOOKING_TOASTS.emergency : BOOKING_TOASTS.success;

/** The lead's receipt (src/lib/receipt.ts) wherever a confirmation shows it. */
export const RECEIPT_COPY = {
  referenceLabel: "Your reference:",
  track: "Track your request",
  emailed: "A confirmation e-mail with this link is on its way.",
  /** Without an e-mail provider nothing is sent: the page is the only copy of the link. */
  keep: "Keep this link: it is how you follow your request.",
  /** Radix Toast's altText: where a screen reader user finds the toast's link otherwise. */
  trackElsewhere: "Track your request from the link in this notification, or call us with your reference.",
} as const;

/** A toast carrying a reference stays long enough to read it out (the default is 5000 ms). */
export const RECEIPT_TOAST_MS = 20_000;

/** A success toast with the receipt's reference and its "Track your request" link, when there is one. */
export function withReceipt(toast: ToastInput, receipt: Receipt): ToastInput {
  if (!receipt.reference) return toast;
  return {
    ...toast,
    reference: receipt.reference,
    ...(receipt.statusUrl ? { action: { label: RECEIPT_COPY.track, href: receipt.statusUrl } } : {}),
    duration: RECEIPT_TOAST_MS,
  };
}

/** find-pros when no listed pro matched (the JSON reply's `message` and the no-JS page). */
export function noMatchesMessage(urgency: UrgencyLevel): string {
  return urgency === "emergency"
    ? `We couldn't match a listed pro right away. ${EMERGENCY_CONFIRMATION.callNow}`
    : `We'll match you with local pros by phone ${WITHIN_PROMISE}.`;
}

/** find-pros after the matches (the no-JS page). */
export const findProsFollowUp = (urgency: UrgencyLevel) =>
  urgency === "emergency" ? EMERGENCY_CONFIRMATION.callNow : `We'll also follow up ${WITHIN_PROMISE}.`;

/** The no-JS assessment page's heading (the dialog shares the audit's wording). */
export const ASSESSMENT_SUBMITTED = "Assessment Request Submitted";

/** The no-JS booking page: the toast's words, and who the request went to. */
export const BOOKING_CONFIRMATION = {
  sentTo: "Thank you! Your request has been sent to",
  backTo: "Back to",
} as const;
