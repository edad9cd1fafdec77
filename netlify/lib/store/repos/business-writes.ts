/**
 * Writing the directory: what a business is indexed under (search terms, city band and
 * display order, see score.ts) and the upsert that keeps those indexes in step with it.
 */
import type { Redis } from "@upstash/redis";
import { Business, BusinessInput, RESPONSE_FIELDS } from "../../../../src/lib/schemas/business.ts";
import { asJson, asString } from "../decode.ts";
import { ConflictError } from "../errors.ts";
import type { Keys } from "../keys.ts";
import { CITY_BAND, cityRank, orderScore } from "../score.ts";
import { UPSERT_BUSINESS } from "../lua.ts";
import { indexTerms } from "../text.ts";
import { writeNear, type NearState } from "./business-near.ts";

/**
 * A business as stored: its rating and review count live beside it as a sum and a count,
 * its response time in its own field (`rt`).
 */
export type Profile = Omit<Business, "rating" | "reviewCount" | keyof typeof RESPONSE_FIELDS>;
export const Profile = Business.omit({ rating: true, reviewCount: true, ...RESPONSE_FIELDS });

/** Text a business is searchable by. */
export function searchableTexts(
  b: Pick<Business, "name" | "description" | "services" | "specialties" | "city">,
): string[] {
  return [b.name, b.description, ...b.services, ...b.specialties, b.city];
}

/**
 * Everything the index holds for one business. The bench bulk-loads with this so its layout
 * is exactly the repository's.
 */
export function indexPlan(profile: Profile, sum: number, count: number) {
  const rank = cityRank(profile.city, profile.state);
  const order = orderScore(profile.isFeatured, sum, count);
  return { terms: indexTerms(searchableTexts(profile)), rank, order, banded: rank * CITY_BAND + order };
}

/**
 * Creates or replaces a business (matched by id) and re-indexes it: one script writes the
 * profile, slug, terms and scores, refusing when another upsert changed the terms since
 * they were read (then this one reads again); the location sets follow.
 */
export function businessUpsert(
  redis: Redis,
  keys: Keys,
  get: (id: string) => Promise<Business | null>,
): (input: BusinessInput) => Promise<Business> {
  const upsertScript = redis.createScript<unknown[]>(UPSERT_BUSINESS);
  return async (input) => {
    const parsed = BusinessInput.parse(input);
    const { rating, reviewCount, ...rest } = parsed;
    const profile: Profile = Profile.parse(rest);
    const initialCount = reviewCount ?? 0;
    const initialSum = rating !== undefined && initialCount > 0 ? Number(rating) * initialCount : 0;
    const plan = indexPlan(profile, initialSum, initialCount);
    const bizKey = keys.business(profile.id);
    // Optimistic: the script refuses if another upsert changed the terms since we read them.
    for (let attempt = 0; attempt < 8; attempt++) {
      const current = (await redis.hmget(keys.business(profile.id), "tv", "terms", "near")) as Record<
        string,
        unknown
      > | null;
      const tv = asString(current?.tv) ?? "0";
      const previous = new Set(asJson<string[]>(current?.terms) ?? []);
      const next = new Set(plan.terms);
      const removed = [...previous].filter((t) => !next.has(t));
      const reply = await upsertScript.exec(
        [bizKey, keys.slugs, keys.all, keys.geo, keys.version, ...removed.map(keys.term), ...plan.terms.map(keys.term)],
        [
          profile.id,
          JSON.stringify(profile),
          profile.slug,
          String(plan.rank),
          profile.isFeatured ? "1" : "0",
          JSON.stringify(plan.terms),
          tv,
          String(removed.length),
          String(initialSum),
          String(initialCount),
        ],
      );
      const status = asString(reply[0]);
      if (status === "ok") {
        await writeNear(redis, keys, profile, asJson<NearState>(current?.near));
        const saved = await get(profile.id);
        if (!saved) throw new Error(`business ${profile.id} vanished after upsert`);
        return saved;
      }
      if (status === "slug_taken") {
        throw new ConflictError(`slug ${JSON.stringify(profile.slug)} belongs to business ${asString(reply[1])}`);
      }
      if (status !== "stale") throw new Error(`unexpected upsert reply ${JSON.stringify(reply)}`);
    }
    throw new Error(`business ${profile.id}: too many concurrent updates`);
  };
}
