/**
 * POST /review/:token: the visitor's review of a pro that accepted their job, from the
 * invitation page (src/pages/review/[token].astro; the invitation is sent once the job should
 * be done, review-time.ts). The only way to a "Verified" review: the link is signed for this
 * lead and this business, works only for a job the business still holds and only once its
 * time has come (its day over, or the homeowner marked it done), and makes one review per
 * lead and business (a fixed id, so a second post changes nothing). The post always goes
 * back to the page (303), with the result or the form's values and messages.
 */
import { fieldErrors } from "../../../src/lib/schemas/forms.ts";
import { ReviewInput, type Review } from "../../../src/lib/schemas/review.ts";
import { summarizeLead } from "../../../src/lib/lead-summary.ts";
import { REVIEW_EMAIL_TAKEN } from "../directory-reviews.ts";
import { businessTag, DIRECTORY_TAG, netlifyPurge, purgeQuietly, type Purge } from "../directory.ts";
import { redirectWithFlash } from "../form-flash.ts";
import { REVIEW_NOTICES, reviewFrom } from "../messages/review.ts";
import { ReviewEmailTakenError } from "../store/errors.ts";
import { HttpError, KB, afterResponse, endpoint, storeCall, type Endpoint, type EndpointDeps } from "../http.ts";
import { reviewPosted } from "../webhooks/deliver.ts";
import { DEFAULT_TIME_ZONE } from "../../../src/lib/hours.ts";
import { reviewTime } from "./review-time.ts";
import { signerFor } from "./signing.ts";

export const REVIEW_ROUTE = "/review/:token";
const TOKEN = /^[A-Za-z0-9._-]{20,200}$/;
const LINK_INVALID = "This link isn't valid.";

/** The stored review's id: one per lead and business. */
export const invitedReviewId = (leadId: string, businessId: string) => `inv-${leadId}-${businessId}`.slice(0, 100);

export interface ReviewInviteDeps extends EndpointDeps {
  purge?: Purge;
}

export function reviewInviteHandler(deps: ReviewInviteDeps = {}): Endpoint {
  const purge = deps.purge ?? netlifyPurge;
  return endpoint(
    {
      log: "[delivery] review",
      methods: ["POST"],
      route: { path: REVIEW_ROUTE, valid: (v) => TOKEN.test(v), notFound: LINK_INVALID },
      body: { urlencoded: 8 * KB },
      sameSiteOnly: true,
      rateLimit: { name: "review-invite", perMinute: () => 20 },
      formPage: (req) => new URL(req.url).pathname,
      pagesOnly: true,
    },
    deps,
    async ({ store, env, now, params, body, context }) => {
      const path = `/review/${params.token}`;
      const signer = await storeCall(() => signerFor(store, env), { step: "link key" });
      const grant = signer.readReview(params.token, now());
      if (!grant.ok) throw new HttpError(grant.reason === "expired" ? 410 : 404, LINK_INVALID);
      const lead = await storeCall(() => store.leads.get(grant.leadId), { step: "read" });
      const delivery = lead?.routing?.deliveries.find((d) => d.businessId === grant.businessId);
      // Only a job the business accepted can be reviewed through the site.
      if (!lead || delivery?.state !== "accepted") throw new HttpError(404, LINK_INVALID);
      const id = invitedReviewId(lead.id, delivery.businessId);
      const done = (notice: string) => redirectWithFlash(store, { path, status: 200, notice });
      if (await storeCall(() => store.reviews.get(id), { step: "read" }))
        return done(REVIEW_NOTICES.already(delivery.name));
      // Verified means the job was done: not before its day is over or the homeowner says so.
      const due = reviewTime(lead, delivery);
      if (!due || due.at > now()) {
        const when = reviewFrom(due ?? { at: now(), basis: "done" }, lead.timeZone ?? DEFAULT_TIME_ZONE);
        return redirectWithFlash(store, { path, status: 409, problem: REVIEW_NOTICES.early(delivery.name, when) });
      }

      // The only body kind is a form post; the customer's e-mail comes from the request itself.
      const values = Object.fromEntries(
        [...body!.value].filter((e): e is [string, string] => typeof e[1] === "string"),
      );
      const parsed = ReviewInput.safeParse({ ...values, customerEmail: summarizeLead(lead).email ?? "" });
      if (!parsed.success) {
        const errors = fieldErrors(parsed.error);
        return redirectWithFlash(store, { path, status: 422, values, errors, problem: Object.values(errors)[0] });
      }
      let review: Review;
      try {
        review = await storeCall(
          () =>
            store.reviews.add(delivery.businessId, parsed.data, {
              id,
              isVerified: true,
              createdAt: new Date(now()).toISOString(),
            }),
          { step: "review" },
        );
      } catch (error) {
        // They reviewed this business from the same address before (one review per e-mail).
        if (error instanceof ReviewEmailTakenError) throw new HttpError(409, REVIEW_EMAIL_TAKEN);
        throw error;
      }
      await purgeQuietly(purge, [DIRECTORY_TAG, businessTag(delivery.businessId)]);
      console.info(`[delivery] ${lead.id} ${delivery.businessId}: verified review stored`);
      // The business's webhooks that take "review.posted" (never holds up or fails the answer).
      await afterResponse(context, reviewPosted(store, delivery.businessId, review, { env, now }));
      return done(REVIEW_NOTICES.stored(delivery.name));
    },
  );
}
