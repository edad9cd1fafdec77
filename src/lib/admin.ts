/**
 * The operator's area (/admin and /api/admin/*): its copy, labels, and the query and patch
 * schemas the island and the admin functions share. Browser-safe: nothing node-only.
 */
import { z } from "./zod.ts";
import { LEAD_STATUSES, LeadType, MAX_NOTE_LENGTH, type Lead, type LeadStatus } from "./schemas/lead.ts";
import { HIDE_REASONS, HideReason, type Review } from "./schemas/review.ts";
import type { Message } from "./schemas/message.ts";
import type { OutboxItem, OutboxType } from "./schemas/outbox.ts";
import { URGENCY_LEVELS } from "./lead-urgency.ts";
import { cleanString } from "./schemas/text.ts";

/** Answer of every admin endpoint while ADMIN_TOKEN is unset (and the page's message). */
export const ADMIN_DISABLED = "Admin is disabled: set ADMIN_TOKEN";
/** Answer to a missing or wrong bearer token. */
export const ADMIN_UNAUTHORIZED = "Sign in with the operator token.";
/** Too many failed sign-ins (or requests) from one address. */
export const ADMIN_RATE_LIMITED = "Too many attempts. Please wait a few minutes and try again.";
/** sessionStorage key of the operator token: gone when the tab closes. */
export const ADMIN_TOKEN_STORAGE_KEY = "treeline:admin-token";

/** Tab and column names per lead type. */
export const LEAD_TYPE_LABELS: Record<LeadType, string> = {
  quote: "Quotes",
  audit: "Audits",
  assessment: "Assessments",
  "find-pros": "Find-pros requests",
  booking: "Bookings",
};

/** One lead of each type, as a notification or a CSV row names it. */
export const LEAD_TYPE_SINGULAR: Record<LeadType, string> = {
  quote: "Quote request",
  audit: "Growth audit request",
  assessment: "Phase assessment request",
  "find-pros": "Find-pros request",
  booking: "Booking request",
};

/** What an outbox item delivers, as the Notifications tab names it. */
export const OUTBOX_TYPE_LABELS: Record<OutboxType, string> = {
  ...LEAD_TYPE_SINGULAR,
  owner: "Owner sign-in or claim message",
  webhook: "A business's webhook delivery",
};

export const LEAD_STATUS_LABELS: Record<LeadStatus, string> = {
  new: "New",
  offered: "Offered",
  accepted: "Accepted",
  escalated: "Escalated",
  closed: "Closed",
};

/** What each status means, as the lead window says it under the status. */
export const LEAD_STATUS_HINTS: Record<LeadStatus, string> = {
  new: "Not offered to any business: it is yours to handle.",
  offered: "Offered to businesses; waiting for an answer.",
  accepted: "A business accepted it.",
  escalated: "Passed to you: no business took it.",
  closed: "Closed: it stays closed, whatever its offers do, until you reopen it.",
};

/** The inbox tab's headline count: leads that wait for the operator (new and escalated). */
export const needsYouLabel = (count: number) => `${count} need${count === 1 ? "s" : ""} you`;

export const ADMIN_PAGE_SIZE = 25;
export const ADMIN_MAX_PAGE_SIZE = 100;
/** Longer search text is refused: names, e-mails and phone numbers are all shorter. */
export const MAX_ADMIN_SEARCH = 100;

const LEAD_ID = /^ld_[0-9a-z]{19}$/;
const REVIEW_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/;

/** Query text -> optional value: blank means "not given". */
const blank = (v: string | undefined) => (v === undefined || v.trim() === "" ? undefined : v.trim());

const pageSize = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (blank(v) === undefined) return ADMIN_PAGE_SIZE;
    const n = /^\d{1,4}$/.test(v!.trim()) ? Number(v) : NaN;
    if (n >= 1 && n <= ADMIN_MAX_PAGE_SIZE) return n;
    ctx.addIssue({ code: "custom", message: `Limit must be a whole number from 1 to ${ADMIN_MAX_PAGE_SIZE}` });
    return z.NEVER;
  });

