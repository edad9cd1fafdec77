/**
 * The signed links a lead hands out: the visitor's status page and each business's answer
 * page. An HMAC over what the link is for, so nobody can guess one, and a changed character
 * (another lead, another business, a later expiry) no longer matches.
 *
 *   status:  /requests/{leadId}/{sig}                       (no expiry: a receipt is kept)
 *   answer:  /respond/{leadId}.{businessId}.{expiry}.{sig}  (expiry in base-36 seconds)
 *   review:  /review/{leadId}.{businessId}.{expiry}.{sig}   (the visitor's invitation to review
 *            a business that accepted their job; signed apart, so neither opens the other)
 *   calendar: /calendar/{businessId}.{feedKey}.{sig}.ics    (a business's private feed of the jobs
 *            it accepted; no expiry, since calendar apps keep polling it: the business draws a new
 *            feed key to retire it, and only the current key opens the feed, calendar.ts)
 *
 * The key is LINK_SIGNING_SECRET, or else one the store draws once and keeps (meta hash),
 * so a default install signs links with no setup. Changing the key retires every link.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { env as currentEnv, type Env } from "../../../src/lib/env.ts";
import type { Store } from "../store/index.ts";

/** Characters of base64url HMAC kept: 132 bits. */
const SIG_LENGTH = 22;
/** An answer link lives this long after the offer (the clock moves on much sooner). */
export const ANSWER_LINK_TTL_MS = 7 * 24 * 60 * 60_000;

export interface Signer {
  statusPath(leadId: string): string;
  /** The answer page of one business for one lead, valid until `expiresAt` (ms). */
  answerPath(leadId: string, businessId: string, expiresAt: number): string;
  /** The lead id if the status signature matches. */
  checkStatus(leadId: string, sig: string): boolean;
  /** What an answer token grants, or why not. */
  readAnswer(token: string, now: number): AnswerGrant;
  /** The visitor's invitation to review one business for one lead, valid until `expiresAt` (ms). */
  reviewPath(leadId: string, businessId: string, expiresAt: number): string;
  /** What a review token grants, or why not. */
  readReview(token: string, now: number): AnswerGrant;
  /** A business's calendar feed under its feed key (calendar-feeds repo). */
  calendarPath(businessId: string, feedKey: string): string;
  /** The business and feed key a calendar token names, when its signature matches. */
  readCalendar(token: string): { businessId: string; feedKey: string } | null;
}

export type AnswerGrant =
  { ok: true; leadId: string; businessId: string; expiresAt: number } | { ok: false; reason: "invalid" | "expired" };

const LEAD_ID = /^ld_[0-9a-z]{19}$/;
const BUSINESS_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const FEED_KEY = /^[A-Za-z0-9_-]{16,64}$/;

export function signer(secret: string): Signer {
  const sign = (text: string) => createHmac("sha256", secret).update(text).digest("base64url").slice(0, SIG_LENGTH);
  const same = (a: string, b: string) => {
    const x = Buffer.from(a);
    const y = Buffer.from(b);
    return x.length === y.length && timingSafeEqual(x, y);
  };
  /** A grant for one lead and one business until an expiry, under its own purpose. */
  const grant = (purpose: "answer" | "review", route: string) => {
    const sig = (leadId: string, businessId: string, exp: string) =>
      sign(`${purpose}\n${leadId}\n${businessId}\n${exp}`);
    return {
      path(leadId: string, businessId: string, expiresAt: number) {
        const exp = Math.ceil(expiresAt / 1000).toString(36);
        return `${route}/${leadId}.${businessId}.${exp}.${sig(leadId, businessId, exp)}`;
      },
      read(token: string, now: number): AnswerGrant {
        const parts = token.split(".");
        if (parts.length !== 4) return { ok: false, reason: "invalid" };
        const [leadId = "", businessId = "", exp = "", given = ""] = parts;
        if (!LEAD_ID.test(leadId) || !BUSINESS_ID.test(businessId) || !/^[0-9a-z]{1,10}$/.test(exp)) {
          return { ok: false, reason: "invalid" };
        }
        // The signature first: an altered expiry is a forgery, not an expired link.
        if (!same(given, sig(leadId, businessId, exp))) return { ok: false, reason: "invalid" };
        const expiresAt = parseInt(exp, 36) * 1000;
        if (expiresAt <= now) return { ok: false, reason: "expired" };
        return { ok: true, leadId, businessId, expiresAt };
      },
    };
  };
  const answer = grant("answer", "/respond");
  const review = grant("review", "/review");
  return {
    statusPath: (leadId) => `/requests/${leadId}/${sign(`status\n${leadId}`)}`,
    answerPath: answer.path,
    readAnswer: answer.read,
    reviewPath: review.path,
    readReview: review.read,
    checkStatus: (leadId, sig) => LEAD_ID.test(leadId) && same(sig, sign(`status\n${leadId}`)),
    calendarPath: (businessId, feedKey) =>
      `/calendar/${businessId}.${feedKey}.${sign(`calendar\n${businessId}\n${feedKey}`)}.ics`,
    readCalendar(token) {
      const parts = token.split(".");
      if (parts.length !== 4 || parts[3] !== "ics") return null;
      const [businessId = "", feedKey = "", given = ""] = parts;
      if (!BUSINESS_ID.test(businessId) || !FEED_KEY.test(feedKey)) return null;
      return same(given, sign(`calendar\n${businessId}\n${feedKey}`)) ? { businessId, feedKey } : null;
    },
  };
}

/** Shortest key accepted from LINK_SIGNING_SECRET (env.ts checks it too). */
export const MIN_SECRET_LENGTH = 32;

const cached = new Map<string, Promise<string>>();

/** The signing key: the configured one, or the store's own (drawn once, shared by every instance). */
export function linkSecret(store: Store, env: Env = currentEnv()): Promise<string> {
  if (env.LINK_SIGNING_SECRET) return Promise.resolve(env.LINK_SIGNING_SECRET);
  const cacheKey = `${store.kind}:${store.prefix}:${store.description}`;
  let secret = cached.get(cacheKey);
  if (!secret) {
    secret = (async () => {
      const value = await store.meta.linkSecret(randomBytes(32).toString("base64url"));
      if (value === null || value.length < MIN_SECRET_LENGTH) throw new Error("link secret unreadable");
      return value;
    })();
    // A failed read is not remembered: the next request tries again.
    secret.catch(() => cached.delete(cacheKey));
    cached.set(cacheKey, secret);
  }
  return secret;
}

export async function signerFor(store: Store, env?: Env): Promise<Signer> {
  return signer(await linkSecret(store, env));
}
