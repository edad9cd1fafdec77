/**
 * Failed sign-ins counted per client address, locking it out for a while once there are too
 * many: the operator's token (admin/auth.ts) and owners' links and codes (owners/tokens.ts).
 * The counters are the store's (repos/lockouts.ts); this binds each scope to its policy.
 */
import type { LockoutScope, Store } from "./store/index.ts";

export interface Lockout {
  /** Seconds until a locked-out client may try again, or 0. */
  lockedOutFor(store: Store, client: string): Promise<number>;
  recordFailure(store: Store, client: string): Promise<void>;
}

export function lockout(o: { scope: LockoutScope; max: number; seconds: number }): Lockout {
  return {
    lockedOutFor: (store, client) => store.lockouts.lockedOutFor(o.scope, client, o.max, o.seconds),
    recordFailure: (store, client) => store.lockouts.recordFailure(o.scope, client, o.seconds),
  };
}
