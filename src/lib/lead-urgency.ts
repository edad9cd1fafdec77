/**
 * How urgent a lead is, read from its own form fields, and the response figures the site
 * promises for an emergency. Pages, islands, the functions' confirmations, the e-mails and
 * the response clock (netlify/lib/delivery) all read these, so a confirmation can never
 * promise "24 hours" for a job the emergency page promises to dispatch in 30 minutes.
 * Client-safe: no zod, no node.
 */
import type { LeadType } from "./lead-types.ts";

/** emergency: minutes count; urgent: hours; routine: the spec's 24-hour contact promise. */
export const URGENCY_LEVELS = ["emergency", "urgent", "routine"] as const;
export type UrgencyLevel = (typeof URGENCY_LEVELS)[number];

/**
 * The emergency page's service levels (content/marketing/emergency.yaml "facts", checked
 * against these by tests/unit/lead-urgency.test.ts).
 */
export const EMERGENCY_RESPONSE = {
  /** A crew is dispatched within this many minutes of the call. */
  dispatchMinutes: 30,
  /** On site within this many hours at most. */
  onSiteHours: 2,
} as const;

/** Hours within which we promise contact for everything that is not an emergency. */
export const CONTACT_PROMISE_HOURS = 24;

/**
 * Every response time the site promises, worded for "within ...": pages, forms and messages
 * write `within ${RESPONSE_TIMES.contact}` and YAML `within {contactHours}` (./facts.ts), never
 * the figure itself (tests/unit/response-promises.test.ts fails on a typed one).
 */
export const RESPONSE_TIMES = {
  /** A quote, booking, audit or message is answered, by phone or e-mail, within this. */
  contact: `${CONTACT_PROMISE_HOURS} hours`,
  /** An emergency crew is dispatched within this of the call. */
  dispatch: `${EMERGENCY_RESPONSE.dispatchMinutes} minutes`,
  /** An emergency crew is on site within this at most. */
  onSite: `${EMERGENCY_RESPONSE.onSiteHours} hours`,
  /** A claim or a new business that the operator checks by hand is usually decided within this. */
  listingCheck: "two working days",
  /** A privacy request (access, correction, deletion) is answered within this. */
  privacyRequest: "30 days",
} as const;

const text = (data: unknown, key: string): string => {
  const value = data && typeof data === "object" ? (data as Record<string, unknown>)[key] : undefined;
  return typeof value === "string" ? value : "";
};

/**
 * The lead's urgency from the fields each form has: the quote's urgency (or an emergency
 * service), the booking's urgency, the find-pros timeline. Growth requests are routine.
 */
export function urgencyOf(type: LeadType, data: unknown): UrgencyLevel {
  switch (type) {
    case "quote": {
      const urgency = text(data, "urgency");
      if (urgency === "emergency" || text(data, "serviceType") === "emergency") return "emergency";
      return urgency === "within-days" ? "urgent" : "routine";
    }
    case "booking": {
      const urgency = text(data, "urgency");
      return urgency === "emergency" ? "emergency" : urgency === "urgent" ? "urgent" : "routine";
    }
    case "find-pros": {
      const timeline = text(data, "timeline");
      return timeline === "emergency" ? "emergency" : timeline === "within-week" ? "urgent" : "routine";
    }
    default:
      return "routine";
  }
}

export const URGENCY_LABELS: Record<UrgencyLevel, string> = {
  emergency: "Emergency",
  urgent: "Urgent",
  routine: "Routine",
};
