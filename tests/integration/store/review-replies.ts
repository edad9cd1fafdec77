/**
 * The owner-reply part of the repository contract (reviews.reply / removeReply), run by
 * contract.ts on every transport: one reply per review, edits marked, never another
 * business's review or a hidden one, and nothing else about the review or the rating moves.
 */
import { describe, expect, it } from "vitest";
import { NotFoundError, ConflictError, type Store } from "../../../netlify/lib/store/index.ts";
import { ReviewHiddenError } from "../../../netlify/lib/store/errors.ts";
import type { BusinessInput } from "../../../src/lib/schemas/business.ts";
import type { StoreHarness } from "./contract.types.ts";

function business(n: number): BusinessInput {
  return {
    id: `rp-${n}`,
    name: `Reply Trees ${n}`,
    slug: `reply-trees-${n}`,
    description: "Answers its reviews.",
    city: "Austin",
    zipCode: "78701",
    address: `${n} Ash St`,
    isFeatured: false,
    services: ["Tree Trimming"],
    specialties: [],
    serviceAreas: [],
    businessHours: {},
    yearsInBusiness: 2,
  };
}

const T1 = Date.parse("2026-03-01T10:00:00Z");
const T2 = Date.parse("2026-03-02T11:30:00Z");

async function twoBusinesses(store: Store) {
  await store.businesses.upsert(business(1));
  await store.businesses.upsert(business(2));
  const review = await store.reviews.add(
    "rp-1",
    { customerName: "Pat", customerEmail: "pat@example.com", rating: 2, reviewText: "Late." },
    { createdAt: "2026-02-01T00:00:00Z" },
  );
  const other = await store.reviews.add(
    "rp-2",
    { customerName: "Lee", rating: 5 },
    { createdAt: "2026-02-02T00:00:00Z" },
  );
  return { review, other };
}

export function reviewRepliesContract(h: StoreHarness) {
  describe("reviews: owner replies", () => {
    it("sets the reply once, marks an edit, and moves nothing else", async () => {
      const store = await h.fresh("rp-reply");
      const { review } = await twoBusinesses(store);
      const before = await store.businesses.get("rp-1");
      const version = await store.redis.get(`${store.prefix}idx:ver`);

      const first = await store.reviews.reply("rp-1", review.id, "Sorry, the truck broke down.", T1);
      expect(first.reply).toEqual({ text: "Sorry, the truck broke down.", createdAt: new Date(T1).toISOString() });
      const edited = await store.reviews.reply("rp-1", review.id, "Sorry: the truck broke down. Fixed now.", T2);
      expect(edited.reply).toEqual({
        text: "Sorry: the truck broke down. Fixed now.",
        createdAt: new Date(T1).toISOString(),
        editedAt: new Date(T2).toISOString(),
      });

      const stored = await store.reviews.get(review.id);
      expect(stored).toEqual({ ...review, reply: edited.reply, businessId: "rp-1" });
      expect((await store.reviews.list("rp-1")).map((r) => r.reply?.text)).toEqual([edited.reply?.text]);
      expect(await store.businesses.get("rp-1")).toMatchObject({ rating: before?.rating, reviewCount: 1 });
      expect(await store.redis.get(`${store.prefix}idx:ver`)).toEqual(version);
      // The e-mail claim stays: the same address still cannot review again.
      await expect(
        store.reviews.add("rp-1", { customerName: "Pat", customerEmail: "PAT@example.com" }),
      ).rejects.toThrow(ConflictError);

      const removed = await store.reviews.removeReply("rp-1", review.id);
      expect(removed).not.toHaveProperty("reply");
      expect(await store.reviews.get(review.id)).toEqual({ ...review, businessId: "rp-1" });
    });

    it("refuses another business's review, an unknown one and a hidden one, storing nothing", async () => {
      const store = await h.fresh("rp-refuse");
      const { review, other } = await twoBusinesses(store);
      await expect(store.reviews.reply("rp-1", other.id, "Not ours", T1)).rejects.toThrow(NotFoundError);
      await expect(store.reviews.reply("rp-2", review.id, "Not ours", T1)).rejects.toThrow(NotFoundError);
      await expect(store.reviews.reply("rp-1", "rv_unknown", "Nobody", T1)).rejects.toThrow(NotFoundError);
      await expect(store.reviews.removeReply("rp-2", review.id)).rejects.toThrow(NotFoundError);
      expect((await store.reviews.get(other.id))?.reply).toBeUndefined();
      expect((await store.reviews.get(review.id))?.reply).toBeUndefined();

      await store.reviews.moderate(review.id, { hidden: true, hiddenReason: "duplicate" });
      await expect(store.reviews.reply("rp-1", review.id, "Hello", T1)).rejects.toThrow(ReviewHiddenError);
      expect((await store.reviews.get(review.id))?.reply).toBeUndefined();
    });

    it("refuses an empty or too long reply", async () => {
      const store = await h.fresh("rp-invalid");
      const { review } = await twoBusinesses(store);
      await expect(store.reviews.reply("rp-1", review.id, "", T1)).rejects.toThrow();
      await expect(store.reviews.reply("rp-1", review.id, "x".repeat(2001), T1)).rejects.toThrow();
      expect((await store.reviews.get(review.id))?.reply).toBeUndefined();
    });

    it("moderation keeps the reply, and neither write undoes a concurrent other", async () => {
      const store = await h.fresh("rp-race");
      const { review } = await twoBusinesses(store);
      await store.reviews.reply("rp-1", review.id, "First answer", T1);
      await store.reviews.moderate(review.id, { hidden: true, hiddenReason: "duplicate" });
      expect(await store.reviews.get(review.id)).toMatchObject({ hidden: true, reply: { text: "First answer" } });
      await store.reviews.moderate(review.id, { hidden: false });
      expect((await store.reviews.get(review.id))?.reply?.text).toBe("First answer");

      for (let round = 0; round < 5; round++) {
        const [replied] = await Promise.allSettled([
          store.reviews.reply("rp-1", review.id, `Answer ${round}`, T2),
          store.reviews.moderate(review.id, { hidden: true, hiddenReason: "duplicate" }),
        ]);
        const now = await store.reviews.get(review.id);
        // The hide always lands; the reply either landed before it (and stays) or was refused.
        expect(now?.hidden).toBe(true);
        if (replied.status === "fulfilled") expect(now?.reply?.text).toBe(`Answer ${round}`);
        else expect(replied.reason).toBeInstanceOf(ReviewHiddenError);
        expect(await store.businesses.get("rp-1")).toMatchObject({ reviewCount: 0 });
        await store.reviews.moderate(review.id, { hidden: false });
        expect(await store.businesses.get("rp-1")).toMatchObject({ reviewCount: 1, rating: "2.0" });
      }
    });
  });
}
