/**
 * /owner/reviews: the signed-in owner's reviews, newest first, each with its public reply
 * form (one reply per review; a later post edits it and the public page marks it "edited").
 * The page (src/pages/owner/reviews.astro) works without JavaScript: every form posts back to
 * it, and the post answers 303 to the same page of the list, with a notice after a success or
 * the text sent and its message after a refusal. Owners cannot hide or change a review or its
 * rating; a hidden review shows its public reason and takes no reply.
 */
import { formatReviewDate } from "../../../src/lib/directory.ts";
import type { Business } from "../../../src/lib/schemas/business.ts";
import { hiddenLine, type Review } from "../../../src/lib/schemas/review.ts";
import { fieldErrors, type FieldErrors } from "../../../src/lib/schemas/forms.ts";
import type { ReviewItemView, ReviewsView } from "../../../src/lib/owner-views.ts";
import { REPLY_MESSAGES, ReplyForm } from "../../../src/lib/schemas/reply.ts";
import { DIRECTORY_TAG, businessTag, netlifyPurge, purgeQuietly, type Purge } from "../directory.ts";
import { KB, storeCall, type Endpoint, type EndpointDeps } from "../http.ts";
import { NotFoundError, ReviewHiddenError } from "../store/errors.ts";
import type { Store } from "../store/index.ts";
import { INVALID_STATUS, backToPage, ownerEndpoint, seeOwnerPage, type FlashValues } from "./page.ts";

export const OWNER_REVIEWS_PATH = "/owner/reviews";
/** Reviews per page of the owner's list. */
export const OWNER_REVIEWS_PAGE_SIZE = 20;
/** The deepest page the list goes to (the store's offsets stay small). */
const MAX_PAGE = 500;

export interface OwnerReviewsDeps extends EndpointDeps {
  purge?: Purge;
}

/** The page number in `?page=` (1 when absent or not a page). */
function pageOf(url: URL): number {
  const raw = url.searchParams.get("page") ?? "";
  const n = /^\d{1,4}$/.test(raw) ? Number(raw) : 1;
  return Math.min(MAX_PAGE, Math.max(1, n));
}

const pagePath = (page: number) => (page > 1 ? `${OWNER_REVIEWS_PATH}?page=${page}` : OWNER_REVIEWS_PATH);

/** What a form shows again after a refused post: its text and the message under it. */
interface Retry {
  reviewId: string;
  text: string;
  error?: string;
}

/** The reply textarea's id (the problem line links to it). */
const replyFieldId = (reviewId: string) => `reply-${reviewId}`;

const when = (iso: string) => ({ iso, text: formatReviewDate(iso) });

function reviewItem(review: Review, page: number, retry: Retry | undefined): ReviewItemView {
  const base = { id: review.id, date: when(review.createdAt), rating: review.rating, name: review.customerName };
  const form = { action: pagePath(page), value: retry ? retry.text : (review.reply?.text ?? "") };
  // A hidden review is what the public sees in its place: the owner gets no more of it (it
  // may have been hidden for personal information), and it takes no reply.
  if (review.hidden) return { ...base, name: "", verified: false, hiddenLine: hiddenLine(review.hiddenReason), form };
  return {
    ...base,
    verified: review.isVerified === true,
    ...(review.title ? { title: review.title } : {}),
    ...(review.reviewText ? { text: review.reviewText } : {}),
    ...(review.reply
      ? {
          reply: {
            posted: when(review.reply.createdAt),
            ...(review.reply.editedAt ? { edited: when(review.reply.editedAt) } : {}),
          },
        }
      : {}),
    form: { ...form, ...(retry?.error ? { error: retry.error } : {}) },
  };
}

/** A flash's retry: the review it was for, the text sent and the message (after a refused post). */
function retryOf(flash: { values: FlashValues; errors: FieldErrors } | null): Retry | undefined {
  const reviewId = flash?.values.reviewId;
  const text = flash?.values.text;
  if (typeof reviewId !== "string") return undefined;
  return {
    reviewId,
    text: typeof text === "string" ? text : "",
    ...(flash?.errors.text ? { error: flash.errors.text } : {}),
  };
}

