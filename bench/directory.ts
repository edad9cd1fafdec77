/**
 * npm run bench:directory
 *
 * Directory query latency at 1k, 10k and 100k businesses on the real Redis (REDIS_URL or
 * 127.0.0.1:6379). Each size is bulk-loaded under its own key prefix with exactly the
 * repository's key layout (indexPlan), queried through the repository, then deleted.
 * Prints p50/p95 per query kind and size, the 100k/1k ratio (target <= 1.5) and the Redis
 * round trips each kind costs; writes bench/results/directory.json. It measures; it never
 * fails a build.
 *
 * Near-me rows: every synthetic business sits at a real US ZIP centroid. The first 1,000
 * are in the four Texas metros (ZIPs within 40 miles of their centres: about the number of
 * tree services those areas really have), and growth beyond that covers the rest of the
 * country (ZIPs over 100 miles from them), the way a directory grows past its first metros:
 * Round Rock does not get a hundred times more tree services. So the rows show what a
 * search costs as the directory grows, with the businesses inside the radius held alike
 * (their count per query is printed). Queries: a metro ZIP + radius + service + open now,
 * and a ZIP with nearest first. See docs/directory.md.
 *
 * Options: BENCH_SIZES=1000,10000 BENCH_SAMPLES=500
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { CITIES, PRO_SERVICES } from "../src/lib/options.ts";
import { findPlace } from "../src/lib/geo/places.ts";
import { createStore, DEFAULT_PREFIX, type Store } from "../netlify/lib/store/index.ts";
import { keyspace } from "../netlify/lib/store/keys.ts";
import { benchKeys, bulkLoad, rng } from "./synthetic-directory.ts";

const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379";
const SIZES = (process.env.BENCH_SIZES ?? "1000,10000,100000").split(",").map(Number);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 500);
const WARMUP = 30;
const BASE_PREFIX = `${process.env.REDIS_KEY_PREFIX ?? DEFAULT_PREFIX}bench:${process.pid}:`;

// --- measurement ---------------------------------------------------------------------------

type Kind =
  | "search: 1 word"
  | "search: 2+ words"
  | "city / page"
  | "featured"
  | "slug lookup"
  | "near: ZIP+radius+service+open"
  | "near: ZIP, nearest first";
const KINDS: Kind[] = [
  "search: 1 word",
  "search: 2+ words",
  "city / page",
  "featured",
  "slug lookup",
  "near: ZIP+radius+service+open",
  "near: ZIP, nearest first",
];
/** Where near-me searches start: suburbs and cores of the four metros. */
const NEAR_ZIPS = [
  "78664",
  "78660",
  "78701",
  "78745",
  "77494",
  "77002",
  "77380",
  "75024",
  "75201",
  "76010",
  "78130",
  "78209",
].map((z) => findPlace(z)!);
const COLD: Kind = "search: 2+ words";

const ONE_WORD = [
  "oak",
  "stump",
  "crane",
  "pecan",
  "emergency",
  "cedar",
  "trim",
  "arbor",
  "hurric",
  "palm",
  "mulch",
  "remov",
  "magnolia",
  "hoa",
  "bilingual",
  "cypress",
];
const MULTI_WORD = [
  "oak wilt",
  "stump grinding",
  "storm cleanup",
  "tree removal",
  "live oak",
  "crane removal",
  "emergency tree",
  "pecan pruning",
];

