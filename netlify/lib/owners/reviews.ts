/**
 * GET/POST /owner/reviews: the signed-in owner's reviews, newest first, each with its public
 * reply form (one reply per review; a later post edits it and the public page marks it
 * "edited"). A plain HTML page that works without JavaScript: every form posts back here and
 * a success answers 303 to the page with a notice. Owners cannot hide or change a review or
 * its rating; a hidden review shows its public reason and takes no reply.
 */
import { escapeHtml } from "../../../src/lib/forms/markup.ts";
import { formatReviewDate } from "../../../src/lib/directory.ts";
import type { Business } from "../../../src/lib/schemas/business.ts";
import { hiddenLine, type Review } from "../../../src/lib/schemas/review.ts";
import { fieldErrors } from "../../../src/lib/schemas/forms.ts";
import { REPLY_MAX_LENGTH, REPLY_MESSAGES, ReplyForm } from "../../../src/lib/schemas/reply.ts";
import { DIRECTORY_TAG, businessTag, netlifyPurge, purgeQuietly, type Purge } from "../directory.ts";
import { KB, storeCall, type Endpoint, type EndpointDeps } from "../http.ts";
import { NotFoundError, ReviewHiddenError } from "../store/errors.ts";
import type { Store } from "../store/index.ts";
import { OWNER_PAGE_HEADERS, ownerEndpoint, ownerHtml, ownerPage } from "./page.ts";

export const OWNER_REVIEWS_PATH = "/owner/reviews";
/** Reviews per page of the owner's list. */
export const OWNER_REVIEWS_PAGE_SIZE = 20;
/** The deepest page the list goes to (the store's offsets stay small). */
const MAX_PAGE = 500;

const STYLE = `<style>
.owner-reviews{list-style:none;padding:0;margin:0;display:grid;gap:1rem}
.owner-reviews>li{border:1px solid #dcefe1;border-radius:.75rem;padding:1rem;background:#fff}
.owner-reviews h2{margin:.5rem 0 0;font-size:1.05rem}
.owner-reviews .meta{margin:0;display:flex;flex-wrap:wrap;gap:.25rem .75rem;align-items:center}
.owner-reviews .stars{color:#b45309;letter-spacing:.1em}
.owner-reviews .verified{font-weight:600;color:var(--forest)}
.owner-reviews .unverified{color:var(--muted)}
.owner-reviews .text{white-space:pre-line;overflow-wrap:anywhere}
.owner-reviews .owner-form{margin-top:.75rem}
.owner-reviews .hint{margin:-.75rem 0 0}
.owner-reviews .buttons{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center}
</style>`;

export interface OwnerReviewsDeps extends EndpointDeps {
  purge?: Purge;
}

/** The page number in `?page=` (1 when absent or not a page). */
function pageOf(req: Request): number {
  const raw = new URL(req.url).searchParams.get("page") ?? "";
  const n = /^\d{1,4}$/.test(raw) ? Number(raw) : 1;
  return Math.min(MAX_PAGE, Math.max(1, n));
}

const NOTICES: readonly string[] = [REPLY_MESSAGES.posted, REPLY_MESSAGES.saved, REPLY_MESSAGES.removed];

const pagePath = (page: number) => (page > 1 ? `${OWNER_REVIEWS_PATH}?page=${page}` : OWNER_REVIEWS_PATH);

/** 303 back to the page the form was on, with the notice (a reload does not post again). */
function seeReviews(page: number, notice: string): Response {
  const query = new URLSearchParams(page > 1 ? { page: String(page), saved: notice } : { saved: notice });
  return new Response(null, {
    status: 303,
    headers: { ...OWNER_PAGE_HEADERS, location: `${OWNER_REVIEWS_PATH}?${query}` },
  });
}

/** What a form shows again after a refused post: its text and the message under it. */
interface Retry {
  reviewId: string;
  text: string;
  error?: string;
}

function stars(rating: number): string {
  const label = `${rating} out of 5 stars`;
  return `<span class="stars" role="img" aria-label="${label}">${"&#9733;".repeat(rating)}${"&#9734;".repeat(5 - rating)}</span>`;
}

/** The reply textarea's id (the problem line links to it). */
const replyFieldId = (reviewId: string) => `reply-${reviewId}`;

function replyForm(review: Review, page: number, retry: Retry | undefined): string {
  const id = replyFieldId(review.id);
  const reply = review.reply;
  const value = retry ? retry.text : (reply?.text ?? "");
  const error = retry?.error;
  const when = reply
    ? `<p class="note">Your reply, posted <time datetime="${escapeHtml(reply.createdAt)}">${escapeHtml(formatReviewDate(reply.createdAt))}</time>${
        reply.editedAt
          ? `, edited <time datetime="${escapeHtml(reply.editedAt)}">${escapeHtml(formatReviewDate(reply.editedAt))}</time>`
          : ""
      }.</p>`
    : "";
  return (
    `<form class="owner-form" method="post" action="${escapeHtml(pagePath(page))}">` +
    `<input type="hidden" name="reviewId" value="${escapeHtml(review.id)}">` +
    when +
    `<label for="${escapeHtml(id)}">${reply ? "Your public reply" : "Reply publicly"}</label>` +
    // The note stays out of the label (the field's name) and is read as its description.
    `<p class="hint" id="${escapeHtml(id)}-hint">${escapeHtml(REPLY_MESSAGES.publicNote)}</p>` +
    // autofocus: the refused form may be screens down; without JS the browser goes to it.
    `<textarea id="${escapeHtml(id)}" name="text" rows="4" maxlength="${REPLY_MAX_LENGTH}" required aria-describedby="${escapeHtml(id)}-hint${error ? ` ${escapeHtml(id)}-error` : ""}"${error ? ' aria-invalid="true" autofocus' : ""}>${escapeHtml(value)}</textarea>` +
    (error ? `<p class="field-error" id="${escapeHtml(id)}-error">${escapeHtml(error)}</p>` : "") +
    `<div class="buttons"><button type="submit" name="intent" value="reply" class="btn-primary">${reply ? "Save changes" : "Post reply"}</button>` +
    (reply
      ? `<button type="submit" name="intent" value="remove" class="link-button" formnovalidate>Remove reply</button>`
      : "") +
    `</div></form>`
  );
}

