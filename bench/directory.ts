/**
 * npm run bench:directory
 *
 * Directory query latency at 1k, 10k and 100k businesses on the real Redis (REDIS_URL or
 * 127.0.0.1:6379). Each size is bulk-loaded under its own key prefix with exactly the
 * repository's key layout (indexPlan), queried through the repository, then deleted.
 * Prints p50/p95 per query kind and size and the 100k/1k ratio (target <= 1.5);
 * writes bench/results/directory.json. It measures; it never fails a build.
 *
 * Options: BENCH_SIZES=1000,10000 BENCH_SAMPLES=500
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { CITIES } from "../src/lib/options.ts";
import { createStore, DEFAULT_PREFIX, type Store } from "../netlify/lib/store/index.ts";
import { keyspace } from "../netlify/lib/store/keys.ts";
import { benchKeys, bulkLoad, rng } from "./synthetic-directory.ts";

const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379";
const SIZES = (process.env.BENCH_SIZES ?? "1000,10000,100000").split(",").map(Number);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 500);
const WARMUP = 30;
const BASE_PREFIX = `${process.env.REDIS_KEY_PREFIX ?? DEFAULT_PREFIX}bench:${process.pid}:`;

// --- measurement ---------------------------------------------------------------------------

type Kind = "search: 1 word" | "search: 2+ words" | "city / page" | "featured" | "slug lookup";
const KINDS: Kind[] = ["search: 1 word", "search: 2+ words", "city / page", "featured", "slug lookup"];
const COLD: Kind = "search: 2+ words";

const ONE_WORD = ["oak", "stump", "crane", "pecan", "emergency", "cedar", "trim", "arbor", "hurric", "palm", "mulch", "remov", "magnolia", "hoa", "bilingual", "cypress"];
const MULTI_WORD = ["oak wilt", "stump grinding", "storm cleanup", "tree removal", "live oak", "crane removal", "emergency tree", "pecan pruning"];

function operations(store: Store, slugs: string[], r: ReturnType<typeof rng>): Record<Kind, () => Promise<unknown>> {
  const city = () => (r.next() < 0.5 ? r.pick(CITIES).value : undefined);
  return {
    "search: 1 word": () => store.businesses.list({ search: r.pick(ONE_WORD), city: city(), offset: r.pick([0, 0, 12]) }),
    "search: 2+ words": () => store.businesses.list({ search: r.pick(MULTI_WORD), city: city(), offset: r.pick([0, 0, 12]) }),
    "city / page": () =>
      store.businesses.list({ city: r.next() < 0.8 ? r.pick(CITIES).value : undefined, featured: r.next() < 0.2, offset: 12 * r.int(4) }),
    featured: () => (r.next() < 0.5 ? store.businesses.featured() : store.businesses.list({ featured: true })),
    "slug lookup": () => store.businesses.getBySlug(r.pick(slugs)),
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

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
 * shared machine (CPU frequency, neighbours, GC) lands on all of them alike.
 */
async function measure(
  bySize: Map<number, Record<Kind, () => Promise<unknown>>>,
  samples: number,
): Promise<Map<number, Record<Kind, number[]>>> {
  const out = new Map<number, Record<Kind, number[]>>();
  for (const size of bySize.keys()) out.set(size, Object.fromEntries(KINDS.map((k) => [k, [] as number[]])) as Record<Kind, number[]>);
  for (let i = 0; i < samples; i++) {
    for (const [size, ops] of bySize) {
      for (const kind of KINDS) {
        const t = performance.now();
        await ops[kind]();
        out.get(size)![kind].push(performance.now() - t);
      }
    }
  }
  return out;
}

// The bulk load leaves a lot of garbage; collect it before timing instead of during.
setFlagsFromString("--expose_gc");
const gc = runInNewContext("gc") as () => void;

// --- main ----------------------------------------------------------------------------------

const results: Record<number, Record<string, Stats> & { loadSeconds: number }> = {};
const { admin, loaded, cleanUp } = benchKeys(REDIS_URL);

const stores: Store[] = [];
let redisMemory = "?";
try {
  await admin.ping();
  console.log(`[bench] Redis ${REDIS_URL.replace(/\/\/[^@]*@/, "//***@")}, sizes ${SIZES.join(", ")}, ${SAMPLES} samples per query kind and size`);
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
const header = `${"query".padEnd(30)}${sizes.map((s) => `${`${s / 1000}k p50`.padStart(9)}${`p95`.padStart(8)}`).join("")}   ratio ${large / 1000}k/${small / 1000}k (p50 / p95)`;
console.log(`\n${header}\n${"-".repeat(header.length)}`);
const ratios: { kind: string; p50: number; p95: number }[] = [];
for (const kind of rows) {
  const a = results[small]![kind]!;
  const b = results[large]![kind]!;
  const ratio = { kind, p50: b.p50 / a.p50, p95: b.p95 / a.p95 };
  ratios.push(ratio);
  const cells = sizes.map((s) => `  ${ms(results[s]![kind]!.p50)} ${ms(results[s]![kind]!.p95)}`).join("");
  console.log(`${kind.padEnd(30)}${cells}   ${ratio.p50.toFixed(2)} / ${ratio.p95.toFixed(2)}`);
}
const headline = ratios.filter((r) => !r.kind.includes("cache miss"));
const overall = { p50: Math.max(...headline.map((r) => r.p50)), p95: Math.max(...headline.map((r) => r.p95)) };
const ok = overall.p50 <= 1.5 && overall.p95 <= 1.5;
console.log(`\nworst ratio ${large / 1000}k/${small / 1000}k over the request-path queries: p50 ${overall.p50.toFixed(2)}, p95 ${overall.p95.toFixed(2)} (target <= 1.5: ${ok ? "met" : "NOT met"})`);
console.log("times in ms per repository call, sequential, including the round trips to Redis; 'cache miss' = first multi-word search after a directory write (grows with the smallest posting list)");
console.log(`load: ${sizes.map((s) => `${s / 1000}k ${results[s]!.loadSeconds.toFixed(1)} s`).join(", ")}; Redis memory with all sizes loaded: ${redisMemory}`);

mkdirSync("bench/results", { recursive: true });
writeFileSync(
  "bench/results/directory.json",
  JSON.stringify({ date: new Date().toISOString(), redis: REDIS_URL.replace(/\/\/[^@]*@/, "//***@"), samples: SAMPLES, results, ratios, overall }, null, 2),
);
