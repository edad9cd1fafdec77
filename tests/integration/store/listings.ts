/**
 * The listing side of the owners' repository contract, run by contract.ts on every transport:
 * claims (decided once even by two deciders at the same moment), the history of listing
 * changes (trimmed per business) and the credentials queue that follows it, and the leads
 * offered to each business.
 */
import { describe, expect, it } from "vitest";
import { newClaimId } from "../../../netlify/lib/owners/claims.ts";
import { CHANGES_KEPT } from "../../../netlify/lib/store/repos/listing-changes.ts";
import { keyspace } from "../../../netlify/lib/store/keys.ts";
import type { Claim } from "../../../src/lib/owners/claims.ts";
import type { ListingChange } from "../../../src/lib/owner-records.ts";
import type { Delivery } from "../../../src/lib/schemas/lead.ts";
import type { StoreHarness } from "./contract.types.ts";

const NOW = Date.parse("2026-11-28T12:00:00Z");

function claim(createdAt: number, status: Claim["status"] = "pending"): Claim {
  return {
    id: newClaimId(),
    kind: "claim",
    businessId: "biz-1",
    businessName: "Oak & Sons",
    claimant: { name: "Jo", email: "jo@else.test", role: "owner" },
    proof: "operator",
    status,
    createdAt: new Date(createdAt).toISOString(),
  };
}

let changeSeq = 0;
function change(businessId: string, at: number, over: Partial<ListingChange> = {}): ListingChange {
  changeSeq += 1;
  return {
    id: `ch_${at.toString(36)}${String(changeSeq).padStart(10, "0")}`,
    businessId,
    at: new Date(at).toISOString(),
    actor: { kind: "owner", email: "jo@oak.test" },
    summary: "Description",
    before: { description: "old" },
    after: { description: `new ${changeSeq}` },
    ...over,
  };
}

function delivery(businessId: string, offeredAt: number): Delivery {
  return {
    businessId,
    name: `Business ${businessId}`,
    slug: `business-${businessId}`,
    offeredAt: new Date(offeredAt).toISOString(),
    deadlineAt: new Date(offeredAt + 3_600_000).toISOString(),
    state: "waiting",
  };
}

