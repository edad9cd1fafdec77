/**
 * Contract suite on a real Redis (REDIS_URL, else 127.0.0.1:6379 when it answers).
 * Mandatory under CI=true: an unreachable server fails this file.
 */
import { createStore, type Store } from "../../../netlify/lib/store/index.ts";
import { deleteKeysWithPrefix, resolveTestRedisUrl, uniquePrefix } from "../../helpers/redis.ts";
import { defineStoreContract } from "./contract.ts";

defineStoreContract("redis", async () => {
  const url = await resolveTestRedisUrl();
  if (!url) return null;
  const stores: Store[] = [];
  // Every store of the suite under one prefix: clean-up is one SCAN of the whole key space,
  // not one per store (a shared Redis holds every other suite's keys meanwhile).
  const suite = uniquePrefix("redis");
  return {
    async fresh(label) {
      const store = createStore({ transport: "redis", url, prefix: `${suite}${label}-${stores.length}:` });
      stores.push(store);
      return store;
    },
    async teardown() {
      for (const store of stores) await store.close();
      await deleteKeysWithPrefix(url, suite);
    },
  };
});
