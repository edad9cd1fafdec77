/**
 * Failed sign-ins counted per client address, locking it out for a while once there are too
 * many: the operator's token (admin/auth.ts) and owners' links and codes (owners/tokens.ts).
 * The address is hashed in the key: it is nobody's business in a key listing.
 */
import { createHash } from "node:crypto";
import { asNumber } from "./store/decode.ts";
import { keyspace, type Keys } from "./store/keys.ts";
import type { Store } from "./store/index.ts";

export interface Lockout {
  /** Seconds until a locked-out client may try again, or 0. */
  lockedOutFor(store: Store, client: string): Promise<number>;
  recordFailure(store: Store, client: string): Promise<void>;
}

export function lockout(o: {
  key: (keys: Keys, hashedClient: string) => string;
  max: number;
  seconds: number;
}): Lockout {
  const keyOf = (store: Store, client: string) =>
    o.key(keyspace(store.prefix), createHash("sha256").update(client, "utf8").digest("hex").slice(0, 32));
  return {
    async lockedOutFor(store, client) {
      const key = keyOf(store, client);
      const p = store.redis.pipeline();
      p.get(key);
      p.ttl(key);
      const [count, ttl] = await p.exec<[unknown, number]>();
      return asNumber(count) >= o.max ? Math.max(1, asNumber(ttl, o.seconds)) : 0;
    },
    async recordFailure(store, client) {
      const key = keyOf(store, client);
      // One transaction: the window starts at the first failure (later ones do not extend it), and
      // a counter can never be left without its expiry, which would lock the address out for good.
      await store.redis.multi().set(key, 0, { nx: true, ex: o.seconds }).incr(key).exec();
    },
  };
}
