/**
 * The notification outbox, the one retry queue: one item per new lead, written by leads.create
 * in the lead's own MULTI, and one per owner's claim whose message must be sent again
 * (`schedule`). The notifier claims due items (a lease, so two notifiers never send the same
 * messages at once and a crashed one loses nothing), then either removes an item (delivered)
 * or reschedules it (failed). Items carry ids, types and counters only, never the lead's data.
 */
import type { Redis } from "@upstash/redis";
import { OutboxItem } from "../../../../src/lib/schemas/outbox.ts";
import { asJson, asNumber, asString, pairs } from "../decode.ts";
import type { Keys } from "../keys.ts";
import { CLAIM_OUTBOX, CLAIM_OUTBOX_ITEM, SETTLE_OUTBOX_ITEM, TAKE_FROM_SET } from "../lua.ts";

export interface OutboxRepository {
  /** Undelivered items, soonest next attempt first. */
  list(options?: { limit?: number }): Promise<{ items: OutboxItem[]; total: number }>;
  get(leadId: string): Promise<OutboxItem | null>;
  /** Up to `limit` items due at `now`, leased until `leaseUntil` (ms). */
  claimDue(now: number, leaseUntil: number, limit: number): Promise<OutboxItem[]>;
  /** How many items are due at `now` (not leased, not waiting for a retry). */
  dueCount(now: number): Promise<number>;
  /** The one item, if it is due (not leased by someone else, not waiting for a retry). */
  claim(leadId: string, now: number, leaseUntil: number): Promise<OutboxItem | null>;
  /** Delivered: the item goes. */
  done(leadId: string): Promise<void>;
  /** Failed: the item waits until `nextAttemptAt`. Never re-creates an item that is gone. */
  reschedule(item: OutboxItem): Promise<void>;
  /**
   * Settles an item claimed with lease end `leaseUntil`: removed (`next` null) or waiting for
   * `next.nextAttemptAt`. False when the lead was queued again meanwhile (the item stays due).
   */
  settle(leadId: string, leaseUntil: number, next: OutboxItem | null): Promise<boolean>;
  /** Makes items due now (all of them without ids): the admin's "retry now". */
  retryNow(leadIds?: string[], now?: number): Promise<number>;
  /**
   * Puts an item in line for `item.nextAttemptAt` (an owner's message whose send failed). One
   * already there for the same id is replaced: the notifier sends every waiting message of its
   * subject, whatever the item says. A leased item's lease ends with it, so the notifier
   * holding it leaves it in line (settle answers false).
   */
  schedule(item: OutboxItem): Promise<void>;
  /** What still waits in the retry queue owners' messages had before the outbox: message ids, due (ms). */
  legacyRetries(): Promise<{ messageId: string; dueAt: number }[]>;
  /** Adds `items` (one already waiting for the same id stays), then takes `messageIds` out of the old queue (gone once empty). */
  adoptLegacyRetries(items: OutboxItem[], messageIds: string[]): Promise<void>;
}

/** The retry queue owners' messages had before the outbox; emptied into it once (adoptLegacyRetries). */
const legacyRetryKey = (keys: Keys) => `${keys.prefix}msgs:retry`;

