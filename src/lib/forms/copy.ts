/**
 * What the lead forms say after a submit: the dialogs, their toasts
 * and the functions' no-JS confirmation pages all read these, and so do the e2e tests.
 */
import { RESPONSE_TIMES, type UrgencyLevel } from "../lead-urgency.ts";
import type { Receipt } from "../receipt.ts";
import type { OfferSummary } from "../received.ts";
import { DANGER_FIRST, HOTLINE } from "../safety.ts";
import { SITE } from "../site.ts";
import type { ToastInput } from "../stores/dialogs.ts";
import { clockTime, dayTime } from "../zone-time.ts";

/** The routine contact promise, as every non-emergency confirmation words it. */
const WITHIN_PROMISE = `within ${RESPONSE_TIMES.contact}`;

export { DANGER_FIRST, HOTLINE } from "../safety.ts";

export const EMERGENCY_CONFIRMATION = {
  /** The box's first words: 911 before anything of ours. */
  heading: DANGER_FIRST.hurt,
  lines: DANGER_FIRST.lines,
  /** The hotline link's text. */
  call: HOTLINE.text,
  /** The e-mails' and the one-line places' version: danger first, then our line. */
  line: `${DANGER_FIRST.hurt} ${DANGER_FIRST.lines} ${HOTLINE.text}.`,
} as const;

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** When the team gets in touch. */
const teamWill = (urgency: UrgencyLevel) => (urgency === "emergency" ? "call you" : `contact you ${WITHIN_PROMISE}`);

/** Who has the request when no business does, and when they get in touch. */
const teamHasIt = (urgency: UrgencyLevel) => `${SITE.name}'s team has your request and will ${teamWill(urgency)}.`;

/** A request held for the team to check (sent faster than a person types): it went nowhere yet. */
const heldForTeam = (urgency: UrgencyLevel) =>
  `${SITE.name}'s team checks it before it goes to any business, and will ${teamWill(urgency)}.`;

/** No e-mail or text service here: the offers are only kept. */
const NO_SERVICE = "this site has no e-mail or text service set up yet, so it has not reached";

/**
 * What is happening to a routed request right now, from the reply's (or the stored lead's)
 * offer summary: "Offered to 3 crews near 33131 that take emergencies now; each has 10
 * minutes to answer." or who has it when no business does. Undefined without a summary.
 * An emergency goes only to businesses answering emergencies around the clock or open now,
 * so it says "take emergencies now", never a promise of when anyone arrives.
 */
export function offersNow(
  offers: OfferSummary | undefined,
  urgency: UrgencyLevel,
  /** Also say the clock time an emergency's minutes run out (pages and e-mails read later). */
  { until = false }: { until?: boolean } = {},
): string | undefined {
  if (!offers) return undefined;
  const emergency = urgency === "emergency";
  const near = offers.near ? ` near ${offers.near}` : "";
  const n = offers.offered;
  if (offers.held) return `We've got your request: ${heldForTeam(urgency)}`;
  if (n > 0 && offers.kept) {
    const who = `${count(n, emergency ? "crew" : "pro", emergency ? "crews" : "pros")}${near}`;
    return `We matched your request to ${who}, but ${NO_SERVICE} them: ${teamHasIt(urgency)}`;
  }
  if (n > 0) {
    const who = emergency
      ? `${count(n, "crew", "crews")}${near} that ${n === 1 ? "takes" : "take"} emergencies now`
      : `${count(n, "pro", "pros")}${near}`;
    const each = n === 1 ? "it has" : "each has";
    const clock =
      offers.aroundTheClock && offers.answerMinutes
        ? count(offers.answerMinutes, "minute", "minutes")
        : offers.answerBy
          ? `until ${dayTime(offers.answerBy, offers.timeZone)}`
          : "";
    const by =
      until && offers.aroundTheClock && offers.answerMinutes && offers.answerBy
        ? ` (by ${clockTime(offers.answerBy, offers.timeZone)})`
        : "";
    return `Offered to ${who}${clock ? `; ${each} ${clock} to answer${by}` : ""}.`;
  }
  const team = teamHasIt(urgency);
  if (offers.toOperator === "no-pros")
    return emergency
      ? `No listed crew${near || " near you"} takes emergencies right now: ${team}`
      : `No listed pro${near || " near you"} offers this service yet: ${team}`;
  if (offers.toOperator === "no-place") return `We couldn't place that address on our map: ${team}`;
  return team;
}

