/**
 * /how-reviews-work as the build prebuilds it: the limits, what Verified means (and that
 * unverified reviews count), the fixed moderation reasons (the same list as the admin's,
 * HIDE_REASONS), that a rating never decides moderation, and what owners' replies may do; it
 * is listed in the static sitemap; and how the response figures are measured (#response), in
 * the words and numbers of RESPONSE_RULES, the source the figure's own line is written from.
 * Business pages link to it (their reviews section, ReviewsPanel, and the response figure,
 * ResponseTime: tests/unit/islands).
 */
import { describe, expect, it } from "vitest";
import { HIDE_REASONS, hiddenLine } from "../../src/lib/schemas/review.ts";
import { REPLY_MAX_LENGTH } from "../../src/lib/schemas/reply.ts";
import {
  MIN_RESPONSE_OFFERS,
  MIN_RESPONSE_SAMPLES,
  RESPONSE_RULES,
  RESPONSE_RULES_ID,
  RESPONSE_RULES_PATH,
  RESPONSE_WINDOW,
} from "../../src/lib/response-time.ts";
import { SAMPLE_LISTING } from "../../src/lib/sample.ts";
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

  it("says a sample listing is a demo and its reviews are samples, never Verified", () => {
    const said = textOf(doc.querySelector("[data-sample-listings]")!);
    expect(said).toContain(`${SAMPLE_LISTING} is part of a demo`);
    expect(said).toMatch(/not a real company/);
    expect(said).toMatch(/none of them is Verified/);
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

  it("explains how response is measured, at the anchor the figure links to, in the rule's own words", () => {
    expect(RESPONSE_RULES_PATH).toBe(`/how-reviews-work#${RESPONSE_RULES_ID}`);
    const heading = doc.getElementById(RESPONSE_RULES_ID)!;
    expect(heading.tagName).toBe("H2");
    expect(textOf(heading)).toBe("How we measure response");
    const terms = [...doc.querySelectorAll("[data-response-rules] dt")].map((dt) => textOf(dt));
    const texts = [...doc.querySelectorAll("[data-response-rules] dd")].map((dd) => textOf(dd));
    expect(terms).toEqual(RESPONSE_RULES.map((r) => r.term));
    expect(texts).toEqual(RESPONSE_RULES.map((r) => r.text));
    expect(text).toContain("Responds to 90% of requests · usually within 2 hours · last 50 requests");
    expect(text).toContain(`The business's latest ${RESPONSE_WINDOW} requests whose outcome we know`);
    expect(text).toContain(`Nothing is shown until ${MIN_RESPONSE_OFFERS} requests have an outcome`);
    expect(text).toContain(`the response time needs ${MIN_RESPONSE_SAMPLES} answered ones`);
    expect(text).toContain("A request left unanswered until its deadline counts against it");
    expect(text).toContain("A request we could not deliver to the business does not count");
  });
});
