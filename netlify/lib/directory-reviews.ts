/**
 * GET and POST /api/businesses/:id/reviews: a business's reviews, and a visitor's new one.
 * Reviews are posted as JSON (the island) or as a urlencoded form (no JavaScript, answered
 * 303 to the review's page with a form flash: the form again with messages, a problem, or the
 * thanks), through the steps every endpoint takes (http.ts):
 *
 *   method (405) -> business id (404) -> content type (415) -> cross-site (403) ->
 *   per-IP limit (429) -> body size (413) -> parse (400) -> ReviewInput + businessId (400) ->
 *   per-business hourly limit (429) -> write (404 unknown business, 409 e-mail already
 *   reviewed it, 503 on failure) -> 201 + cache purge
 */
import { reviewPosted } from "./webhooks/deliver.ts";
import { z } from "../../src/lib/zod.ts";
import { BUSINESS_NOT_FOUND } from "../../src/lib/directory.ts";
import { REVIEW_TOASTS } from "../../src/lib/forms/copy.ts";
import { REVIEW_FORM_FIELDS, reviewFormPage, type ReviewFormValues } from "../../src/lib/forms/pages.ts";
import { intParam } from "../../src/lib/directory-query.ts";
import { DIRECTORY_MAX_OFFSET } from "../../src/lib/directory-url.ts";
import { VALIDATION_ERROR, fieldErrors, type FieldErrors } from "../../src/lib/schemas/forms.ts";
import { ReviewInput, toPublicReview, type PublicReview, type Review } from "../../src/lib/schemas/review.ts";
import {
  DIRECTORY_TAG,
  DIRECTORY_UNAVAILABLE,
  badQuery,
  businessRoute,
  businessTag,
  cached,
  netlifyPurge,
  notFound,
  purgeQuietly,
  type DirectoryDeps,
} from "./directory.ts";
import {
  TEXT_BODY_LIMIT,
  afterResponse,
  endpoint,
  errorName,
  jsonError,
  jsonResponse,
  storeCall,
  type Endpoint,
  type Env,
  type FunctionContext,
} from "./http.ts";
import { redirectWithFlash } from "./form-flash.ts";
import { parseQuery } from "./query.ts";
import { ReviewEmailTakenError } from "./store/errors.ts";
import { isNotFound, type Store } from "./store/index.ts";

/** Largest `limit` (and the default) for GET /api/businesses/:id/reviews. */
export const REVIEWS_MAX_LIMIT = 50;

export const REVIEW_SAVE_ERROR = "We couldn't save your review right now. Please try again.";
const REVIEW_BUSINESS_MISMATCH = "This review is for a different business";
/** 409: one review per e-mail per business (the address is compared trimmed and case-insensitive). */
export const REVIEW_EMAIL_TAKEN = "You've already reviewed this business from this e-mail address.";
/** 429: the business received REVIEW_BUSINESS_LIMIT_PER_HOUR reviews within the hour. */
export const REVIEW_BUSINESS_BUSY =
  "This business has received a lot of reviews in the last hour. Please try again later; your review is not lost if you keep this page open.";

/** The business id in /api/businesses/:id/reviews, as the review's page names it. */
function businessIdOf(req: Request): string {
  const raw = new URL(req.url).pathname.split("/")[3] ?? "";
  try {
    return decodeURIComponent(raw);
  } catch {
    return "";
  }
}

function reviewFormValues(form: URLSearchParams): ReviewFormValues {
  const values: ReviewFormValues = {};
  for (const name of REVIEW_FORM_FIELDS) {
    const value = form.get(name);
    if (value !== null) values[name] = value;
  }
  return values;
}

/**
 * Counts one review post for a business in a fixed hourly window shared by every visitor.
 * Fails open like the per-IP limiter: a store that cannot count lets the write report it.
 */
async function businessReviewRate(
  store: Store,
  businessId: string,
  perHour: number,
  now: number,
): Promise<{ ok: true } | { ok: false; retryAfterSeconds: number }> {
  if (perHour <= 0) return { ok: true };
  const hour = Math.floor(now / 3_600_000);
  try {
    if ((await store.rateLimits.reviewsThisHour(businessId, now)) <= perHour) return { ok: true };
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(((hour + 1) * 3_600_000 - now) / 1000)) };
  } catch (error) {
    console.warn(`[ratelimit] review-business: limiter unavailable, allowing request (${errorName(error)})`);
    return { ok: true };
  }
}

/** GET /api/businesses/:id/reviews paging. */
export const ReviewsQuery = z.object({
  /** Reviews per page, 1..REVIEWS_MAX_LIMIT, default REVIEWS_MAX_LIMIT. */
  limit: intParam(
    1,
    REVIEWS_MAX_LIMIT,
    REVIEWS_MAX_LIMIT,
    `Limit must be a whole number from 1 to ${REVIEWS_MAX_LIMIT}`,
  ),
  /** Reviews to skip, 0..DIRECTORY_MAX_OFFSET, default 0. */
  offset: intParam(0, DIRECTORY_MAX_OFFSET, 0, `Offset must be a whole number from 0 to ${DIRECTORY_MAX_OFFSET}`),
});