/** GET /api/admin/leads and /api/admin/leads.csv query. */
export const AdminLeadsQuery = z.object({
  /** One lead type; absent or blank for every type. */
  type: z.string().optional().transform(blank).pipe(LeadType.optional()),
  /** One workflow status; absent or blank for every status. */
  status: z.string().optional().transform(blank).pipe(z.enum(LEAD_STATUSES).optional()),
  /** One urgency ("routine" includes leads stored before urgencies existed); absent or blank for all. */
  urgency: z.string().optional().transform(blank).pipe(z.enum(URGENCY_LEVELS).optional()),
  /** `nextCursor` of the previous page (a lead id); absent for the newest page. */
  cursor: z
    .string()
    .optional()
    .transform(blank)
    .refine((v) => v === undefined || LEAD_ID.test(v), "Invalid cursor"),
  /**
   * A reference ("TL-7KQ2-9F", "7KQ2-9F", any case, spaces for dashes), found first, then a
   * name, e-mail or phone to look for (case, accents and phone punctuation ignored).
   */
  q: z
    .string()
    .max(MAX_ADMIN_SEARCH, `Search can be at most ${MAX_ADMIN_SEARCH} characters`)
    .optional()
    .transform(blank),
  /** Page size, 1..ADMIN_MAX_PAGE_SIZE, default ADMIN_PAGE_SIZE. */
  limit: pageSize,
});
export type AdminLeadsQuery = z.output<typeof AdminLeadsQuery>;

/** Longest offset into the message log (a page number far past any real log). */
export const MAX_MESSAGE_OFFSET = 1_000_000;

/** GET /api/admin/messages query. */
export const AdminMessagesQuery = z.object({
  /** Messages to skip (newest first; oldest first with leadId), default 0. */
  offset: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (blank(v) === undefined) return 0;
      const n = /^\d{1,7}$/.test(v!.trim()) ? Number(v) : NaN;
      if (n >= 0 && n <= MAX_MESSAGE_OFFSET) return n;
      ctx.addIssue({ code: "custom", message: `Offset must be a whole number from 0 to ${MAX_MESSAGE_OFFSET}` });
      return z.NEVER;
    }),
  /** Page size, 1..ADMIN_MAX_PAGE_SIZE, default ADMIN_PAGE_SIZE. */
  limit: pageSize,
  /** One lead's messages only, oldest first; absent or blank for every message. */
  leadId: z
    .string()
    .optional()
    .transform(blank)
    .refine((v) => v === undefined || LEAD_ID.test(v), "Invalid lead id"),
});
export type AdminMessagesQuery = z.output<typeof AdminMessagesQuery>;

/** GET /api/admin/reviews query. */
export const AdminReviewsQuery = z.object({
  /** `nextCursor` of the previous page; absent for the newest page. */
  cursor: z
    .string()
    .optional()
    .transform(blank)
    .refine((v) => v === undefined || /^\d{1,16}:[A-Za-z0-9_-]{1,100}$/.test(v), "Invalid cursor"),
  /** Page size, 1..ADMIN_MAX_PAGE_SIZE, default ADMIN_PAGE_SIZE. */
  limit: pageSize,
});
export type AdminReviewsQuery = z.output<typeof AdminReviewsQuery>;

/**
 * PATCH /api/admin/leads/:id body: close or reopen, a new note, or both. The status itself
 * follows the lead's offers (lead-status.ts); the operator only closes and reopens.
 */
export const LeadPatch = z
  .object({
    /** true closes the lead (it stays closed whatever its offers do); false reopens it. */
    closed: z.boolean({ error: "Send closed: true or false" }).optional(),
    /** Replaces the current note; an empty string clears it. */
    note: cleanString(undefined, { multiline: true })
      .trim()
      .max(MAX_NOTE_LENGTH, `A note can be at most ${MAX_NOTE_LENGTH} characters`)
      .optional(),
  })
  .strict()
  .refine((p) => p.closed !== undefined || p.note !== undefined, "Send closed, a note, or both");
export type LeadPatch = z.output<typeof LeadPatch>;

/**
 * PATCH /api/admin/reviews/:id body. There is no Verified switch: a review is Verified only
 * when it came through the invitation after an accepted job (review-invite.ts), so the
 * operator cannot make a badge mean less than that (an `isVerified` key is refused).
 */
export const ReviewPatch = z
  .object({
    /** Hide from the public lists and the rating (true, with a reason) or show again (false). */
    hidden: z.boolean({ error: "Send hidden: true (with a reason) or false" }),
    /** Why (required with hidden: true): one of HIDE_REASONS, never the rating. */
    hiddenReason: HideReason.optional(),
  })
  .strict()
  .refine((p) => p.hidden !== true || p.hiddenReason !== undefined, {
    message: `Hiding a review needs a reason: ${Object.keys(HIDE_REASONS).join(", ")}`,
    path: ["hiddenReason"],
  })
  .refine((p) => p.hiddenReason === undefined || p.hidden === true, {
    message: "A reason goes with hidden: true",
    path: ["hiddenReason"],
  });
export type ReviewPatch = z.output<typeof ReviewPatch>;

/** Businesses a lead's window lists to offer it to by hand, nearest first. */
export const NEARBY_LIMIT = 10;
/** A lead holds at most this many offers (the lead schema's `routing.deliveries`). */
export const MAX_LEAD_OFFERS = 12;

