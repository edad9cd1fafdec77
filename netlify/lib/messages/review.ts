/**
 * Review invitations: once the job a pro accepted should be done (its day is over, or the
 * homeowner said so; delivery/review-time.ts), the visitor is asked how it went. The
 * invitation's page asks the same question, so its title, its promise and what it says
 * before the job's time live here too.
 */
import { SITE } from "../../../src/lib/site.ts";
import type { Delivery } from "../../../src/lib/schemas/lead.ts";
import { button, oneLine, para, shell, type LeadFacts, type Written } from "./parts.ts";
import { dayTime } from "./time.ts";

/** The invitation's question, its e-mail's heading and its page's title. */
export const reviewQuestion = (businessName: string) => `How did ${businessName} do?`;

/** Why the review counts for more than one left on the business's page. */
export const VERIFIED_BECAUSE = `Your review shows as Verified on their page, because it comes from a job booked through ${SITE.name}.`;

/** To the visitor once the job should be done: the only way to a verified review. */
export function reviewInvite({ lead, summary }: LeadFacts, delivery: Delivery, reviewUrl: string): Written {
  const hi = `Hi ${summary.name},`;
  const line = `${delivery.name} took on your request ${lead.reference ?? ""}. How did the job go? ${VERIFIED_BECAUSE}`;
  return {
    subject: oneLine(`${reviewQuestion(delivery.name)} (${lead.reference})`),
    text: [hi, "", line, "", `Write your review: ${reviewUrl}`].join("\n"),
    html: shell(reviewQuestion(delivery.name), para(hi) + para(line) + button(reviewUrl, "Write your review")),
  };
}

/** What the invitation's page says once the review is posted, or was already, or too soon. */
export const REVIEW_NOTICES = {
  stored: (business: string) => `Thanks for your review of ${business}. It is on their page now, marked Verified.`,
  already: (business: string) => `Your verified review of ${business} is on their page.`,
  early: (business: string, when: string) =>
    `You can review ${business} once the job is done: ${when}, or as soon as you mark it done on your request page.`,
} as const;

/**
 * When a review can be written, as the invitation's page says it: "after Tue, Dec 8" when it
 * waits for the job's day to be over, else "from Thu, Dec 3, 10:00 AM CST".
 */
export function reviewFrom(time: { at: number; basis: string }, timeZone: string): string {
  if (time.basis === "booked" || time.basis === "window") {
    const day = new Intl.DateTimeFormat("en-US", { timeZone, weekday: "short", month: "short", day: "numeric" });
    return `after ${day.format(new Date(time.at - 1))}`;
  }
  return `from ${dayTime(new Date(time.at).toISOString(), timeZone)}`;
}