function operations(store: Store, slugs: string[], r: ReturnType<typeof rng>): Record<Kind, () => Promise<unknown>> {
  const city = () => (r.next() < 0.5 ? r.pick(CITIES).value : undefined);
  return {
    "search: 1 word": () =>
      store.businesses.list({ search: r.pick(ONE_WORD), city: city(), offset: r.pick([0, 0, 12]) }),
    "search: 2+ words": () =>
      store.businesses.list({ search: r.pick(MULTI_WORD), city: city(), offset: r.pick([0, 0, 12]) }),
    "city / page": () =>
      store.businesses.list({
        city: r.next() < 0.8 ? r.pick(CITIES).value : undefined,
        featured: r.next() < 0.2,
        offset: 12 * r.int(4),
      }),
    featured: () => (r.next() < 0.5 ? store.businesses.featured() : store.businesses.list({ featured: true })),
    "slug lookup": () => store.businesses.getBySlug(r.pick(slugs)),
    "near: ZIP+radius+service+open": () =>
      store.businesses.list({
        near: r.pick(NEAR_ZIPS),
        radius: r.pick([10, 25, 50]),
        service: r.pick(PRO_SERVICES).value,
        openNow: true,
        offset: r.pick([0, 0, 12]),
      }),
    "near: ZIP, nearest first": () => store.businesses.list({ near: r.pick(NEAR_ZIPS), radius: 25, sort: "distance" }),
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

interface Stats {
  p50: number;
  p95: number;
}

function stats(all: number[]): Stats {
  const sorted = [...all].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
}

/**
 * Samples every size and kind round-robin (not one block per size or kind), so drift on a
 * shared machine (CPU frequency, neighbors, GC) lands on all of them alike.
 */
async function measure(
  bySize: Map<number, Record<Kind, () => Promise<unknown>>>,
  samples: number,
): Promise<Map<number, Record<Kind, number[]>>> {
  const out = new Map<number, Record<Kind, number[]>>();
  for (const size of bySize.keys())
    out.set(size, Object.fromEntries(KINDS.map((k) => [k, [] as number[]])) as Record<Kind, number[]>);
  for (let i = 0; i < samples; i++) {
    for (const [size, ops] of bySize) {
      for (const kind of KINDS) {
        const before = roundTrips.get(size)!.count;
        const t = performance.now();
        const answer = await ops[kind]();
        out.get(size)![kind].push(performance.now() - t);
        const total = (answer as { total?: unknown } | null)?.total;
        if (kind.startsWith("near") && typeof total === "number") {
          const seen = (matched.get(size)![kind] ??= { sum: 0, n: 0 });
          seen.sum += total;
          seen.n++;
        }
        const trips = roundTrips.get(size)!;
        const n = trips.count - before;
        const seen = (trips.byKind[kind] ??= { min: n, max: n });
        seen.min = Math.min(seen.min, n);
        seen.max = Math.max(seen.max, n);
      }
    }
  }
  return out;
}

/** Matches per near-me query (businesses inside the radius passing the filters), averaged. */
const matched = new Map<number, Partial<Record<Kind, { sum: number; n: number }>>>();

/** Requests each store sent to Redis (one per command, pipeline or transaction: a round trip each). */
const roundTrips = new Map<number, { count: number; byKind: Partial<Record<Kind, { min: number; max: number }>> }>();
function countRoundTrips(size: number, store: Store): void {
  const counter = { count: 0, byKind: {} };
  roundTrips.set(size, counter);
  matched.set(size, {});
  // The client's requester is where every command, pipeline and MULTI leaves for Redis.
  const client = (store.redis as unknown as { client: { request: (req: unknown) => Promise<unknown> } }).client;
  const request = client.request.bind(client);
  client.request = (req) => {
    counter.count++;
    return request(req);
  };
}

// The bulk load leaves a lot of garbage; collect it before timing instead of during.
setFlagsFromString("--expose_gc");
const gc = runInNewContext("gc") as () => void;

// --- main ----------------------------------------------------------------------------------

const results: Record<number, Record<string, Stats> & { loadSeconds: number }> = {};
const { admin, loaded, cleanUp } = benchKeys(REDIS_URL);

const stores: Store[] = [];
let redisMemory: string;
try {
  await admin.ping();
  console.log(
    `[bench] Redis ${REDIS_URL.replace(/\/\/[^@]*@/, "//***@")}, sizes ${SIZES.join(", ")}, ${SAMPLES} samples per query kind and size`,
  );
  // All sizes live side by side and are measured in the same time window.
  const ops = new Map<number, Record<Kind, () => Promise<unknown>>>();
  const loadSeconds = new Map<number, number>();
  for (const size of SIZES) {
    const prefix = `${BASE_PREFIX}${size}:`;
    loaded.push(prefix);
    const started = performance.now();
    const { slugs } = await bulkLoad(REDIS_URL, prefix, size);
    loadSeconds.set(size, (performance.now() - started) / 1000);
    console.log(`[bench] ${size} businesses loaded in ${loadSeconds.get(size)!.toFixed(1)} s`);
    const store = createStore({ transport: "redis", url: REDIS_URL, prefix });
    stores.push(store);
    countRoundTrips(size, store);
    ops.set(size, operations(store, slugs, rng(7)));
  }
  redisMemory = /used_memory_human:(\S+)/.exec(await admin.info("memory"))?.[1] ?? "?";
  gc();
  await measure(ops, WARMUP);
  const timings = await measure(ops, SAMPLES);
  // Multi-word searches right after a directory write (cache miss): informational.
  const cold = new Map<number, number[]>(SIZES.map((s) => [s, []]));
  for (let i = 0; i < Math.min(SAMPLES, 60); i++) {
    for (const size of SIZES) {
      await admin.incr(keyspace(`${BASE_PREFIX}${size}:`).version);
      const t = performance.now();
      await ops.get(size)![COLD]();
      cold.get(size)!.push(performance.now() - t);
    }
  }
  for (const size of SIZES) {
    const row: Record<string, Stats> = Object.fromEntries(KINDS.map((k) => [k, stats(timings.get(size)![k])]));
    row[`${COLD} (cache miss)`] = stats(cold.get(size)!);
    results[size] = Object.assign(row, { loadSeconds: loadSeconds.get(size)! });
  }
} finally {
  await Promise.all(stores.map((s) => s.close()));
  await cleanUp();
  admin.disconnect();
}

// --- report --------------------------------------------------------------------------------

const sizes = SIZES.filter((s) => results[s]);
const small = sizes[0]!;
const large = sizes[sizes.length - 1]!;
const rows = [...KINDS, `${COLD} (cache miss)`];
const ms = (v: number) => v.toFixed(2).padStart(7);
const tripsText = (kind: string) => {
  const all = sizes
    .map((s) => roundTrips.get(s)?.byKind[kind as Kind])
    .filter((t): t is { min: number; max: number } => !!t);
  if (all.length === 0) return "";
  const min = Math.min(...all.map((t) => t.min));
  const max = Math.max(...all.map((t) => t.max));
  return min === max ? String(min) : `${min}-${max}`;
};
const header = `${"query".padEnd(32)}${sizes.map((s) => `${`${s / 1000}k p50`.padStart(9)}${`p95`.padStart(8)}`).join("")}   ratio ${large / 1000}k/${small / 1000}k (p50 / p95)   round trips`;
console.log(`\n${header}\n${"-".repeat(header.length)}`);
const ratios: { kind: string; p50: number; p95: number }[] = [];
for (const kind of rows) {
  const a = results[small]![kind]!;
  const b = results[large]![kind]!;
  const ratio = { kind, p50: b.p50 / a.p50, p95: b.p95 / a.p95 };
  ratios.push(ratio);
  const cells = sizes.map((s) => `  ${ms(results[s]![kind]!.p50)} ${ms(results[s]![kind]!.p95)}`).join("");
  console.log(
    `${kind.padEnd(32)}${cells}   ${`${ratio.p50.toFixed(2)} / ${ratio.p95.toFixed(2)}`.padEnd(22)}${tripsText(kind)}`,
  );
}
const headline = ratios.filter((r) => !r.kind.includes("cache miss"));
const overall = { p50: Math.max(...headline.map((r) => r.p50)), p95: Math.max(...headline.map((r) => r.p95)) };
const ok = overall.p50 <= 1.5 && overall.p95 <= 1.5;
console.log(
  `\nworst ratio ${large / 1000}k/${small / 1000}k over the request-path queries: p50 ${overall.p50.toFixed(2)}, p95 ${overall.p95.toFixed(2)} (target <= 1.5: ${ok ? "met" : "NOT met"})`,
);
console.log(
  "times in ms per repository call, sequential, including the round trips to Redis; 'cache miss' = first multi-word search after a directory write (grows with the smallest posting list)",
);
console.log(
  "round trips = requests to Redis per call (a pipeline or MULTI is one), min-max over every sample at every size; near-me: the first 1k businesses in the four metros, growth elsewhere in the US (see the header comment)",
);
for (const kind of KINDS.filter((k) => k.startsWith("near"))) {
  const avg = sizes.map((s) => {
    const m = matched.get(s)?.[kind];
    return `${s / 1000}k ${m && m.n ? (m.sum / m.n).toFixed(0) : "?"}`;
  });
  console.log(`matches per query, ${kind}: ${avg.join(", ")}`);
}
console.log(
  `load: ${sizes.map((s) => `${s / 1000}k ${results[s]!.loadSeconds.toFixed(1)} s`).join(", ")}; Redis memory with all sizes loaded: ${redisMemory}`,
);

mkdirSync("bench/results", { recursive: true });
writeFileSync(
  "bench/results/directory.json",
  JSON.stringify(
    {
      date: new Date().toISOString(),
      redis: REDIS_URL.replace(/\/\/[^@]*@/, "//***@"),
      samples: SAMPLES,
      results,
      ratios,
      overall,
      roundTrips: Object.fromEntries(sizes.map((s) => [s, roundTrips.get(s)?.byKind])),
    },
    null,
    2,
  ),
);
