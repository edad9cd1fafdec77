/**
 * The directory as the import compares against it: every listed business read once, in pages,
 * and looked up by the keys that make two listings one business (keys.ts). Sample businesses
 * (generated demo data) are never matched: an import does not turn one into a real listing,
 * though their slugs stay taken.
 */
import type { Business } from "../../../src/lib/schemas/business.ts";
import type { Store } from "../store/index.ts";
import { keyStrings, listingKeys, sharedKeys, type ListingKeys, type MatchKind } from "./keys.ts";

/** Businesses read per round trip. */
const PAGE = 500;

export interface KnownDirectory {
  byId: ReadonlyMap<string, Business>;
  slugs: ReadonlySet<string>;
  /** The real (not sample) businesses sharing a key with `keys`, each with what it shares. */
  matches(keys: ListingKeys): { business: Business; why: MatchKind[] }[];
}

export async function readDirectory(store: Store): Promise<KnownDirectory> {
  const byId = new Map<string, Business>();
  for (let offset = 0; ; offset += PAGE) {
    const ids = await store.businesses.ids(offset, PAGE);
    for (const b of await store.businesses.getMany(ids)) byId.set(b.id, b);
    if (ids.length < PAGE) break;
  }
  return knownDirectory([...byId.values()]);
}

/** The lookups over a list of businesses (readDirectory, tests). */
export function knownDirectory(businesses: readonly Business[]): KnownDirectory {
  const byId = new Map(businesses.map((b) => [b.id, b]));
  const slugs = new Set(businesses.map((b) => b.slug));
  const byKey = new Map<string, Business[]>();
  const keysOf = new Map<string, ListingKeys>();
  for (const b of businesses) {
    if (b.isSample) continue;
    const keys = listingKeys(b);
    keysOf.set(b.id, keys);
    for (const key of keyStrings(keys)) byKey.set(key, [...(byKey.get(key) ?? []), b]);
  }
  return {
    byId,
    slugs,
    matches(keys) {
      const found = new Map<string, Business>();
      for (const key of keyStrings(keys)) for (const b of byKey.get(key) ?? []) found.set(b.id, b);
      return [...found.values()].map((business) => ({ business, why: sharedKeys(keysOf.get(business.id)!, keys) }));
    },
  };
}
