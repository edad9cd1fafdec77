/**
 * /how-reviews-work as the build prebuilds it: the limits, what Verified means (and that
 * unverified reviews count), the fixed moderation reasons (the same list as the admin's,
 * HIDE_REASONS), that a rating never decides moderation, and what owners' replies may do; it
 * is listed in the static sitemap. Business pages link to it (their
 * reviews section, ReviewsPanel: tests/unit/islands).
 */
import { describe, expect, it } from "vitest";
import { HIDE_REASONS, hiddenLine } from "../../src/lib/schemas/review.ts";
import { REPLY_MAX_LENGTH } from "../../src/lib/schemas/reply.ts";
import { builtPage, textOf } from "../helpers/dist.ts";

describe("/how-reviews-work", () => {
  const doc = builtPage("/how-reviews-work").document;
  const text = textOf(doc.body);

  it("says who may review, the limits and what Verified means", () => {
    expect(textOf(doc.querySelector("h1")!)).toBe("How reviews work");
    expect(text).toContain("One review per e-mail address per business");
    expect(text).toMatch(/reviews one business can receive in an hour/);
    expect(text).toMatch(/Verified when it came through an invitation .* after a job booked on Treeline was accepted/);
    expect(text).toContain("a booking request or a find-pros request");
    expect(text).toContain("Nobody can mark a review Verified any other way");
    expect(text).toMatch(/an unverified review counts in the business's rating exactly like a verified one/);
    expect(text).toMatch(/A few reviews per minute from one connection/);
  });

  it("says what an owner's reply is and what owners cannot do", () => {
    const rules = [...doc.querySelectorAll("[data-owner-replies] li")].map((li) => textOf(li));
    expect(rules[0]).toMatch(/reply once, publicly, to each review/);
    expect(rules[0]).toContain(`up to ${REPLY_MAX_LENGTH} characters`);
    expect(rules[1]).toMatch(/an edited reply is marked \W?\(edited\)/);
    expect(rules[2]).toMatch(/cannot hide, change or remove a review, and cannot change its rating/);
    expect(rules[3]).toBe("A hidden review takes no reply.");
  });

  it("lists every moderation reason, says ratings never decide and shows the placeholder", () => {
    const reasons = [...doc.querySelectorAll("[data-hide-reasons] li")].map((li) => textOf(li));
    expect(reasons).toEqual(Object.values(HIDE_REASONS));
    expect(text).toContain("never hide or remove a review because of its rating");
    expect(text).toContain("16 CFR Part 465");
    expect(text).toContain(hiddenLine("not-about-this-business"));
  });
});