function reviewItem(review: Review, page: number, retry: Retry | undefined): string {
  const date = `<time datetime="${escapeHtml(review.createdAt)}">${escapeHtml(formatReviewDate(review.createdAt))}</time>`;
  const attrs = `id="review-${escapeHtml(review.id)}" data-review-id="${escapeHtml(review.id)}"`;
  // A hidden review is what the public sees in its place: the owner gets no more of it (it
  // may have been hidden for personal information), and it takes no reply.
  if (review.hidden)
    return (
      `<li ${attrs} data-hidden-review><p class="meta">${date}<strong>${escapeHtml(hiddenLine(review.hiddenReason))}</strong></p>` +
      `<p class="note">The public sees only this line in the review's place, and a hidden review takes no reply.</p></li>`
    );
  const head =
    `<p class="meta">${stars(review.rating)}<strong>${escapeHtml(review.customerName)}</strong>${date}` +
    (review.isVerified ? `<span class="verified">Verified</span>` : `<span class="unverified">Unverified</span>`) +
    `</p>`;
  const words =
    (review.title ? `<h2>${escapeHtml(review.title)}</h2>` : "") +
    (review.reviewText ? `<p class="text">${escapeHtml(review.reviewText)}</p>` : "");
  return `<li ${attrs}>${head}${words}${replyForm(review, page, retry?.reviewId === review.id ? retry : undefined)}</li>`;
}

async function reviewsPage(
  store: Store,
  business: Business,
  page: number,
  o: { notice?: string; problem?: string; retry?: Retry } = {},
): Promise<string> {
  const rows = await storeCall(
    () =>
      store.reviews.list(business.id, {
        limit: OWNER_REVIEWS_PAGE_SIZE + 1,
        offset: (page - 1) * OWNER_REVIEWS_PAGE_SIZE,
      }),
    { step: "read" },
  );
  const shown = rows.slice(0, OWNER_REVIEWS_PAGE_SIZE);
  const intro =
    `<p class="lead">Answer your customers publicly: one reply per review, shown under it on your page. ` +
    `You cannot hide or change a review or its rating; if one breaks the rules, tell us and we check it. ` +
    `<a href="/how-reviews-work">How reviews work</a></p>`;
  const list =
    shown.length === 0
      ? `<p>${page > 1 ? "No more reviews." : "No reviews yet. When a customer reviews your business, it shows here."}</p>`
      : `<ul class="owner-reviews" aria-label="Reviews of ${escapeHtml(business.name)}, newest first">${shown
          .map((r) => reviewItem(r, page, o.retry))
          .join("")}</ul>`;
  const links = [
    page > 1 ? `<a href="${escapeHtml(pagePath(page - 1))}">Newer reviews</a>` : "",
    rows.length > OWNER_REVIEWS_PAGE_SIZE ? `<a href="${escapeHtml(pagePath(page + 1))}">Older reviews</a>` : "",
  ].filter(Boolean);
  const pager = links.length ? `<nav class="pager" aria-label="More reviews">${links.join("")}</nav>` : "";
  return ownerPage({
    title: "Reviews",
    business,
    active: OWNER_REVIEWS_PATH,
    body: STYLE + intro + list + pager,
    notice: o.notice,
    problem: o.problem,
    problemHref: o.retry?.error ? `#${replyFieldId(o.retry.reviewId)}` : undefined,
  });
}

export function ownerReviewsHandler(deps: OwnerReviewsDeps = {}): Endpoint {
  const purge = deps.purge ?? netlifyPurge;
  return ownerEndpoint(
    {
      log: "[owner] reviews",
      methods: ["GET", "HEAD", "POST"],
      body: { urlencoded: 16 * KB },
      rateLimit: { name: "owner-reviews", perMinute: () => 30 },
    },
    deps,
    async (call, { business }) => {
      const { req, store, now, body } = call;
      const page = pageOf(req);
      if (!body) {
        // Only this page's own notices show: a link cannot make the page say anything else.
        const saved = new URL(req.url).searchParams.get("saved");
        const notice = NOTICES.find((n) => n === saved);
        return ownerHtml(await reviewsPage(store, business, page, { notice }));
      }

      const values = Object.fromEntries([...body.value].filter((e): e is [string, string] => typeof e[1] === "string"));
      const refused = async (status: number, problem: string, retry?: Retry) =>
        ownerHtml(await reviewsPage(store, business, page, { problem, retry }), status);
      const parsed = ReplyForm.safeParse(values);
      if (!parsed.success) {
        const fields = fieldErrors(parsed.error);
        if (fields.reviewId) return refused(404, REPLY_MESSAGES.reviewId);
        const error = fields.text ?? Object.values(fields)[0] ?? REPLY_MESSAGES.text;
        return refused(400, `Your reply was not posted. ${error}`, {
          reviewId: values.reviewId ?? "",
          text: values.text ?? "",
          error,
        });
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
      return seeReviews(page, notice);
    },
  );
}
