/**
 * The owner's reply form (src/lib/schemas/reply.ts): what /owner/reviews accepts and the
 * message it shows for what it refuses; the stored reply (OwnerReply) keeps the same limit.
 */
import { describe, expect, it } from "vitest";
import { OwnerReply } from "../../src/lib/schemas/review.ts";
import { fieldErrors } from "../../src/lib/schemas/forms.ts";
import { REPLY_MAX_LENGTH, REPLY_MESSAGES, ReplyForm } from "../../src/lib/schemas/reply.ts";

const refused = (input: Record<string, unknown>) => {
  const parsed = ReplyForm.safeParse(input);
  return parsed.success ? null : fieldErrors(parsed.error);
};

describe("ReplyForm", () => {
  it("trims, keeps line breaks, strips control and bidi characters, and defaults to a reply", () => {
    expect(ReplyForm.parse({ reviewId: "rv_1", text: "  Thanks!\r\nSee you\u202e soon\u0007  " })).toEqual({
      reviewId: "rv_1",
      intent: "reply",
      text: "Thanks!\nSee you soon",
    });
  });

  it("needs some text to reply, at most the limit, and says so", () => {
    expect(refused({ reviewId: "rv_1", text: "   " })).toEqual({ text: REPLY_MESSAGES.text });
    expect(refused({ reviewId: "rv_1" })).toEqual({ text: REPLY_MESSAGES.text });
    expect(refused({ reviewId: "rv_1", text: "x".repeat(REPLY_MAX_LENGTH + 1) })).toEqual({
      text: REPLY_MESSAGES.textLength,
    });
    expect(ReplyForm.parse({ reviewId: "rv_1", text: "x".repeat(REPLY_MAX_LENGTH) }).text).toHaveLength(
      REPLY_MAX_LENGTH,
    );
  });

  it("removing needs no text; the intent is one of the two buttons", () => {
    expect(ReplyForm.parse({ reviewId: "rv_1", intent: "remove" })).toMatchObject({ intent: "remove", text: "" });
    expect(refused({ reviewId: "rv_1", intent: "hide", text: "x" })).toHaveProperty("intent");
  });

  it("a review id the store never makes is refused with the not-yours message", () => {
    for (const reviewId of ["", "<script>", "../x", "x".repeat(101), undefined])
      expect(refused({ reviewId, text: "Hi" })?.reviewId, String(reviewId)).toBe(REPLY_MESSAGES.reviewId);
  });

  it("the stored reply has the same limit", () => {
    const at = "2026-03-01T00:00:00.000Z";
    expect(OwnerReply.safeParse({ text: "x".repeat(REPLY_MAX_LENGTH), createdAt: at }).success).toBe(true);
    expect(OwnerReply.safeParse({ text: "x".repeat(REPLY_MAX_LENGTH + 1), createdAt: at }).success).toBe(false);
    expect(OwnerReply.safeParse({ text: "", createdAt: at }).success).toBe(false);
  });
});
