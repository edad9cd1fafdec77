/**
 * The change history behind every owner edit (netlify/lib/owners/changes.ts), on real Redis:
 * what is recorded, what is purged, what a rollback puts back, and what is never recorded.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStore, type Store } from "../../../netlify/lib/store/index.ts";
import {
  CHANGES_KEPT,
  applyListingChange,
  getChange,
  listChanges,
  rollbackChange,
} from "../../../netlify/lib/owners/changes.ts";
import { testBusiness } from "../../helpers/functions.ts";
import { deleteKeysWithPrefix, resolveTestRedisUrl, uniquePrefix } from "../../helpers/redis.ts";

const url = await resolveTestRedisUrl();
const T0 = Date.parse("2026-11-28T15:00:00Z");

/** A business whose Monday hours the first test changes. */
const base = (id: string) => testBusiness(id, { businessHours: { monday: "7:00 AM - 6:00 PM" } });

describe.skipIf(!url)("listing changes", () => {
  let store: Store;
  const purged: string[][] = [];
  const purge = async (tags: string[]) => {
    purged.push(tags);
  };

  beforeAll(async () => {
    store = createStore({ transport: "redis", url: url!, prefix: uniquePrefix("changes") });
    await store.businesses.upsert(base("c1"));
    await store.businesses.upsert(base("c2"));
  });
  afterAll(async () => {
    await store.close();
    await deleteKeysWithPrefix(url!, store.prefix);
  });

  it("writes the business, records only the fields that changed, and purges its pages", async () => {
    purged.length = 0;
    const { business, change } = await applyListingChange(
      store,
      {
        businessId: "c1",
        actor: { kind: "owner", email: "owner@example.com" },
        summary: "Hours",
        patch: { businessHours: { monday: "8:00 AM - 5:00 PM" }, phone: "(512) 555-0100" },
      },
      T0,
      purge,
    );
    expect(business.businessHours).toEqual({ monday: "8:00 AM - 5:00 PM" });
    expect(change).toMatchObject({
      businessId: "c1",
      at: new Date(T0).toISOString(),
      actor: { kind: "owner", email: "owner@example.com" },
      before: { businessHours: { monday: "7:00 AM - 6:00 PM" } },
      after: { businessHours: { monday: "8:00 AM - 5:00 PM" } },
    });
    // The phone was sent unchanged: not part of the change.
    expect(Object.keys(change!.after)).toEqual(["businessHours"]);
    expect(purged).toEqual([["directory", "business-c1"]]);
    expect((await store.businesses.get("c1"))!.businessHours).toEqual({ monday: "8:00 AM - 5:00 PM" });
    expect(await getChange(store, change!.id)).toEqual(change);
  });

  it("records nothing and purges nothing when nothing changes", async () => {
    purged.length = 0;
    const before = await listChanges(store, { businessId: "c1" });
    const { change } = await applyListingChange(
      store,
      { businessId: "c1", actor: { kind: "operator" }, summary: "Same", patch: { phone: "(512) 555-0100" } },
      T0 + 1000,
      purge,
    );
    expect(change).toBeNull();
    expect(purged).toEqual([]);
    expect((await listChanges(store, { businessId: "c1" })).total).toBe(before.total);
  });

  it("removes a field given as null, and a rollback puts it back as a new operator change", async () => {
    const { change } = await applyListingChange(
      store,
      { businessId: "c2", actor: { kind: "owner", email: "o@example.com" }, summary: "Phone", patch: { phone: null } },
      T0 + 2000,
      purge,
    );
    expect((await store.businesses.get("c2"))!.phone).toBeUndefined();
    expect(change!.before).toEqual({ phone: "(512) 555-0100" });
    expect(change!.after).toEqual({ phone: null });

    const undone = await rollbackChange(store, change!.id, T0 + 3000, purge);
    expect(undone.business.phone).toBe("(512) 555-0100");
    expect(undone.change).toMatchObject({
      actor: { kind: "operator" },
      summary: "Rolled back: Phone",
      revertOf: change!.id,
    });
    const history = await listChanges(store, { businessId: "c2" });
    expect(history.items.map((c) => c.summary)).toEqual(["Rolled back: Phone", "Phone"]);
    // The site-wide list has every business's changes, newest first.
    const all = await listChanges(store);
    expect(all.items[0]!.id).toBe(undone.change!.id);
  });

  it("keeps the rating and review count, which are not the owner's", async () => {
    await store.reviews.add("c1", { customerName: "Ann", rating: 4 });
    const { business } = await applyListingChange(
      store,
      {
        businessId: "c1",
        actor: { kind: "owner", email: "o@example.com" },
        summary: "About",
        patch: { description: "New text." },
      },
      T0 + 4000,
      purge,
    );
    expect(business).toMatchObject({ description: "New text.", rating: "4.0", reviewCount: 1 });
  });

  it("refuses an unknown business and an unknown change", async () => {
    await expect(
      applyListingChange(
        store,
        { businessId: "nope", actor: { kind: "operator" }, summary: "x", patch: {} },
        T0,
        purge,
      ),
    ).rejects.toMatchObject({ entity: "business" });
    await expect(rollbackChange(store, "ch_missing", T0, purge)).rejects.toMatchObject({ entity: "change" });
  });

  it(`keeps the newest ${CHANGES_KEPT} changes of a business`, async () => {
    await store.businesses.upsert(base("c3"));
    for (let i = 0; i < CHANGES_KEPT + 3; i++) {
      await applyListingChange(
        store,
        { businessId: "c3", actor: { kind: "operator" }, summary: `Edit ${i}`, patch: { description: `Text ${i}` } },
        T0 + i,
        purge,
      );
    }
    const kept = await listChanges(store, { businessId: "c3", limit: 1000 });
    expect(kept.total).toBe(CHANGES_KEPT);
    expect(kept.items.at(-1)!.summary).toBe("Edit 3");
  }, 60_000);
});
