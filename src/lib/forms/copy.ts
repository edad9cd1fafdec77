/**
 * What the lead forms say after a submit (spec sections 4 and 8): the dialogs, their toasts
 * and the functions' no-JS confirmation pages all read these, and so do the e2e tests.
 */
import type { ToastInput } from "../stores/dialogs.ts";

export const QUOTE_TOASTS = {
  success: { title: "Quote Request Submitted", description: "We'll contact you within 24 hours with your estimate." },
  failure: { title: "Error", description: "Failed to submit quote request. Please try again.", variant: "destructive" },
} as const satisfies Record<string, ToastInput>;

/** The assessment dialog is the audit with a phase, so it says the same (spec section 4). */
export const AUDIT_TOASTS = {
  success: {
    title: "Audit Request Submitted",
    description: "We'll contact you within 24 hours to schedule your free consultation.",
  },
  failure: { title: "Error", description: "Failed to submit audit request. Please try again.", variant: "destructive" },
} as const satisfies Record<string, ToastInput>;

export const QUOTE_CONFIRMATION = {
  title: "Your Quote Request Is In",
  estimateLabel: "Estimated cost",
  variesNote: "Final quote may vary after on-site inspection.",
  promises: ["We'll contact you within 24 hours", "Free on-site assessment", "Fully insured and guaranteed work"],
  callPrompt: "Need help sooner? Call",
} as const;

export const AUDIT_CONFIRMATION = {
  title: "Your Audit Request Is In",
  description: "Thanks! A growth advisor will be in touch shortly.",
  nextStepsHeading: "What happens next",
  nextSteps: [
    "30-minute discovery call within 24 hours",
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
    description: "We'll contact you within 24 hours to schedule your service.",
  },
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

/** The no-JS assessment page's heading (the dialog shares the audit's wording). */
export const ASSESSMENT_SUBMITTED = "Assessment Request Submitted";

/** The no-JS booking page: the toast's words, and who the request went to. */
export const BOOKING_CONFIRMATION = {
  sentTo: "Thank you! Your request has been sent to",
  backTo: "Back to",
} as const;

/** Shown in the review dialog when scripts are off: posting a review needs them. */
export const REVIEW_NEEDS_JS =
  "Writing a review needs JavaScript, which is turned off in this browser. Turn it on and reload, or tell us about it by phone:";
