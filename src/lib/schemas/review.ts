/**
 * A business's reviews: as stored, as a visitor posts one, as the public sees one, the
 * operator's reasons for hiding one and the owner's reply. Shared by the browser and the
 * functions, so this file imports nothing node-only.
 */
import { z } from "../zod.ts";
import { cleanString } from "./text.ts";
import { REPLY_MAX_LENGTH } from "./reply.ts";

const text = z.string().trim();
const isoDateTime = z.iso.datetime({ offset: true });

/**
 * Why the operator hid a review: a fixed list, shown publicly in the review's place. Never the
 * rating (FTC 16 CFR 465: a review may not be suppressed for being negative).
 */
export const HIDE_REASONS = {
  "not-about-this-business": "not about this business",
  "personal-information": "personal information",
  "abusive-language": "abusive language",
  "spam-or-advertising": "spam or advertising",
  duplicate: "duplicate",
} as const;
export type HideReason = keyof typeof HIDE_REASONS;
export const HideReason = z.enum(Object.keys(HIDE_REASONS) as [HideReason, ...HideReason[]]);

/** The public placeholder line of a hidden review, e.g. "Hidden: not about this business". */
export function hiddenLine(reason: HideReason | undefined): string {
  return `Hidden: ${reason ? HIDE_REASONS[reason] : "removed by moderation"}`;
}

/** A business owner's public reply to a review: one per review, editable. */
export const OwnerReply = z.object({
  /** The reply as shown. */
  text: text.min(1).max(REPLY_MAX_LENGTH),
  /** First posted (ISO). */
  createdAt: isoDateTime,
  /** Last edited (ISO); absent = never edited. */
  editedAt: isoDateTime.optional(),
});
export type OwnerReply = z.infer<typeof OwnerReply>;

export const Review = z.object({
  /** Server-assigned id. */
  id: z.string().min(1).max(100),
  /** Reviewer's name as shown. */
  customerName: text.min(1).max(100),
  /** Reviewer's e-mail (never shown publicly). */
  customerEmail: z.email().optional(),
  /** Stars, 1 to 5. */
  rating: z.number().int().min(1).max(5).default(5),
  /** Headline, may be empty. */
  title: text.max(200),
  /** Body, may be empty. */
  reviewText: text.max(5000),
  /** Service the review is about, may be empty. */
  serviceType: text.max(100),
  /** Set by the server only: true only for a review made through the invitation after an accepted job (review-invite.ts), never for a sample business's review (store/seed.ts); nobody can switch it later. */
  isVerified: z.boolean(),
  /** ISO timestamp set by the server. */
  createdAt: isoDateTime,
  /** Hidden by the operator: out of every public list and of the rating (admin only; absent = shown). */
  hidden: z.boolean().optional(),
  /** Why it is hidden (set with hidden; reviews hidden before reasons existed have none). */
  hiddenReason: HideReason.optional(),
  /** The business owner's one public reply (edited in place; `editedAt` shows it was). */
  reply: OwnerReply.optional(),
});
export type Review = z.infer<typeof Review>;

/** Messages a reviewer reads next to the Write Review fields (the API's 400 `fields`). */
export const REVIEW_MESSAGES = {
  customerName: "Please enter your name",
  customerNameLength: "Your name can be at most 100 characters",
  customerEmail: "Please enter a valid email",
  rating: "Rating must be a whole number from 1 to 5",
  title: "The title can be at most 200 characters",
  reviewText: "The review can be at most 5000 characters",
  serviceType: "The service name can be at most 100 characters",
} as const;

/** What a visitor submits: only the name is required. */
export const ReviewInput = z.object({
  /** Reviewer's name. */
  customerName: cleanString({ error: REVIEW_MESSAGES.customerName })
    .trim()
    .min(1, REVIEW_MESSAGES.customerName)
    .max(100, REVIEW_MESSAGES.customerNameLength),
  /**
   * Optional e-mail, trimmed; an empty string counts as absent. One review per e-mail per
   * business (compared case-insensitively); a review without one is limited by the IP and
   * business rates only.
   */
  customerEmail: z
    .preprocess(
      (v) => (typeof v === "string" ? v.trim() : v),
      z.union([z.email(REVIEW_MESSAGES.customerEmail), z.literal("", { error: REVIEW_MESSAGES.customerEmail })], {
        error: REVIEW_MESSAGES.customerEmail,
      }),
    )
    .optional()
    .transform((v) => v || undefined),
  /** Stars, 1 to 5, default 5; "4.5" is refused rather than rounded. */
  rating: z
    .preprocess(
      // Form posts send text; only a plain number in text is read as one (z.coerce would take `true` as 1).
      (v) => (typeof v === "string" && /^\s*-?\d+(?:\.\d+)?\s*$/.test(v) ? Number(v) : v),
      z
        .number({ error: REVIEW_MESSAGES.rating })
        .int(REVIEW_MESSAGES.rating)
        .min(1, REVIEW_MESSAGES.rating)
        .max(5, REVIEW_MESSAGES.rating),
    )
    .default(5),
  /** Optional headline. */
  title: cleanString({ error: REVIEW_MESSAGES.title }).trim().max(200, REVIEW_MESSAGES.title).default(""),
  /** Optional body. */
  reviewText: cleanString({ error: REVIEW_MESSAGES.reviewText }, { multiline: true })
    .trim()
    .max(5000, REVIEW_MESSAGES.reviewText)
    .default(""),
  /** Optional service name. */
  serviceType: cleanString({ error: REVIEW_MESSAGES.serviceType })
    .trim()
    .max(100, REVIEW_MESSAGES.serviceType)
    .default(""),
});
export type ReviewInput = z.input<typeof ReviewInput>;

/**
 * A review as the public sees it: the reviewer's e-mail never leaves the server. A hidden
 * review keeps its place as a placeholder: its id, date and public reason only (no name, no
 * text, rating 0); it is in no rating and no JSON-LD.
 */
export type PublicReview = Omit<Review, "customerEmail">;

export function toPublicReview({ customerEmail: _private, hidden, hiddenReason, ...rest }: Review): PublicReview {
  if (!hidden) return rest;
  return {
    hidden: true,
    ...(hiddenReason ? { hiddenReason } : {}),
    id: rest.id,
    createdAt: rest.createdAt,
    customerName: "",
    rating: 0,
    title: "",
    reviewText: "",
    serviceType: "",
    isVerified: false,
  };
}
