/**
 * Reviews. Adding one also moves the business's rating, review count and its position in
 * every index set, all inside one Lua script, so concurrent posts cannot lose an update.
 * Moderation (hide, show) works the same way: a hidden review stays stored and listed
 * (the public sees a placeholder with its reason, toPublicReview) but leaves the aggregate.
 * An owner's reply rewrites the review's JSON only (compare-and-set, like moderation): it
 * never moves the rating, the indexes or the e-mail claim.
 */
import { createHash } from "node:crypto";
import type { Redis } from "@upstash/redis";
import { Review, ReviewInput, type HideReason } from "../../../../src/lib/schemas/review.ts";
import { asJson, asNumber, asString, pairs } from "../decode.ts";
import { NotFoundError, ReviewEmailTakenError, ReviewHiddenError } from "../errors.ts";
import { timeId } from "../ids.ts";
import type { Keys } from "../keys.ts";
import { ADD_REVIEW, MODERATE_REVIEW, REWRITE_REVIEW } from "../lua.ts";

export interface AddReviewOptions {
  /** Fixed id (seeding); re-adding an existing id is a no-op that returns the stored review. */
  id?: string;
  /** Original timestamp (seeding); default now. */
  createdAt?: string;
  /** Curated badge (seeding); visitors' reviews are never verified on arrival. */
  isVerified?: boolean;
}

export interface ReviewsRepository {
  /**
   * Throws NotFoundError when the business does not exist and ReviewEmailTakenError when the
   * e-mail (trimmed, case-insensitive) already reviewed it; reviews without e-mail are not limited here.
   */
  add(businessId: string, input: ReviewInput, options?: AddReviewOptions): Promise<Review>;
  /** Like add, and says whether it stored anything (false for a known id). */
  addOrKeep(
    businessId: string,
    input: ReviewInput,
    options?: AddReviewOptions,
  ): Promise<{ review: Review; created: boolean }>;
  /** Reviews newest first, hidden ones included (flagged; the public sees placeholders). Throws NotFoundError when the business does not exist. */
  list(businessId: string, options?: { limit?: number; offset?: number }): Promise<Review[]>;
  /** How many reviews list() pages through (O(1); the seeded reviewCount may stand for reviews never stored). */
  count(businessId: string): Promise<number>;
  /** Every review of every business, hidden ones too, newest first (the admin's list). */
  listAll(options?: { cursor?: string | null; limit?: number }): Promise<ReviewPage>;
  /** One review with its business id, or null. */
  get(reviewId: string): Promise<OwnedReview | null>;
  /**
   * Hides (true) or shows (false) a review; the rating and count follow in the same atomic
   * step. Null when the review does not exist. The Verified badge is not the operator's to set:
   * it comes only with the invitation after an accepted job (add's `isVerified`).
   */
  moderate(reviewId: string, change: { hidden?: boolean; hiddenReason?: HideReason }): Promise<OwnedReview | null>;
  /**
   * The owner's public reply: the first call sets `reply {text, createdAt}`, a later one
   * replaces the text and sets `editedAt` (one reply per review). Throws NotFoundError when
   * the review is not one of `businessId`'s, ReviewHiddenError when it is hidden.
   */
  reply(businessId: string, reviewId: string, text: string, now: number): Promise<Review>;
  /** Takes the owner's reply off a review (same errors as reply; a review without one is left as it is). */
  removeReply(businessId: string, reviewId: string): Promise<Review>;
}

/** A review and the business it belongs to. */
export type OwnedReview = Review & { businessId: string };

export interface ReviewPage {
  /** Newest first. */
  items: OwnedReview[];
  /** Pass back as `cursor` for the next (older) page; null on the last page. */
  nextCursor: string | null;
}

/** The key under which a reviewer's e-mail is claimed: no address is stored in the claim. */
export function reviewEmailHash(email: string): string {
  return createHash("sha256").update(email.trim().toLowerCase()).digest("hex");
}

