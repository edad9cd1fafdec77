/**
 * An owner's public reply to a review (/owner/reviews): the form's schema, its limits and the
 * lines the owner reads. Shared by the function and anything that shows the form, so this file
 * imports nothing node-only.
 */
import { z } from "../zod.ts";
import { cleanString } from "./text.ts";

/** A reply's length, in characters after trimming. */
export const REPLY_MAX_LENGTH = 2000;

/** Review ids as the store makes them (timeId, seed and invitation ids). */
const REVIEW_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/;

/** What the owner reads next to the form and after posting. */
export const REPLY_MESSAGES = {
  text: "Please write your reply",
  textLength: `Your reply can be at most ${REPLY_MAX_LENGTH} characters`,
  reviewId: "That review is not one of your business's reviews.",
  hidden: "This review is hidden, so it takes no reply.",
  posted: "Reply posted. It is on your public page now.",
  saved: "Reply saved. Your public page shows it, marked edited.",
  removed: "Reply removed from your public page.",
  publicNote:
    'Your reply is public, under the review on your page. You can edit it later; an edited reply is marked "edited".',
} as const;

/** The reply form's post (one form per review; `intent` is the button pressed). */
export const ReplyForm = z
  .object({
    /** The review answered (a hidden field). */
    reviewId: z.string({ error: REPLY_MESSAGES.reviewId }).regex(REVIEW_ID, REPLY_MESSAGES.reviewId),
    /** "reply" posts or saves the text; "remove" takes the reply off. */
    intent: z.enum(["reply", "remove"]).default("reply"),
    /** The reply as shown publicly (line breaks kept); ignored when removing. */
    text: cleanString({ error: REPLY_MESSAGES.text }, { multiline: true })
      .trim()
      .max(REPLY_MAX_LENGTH, REPLY_MESSAGES.textLength)
      .default(""),
  })
  .refine((f) => f.intent === "remove" || f.text.length > 0, { message: REPLY_MESSAGES.text, path: ["text"] });
export type ReplyForm = z.output<typeof ReplyForm>;
