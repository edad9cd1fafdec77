/**
 * The leads the site sent one business, newest offer first, from the store's per-business
 * index (store/repos/business-leads.ts), so an owner's page never scans the lead list. Leads
 * stored before that index existed are added once by `backfillBusinessLeads`
 * (scripts/backfill-business-leads.ts).
 */
import type { OfferedLead, Store } from "../store/index.ts";

/** Leads per page of the owner's overview. */
export const OWNER_LEADS_PAGE = 20;

/** A lead and this business's delivery of it. */
export type OwnerLead = OfferedLead;

/** One page of a business's leads (newest offer first) and how many it has in all. */
export const businessLeadsPage = (
  store: Store,
  businessId: string,
  offset = 0,
  limit = OWNER_LEADS_PAGE,
): Promise<{ items: OwnerLead[]; total: number }> => store.businessLeads.page(businessId, offset, limit);

/**
 * One-time backfill: adds every stored lead's deliveries to their businesses' lists (safe to
 * run again, and alongside live traffic). Returns how many lead-business pairs it wrote.
 */
export const backfillBusinessLeads = (store: Store, pageSize = 200): Promise<number> =>
  store.businessLeads.backfill(pageSize);
