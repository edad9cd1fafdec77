/**
 * Review invitations: once the job a pro accepted should be done (its day is over, or the
 * homeowner said so; delivery/review-time.ts), the visitor is asked how it went. The
 * invitation's page asks the same question, so its title, its promise and what it says
 * before the job's time live here too.
 */
import { SITE } from "../../../src/lib/site.ts";
import type { Delivery } from "../../../src/lib/schemas/lead.ts";
import { button, oneLine, para, shell, type LeadFacts, type Written } from "./parts.ts";

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
    `You can review ${business} once the job is done: from ${when}, or as soon as you mark it done on your request page.`,
} as const;
