/**
 * The receipt every stored lead answers with (JSON 201 and the no-JS confirmation page): a
 * reference the visitor can quote on the phone, the private status page, and the urgency
 * the confirmation's promise follows. Client-safe: the islands, the views, the functions'
 * pages and the lead pipeline all import it.
 */
import { URGENCY_LEVELS, type UrgencyLevel } from "./lead-urgency.ts";

export interface Receipt {
  /** Short reference the visitor can quote, e.g. "TL-7KQ2-9F" (REFERENCE_PATTERN). */
  reference: string;
  /** Site path of the private status page, e.g. "/requests/ld_0abc.../Xy12..." (unguessable, noindex). */
  statusUrl: string;
  /** From urgencyOf() in lead-urgency.ts: what the confirmation may promise. */
  urgency: UrgencyLevel;
  /**
   * A confirmation e-mail with the link will be tried once the reply is out: e-mail can reach
   * the visitor here (emailReady in netlify/lib/notify/config.ts) and the request is not held.
   * It is sent after the answer, so no confirmation says it was sent or is on its way: the
   * status page says so once Resend took it (its delivery state).
   */
  willEmail?: boolean;
}

/** "TL-" then 4 + 2 Crockford base32 characters (no I, L, O, U: nothing to misread on the phone). */
export const REFERENCE_PATTERN = /^TL-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{2}$/;

const BODY = /^[0-9A-HJKMNP-TV-Z]{6}$/;

/**
 * A reference as a person types or reads it ("tl 7kq2-9f", "7KQ29F", "TL-7KQ2-9O") in its
 * canonical form "TL-7KQ2-9F", or null. Crockford's reading: O is 0, I and L are 1.
 */
export function normalizeReference(input: string): string | null {
  let code = input
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, "");
  // The prefix goes before the mapping, or its L would read as a 1.
  if (code.length === 8 && code.startsWith("TL")) code = code.slice(2);
  code = code.replace(/O/g, "0").replace(/[IL]/g, "1");
  return BODY.test(code) ? `TL-${code.slice(0, 4)}-${code.slice(4)}` : null;
}

const RANK: Record<UrgencyLevel, number> = { emergency: 0, urgent: 1, routine: 2 };

/** The more urgent of two readings: neither side can talk the other out of an emergency. */
export const moreUrgent = (a: UrgencyLevel, b: UrgencyLevel): UrgencyLevel => (RANK[a] <= RANK[b] ? a : b);

const isUrgency = (value: unknown): value is UrgencyLevel =>
  typeof value === "string" && (URGENCY_LEVELS as readonly string[]).includes(value);

/**
 * The receipt fields of a lead reply, checked, for rendering. A reference that does not
 * normalize, or a status URL that is not a same-site path, reads as "" and is not shown
 * (older replies and tests have neither). `own` is the caller's reading of its own form data
 * (urgencyOf); the result is the more urgent of it and the reply's.
 */
export function receiptOf(reply: unknown, own: UrgencyLevel = "routine"): Receipt {
  const r = reply && typeof reply === "object" ? (reply as Record<string, unknown>) : {};
  const reference = typeof r.reference === "string" ? (normalizeReference(r.reference) ?? "") : "";
  // A path on this site only: never another origin, never a javascript: URL.
  const statusUrl = typeof r.statusUrl === "string" && /^\/(?![/\\])/.test(r.statusUrl) ? r.statusUrl : "";
  return {
    reference,
    statusUrl,
    urgency: isUrgency(r.urgency) ? moreUrgent(r.urgency, own) : own,
    ...(r.willEmail === true ? { willEmail: true } : {}),
  };
}
