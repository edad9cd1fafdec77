/** Contract suite on the embedded store (ioredis-mock, in memory). */
import { createStore, type Store } from "../../../netlify/lib/store/index.ts";
import { defineStoreContract } from "./contract.ts";

defineStoreContract("embedded", async () => {
  const stores: Store[] = [];
  return {
    async fresh(label) {
      const store = createStore({ transport: "embedded", prefix: `treeline:test:${label}:` });
      stores.push(store);
      return store;
    },
    async teardown() {
      await Promise.all(stores.map((s) => s.close()));
    },
  };
});
