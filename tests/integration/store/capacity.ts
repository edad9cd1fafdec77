/**
 * Capacity statements and the storm leads index, part of the repository contract run by
 * contract.ts on every transport (embedded, real Redis, Upstash REST).
 */
import { describe, expect, it } from "vitest";
import type { Capacity } from "../../../src/lib/capacity.ts";
import type { StoreHarness } from "./contract.types.ts";

const booked = (until: string, setAt = "2026-11-29T12:00:00.000Z"): Capacity => ({
  status: "booked",
  until,
  setAt,
  via: "answer",
});

export function capacityContract(h: StoreHarness) {
  describe("capacity statements", () => {
    it("stores, replaces and takes back a business's statement, its index with it", async () => {
      const store = await h.fresh("capacity");
      expect(await store.capacity.get("b-1")).toBeNull();
      await store.capacity.set("b-1", booked("2026-12-03"));
      expect(await store.capacity.get("b-1")).toEqual(booked("2026-12-03"));
      const taking: Capacity = { status: "taking", setAt: "2026-11-29T13:00:00.000Z", via: "owner" };
      await store.capacity.set("b-1", taking);
      await store.capacity.set("b-2", booked("2026-12-01", "2026-11-29T14:00:00.000Z"));
      expect(await store.capacity.get("b-1")).toEqual(taking);
      // Newest statement first.
      expect((await store.capacity.stated()).map((s) => [s.businessId, s.capacity.status])).toEqual([
        ["b-2", "booked"],
        ["b-1", "taking"],
      ]);
      const many = await store.capacity.getMany(["b-1", "b-2", "b-3"]);
      expect([...many.keys()]).toEqual(["b-1", "b-2"]);
      expect(await store.capacity.getMany([])).toEqual(new Map());
      await store.capacity.set("b-1", null);
      expect(await store.capacity.get("b-1")).toBeNull();
      expect((await store.capacity.stated()).map((s) => s.businessId)).toEqual(["b-2"]);
    });

    it("refuses a malformed statement and reads a damaged record as none", async () => {
      const store = await h.fresh("capacity-bad");
      await expect(
        store.capacity.set("b-1", { status: "booked", until: "soon", setAt: "x", via: "answer" }),
      ).rejects.toThrow();
      expect(await store.capacity.get("b-1")).toBeNull();
      await store.redis.set(`${store.prefix}biz:b-9:cap`, "{not json");
      expect(await store.capacity.get("b-9")).toBeNull();
      expect(await store.capacity.getMany(["b-9"])).toEqual(new Map());
    });
  });

  describe("storm leads", () => {
    it("indexes each lead once per event, newest first, apart from other events", async () => {
      const store = await h.fresh("storm-leads");
      await store.stormLeads.add("s-1", "lead-a", 1_000);
      await store.stormLeads.add("s-1", "lead-b", 2_000);
      // A repeat keeps the first arrival.
      await store.stormLeads.add("s-1", "lead-a", 9_000);
      await store.stormLeads.add("s-2", "lead-c", 3_000);
      expect(await store.stormLeads.list("s-1")).toEqual([
        { leadId: "lead-b", at: 2_000 },
        { leadId: "lead-a", at: 1_000 },
      ]);
      expect(await store.stormLeads.count("s-1")).toBe(2);
      expect(await store.stormLeads.count("s-3")).toBe(0);
      expect(await store.stormLeads.list("s-1", 1)).toEqual([{ leadId: "lead-b", at: 2_000 }]);
    });

    it("a lead created inside a storm is indexed in the same write; statuses reads each one's status", async () => {
      const store = await h.fresh("storm-lead-statuses");
      const create = (storm?: string) =>
        store.leads.create(
          "find-pros",
          { name: "Sam" },
          { sourcePage: "/", urgency: "emergency", ...(storm ? { storm } : {}) },
        );
      const { lead: first } = await create("storm_a");
      const { lead: second } = await create("storm_a");
      const { lead: outside } = await create();
      expect(first.storm).toBe("storm_a");
      expect(outside.storm).toBeUndefined();
      await store.leads.update(second.id, { closed: true });
      const statuses = await store.stormLeads.statuses("storm_a");
      expect(statuses.map((s) => [s.leadId, s.status])).toEqual([
        [second.id, "closed"],
        [first.id, "new"],
      ]);
      expect(statuses[1]!.at).toBe(Date.parse(first.createdAt));
      expect(await store.stormLeads.count("storm_a")).toBe(2);
    });
  });
}
