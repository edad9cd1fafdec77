/**
 * The leads the site sent one business, newest offer first, read from `businessLeads` (a zset
 * per business the lead store writes in the same step as the delivery, repos/leads.ts), so an
 * owner's page never scans the lead list. Leads stored before that index existed are added
 * once by `backfillBusinessLeads` (scripts/backfill-business-leads.ts).
 */
import type { Delivery, Lead } from "../../../src/lib/schemas/lead.ts";
import { asJson } from "../store/decode.ts";
import { keyspace } from "../store/keys.ts";
import type { Store } from "../store/index.ts";

/** Leads per page of the owner's overview. */
export const OWNER_LEADS_PAGE = 20;

export interface OwnerLead {
  lead: Lead;
  /** This business's delivery of it. */
  delivery: Delivery;
}

/** One page of a business's leads (newest offer first) and how many it has in all. */
export async function businessLeadsPage(
  store: Store,
  businessId: string,
  offset = 0,
  limit = OWNER_LEADS_PAGE,
): Promise<{ items: OwnerLead[]; total: number }> {
  const keys = keyspace(store.prefix);
  const key = keys.businessLeads(businessId);
  const [ids, total] = await Promise.all([
    store.redis.zrange<string[]>(key, offset, offset + limit - 1, { rev: true }),
    store.redis.zcard(key),
  ]);
  if (ids.length === 0) return { items: [], total };
  const docs = await store.redis.mget<unknown[]>(...ids.map((id) => keys.lead(id)));
  const items: OwnerLead[] = [];
  for (const doc of docs) {
    const lead = asJson<Lead>(doc);
    const delivery = lead?.routing?.deliveries.find((d) => d.businessId === businessId);
    if (lead && delivery) items.push({ lead, delivery });
  }
  return { items, total };
}

/**
 * One-time backfill: walks every stored lead once (in pages) and adds each delivery to its
 * business's list (ZADD NX: safe to run again, and alongside live traffic). Returns how many
 * lead-business pairs it wrote.
 */
export async function backfillBusinessLeads(store: Store, pageSize = 200): Promise<number> {
  const keys = keyspace(store.prefix);
  let written = 0;
  for (let start = 0; ; start += pageSize) {
    const ids = await store.redis.zrange<string[]>(keys.leadsAll, start, start + pageSize - 1);
    if (ids.length === 0) break;
    const docs = await store.redis.mget<unknown[]>(...ids.map((id) => keys.lead(id)));
    const tx = store.redis.pipeline();
    let queued = 0;
    for (const doc of docs) {
      const lead = asJson<Lead>(doc);
      for (const d of lead?.routing?.deliveries ?? []) {
        tx.zadd(keys.businessLeads(d.businessId), { nx: true }, { score: Date.parse(d.offeredAt), member: lead!.id });
        queued += 1;
      }
    }
    if (queued > 0) {
      const replies = await tx.exec<number[]>();
      written += replies.reduce((n, r) => n + Number(r ?? 0), 0);
    }
    if (ids.length < pageSize) break;
  }
  return written;
}
