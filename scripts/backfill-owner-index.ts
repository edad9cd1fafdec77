/**
 * One-time backfill of the owner indexes a returning owner's sign-in reads (keys.ownerBusinesses,
 * keys.ownedBusinesses) for owners added before they existed:
 * `node_modules/.bin/tsx scripts/backfill-owner-index.ts` with the production store's
 * environment (REDIS_URL or the Upstash variables). Every owner came from a claim (proved by the
 * contact on file, or approved), so it walks the claims and indexes each claimant still an
 * owner. Safe to run twice.
 */
import { getStore } from "../netlify/lib/store/index.ts";

const store = getStore();
let indexed = 0;
for (let offset = 0; ; offset += 200) {
  const { items } = await store.claims.list({ status: "all", offset, limit: 200 });
  for (const claim of items) {
    if (!claim.businessId || (claim.status !== "proved" && claim.status !== "approved")) continue;
    if (!(await store.owners.has(claim.businessId, claim.claimant.email))) continue;
    await store.owners.index(claim.businessId, claim.claimant.email);
    indexed++;
  }
  if (items.length < 200) break;
}
console.log(`backfill: ${indexed} owners indexed for sign-in`);
await store.close();
