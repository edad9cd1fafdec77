/** The review invitation (/review/{token}): a customer's verified review of the business that took their job. */
import { summarizeLead } from "../../../src/lib/lead-summary.ts";
import { REVIEW_NOTICES, VERIFIED_BECAUSE, reviewFrom, reviewQuestion } from "../messages/review.ts";
import { invitedReviewId } from "../delivery/review-invite.ts";
import { reviewTime } from "../delivery/review-time.ts";
import { signerFor } from "../delivery/signing.ts";
import { DEFAULT_TIME_ZONE } from "../../../src/lib/hours.ts";
import { getStore, type Store } from "../store/index.ts";
import { LINK_TOKEN, loading, type Loaded } from "./delivery-link.ts";

export { REVIEW_NOTICES, VERIFIED_BECAUSE, reviewQuestion };

export interface ReviewInvitePage {
  business: { name: string; slug: string };
  /** The page's own path: its form posts there. */
  path: string;
  /** The name the form starts with (the customer's, from the request). */
  name: string;
  /** Their verified review of this business is stored already. */
  reviewed: boolean;
  /**
   * The job's time has not come (its day is not over, and the homeowner has not marked it
   * done): no review yet, and why, with the request page where it can be marked done.
   */
  early?: { text: string; statusPath: string };
}

/** The review invitation for /review/{token}: only for a job the business holds, its form once the job is done. */
export function loadReviewInvite(
  token: string,
  now = Date.now(),
  store: () => Store = getStore,
): Promise<Loaded<ReviewInvitePage>> {
  return loading("review invite", async () => {
    if (!LINK_TOKEN.test(token)) return { ok: false, problem: "invalid" };
    const s = store();
    const signer = await signerFor(s);
    const grant = signer.readReview(token, now);
    if (!grant.ok) return { ok: false, problem: grant.reason };
    const lead = await s.leads.get(grant.leadId);
    const delivery = lead?.routing?.deliveries.find((d) => d.businessId === grant.businessId);
    if (!lead || delivery?.state !== "accepted") return { ok: false, problem: "gone" };
    const reviewed = (await s.reviews.get(invitedReviewId(lead.id, delivery.businessId))) !== null;
    const due = reviewTime(lead, delivery);
    const early =
      !reviewed && due && due.at > now
        ? {
            text: REVIEW_NOTICES.early(delivery.name, reviewFrom(due, lead.timeZone ?? DEFAULT_TIME_ZONE)),
            statusPath: signer.statusPath(lead.id),
          }
        : undefined;
    return {
      ok: true,
      page: {
        business: { name: delivery.name, slug: delivery.slug },
        path: `/review/${token}`,
        name: summarizeLead(lead).name,
        reviewed,
        ...(early ? { early } : {}),
      },
    };
  });
}