export function listingsContract(h: StoreHarness) {
  describe("claims", () => {
    it("lists every claim or the pending queue, newest first, with both counts", async () => {
      const store = await h.fresh("claims");
      const older = await store.claims.create(claim(NOW));
      const sent = await store.claims.create(claim(NOW + 1, "sent"));
      const newer = await store.claims.create(claim(NOW + 2));
      expect(await store.claims.get(older.id)).toEqual(older);
      expect(await store.claims.get(newClaimId())).toBeNull();
      const pending = await store.claims.list({ status: "pending" });
      expect(pending).toEqual({ items: [newer, older], total: 2, pending: 2 });
      const all = await store.claims.list({ status: "all", limit: 2 });
      expect(all).toEqual({ items: [newer, sent], total: 3, pending: 2 });
      expect((await store.claims.list({ status: "all", offset: 2, limit: 2 })).items).toEqual([older]);
      expect(await store.claims.list({ status: "all", offset: 10 })).toEqual({ items: [], total: 3, pending: 2 });
    });

    it("is decided once: of two decisions made from the same reading at the same moment, one wins", async () => {
      const store = await h.fresh("claims-race");
      const read = await store.claims.create(claim(NOW));
      const at = new Date(NOW).toISOString();
      const approved: Claim = { ...read, status: "approved", decidedAt: at };
      const refused: Claim = { ...read, status: "refused", reason: "no", decidedAt: at };
      const results = await Promise.all([store.claims.settle(read, approved), store.claims.settle(read, refused)]);
      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = results[0] ? approved : refused;
      expect(await store.claims.get(read.id)).toEqual(winner);
      expect((await store.claims.list({ status: "pending" })).total).toBe(0);
      // A later decision from the old reading is refused too.
      expect(await store.claims.settle(read, approved)).toBe(false);
    });

    it("a claim that stays pending stays in the queue", async () => {
      const store = await h.fresh("claims-pending");
      const read = await store.claims.create(claim(NOW));
      const noted: Claim = { ...read, reason: "called the owner" };
      expect(await store.claims.settle(read, noted)).toBe(true);
      expect(await store.claims.list({ status: "pending" })).toMatchObject({ items: [noted], total: 1 });
    });

    it("reads claims stored as JSON under claim:{id}", async () => {
      const store = await h.fresh("claims-layout");
      const old = claim(NOW);
      const keys = keyspace(store.prefix);
      await store.redis.set(keys.claim(old.id), JSON.stringify(old));
      await store.redis.zadd(keys.claims, { score: NOW, member: old.id });
      await store.redis.zadd(keys.claimsPending, { score: NOW, member: old.id });
      expect(await store.claims.list({ status: "pending" })).toEqual({ items: [old], total: 1, pending: 1 });
    });
  });

  describe("listing changes and the credentials queue", () => {
    it("records changes per business and for all, newest first", async () => {
      const store = await h.fresh("changes");
      const a1 = change("biz-a", NOW);
      const b1 = change("biz-b", NOW + 1);
      const a2 = change("biz-a", NOW + 2, { actor: { kind: "operator" }, revertOf: a1.id });
      for (const c of [a1, b1, a2]) await store.changes.record(c);
      expect(await store.changes.get(a2.id)).toEqual(a2);
      expect(await store.changes.get("ch_missing")).toBeNull();
      expect(await store.changes.list({ businessId: "biz-a" })).toEqual({ items: [a2, a1], total: 2 });
      expect(await store.changes.list()).toEqual({ items: [a2, b1, a1], total: 3 });
      expect(await store.changes.list({ offset: 1, limit: 1 })).toEqual({ items: [b1], total: 3 });
      expect(await store.changes.list({ businessId: "biz-none" })).toEqual({ items: [], total: 0 });
    });

    it(`keeps a business's newest ${CHANGES_KEPT} changes, and only that business's`, async () => {
      const store = await h.fresh("changes-trim");
      const other = change("biz-other", NOW - 1);
      await store.changes.record(other);
      const made: ListingChange[] = [];
      for (let i = 0; i < CHANGES_KEPT + 3; i++) {
        const c = change("biz-a", NOW + i);
        made.push(c);
        await store.changes.record(c);
      }
      const kept = await store.changes.list({ businessId: "biz-a", limit: CHANGES_KEPT + 10 });
      expect(kept.total).toBe(CHANGES_KEPT);
      expect(kept.items.map((c) => c.id)).toEqual(
        made
          .slice(3)
          .reverse()
          .map((c) => c.id),
      );
      for (const gone of made.slice(0, 3)) expect(await store.changes.get(gone.id)).toBeNull();
      expect((await store.changes.list()).total).toBe(CHANGES_KEPT + 1);
      expect(await store.changes.get(other.id)).toEqual(other);
    });

    it("puts a business in the credentials queue once (keeping when it first waited) and takes it out", async () => {
      const store = await h.fresh("credentials-queue");
      await store.changes.record(change("biz-a", NOW), { credentials: "waiting" });
      await store.changes.record(change("biz-b", NOW + 10), { credentials: "waiting" });
      await store.changes.record(change("biz-a", NOW + 20), { credentials: "waiting" });
      await store.changes.record(change("biz-c", NOW + 30));
      expect(await store.credentialChecks.waiting(10)).toEqual({
        entries: [
          ["biz-a", NOW],
          ["biz-b", NOW + 10],
        ],
        total: 2,
      });
      expect(await store.credentialChecks.waiting(1)).toEqual({ entries: [["biz-a", NOW]], total: 2 });
      expect(await store.credentialChecks.waitingSince("biz-a")).toBe(NOW);
      expect(await store.credentialChecks.waitingSince("biz-c")).toBeNull();
      await store.changes.record(change("biz-a", NOW + 40), { credentials: "settled" });
      expect(await store.credentialChecks.waitingSince("biz-a")).toBeNull();
      expect(await store.credentialChecks.waiting(10)).toEqual({ entries: [["biz-b", NOW + 10]], total: 1 });
    });

    it("concurrent changes of one business are all recorded", async () => {
      const store = await h.fresh("changes-race");
      const made = Array.from({ length: 12 }, (_, i) => change("biz-a", NOW + i));
      await Promise.all(made.map((c) => store.changes.record(c, { credentials: "waiting" })));
      expect((await store.changes.list({ businessId: "biz-a", limit: 50 })).total).toBe(12);
      expect(await store.credentialChecks.waiting(5)).toMatchObject({ total: 1 });
    });
  });

  describe("leads offered to a business", () => {
    it("pages a business's leads, newest offer first, with its own delivery", async () => {
      const store = await h.fresh("business-leads");
      const made = [];
      for (let i = 0; i < 3; i++) {
        const { lead } = await store.leads.create(
          "booking",
          { i },
          { sourcePage: "/directory", routing: { deliveries: [delivery("biz-a", NOW + i)], events: [] } },
        );
        made.push(lead);
      }
      // Offered to a second business later: the first offer time stays for biz-a.
      await store.leads.mutate(made[0]!.id, (l) => ({
        ...l,
        routing: { ...l.routing!, deliveries: [...l.routing!.deliveries, delivery("biz-b", NOW + 100)] },
      }));
      const page = await store.businessLeads.page("biz-a", 0, 2);
      expect(page.total).toBe(3);
      expect(page.items.map((i) => i.lead.id)).toEqual([made[2]!.id, made[1]!.id]);
      expect(page.items.every((i) => i.delivery.businessId === "biz-a")).toBe(true);
      expect((await store.businessLeads.page("biz-a", 2, 2)).items.map((i) => i.lead.id)).toEqual([made[0]!.id]);
      const b = await store.businessLeads.page("biz-b", 0, 20);
      expect(b).toMatchObject({ total: 1, items: [{ lead: { id: made[0]!.id }, delivery: { businessId: "biz-b" } }] });
      expect(await store.businessLeads.page("biz-none", 0, 20)).toEqual({ items: [], total: 0 });
    });

    it("the backfill adds leads stored before the index, and running it again adds nothing", async () => {
      const store = await h.fresh("business-leads-backfill");
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const { lead } = await store.leads.create(
          "booking",
          { i },
          {
            sourcePage: "/directory",
            routing: { deliveries: [delivery("biz-a", NOW + i), delivery(`biz-${i}`, NOW + i)], events: [] },
          },
        );
        ids.push(lead.id);
      }
      await store.leads.create("quote", { plain: true }, { sourcePage: "/quote" });
      const keys = keyspace(store.prefix);
      await store.redis.del(keys.businessLeads("biz-a"), ...ids.map((_, i) => keys.businessLeads(`biz-${i}`)));
      expect(await store.businessLeads.backfill(2)).toBe(10);
      expect((await store.businessLeads.page("biz-a", 0, 20)).items.map((i) => i.lead.id)).toEqual([...ids].reverse());
      expect((await store.businessLeads.page("biz-3", 0, 20)).total).toBe(1);
      expect(await store.businessLeads.backfill(2)).toBe(0);
    });
  });
}
