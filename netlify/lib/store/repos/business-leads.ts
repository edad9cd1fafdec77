/**
 * The leads the site offered one business, newest offer first: a zset per business (lead id by
 * first offer time) that the lead store writes in the same step as the delivery (leads.ts,
 * MUTATE_LEAD), so an owner's page never scans the lead list. Leads stored before that index
 * existed are added once by `backfill`.
 */
import type { Redis } from "@upstash/redis";
import type { Delivery, Lead } from "../../../../src/lib/schemas/lead.ts";
import { asJson, asNumber, asString } from "../decode.ts";
import type { Keys } from "../keys.ts";

export interface OfferedLead {
  lead: Lead;
  /** This business's delivery of it. */
  delivery: Delivery;
}

export interface BusinessLeadsRepository {
  /** One page of a business's leads (newest offer first) and how many it has in all. */
  page(businessId: string, offset: number, limit: number): Promise<{ items: OfferedLead[]; total: number }>;
  /**
   * Walks every stored lead once (in pages of `pageSize`) and adds each delivery to its
   * business's list (ZADD NX: safe to run again, and alongside live traffic). Returns how many
   * lead-business pairs it added.
   */
  backfill(pageSize?: number): Promise<number>;
}

export function businessLeadsRepository(redis: Redis, keys: Keys): BusinessLeadsRepository {
  const ids = (values: unknown[]) => values.map((v) => asString(v) ?? "");

  return {
    async page(businessId, offset, limit) {
      const key = keys.businessLeads(businessId);
      const p = redis.pipeline();
      p.zrange(key, Math.max(0, offset), Math.max(0, offset) + Math.max(1, limit) - 1, { rev: true });
      p.zcard(key);
      const [members, count] = await p.exec<[unknown[], number]>();
      const total = asNumber(count);
      if (members.length === 0) return { items: [], total };
      const docs = await redis.mget<unknown[]>(...ids(members).map(keys.lead));
      const items: OfferedLead[] = [];
      for (const doc of docs) {
        const lead = asJson<Lead>(doc);
        const delivery = lead?.routing?.deliveries.find((d) => d.businessId === businessId);
        if (lead && delivery) items.push({ lead, delivery });
      }
      return { items, total };
    },

    async backfill(pageSize = 200) {
      let written = 0;
      for (let start = 0; ; start += pageSize) {
        const page = ids(await redis.zrange<unknown[]>(keys.leadsAll, start, start + pageSize - 1));
        if (page.length === 0) break;
        const docs = await redis.mget<unknown[]>(...page.map(keys.lead));
        const p = redis.pipeline();
        let queued = 0;
        for (const doc of docs) {
          const lead = asJson<Lead>(doc);
          for (const d of lead?.routing?.deliveries ?? []) {
            p.zadd(
              keys.businessLeads(d.businessId),
              { nx: true },
              { score: Date.parse(d.offeredAt), member: lead!.id },
            );
            queued += 1;
          }
        }
        if (queued > 0) written += (await p.exec<number[]>()).reduce((n, r) => n + asNumber(r), 0);
        if (page.length < pageSize) break;
      }
      return written;
    },
  };
}