/** POST /api/admin/leads/:id/offers body: the businesses to offer the lead to, in that order. */
export const LeadOfferPost = z
  .object({
    businessIds: z
      .array(z.string().trim().min(1).max(64), { error: "Send businessIds: a list of business ids" })
      .min(1, "Choose at least one business to offer the lead to.")
      .max(MAX_LEAD_OFFERS, `A lead can be offered to at most ${MAX_LEAD_OFFERS} businesses.`),
  })
  .strict();
export type LeadOfferPost = z.output<typeof LeadOfferPost>;

export const isLeadId = (value: string) => LEAD_ID.test(value);
export const isReviewId = (value: string) => REVIEW_ID.test(value);

/** A review as the admin lists it: every field, plus the business it belongs to. */
export type AdminReview = Review & {
  /** Owner business id. */
  businessId: string;
  /** Owner's name and slug, when the business still exists. */
  businessName?: string;
  businessSlug?: string;
  /** The business is a sample (the demo directory): the review is a sample too. */
  businessSample?: boolean;
};

// ---------------------------------------------------------------------------------------
// Reply shapes (the functions build them, the island reads them)

/** GET /api/admin/leads. */
export interface AdminLeadsReply {
  /** The page, newest first. */
  data: Lead[];
  /** Pass back as `cursor` for the next (older) page; null on the last page. */
  nextCursor: string | null;
  /** Scans only (search, several filters): index entries read for this page. */
  scanned?: number;
  /** Leads per type, and in all. */
  counts: Record<LeadType | "all", number>;
  /** Leads per status, of every type. */
  statusCounts: Record<LeadStatus, number>;
  /** Leads waiting for the operator (new and escalated), of every type: the tab's "N need you". */
  needsYou: number;
  /**
   * Open emergencies (urgency emergency, no business accepted, not closed), newest first, at
   * most 20, whatever the filters.
   */
  emergencies: Lead[];
}

/** GET /api/admin/leads/:id. */
export interface AdminLeadReply {
  data: Lead;
  /** Its notification work still waiting, if any. */
  outbox: OutboxItem | null;
  /** Every message about the lead, oldest first. */
  messages: Message[];
  /** The visitor's private status page (a site path); absent when the signing key cannot be read. */
  statusUrl?: string;
}

/** A business near the job that the lead has not been offered yet (GET /api/admin/leads/:id/offers). */
export interface AdminNearbyBusiness {
  id: string;
  name: string;
  slug: string;
  /** Miles from the job. */
  distanceMiles: number;
  /** "4.9" */
  rating: string;
  reviewCount: number;
  /** The services it lists. */
  services: string[];
  /** It lists the service the lead asks for (false: listed after those that do). */
  offersService: boolean;
  /** Answers emergencies 24/7. */
  emergency247: boolean;
  /** Open at the time of the list, in its own time zone. */
  openNow: boolean;
  /** Where the offer goes: false when it has neither an e-mail nor a phone on file. */
  reachable: boolean;
  /** A sample business (the demo directory), not a real company. */
  isSample?: boolean;
}

/** GET /api/admin/leads/:id/offers. */
export interface AdminNearbyReply {
  /** Nearest first (for an emergency, those answering 24/7 or open now first); at most NEARBY_LIMIT. */
  data: AdminNearbyBusiness[];
  /** Where the job is ("Miami, FL 33131"); null when the lead names no place we know. */
  near: string | null;
  /** The service it asks for, as the directory names it; null for any. */
  service: string | null;
  /** Whether the lead goes to businesses at all (growth requests are Treeline's own). */
  routable: boolean;
}

/** POST /api/admin/leads/:id/offers. */
export interface AdminOfferReply {
  /** The lead as stored after the offers (its status follows: offered). */
  data: Lead;
  /** The businesses newly offered the lead. */
  offered: string[];
}

/** GET /api/admin/messages. */
export interface AdminMessagesReply {
  data: Message[];
  /** Messages in the log (or the lead's, with leadId). */
  total: number;
}

/** Which providers are set up (GET and POST /api/admin/outbox). */
export interface AdminChannels {
  /** NOTIFY_WEBHOOK_URL: the operator's Slack-compatible webhook. */
  webhook: boolean;
  /** NOTIFY_EMAIL_TO with RESEND_API_KEY: the operator's e-mail. */
  email: boolean;
  /** RESEND_API_KEY with a sender of the operator's own (NOTIFY_EMAIL_FROM): e-mail to visitors and businesses. */
  visitorEmail: boolean;
  /** TWILIO_*: text messages to businesses. */
  sms: boolean;
}

/** GET /api/admin/outbox. */
export interface AdminOutboxReply {
  data: OutboxItem[];
  total: number;
  channels: AdminChannels;
}