export function outboxRepository(redis: Redis, keys: Keys): OutboxRepository {
  const claimDueScript = redis.createScript<unknown>(CLAIM_OUTBOX);
  const claimOneScript = redis.createScript<unknown>(CLAIM_OUTBOX_ITEM);
  const settleScript = redis.createScript<unknown>(SETTLE_OUTBOX_ITEM);
  const takeScript = redis.createScript<unknown>(TAKE_FROM_SET);

  async function load(ids: string[]): Promise<OutboxItem[]> {
    if (ids.length === 0) return [];
    const docs = await redis.mget<unknown[]>(...ids.map(keys.outboxItem));
    return docs.flatMap((d) => {
      const parsed = OutboxItem.safeParse(asJson(d));
      return parsed.success ? [parsed.data] : [];
    });
  }

  async function get(leadId: string): Promise<OutboxItem | null> {
    const [item] = await load([leadId]);
    return item ?? null;
  }

  return {
    async list(options = {}) {
      const limit = Math.max(1, Math.min(200, Math.floor(options.limit ?? 50)));
      const p = redis.pipeline();
      p.zrange(keys.outbox, 0, limit - 1);
      p.zcard(keys.outbox);
      const [ids, total] = await p.exec<[unknown[], number]>();
      return { items: await load(ids.map((v) => asString(v) ?? "")), total: asNumber(total) };
    },

    get,

    async claimDue(now, leaseUntil, limit) {
      const reply = asString(
        await claimDueScript.exec([keys.outbox], [String(now), String(leaseUntil), String(limit)]),
      );
      return load((reply ?? "").split(" ").filter(Boolean));
    },

    dueCount: async (now) => asNumber(await redis.zcount(keys.outbox, "-inf", now)),

    async claim(leadId, now, leaseUntil) {
      const reply = asString(await claimOneScript.exec([keys.outbox], [leadId, String(now), String(leaseUntil)]));
      return reply === "ok" ? get(leadId) : null;
    },

    async done(leadId) {
      const tx = redis.multi();
      tx.zrem(keys.outbox, leadId);
      tx.del(keys.outboxItem(leadId));
      await tx.exec();
    },

    async reschedule(item) {
      const tx = redis.multi();
      tx.set(keys.outboxItem(item.leadId), JSON.stringify(OutboxItem.parse(item)), { xx: true });
      tx.zadd(keys.outbox, { xx: true }, { score: Date.parse(item.nextAttemptAt), member: item.leadId });
      await tx.exec();
    },

    async settle(leadId, leaseUntil, next) {
      const reply = asString(
        await settleScript.exec(
          [keys.outbox, keys.outboxItem(leadId)],
          [
            leadId,
            String(leaseUntil),
            next ? "retry" : "done",
            next ? JSON.stringify(OutboxItem.parse(next)) : "",
            next ? String(Date.parse(next.nextAttemptAt)) : "",
          ],
        ),
      );
      return reply !== "requeued";
    },

    async retryNow(leadIds, now = Date.now()) {
      const ids = leadIds ?? (await redis.zrange<unknown[]>(keys.outbox, 0, -1)).map((v) => asString(v) ?? "");
      if (ids.length === 0) return 0;
      const tx = redis.multi();
      for (const id of ids) tx.zadd(keys.outbox, { xx: true, ch: true }, { score: now, member: id });
      const changed = await tx.exec<number[]>();
      return changed.reduce((n, c) => n + asNumber(c), 0);
    },

    async schedule(item) {
      const tx = redis.multi();
      tx.set(keys.outboxItem(item.leadId), JSON.stringify(OutboxItem.parse(item)));
      tx.zadd(keys.outbox, { score: Date.parse(item.nextAttemptAt), member: item.leadId });
      await tx.exec();
    },

    async legacyRetries() {
      const flat = await redis.zrange<unknown[]>(legacyRetryKey(keys), 0, -1, { withScores: true });
      return pairs(flat).map(([messageId, dueAt]) => ({ messageId, dueAt }));
    },

    async adoptLegacyRetries(items, messageIds) {
      if (items.length > 0) {
        const tx = redis.multi();
        for (const item of items) {
          tx.set(keys.outboxItem(item.leadId), JSON.stringify(OutboxItem.parse(item)), { nx: true });
          tx.zadd(keys.outbox, { nx: true }, { score: Date.parse(item.nextAttemptAt), member: item.leadId });
        }
        await tx.exec();
      }
      // Only once the items are written, and only what was read: an entry added meanwhile stays
      // for the next run, and a crash in between only moves the same entries again (NX above).
      if (messageIds.length > 0) await takeScript.exec([legacyRetryKey(keys)], messageIds);
    },
  };
}
