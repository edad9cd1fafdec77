/**
 * The build's view of the directory (netlify/lib/store/snapshot.ts): the configured store
 * when it has businesses, otherwise the seed file, in directory order and without any
 * reviewer's e-mail either way.
 */
import { afterAll, describe, expect, it } from "vitest";
import seed from "../../../content/directory/businesses.json" with { type: "json" };
import { createStore } from "../../../netlify/lib/store/index.ts";
import { loadDirectorySnapshot } from "../../../netlify/lib/store/snapshot.ts";
import { deleteKeysWithPrefix, resolveTestRedisUrl, uniquePrefix } from "../../helpers/redis.ts";

const url = await resolveTestRedisUrl();
const prefixes: string[] = [];
afterAll(async () => {
  if (url) for (const p of prefixes) await deleteKeysWithPrefix(url, p);
});

describe.skipIf(!url)("directory snapshot", () => {
  it("falls back to the seed file when the store is empty", async () => {
    const prefix = uniquePrefix("snap-empty");
    prefixes.push(prefix);
    const snap = await loadDirectorySnapshot({ REDIS_URL: url!, REDIS_KEY_PREFIX: prefix });
    expect(snap.source).toBe("seed");
    expect(snap.businesses).toHaveLength(seed.length);
    const featured = snap.businesses.filter((b) => b.isFeatured).length;
    expect(snap.businesses.slice(0, featured).every((b) => b.isFeatured)).toBe(true);
    for (const reviews of snap.reviews.values()) for (const r of reviews) expect(r).not.toHaveProperty("customerEmail");
  });

  it("reads the store when it has businesses", async () => {
    const prefix = uniquePrefix("snap-store");
    prefixes.push(prefix);
    const store = createStore({ transport: "redis", url: url!, prefix });
    await store.businesses.upsert({
      id: "snap-1", name: "Only One Tree Co.", slug: "only-one", description: "x", city: "Dallas", zipCode: "75201", address: "1 Elm St",
      isFeatured: false, services: ["Tree Removal"], specialties: [], serviceAreas: [], businessHours: {}, yearsInBusiness: 1,
    });
    await store.reviews.add("snap-1", { customerName: "Kim", customerEmail: "kim@example.com", rating: 4 });
    await store.close();
    const snap = await loadDirectorySnapshot({ REDIS_URL: url!, REDIS_KEY_PREFIX: prefix });
    expect(snap.source).toBe("store");
    expect(snap.businesses.map((b) => [b.slug, b.rating, b.reviewCount])).toEqual([["only-one", "4.0", 1]]);
    expect(snap.reviews.get("snap-1")![0]).not.toHaveProperty("customerEmail");
  });
});
