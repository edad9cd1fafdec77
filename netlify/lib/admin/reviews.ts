/** The operator's reviews: every review with its business, and hiding or showing one. */
import { AdminReviewsQuery, ReviewPatch, isReviewId, type AdminReview } from "../../../src/lib/admin.ts";
import { DIRECTORY_TAG, businessTag, netlifyPurge, purgeQuietly } from "../directory.ts";
import { afterResponse, endpoint, jsonError, jsonResponse, storeCall } from "../http.ts";
import type { Store } from "../store/index.ts";
import { adminSpec, readPatch, readQuery, type AdminDeps, type AdminHandler } from "./endpoint.ts";

export const REVIEW_NOT_FOUND = "Review not found";

/** The reviews with their business's name and slug (one pipeline for the page's businesses). */
async function withBusinesses(
  store: Store,
  reviews: readonly (AdminReview | Omit<AdminReview, "businessName" | "businessSlug">)[],
): Promise<AdminReview[]> {
  const ids = [...new Set(reviews.map((r) => r.businessId))];
  const byId = new Map((await store.businesses.getMany(ids)).map((b) => [b.id, b]));
  return reviews.map((r) => {
    const b = byId.get(r.businessId);
    return b
      ? { ...r, businessName: b.name, businessSlug: b.slug, ...(b.isSample ? { businessSample: true } : {}) }
      : { ...r };
  });
}

/** GET /api/admin/reviews?cursor=&limit= -> { data (hidden ones too), nextCursor }. */
export function adminReviewsHandler(deps: AdminDeps = {}): AdminHandler {
  return endpoint(adminSpec("reviews", ["GET"]), deps, async ({ req, store }) => {
    const { cursor, limit } = readQuery(AdminReviewsQuery, req);
    const page = await storeCall(() => store.reviews.listAll({ cursor, limit }));
    return jsonResponse({
      data: await storeCall(() => withBusinesses(store, page.items)),
      nextCursor: page.nextCursor,
    });
  });
}

/** PATCH /api/admin/reviews/:id { hidden, hiddenReason? } -> { data, business: { id, rating, reviewCount } }. */
export function adminReviewHandler(deps: AdminDeps = {}): AdminHandler {
  const purge = deps.purge ?? netlifyPurge;
  const spec = {
    ...adminSpec("review", ["PATCH"]),
    route: { path: "/api/admin/reviews/:id" as const, valid: isReviewId, notFound: REVIEW_NOT_FOUND },
  };
  return endpoint(spec, deps, async ({ store, params: { id }, body, context }) => {
    const patch = readPatch(ReviewPatch, body);
    const review = await storeCall(() => store.reviews.moderate(id, patch));
    if (!review) return jsonError(404, REVIEW_NOT_FOUND);
    console.info(`[admin] review ${id} of ${review.businessId}: hidden=${review.hidden === true}`);
    const business = await store.businesses.get(review.businessId).catch(() => null);
    // The public lists and the profile's rating are cached by tag: drop them now.
    await afterResponse(context, purgeQuietly(purge, [DIRECTORY_TAG, businessTag(review.businessId)]));
    const data: AdminReview = business
      ? {
          ...review,
          businessName: business.name,
          businessSlug: business.slug,
          ...(business.isSample ? { businessSample: true } : {}),
        }
      : review;
    return jsonResponse({
      data,
      business: { id: review.businessId, rating: business?.rating ?? null, reviewCount: business?.reviewCount ?? null },
    });
  });
}
