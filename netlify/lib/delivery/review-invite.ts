/**
 * GET/POST /review/:token: the visitor's invitation to review a pro that accepted their job
 * (sent a few days after the acceptance, compose.ts). The only way to a "Verified" review:
 * the link is signed for this lead and this business, works only for an accepted offer, and
 * makes one review per lead and business (a fixed id, so a second post changes nothing).
 * Works without JavaScript, stars included (radios).
 */
import { fieldErrors } from "../../../src/lib/schemas/forms.ts";
import { ReviewInput } from "../../../src/lib/schemas/review.ts";
import { escapeHtml } from "../../../src/lib/forms/markup.ts";
import { summarizeLead } from "../../../src/lib/lead-summary.ts";
import { SITE } from "../../../src/lib/site.ts";
import { REVIEW_EMAIL_TAKEN } from "../directory-reviews.ts";
import { businessTag, DIRECTORY_TAG, netlifyPurge, purgeQuietly, type Purge } from "../directory.ts";
import { ReviewEmailTakenError } from "../store/errors.ts";
import { KB, endpoint, htmlResponse, storeCall, type Endpoint, type EndpointDeps } from "../http.ts";
import { problemPage, renderPage } from "../pages.ts";
import { PRIVATE_PAGE_HEADERS, linkProblemPage } from "./pages.ts";
import { signerFor } from "./signing.ts";

export const REVIEW_ROUTE = "/review/:token";
const TOKEN = /^[A-Za-z0-9._-]{20,200}$/;

/** The stored review's id: one per lead and business. */
export const invitedReviewId = (leadId: string, businessId: string) => `inv-${leadId}-${businessId}`.slice(0, 100);

const STYLE = `<style>
.review-form{display:grid;gap:1rem}.review-form label{font-weight:600;font-size:.9rem;display:grid;gap:.25rem}
.review-form input[type=text],.review-form textarea{font:inherit;min-height:2.75rem;border:1px solid #cbd5e1;border-radius:.5rem;padding:.5rem .75rem;width:100%}
.stars{border:0;padding:0;margin:0;display:flex;flex-direction:row-reverse;justify-content:flex-end;gap:.25rem}
.stars legend{font-weight:600;font-size:.9rem;margin-bottom:.25rem;width:100%}
.stars input{position:absolute;opacity:0;width:1px;height:1px}
.stars label{font-size:2rem;line-height:1;color:#cbd5e1;cursor:pointer;padding:.1rem}
.stars input:checked~label,.stars label:hover,.stars label:hover~label{color:#d97706}
.stars input:focus-visible+label{outline:2px solid #d95a06;outline-offset:2px}
.err{color:#b91c1c;font-weight:600}.ok-box{border:1px solid #86efac;background:#f0fdf4;border-radius:.75rem;padding:1rem}
</style>`;

function formPage(o: {
  business: string;
  slug: string;
  path: string;
  name: string;
  values?: Record<string, string>;
  error?: string;
}) {
  const v = o.values ?? {};
  const rating = Number(v.rating ?? 5);
  // Reverse order plus a row-reverse flex: checked and hovered stars light up to their left.
  const stars = [5, 4, 3, 2, 1]
    .map(
      (n) =>
        `<input type="radio" id="star-${n}" name="rating" value="${n}"${n === rating ? " checked" : ""}><label for="star-${n}" title="${n} star${n === 1 ? "" : "s"}">&#9733;<span class="sr-only">${n} star${n === 1 ? "" : "s"}</span></label>`,
    )
    .join("");
  const body =
    STYLE +
    `<h1>How did ${escapeHtml(o.business)} do?</h1>` +
    `<p class="lead">Your review shows as <strong>Verified</strong> on their page: it comes from a job booked through ${escapeHtml(SITE.name)}. <a href="/how-reviews-work">How reviews work</a></p>` +
    (o.error ? `<p class="err" role="alert">${escapeHtml(o.error)}</p>` : "") +
    `<form class="review-form" method="post" action="${escapeHtml(o.path)}">` +
    `<fieldset class="stars"><legend>Your rating</legend>${stars}</fieldset>` +
    `<label>Your name (shown)<input type="text" name="customerName" maxlength="100" required value="${escapeHtml(v.customerName ?? o.name)}"></label>` +
    `<label>Headline (optional)<input type="text" name="title" maxlength="200" value="${escapeHtml(v.title ?? "")}"></label>` +
    `<label>Your review (optional)<textarea name="reviewText" rows="5" maxlength="5000">${escapeHtml(v.reviewText ?? "")}</textarea></label>` +
    `<button type="submit" class="btn-primary">Post my review</button></form>` +
    `<p><a href="/directory/${encodeURIComponent(o.slug)}">${escapeHtml(o.business)}'s page</a></p>`;
  return renderPage({ title: `Review ${o.business}`, body });
}