export function reviewsRepository(redis: Redis, keys: Keys): ReviewsRepository {
  const addScript = redis.createScript<unknown[]>(ADD_REVIEW);
  const moderateScript = redis.createScript<unknown[]>(MODERATE_REVIEW);
  const rewriteScript = redis.createScript<unknown>(REWRITE_REVIEW);

  /**
   * The keys a script that changes a business's rating writes, in the order its KEYS reads
   * them: the business, its reviews, the search indexes, then `extra`, then its search terms.
   */
  function scoreKeys(businessId: string, terms: string[], extra: string[] = []): string[] {
    return [
      keys.business(businessId),
      keys.reviews(businessId),
      keys.reviewsByDate(businessId),
      keys.all,
      keys.geo,
      keys.version,
      ...extra,
      ...terms.map(keys.term),
    ];
  }

  async function get(reviewId: string): Promise<OwnedReview | null> {
    const businessId = asString(await redis.hget(keys.reviewOwner, reviewId));
    if (!businessId) return null;
    const review = asJson<Review>(await redis.hget(keys.reviews(businessId), reviewId));
    return review ? { ...review, businessId } : null;
  }

  async function addOrKeep(businessId: string, input: ReviewInput, options: AddReviewOptions = {}) {
    const parsed = ReviewInput.parse(input);
    const review: Review = Review.parse({
      id: options.id ?? timeId("rv"),
      ...parsed,
      isVerified: options.isVerified ?? false,
      createdAt: options.createdAt ?? new Date().toISOString(),
    });
    const bizKey = keys.business(businessId);
    for (let attempt = 0; attempt < 8; attempt++) {
      const current = (await redis.hmget(bizKey, "tv", "terms")) as Record<string, unknown> | null;
      if (!current || current.tv === null || current.tv === undefined) throw new NotFoundError("business", businessId);
      const terms = asJson<string[]>(current.terms) ?? [];
      const reply = await addScript.exec(
        scoreKeys(businessId, terms, [keys.reviewsAll, keys.reviewOwner, keys.reviewEmails(businessId)]),
        [
          businessId,
          review.id,
          JSON.stringify(review),
          String(review.rating),
          String(Date.parse(review.createdAt)),
          asString(current.tv) ?? "0",
          review.customerEmail ? reviewEmailHash(review.customerEmail) : "",
        ],
      );
      const status = asString(reply[0]);
      if (status === "ok") return { review, created: true };
      if (status === "email_taken") throw new ReviewEmailTakenError(businessId);
      if (status === "missing") throw new NotFoundError("business", businessId);
      if (status === "duplicate") {
        const stored = asJson<Review>(reply[1]);
        if (!stored) throw new Error(`review ${review.id} is unreadable`);
        return { review: stored, created: false };
      }
      // "stale": the business was re-indexed between our read and the script; read again.
      if (status !== "stale") throw new Error(`unexpected review reply ${JSON.stringify(reply)}`);
    }
    throw new Error(`business ${businessId}: too many concurrent updates`);
  }

  /**
   * Rewrites one review of `businessId` with `change` (compare-and-set, retried when a
   * concurrent write got there first). A hidden review is refused: it takes no reply.
   */
  async function rewrite(businessId: string, reviewId: string, change: (review: Review) => Review): Promise<Review> {
    for (let attempt = 0; attempt < 8; attempt++) {
      // reviews:owner says which business a review is of, so another business's id is "not found".
      const p = redis.pipeline();
      p.hget(keys.reviewOwner, reviewId);
      p.hget(keys.reviews(businessId), reviewId);
      const [owner, raw] = await p.exec<[unknown, unknown]>();
      const stored = asString(raw);
      const review = asJson<Review>(raw);
      if (asString(owner) !== businessId || !stored || !review) throw new NotFoundError("review", reviewId);
      if (review.hidden) throw new ReviewHiddenError(reviewId);
      const next = Review.parse(change(review));
      const status = asString(
        await rewriteScript.exec([keys.reviews(businessId)], [reviewId, stored, JSON.stringify(next)]),
      );
      if (status === "ok") return next;
      if (status === "no_review") throw new NotFoundError("review", reviewId);
      if (status !== "stale") throw new Error(`unexpected reply status ${JSON.stringify(status)}`);
    }
    throw new Error(`review ${reviewId}: too many concurrent updates`);
  }

  return {
    async add(businessId, input, options) {
      return (await addOrKeep(businessId, input, options)).review;
    },

    addOrKeep,

    async list(businessId, options = {}) {
      const limit = Math.max(1, Math.min(200, Math.floor(options.limit ?? 100)));
      const offset = Math.max(0, Math.floor(options.offset ?? 0));
      const p = redis.pipeline();
      p.exists(keys.business(businessId));
      p.zrange(keys.reviewsByDate(businessId), offset, offset + limit - 1, { rev: true });
      const [exists, rawIds] = await p.exec<[number, unknown[]]>();
      if (!exists) throw new NotFoundError("business", businessId);
      const ids = rawIds.map((v) => asString(v) ?? "");
      if (ids.length === 0) return [];
      const rows = (await redis.hmget(keys.reviews(businessId), ...ids)) as Record<string, unknown> | null;
      return ids.map((id) => asJson<Review>(rows?.[id])).filter((r): r is Review => r !== null);
    },

    count: async (businessId) => asNumber(await redis.zcard(keys.reviewsByDate(businessId))),

    async listAll(options = {}) {
      const limit = Math.max(1, Math.min(200, Math.floor(options.limit ?? 25)));
      // Cursor "createdAtMs:reviewId": reviews written in the same millisecond (a seed) share
      // a score, and ZREVRANGE orders those by id, so the id says where the page stopped.
      let after: { score: number; id: string } | null = null;
      if (options.cursor) {
        const m = /^(\d{1,16}):([A-Za-z0-9_-]{1,100})$/.exec(options.cursor);
        if (!m) throw new RangeError("invalid cursor");
        after = { score: Number(m[1]), id: m[2]! };
      }
      const ties = after ? asNumber(await redis.zcount(keys.reviewsAll, after.score, after.score)) : 0;
      const max = after ? after.score : "+inf";
      const raw = await redis.zrange<unknown[]>(keys.reviewsAll, max, "-inf", {
        byScore: true,
        rev: true,
        offset: 0,
        count: limit + 1 + ties,
        withScores: true,
      });
      const entries = pairs(raw).filter(([id, score]) => !after || score < after.score || id < after.id);
      const page = entries.slice(0, limit);
      if (page.length === 0) return { items: [], nextCursor: null };
      const owners = (await redis.hmget(keys.reviewOwner, ...page.map(([id]) => id))) as Record<string, unknown> | null;
      const p = redis.pipeline();
      for (const [id] of page) p.hget(keys.reviews(asString(owners?.[id]) ?? ""), id);
      const docs = await p.exec<unknown[]>();
      const items: OwnedReview[] = [];
      page.forEach(([id], i) => {
        const review = asJson<Review>(docs[i]);
        const businessId = asString(owners?.[id]);
        if (review && businessId) items.push({ ...review, businessId });
      });
      const last = page[page.length - 1]!;
      return { items, nextCursor: entries.length > limit ? `${last[1]}:${last[0]}` : null };
    },

    get,

    async moderate(reviewId, change) {
      for (let attempt = 0; attempt < 8; attempt++) {
        const businessId = asString(await redis.hget(keys.reviewOwner, reviewId));
        if (!businessId) return null;
        const bizKey = keys.business(businessId);
        const p = redis.pipeline();
        p.hget(keys.reviews(businessId), reviewId);
        p.hmget(bizKey, "tv", "terms");
        const [rawReview, current] = await p.exec<[unknown, Record<string, unknown> | null]>();
        const stored = asString(rawReview);
        const review = asJson<Review>(rawReview);
        if (!stored || !review) return null;
        if (!current || current.tv === null || current.tv === undefined) return null;
        const wasHidden = review.hidden === true;
        const hide = change.hidden ?? wasHidden;
        const next: Review = Review.parse({
          ...review,
          hidden: hide || undefined,
          hiddenReason: hide ? (change.hiddenReason ?? review.hiddenReason) : undefined,
        });
        const delta = hide === wasHidden ? 0 : hide ? -1 : 1;
        const terms = asJson<string[]>(current.terms) ?? [];
        const reply = await moderateScript.exec(scoreKeys(businessId, terms), [
          businessId,
          reviewId,
          stored,
          JSON.stringify(next),
          String(delta),
          String(review.rating),
          String(Date.parse(review.createdAt)),
          asString(current.tv) ?? "0",
        ]);
        const status = asString(reply[0]);
        if (status === "ok") return { ...next, businessId };
        if (status === "missing" || status === "no_review") return null;
        if (status !== "stale") throw new Error(`unexpected moderation reply ${JSON.stringify(reply)}`);
      }
      throw new Error(`review ${reviewId}: too many concurrent updates`);
    },

    reply(businessId, reviewId, text, now) {
      const at = new Date(now).toISOString();
      return rewrite(businessId, reviewId, (review) => ({
        ...review,
        reply: review.reply ? { ...review.reply, text, editedAt: at } : { text, createdAt: at },
      }));
    },

    removeReply(businessId, reviewId) {
      return rewrite(businessId, reviewId, ({ reply: _gone, ...review }) => review);
    },
  };
}
