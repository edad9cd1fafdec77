/** The review invitation (/review/{token}): a customer's verified review of the business that took their job. */
import { summarizeLead } from "../../../src/lib/lead-summary.ts";
import { REVIEW_NOTICES, VERIFIED_BECAUSE, reviewQuestion } from "../messages/review.ts";
import { invitedReviewId } from "../delivery/review-invite.ts";
import { signerFor } from "../delivery/signing.ts";
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
}

/** The review invitation for /review/{token}: only for a job the business accepted. */
export function loadReviewInvite(
  token: string,
  now = Date.now(),
  store: () => Store = getStore,
): Promise<Loaded<ReviewInvitePage>> {
  return loading("review invite", async () => {
    if (!LINK_TOKEN.test(token)) return { ok: false, problem: "invalid" };
    const s = store();
    const grant = (await signerFor(s)).readReview(token, now);
    if (!grant.ok) return { ok: false, problem: grant.reason };
    const lead = await s.leads.get(grant.leadId);
    const delivery = lead?.routing?.deliveries.find((d) => d.businessId === grant.businessId);
    if (!lead || delivery?.state !== "accepted") return { ok: false, problem: "gone" };
    const reviewed = (await s.reviews.get(invitedReviewId(lead.id, delivery.businessId))) !== null;
    return {
      ok: true,
      page: {
        business: { name: delivery.name, slug: delivery.slug },
        path: `/review/${token}`,
        name: summarizeLead(lead).name,
        reviewed,
      },
    };
  });
}
