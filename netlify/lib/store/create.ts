/** createStore: a client over the chosen transport, its repositories, and first-use seeding. */
import { openClient } from "./client.ts";
import { keyspace } from "./keys.ts";
import { probes } from "./probes.ts";
import { rawRepositories, storeRepositories } from "./repositories.ts";
import { countRoundTrips } from "./round-trips.ts";
import { readSeedFile, seedDirectory } from "./seed.ts";
import type { CreateStoreOptions, Store } from "./store.types.ts";
import type { EmbeddedBackend } from "./transports/embedded.ts";

export const DEFAULT_PREFIX = "treeline:";

export function createStore(options: CreateStoreOptions): Store {
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const keys = keyspace(prefix);
  const { redis, lazy, description } = openClient(options);

  countRoundTrips(redis);

  const raw = rawRepositories(redis, keys);

  const batch = async <T>(fn: () => Promise<T>): Promise<T> => {
    if (options.transport !== "embedded" || !lazy) return fn();
    const backend = (await lazy.get()) as unknown as EmbeddedBackend;
    return backend.exclusive(fn);
  };

  const seedFile = options.seedFile;
  let readyPromise: Promise<void> | undefined;
  const ready = () =>
    (readyPromise ??= (async () => {
      if (lazy) await lazy.get();
      if (!seedFile) return;
      // Embedded: one batch (other callers wait), so concurrent first requests seed once.
      // Servers: two instances may both seed, which is harmless because seeding is idempotent.
      await batch(async () => {
        if ((await raw.businesses.count()) > 0) return;
        const report = await seedDirectory(raw, readSeedFile(seedFile));
        await raw.meta.seeded(seedFile, new Date(), report.samples > 0);
        console.log(
          `[store] seeded ${report.businesses} businesses and ${report.reviewsAdded} reviews from ${seedFile}` +
            (report.samples > 0 ? " (sample data: a demo, labeled on every page)" : ""),
        );
      });
    })());

  if (options.log) console.log(`[store] using ${description} (key prefix "${prefix}")`);

  return {
    kind: options.transport,
    prefix,
    redis,
    description,
    ...probes(options.transport, redis, keys, lazy),
    ...storeRepositories(raw, redis, keys, ready),
    ready,
    batch,
    async close() {
      await lazy?.close();
    },
  };
}
