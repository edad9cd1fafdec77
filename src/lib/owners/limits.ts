/**
 * How long an owner's sign-in links and codes work, and how often the sign-in flows may be
 * used. The functions (netlify/lib/owners) and the messages read them from here.
 */

/** A sign-in link works once, for this long. */
export const SIGN_IN_LINK_TTL_MS = 20 * 60_000;
/**
 * The link in "your claim is approved" works once, for this long: the claimant asked days ago
 * and reads it when they read it (it goes only to the address they claimed with, and signs
 * in only while the operator has not removed them).
 */
export const APPROVED_LINK_TTL_MS = 7 * 24 * 60 * 60_000;

/** "20 minutes", "7 days": how long a link works, in its e-mail. */
export function linkLifetime(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 120) return `${minutes} minutes`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} hours`;
  return `${Math.round(hours / 24)} days`;
}
/** SMS codes: this many digits, this long, this many tries. */
export const CODE_DIGITS = 6;
export const CODE_TTL_MS = 10 * 60_000;
export const CODE_MAX_TRIES = 5;
/** Failed sign-ins (bad links, wrong codes) per client address before a lockout, as the admin's. */
export const OWNER_MAX_FAILURES = 10;
export const OWNER_LOCKOUT_SECONDS = 15 * 60;
/**
 * Sign-in codes texted per UTC day: to one business, and to one phone number (several listings
 * may share one), whoever asks. With CODE_MAX_TRIES tries each, that bounds the guesses a day
 * against a business, and the texts its phone gets from strangers.
 */
export const CODES_PER_BUSINESS_PER_DAY = 5;
export const CODES_PER_PHONE_PER_DAY = 10;
export const TOO_MANY_CODES_TODAY =
  "We have texted as many sign-in codes for this business today as we send in a day. Please try again tomorrow, or claim it with the e-mail on file.";
/**
 * Wrong codes tried against one business, from every address together, before its code
 * sign-in pauses for the rest of this window (from the first wrong try): many addresses
 * guessing together are stopped as one.
 */
export const CODE_FAILURES_PER_BUSINESS = 10;
export const CODE_BUSINESS_LOCKOUT_SECONDS = 24 * 60 * 60;
export const CODES_PAUSED =
  "Too many wrong codes were tried for this business, so signing in to it by text is paused for up to a day. Please claim it with the e-mail on file, or send a claim for Treeline to check.";
/** Claims, codes and new businesses per client address per minute. */
export const CLAIMS_PER_MINUTE = 10;
/** Links and codes sent to one business's contact on file per minute, whoever asks (no mail bombing). */
export const SENDS_PER_BUSINESS_PER_MINUTE = 3;
export const TOO_MANY_SENDS =
  "We just sent a sign-in link or code for this business. Please check for it, or try again in a minute.";
/** Sign-in attempts (link or code posts) per client address per minute. */
export const SIGN_INS_PER_MINUTE = 20;
