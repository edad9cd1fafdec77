/**
 * The outbox's part for owners' messages, run by contract.ts on every transport (embedded,
 * real Redis, Upstash REST): an item scheduled after a failed send, which also takes a leased
 * item back from the notifier holding it, and the one-time move of the retry queue an earlier
 * version kept for owners' messages into the outbox.
 */
import { describe, expect, it } from "vitest";
import type { OutboxItem } from "../../../src/lib/schemas/outbox.ts";
import type { StoreHarness } from "./contract.types.ts";

const NOW = Date.parse("2026-11-28T12:00:00Z");
const iso = (ms: number) => new Date(ms).toISOString();

const item = (claimId: string, nextAttemptAt: number): OutboxItem => ({
  leadId: claimId,
  type: "owner",
  createdAt: iso(NOW),
  attempts: 1,
  nextAttemptAt: iso(nextAttemptAt),
  lastAttemptAt: iso(NOW),
  lastError: "email: Attempt 1: HTTP 500",
  delivered: [],
});

export function ownerOutboxContract(h: StoreHarness) {
  describe("outbox: owners' messages", () => {
    it("schedules an item for a claim, due at its next attempt; a new one takes a leased item back", async () => {
      const store = await h.fresh("outbox-owner");
      const first = item("cl_aaaaaaaaaaaaaaaaaaaa", NOW + 60_000);
      await store.outbox.schedule(first);
      expect(await store.outbox.get(first.leadId)).toEqual(first);
      expect(await store.outbox.claimDue(NOW, NOW + 60_000, 10)).toEqual([]);
      expect(await store.outbox.claimDue(NOW + 60_000, NOW + 120_000, 10)).toEqual([first]);

      // Another message of the claim failed while the notifier held the item: its settle leaves it.
      const again = item(first.leadId, NOW + 150_000);
      await store.outbox.schedule(again);
      expect(await store.outbox.settle(first.leadId, NOW + 120_000, null)).toBe(false);
      expect(await store.outbox.get(first.leadId)).toEqual(again);
      expect(await store.outbox.claimDue(NOW + 150_000, NOW + 210_000, 10)).toEqual([again]);
    });

    it("moves the old retry queue into the outbox: one item per claim, an item already waiting kept", async () => {
      const store = await h.fresh("outbox-legacy");
      expect(await store.outbox.legacyRetries()).toEqual([]);
      const waiting = item("cl_bbbbbbbbbbbbbbbbbbbb", NOW + 500_000);
      await store.outbox.schedule(waiting);
      const legacy = `${store.prefix}msgs:retry`;
      await store.redis.zadd(
        legacy,
        { score: NOW, member: "cl_cccccccccccccccccccc~owner-code~sms" },
        { score: NOW + 5, member: "cl_bbbbbbbbbbbbbbbbbbbb~owner-sign-in~email" },
      );
      const entries = await store.outbox.legacyRetries();
      expect(entries).toEqual([
        { messageId: "cl_cccccccccccccccccccc~owner-code~sms", dueAt: NOW },
        { messageId: "cl_bbbbbbbbbbbbbbbbbbbb~owner-sign-in~email", dueAt: NOW + 5 },
      ]);
      const moved = item("cl_cccccccccccccccccccc", NOW);
      await store.outbox.adoptLegacyRetries(
        [moved, item(waiting.leadId, NOW + 5)],
        entries.map((e) => e.messageId),
      );
      expect(await store.redis.exists(legacy)).toBe(0);
      expect(await store.outbox.legacyRetries()).toEqual([]);
      expect(await store.outbox.get(moved.leadId)).toEqual(moved);
      expect(await store.outbox.get(waiting.leadId)).toEqual(waiting);
      expect((await store.outbox.claimDue(NOW, NOW + 60_000, 10)).map((i) => i.leadId)).toEqual([moved.leadId]);
    });
  });
}
