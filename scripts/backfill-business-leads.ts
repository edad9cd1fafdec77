/**
 * One-time backfill of each business's lead list (keys.businessLeads) for leads stored before
 * the lead store wrote it: `node_modules/.bin/tsx scripts/backfill-business-leads.ts` with the
 * production store's environment (REDIS_URL or the Upstash variables). Safe to run twice.
 */
import { backfillBusinessLeads } from "../netlify/lib/owners/leads.ts";
import { getStore } from "../netlify/lib/store/index.ts";

const store = getStore();
const written = await backfillBusinessLeads(store);
console.log(`backfill: ${written} lead offers added to their businesses' lists`);
await store.close();
