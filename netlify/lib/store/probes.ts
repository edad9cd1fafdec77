/** The health checks a store answers: does it reply, and does a write land. */
import type { Redis } from "@upstash/redis";
import type { Keys } from "./keys.ts";
import type { StoreKind } from "./store.types.ts";
import type { EmbeddedBackend } from "./transports/embedded.ts";
import type { LazyBackend } from "./transports/lazy.ts";

export function probes(kind: StoreKind, redis: Redis, keys: Keys, lazy: LazyBackend | undefined) {
  return {
    ping: () => within(redis.ping().then((pong) => pong === "PONG")),
    writable: () =>
      within(
        kind === "embedded"
          ? // Whether the log is still the file and takes data, and the folder takes a new file:
            // a probe key would sit in the log (and the next snapshot) for every health check.
            lazy!.get().then((backend) => (backend as unknown as EmbeddedBackend).canSave())
          : // A key of its own that expires: nothing else reads it, so the probe changes nothing.
            redis.set(keys.healthProbe, new Date().toISOString(), { ex: 60 }).then((ok) => ok === "OK"),
      ),
  };
}

/** `answer`, or false when it fails or takes longer than 2 s. */
async function within(answer: Promise<boolean>): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), 2_000);
  });
  try {
    return await Promise.race([answer.catch(() => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
