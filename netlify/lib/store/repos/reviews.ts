/**
 * Reviews. Adding one also moves the business's rating, review count and its position in
 * every index set, all inside one Lua script, so concurrent posts cannot lose an update.
 */
import type { Redis } from "@upstash/redis";
import { Review, ReviewInput } from "../../../../src/lib/schemas/business.ts";
import { asJson, asString } from "../decode.ts";
import { NotFoundError } from "../errors.ts";
import { timeId } from "../ids.ts";
import type { Keys } from "../keys.ts";
import { ADD_REVIEW } from "../scripts.ts";

export interface AddReviewOptions {
  /** Fixed id (seeding); re-adding an existing id is a no-op that returns the stored review. */
  id?: string;
  /** Original timestamp (seeding); default now. */
  createdAt?: string;
  /** Curated badge (seeding); visitors' reviews are never verified on arrival. */
  isVerified?: boolean;
}

export interface ReviewsRepository {
  /** Throws NotFoundError when the business does not exist. */
  add(businessId: string, input: ReviewInput, options?: AddReviewOptions): Promise<Review>;
  /** Like add, and says whether it stored anything (false for a known id). */
  addOrKeep(businessId: string, input: ReviewInput, options?: AddReviewOptions): Promise<{ review: Review; created: boolean }>;
  /** Newest first. Throws NotFoundError when the business does not exist. */
  list(businessId: string, options?: { limit?: number; offset?: number }): Promise<Review[]>;
}

export function reviewsRepository(redis: Redis, keys: Keys): ReviewsRepository {
  const addScript = redis.createScript<unknown[]>(ADD_REVIEW);

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
        [
          bizKey,
          keys.reviews(businessId),
          keys.reviewsByDate(businessId),
          keys.all,
          keys.geo,
          keys.version,
          ...terms.map(keys.term),
        ],
        [businessId, review.id, JSON.stringify(review), String(review.rating), String(Date.parse(review.createdAt)), asString(current.tv) ?? "0"],
      );
      const status = asString(reply[0]);
      if (status === "ok") return { review, created: true };
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
  };
}