export interface ReviewInviteDeps extends EndpointDeps {
  purge?: Purge;
}

export function reviewInviteHandler(deps: ReviewInviteDeps = {}): Endpoint {
  const purge = deps.purge ?? netlifyPurge;
  return endpoint(
    {
      log: "[delivery] review",
      methods: ["GET", "HEAD", "POST"],
      route: { path: REVIEW_ROUTE, valid: (v) => TOKEN.test(v), notFound: "This link isn't valid." },
      body: { urlencoded: 8 * KB },
      sameSiteOnly: true,
      rateLimit: { name: "review-invite", perMinute: () => 20 },
      page: (status, message) =>
        status === 404 ? linkProblemPage("invalid") : problemPage("Something went wrong", message),
      pagesOnly: true,
    },
    deps,
    async ({ store, env, now, params, body }) => {
      const page = (html: string, status = 200) => htmlResponse(html, status, PRIVATE_PAGE_HEADERS);
      const signer = await storeCall(() => signerFor(store, env), { step: "link key" });
      const grant = signer.readReview(params.token, now());
      if (!grant.ok) return page(linkProblemPage(grant.reason), grant.reason === "expired" ? 410 : 404);
      const lead = await storeCall(() => store.leads.get(grant.leadId), { step: "read" });
      const delivery = lead?.routing?.deliveries.find((d) => d.businessId === grant.businessId);
      // Only a job the business accepted can be reviewed through the site.
      if (!lead || delivery?.state !== "accepted") return page(linkProblemPage("gone"), 404);
      const id = invitedReviewId(lead.id, delivery.businessId);
      const path = `/review/${params.token}`;
      const existing = await storeCall(() => store.reviews.get(id), { step: "read" });
      const done = (html: string) =>
        page(
          renderPage({
            title: "Thank you",
            body: `${STYLE}<h1>Thank you</h1><p class="ok-box" role="status">${html}</p><p><a href="/directory/${encodeURIComponent(delivery.slug)}">See ${escapeHtml(delivery.name)}'s page</a></p>`,
          }),
        );
      if (existing) return done(`Your verified review of ${escapeHtml(delivery.name)} is on their page.`);
      const s = summarizeLead(lead);
      if (!body) return page(formPage({ business: delivery.name, slug: delivery.slug, path, name: s.name }));

      const values = Object.fromEntries([...body.value].filter((e): e is [string, string] => typeof e[1] === "string"));
      const parsed = ReviewInput.safeParse({ ...values, customerEmail: s.email ?? "" });
      if (!parsed.success) {
        const error = Object.values(fieldErrors(parsed.error))[0];
        return page(formPage({ business: delivery.name, slug: delivery.slug, path, name: s.name, values, error }), 400);
      }
      try {
        await storeCall(
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
        if (error instanceof ReviewEmailTakenError) {
          return page(problemPage("You've already reviewed this business", REVIEW_EMAIL_TAKEN), 409);
        }
        throw error;
      }
      await purgeQuietly(purge, [DIRECTORY_TAG, businessTag(delivery.businessId)]);
      console.info(`[delivery] ${lead.id} ${delivery.businessId}: verified review stored`);
      return done(`Thanks for your review of ${escapeHtml(delivery.name)}. It is on their page now, marked Verified.`);
    },
  );
}