/** GET and POST /api/businesses/:id/reviews. */
export function reviewsHandler(deps: DirectoryDeps = {}): Endpoint {
  const purge = deps.purge ?? netlifyPurge;

  async function list(req: Request, store: Store, id: string): Promise<Response> {
    const query = parseQuery(ReviewsQuery, req);
    if (!query.ok) return badQuery(query.fields);
    const { limit, offset } = query.data;
    // The stored reviews' count, not reviewCount: a seeded aggregate may stand for reviews that
    // were never stored.
    try {
      const [business, reviews, total] = await storeCall(() =>
        Promise.all([store.businesses.get(id), store.reviews.list(id, { limit, offset }), store.reviews.count(id)]),
      );
      if (!business) return notFound();
      const data: PublicReview[] = reviews.map(toPublicReview);
      return cached(
        req,
        { data, total, rating: business.rating, reviewCount: business.reviewCount },
        [DIRECTORY_TAG, businessTag(id)],
        "limit|offset",
      );
    } catch (error) {
      if (isNotFound(error)) return notFound();
      throw error;
    }
  }

  async function add(
    payload: Record<string, unknown>,
    store: Store,
    env: Env,
    id: string,
    context: FunctionContext | null | undefined,
    /** A no-JS form post: answered 303 to the review's page (the form again, a problem, the thanks). */
    form: ReviewFormValues | null,
  ): Promise<Response> {
    const back = (status: number, flash: { errors?: FieldErrors; problem?: string; notice?: string }, headers = {}) =>
      redirectWithFlash(store, { path: reviewFormPage(id), status, values: form ?? {}, ...flash }, headers);
    const parsed = ReviewInput.safeParse(payload);
    const errors: FieldErrors = parsed.success ? {} : fieldErrors(parsed.error);
    // The path names the business; a body naming another one is a client mix-up, not a choice.
    const bodyId = Object.hasOwn(payload, "businessId") ? payload.businessId : undefined;
    if (bodyId !== undefined && bodyId !== null && bodyId !== "" && bodyId !== id)
      errors.businessId = REVIEW_BUSINESS_MISMATCH;
    if (!parsed.success || Object.keys(errors).length > 0)
      return form ? back(422, { errors }) : jsonError(400, VALIDATION_ERROR, { fields: errors });

    const rate = await businessReviewRate(store, id, env.REVIEW_BUSINESS_LIMIT_PER_HOUR, Date.now());
    if (!rate.ok) {
      const headers = { "retry-after": String(rate.retryAfterSeconds) };
      return form
        ? back(429, { problem: REVIEW_BUSINESS_BUSY }, headers)
        : jsonError(429, REVIEW_BUSINESS_BUSY, {}, headers);
    }

    let review: Review;
    try {
      // Only the visitor's fields go in; the repository sets id, createdAt and isVerified (false).
      review = await storeCall(() => store.reviews.add(id, parsed.data), { message: REVIEW_SAVE_ERROR });
    } catch (error) {
      if (isNotFound(error)) return form ? back(404, { problem: BUSINESS_NOT_FOUND }) : notFound();
      if (error instanceof ReviewEmailTakenError)
        return form
          ? back(409, { errors: { customerEmail: REVIEW_EMAIL_TAKEN }, problem: REVIEW_EMAIL_TAKEN })
          : jsonError(409, REVIEW_EMAIL_TAKEN, { fields: { customerEmail: REVIEW_EMAIL_TAKEN } });
      throw error;
    }
    console.info(`[review] stored ${review.id} for ${id}`);
    // The review is stored; a failed re-read only leaves the aggregate unknown (null).
    const business = await store.businesses.get(id).catch(() => null);

    // On Netlify the purge finishes after the answer; elsewhere it is awaited (and only warns).
    // With it, the business's webhooks that take "review.posted" (neither ever fails the answer).
    await afterResponse(
      context,
      Promise.all([purgeQuietly(purge, [DIRECTORY_TAG, businessTag(id)]), reviewPosted(store, id, review, { env })]),
    );

    if (form)
      return redirectWithFlash(store, {
        path: reviewFormPage(id),
        status: 200,
        notice: REVIEW_TOASTS.success.description,
      });
    return jsonResponse(
      {
        data: toPublicReview(review),
        business: { id, rating: business?.rating ?? null, reviewCount: business?.reviewCount ?? null },
      },
      201,
    );
  }

  const spec = {
    log: "[directory] reviews",
    methods: ["GET", "HEAD", "POST"],
    route: businessRoute("/api/businesses/:id/reviews", "id"),
    // JSON from the island; urlencoded from the same form without JavaScript (303 to its page).
    body: { json: TEXT_BODY_LIMIT, urlencoded: TEXT_BODY_LIMIT },
    formPage: (req: Request) => reviewFormPage(businessIdOf(req)),
    sameSiteOnly: true,
    rateLimit: { name: "review", perMinute: (env: Env) => env.RATE_LIMIT_PER_MINUTE },
    unavailable: DIRECTORY_UNAVAILABLE,
  } as const;
  // A form post is answered with pages unless it asks for JSON (a script posting the form).
  return endpoint(spec, deps, async ({ req, store, env, params, body, context, html }) =>
    !body
      ? list(req, store, params.id)
      : body.kind === "json"
        ? add(body.value, store, env, params.id, context, null)
        : add(
            { ...reviewFormValues(body.value) },
            store,
            env,
            params.id,
            context,
            html ? reviewFormValues(body.value) : null,
          ),
  );
}
