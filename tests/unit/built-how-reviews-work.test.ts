/**
 * /how-reviews-work as the build prebuilds it: the limits, what Verified means, the fixed
 * moderation reasons (the same list as the admin's, HIDE_REASONS) and that a rating never
 * decides moderation; it is listed in the static sitemap. Business pages link to it (their
 * reviews section, ReviewsPanel: tests/unit/islands).
 */
import { describe, expect, it } from "vitest";
import { HIDE_REASONS, hiddenLine } from "../../src/lib/schemas/business.ts";
import { builtPage, textOf } from "../helpers/dist.ts";

describe("/how-reviews-work", () => {
  const doc = builtPage("/how-reviews-work").document;
  const text = textOf(doc.body);

  it("says who may review, the limits and what Verified means", () => {
    expect(textOf(doc.querySelector("h1")!)).toBe("How reviews work");
    expect(text).toContain("One review per e-mail address per business");
    expect(text).toMatch(/reviews one business can receive in an hour/);
    expect(text).toMatch(/Verified when it came through an invitation .* after a job booked on Treeline was accepted/);
  });

  it("lists every moderation reason, says ratings never decide and shows the placeholder", () => {
    const reasons = [...doc.querySelectorAll("[data-hide-reasons] li")].map((li) => textOf(li));
    expect(reasons).toEqual(Object.values(HIDE_REASONS));
    expect(text).toContain("never hide or remove a review because of its rating");
    expect(text).toContain("16 CFR Part 465");
    expect(text).toContain(hiddenLine("not-about-this-business"));
    expect(text).toMatch(/reply once, publicly/);
  });
});
