/**
 * The operator's credentials queue follows every change to a listing's credentials, whoever
 * made it: the owner's statement, the operator's check, and a rollback of either
 * (netlify/lib/owners/changes.ts keeps it in the change's own transaction).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStore, type Store } from "../../../netlify/lib/store/index.ts";
import { keyspace } from "../../../netlify/lib/store/keys.ts";
import { applyListingChange, rollbackChange } from "../../../netlify/lib/owners/changes.ts";
import { testBusiness } from "../../helpers/functions.ts";
import { deleteKeysWithPrefix, resolveTestRedisUrl, uniquePrefix } from "../../helpers/redis.ts";

const url = await resolveTestRedisUrl();
const T0 = Date.parse("2026-11-28T15:00:00Z");
const purge = async () => {};
const licence = { state: "MD", type: "LTE", number: "1234" };

describe.skipIf(!url)("the credentials queue", () => {
  let store: Store;
  const queued = async (id: string) =>
    (await store.redis.zscore(keyspace(store.prefix).credentialsPending, id)) !== null;

  beforeAll(async () => {
    store = createStore({ transport: "redis", url: url!, prefix: uniquePrefix("cred-queue") });
    await store.businesses.upsert(testBusiness("q1", { state: "MD" }));
  });
  afterAll(async () => {
    await store.close();
    await deleteKeysWithPrefix(url!, store.prefix);
  });

  it("joins it on an owner's statement, leaves it on the check, and a rollback of each puts that back", async () => {
    const owner = { kind: "owner" as const, email: "o@example.com" };
    const stated = await applyListingChange(
      store,
      { businessId: "q1", actor: owner, summary: "Licence", patch: { credentials: { licence } } },
      T0,
      purge,
    );
    expect(await queued("q1")).toBe(true);

    const checked = await applyListingChange(
      store,
      {
        businessId: "q1",
        actor: { kind: "operator" },
        summary: "Licence checked",
        patch: { credentials: { licence: { ...licence, check: { checkedAt: new Date(T0 + 1000).toISOString() } } } },
      },
      T0 + 1000,
      purge,
    );
    expect(await queued("q1")).toBe(false);

    // Undoing the check: the licence waits for a check again.
    await rollbackChange(store, checked.change!.id, T0 + 2000, purge);
    expect(await queued("q1")).toBe(true);
    // Undoing the statement: nothing is left to check.
    await rollbackChange(store, stated.change!.id, T0 + 3000, purge);
    expect((await store.businesses.get("q1"))!.credentials).toBeUndefined();
    expect(await queued("q1")).toBe(false);
  });
});