/** One page of the business's reviews, each with its reply form, and the link the problem line leads to. */
export async function reviewsView(
  store: Store,
  business: Business,
  url: URL,
  flash: { values: FlashValues; errors: FieldErrors } | null,
): Promise<{ view: ReviewsView; problemHref?: string }> {
  const page = pageOf(url);
  const rows = await storeCall(
    () =>
      store.reviews.list(business.id, {
        limit: OWNER_REVIEWS_PAGE_SIZE + 1,
        offset: (page - 1) * OWNER_REVIEWS_PAGE_SIZE,
      }),
    { step: "read" },
  );
  const retry = retryOf(flash);
  const shown = rows.slice(0, OWNER_REVIEWS_PAGE_SIZE);
  const newer = page > 1 ? { href: pagePath(page - 1), text: "Newer reviews" } : undefined;
  const older = rows.length > OWNER_REVIEWS_PAGE_SIZE ? { href: pagePath(page + 1), text: "Older reviews" } : undefined;
  return {
    view: {
      label: `Reviews of ${business.name}, newest first`,
      items: shown.map((r) => reviewItem(r, page, retry?.reviewId === r.id ? retry : undefined)),
      empty: page > 1 ? "No more reviews." : "No reviews yet. When a customer reviews your business, it shows here.",
      ...(newer || older ? { pager: { label: "More reviews", newer, older } } : {}),
    },
    ...(retry?.error && shown.some((r) => r.id === retry.reviewId)
      ? { problemHref: `#${replyFieldId(retry.reviewId)}` }
      : {}),
  };
}

export function ownerReviewsHandler(deps: OwnerReviewsDeps = {}): Endpoint {
  const purge = deps.purge ?? netlifyPurge;
  return ownerEndpoint(
    {
      log: "[owner] reviews",
      body: { urlencoded: 16 * KB },
      rateLimit: { name: "owner-reviews", perMinute: () => 30 },
    },
    deps,
    async (call, { business }) => {
      const { req, store, now } = call;
      // Back to the page of the list the form was on.
      const at = pagePath(pageOf(new URL(req.url)));
      const form = call.body!.value;
      const posted = Object.fromEntries([...form].filter((e): e is [string, string] => typeof e[1] === "string"));
      const values = { reviewId: posted.reviewId ?? "", text: posted.text ?? "" };
      const refused = (status: number, problem: string, errors: FieldErrors = {}) =>
        backToPage(store, { path: OWNER_REVIEWS_PATH, status, values, errors, problem }, {}, at);
      const parsed = ReplyForm.safeParse(posted);
      if (!parsed.success) {
        const fields = fieldErrors(parsed.error);
        if (fields.reviewId) return refused(404, REPLY_MESSAGES.reviewId);
        const error = fields.text ?? Object.values(fields)[0] ?? REPLY_MESSAGES.text;
        return refused(INVALID_STATUS, `Your reply was not posted. ${error}`, { text: error });
      }
      const { reviewId, intent, text } = parsed.data;
      let notice: string;
      try {
        if (intent === "remove") {
          await storeCall(() => store.reviews.removeReply(business.id, reviewId), { step: "reply" });
          notice = REPLY_MESSAGES.removed;
        } else {
          const saved = await storeCall(() => store.reviews.reply(business.id, reviewId, text, now()), {
            step: "reply",
          });
          notice = saved.reply?.editedAt ? REPLY_MESSAGES.saved : REPLY_MESSAGES.posted;
        }
      } catch (error) {
        if (error instanceof NotFoundError) return refused(404, REPLY_MESSAGES.reviewId);
        if (error instanceof ReviewHiddenError) return refused(409, REPLY_MESSAGES.hidden);
        throw error;
      }
      // The business page and the lists are cached by tag: the reply is public on the next request.
      await purgeQuietly(purge, [DIRECTORY_TAG, businessTag(business.id)]);
      console.info(`[owner] reviews ${business.id}: reply to ${reviewId} ${intent === "remove" ? "removed" : "saved"}`);
      return seeOwnerPage(store, OWNER_REVIEWS_PATH, notice, at);
    },
  );
}