export const QUOTE_TOASTS = {
  success: { title: "Quote Request Submitted", description: `We'll contact you ${WITHIN_PROMISE} with your estimate.` },
  // An emergency is never told to wait a day: its words are the danger, first.
  emergency: { title: "Quote Request Submitted", description: DANGER_FIRST.hurt },
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
  callPrompt: `Need help sooner? Call ${SITE.name}'s 24/7 line:`,
  /** The heading over the businesses a routed quote went to. */
  offeredTo: "Offered to",
  /** ...when no e-mail or text service can reach them (the offers are only kept). */
  matchedWith: "Matched with",
  /** ...when the request is held for the team to check (nobody was offered it). */
  nearYou: "Pros near you",
} as const;

/** The quote's success words for its urgency (the dialog's header, its toast, the no-JS page). */
export const quoteToast = (urgency: UrgencyLevel) =>
  urgency === "emergency" ? QUOTE_TOASTS.emergency : QUOTE_TOASTS.success;

/**
 * What the quote confirmation promises: the spec's list, less the day's wait for an
 * emergency (its confirmation says who has the request now instead).
 */
export function quotePromises(urgency: UrgencyLevel): readonly string[] {
  return urgency === "emergency" ? QUOTE_CONFIRMATION.promises.slice(1) : QUOTE_CONFIRMATION.promises;
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
  // The booking dialog closes: the toast leads with the danger and carries our line.
  emergency: { title: "Booking Request Submitted", description: DANGER_FIRST.hurt, call: true },
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
  /** Said before anything is sent: the e-mail goes after this answer (its state is on the status page). */
  willEmail: "We'll also e-mail you this link; keep this page until you have that e-mail.",
  /** No e-mail can reach the visitor here (or the request is held): the page is the only copy of the link. */
  keep: "No confirmation e-mail is sent for this request: keep this link, it is how you follow your request.",
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
    ? `We couldn't match a listed pro right away: ${teamHasIt(urgency)}`
    : `We'll match you with local pros by phone ${WITHIN_PROMISE}.`;
}

/** find-pros after the matches (the no-JS page); an emergency has said who has it already. */
export const findProsFollowUp = (urgency: UrgencyLevel) =>
  urgency === "emergency" ? undefined : `We'll also follow up ${WITHIN_PROMISE}.`;

/** The no-JS assessment page's heading (the dialog shares the audit's wording). */
export const ASSESSMENT_SUBMITTED = "Assessment Request Submitted";

/**
 * Where a booking stands, around its business's name (shown bold between the two): offered to
 * it, or, when nothing can reach it, with the team. Never "sent": the offer goes after the
 * answer, and the status page says whether it reached them.
 */
export function bookingWith(
  offers: OfferSummary | undefined,
  urgency: UrgencyLevel,
): { before: string; after: string; next?: string } {
  const emergency = urgency === "emergency";
  if (offers?.held) return { before: "Thank you! We've got your request for", after: `. ${heldForTeam(urgency)}` };
  if (offers?.kept)
    return {
      before: "Thank you! We've got your request for",
      after: `, but ${NO_SERVICE} them: ${teamHasIt(urgency)}`,
    };
  if (offers && offers.offered === 0)
    return { before: "Thank you! Our offer of your request couldn't reach", after: `: ${teamHasIt(urgency)}` };
  return {
    before: BOOKING_CONFIRMATION.offeredTo,
    after: ".",
    ...(emergency ? { next: BOOKING_CONFIRMATION.emergencyNext } : {}),
  };
}

/** The no-JS booking page: the toast's words, and who the request went to. */
export const BOOKING_CONFIRMATION = {
  offeredTo: "Thank you! Your request is offered to",
  /** An emergency booking: what happens when its one business does not take it. */
  emergencyNext: `If they don't accept it in time, ${SITE.name}'s team takes it over and calls you.`,
  backTo: "Back to",
  /** The receipt the business page keeps on screen after the dialog closes. */
  receiptTitle: "Your booking request",
  close: "Close",
} as const;
