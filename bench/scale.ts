/**
 * npm run bench:scale
 *
 * Does the site grow with the directory? For each size (default 48, 10k, 100k businesses) it
 * bulk-loads synthetic businesses (bench/synthetic-directory.ts, the bench:directory data) into
 * the real Redis (REDIS_URL or 127.0.0.1:6379) under a unique "scale-bench-" prefix, gives a
 * few of them real reviews, runs `astro build` against that store and prints the build time,
 * dist's file count and bytes, and, from the built on-demand function in a fresh process:
 * /directory's HTML gzip bytes, a business page's cold render (first in the process, module
 * load not included; shown separately) and warm render time, and the Redis round trips per
 * business page render (the page's Server-Timing). Deletes its keys at the end, also on
 * Ctrl-C. Writes bench/results/scale.json. It measures; it never fails a build.
 *
 * Options: BENCH_SIZES=48,10000,30000 BENCH_RENDERS=20
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createStore } from "../netlify/lib/store/index.ts";
import { benchKeys, bulkLoad, deletePrefix, rng } from "./synthetic-directory.ts";

const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379";
const SIZES = (process.env.BENCH_SIZES ?? "48,10000,100000").split(",").map(Number);
const RENDERS = Math.max(2, Number(process.env.BENCH_RENDERS ?? 20));
/** Reviews given to each measured business, so a render reads review bodies too. */
const REVIEWS_EACH = 5;
const BASE_PREFIX = `scale-bench-${process.pid}-`;
const NODE = process.execPath;

function walk(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      const sub = walk(full);
      files += sub.files;
      bytes += sub.bytes;
    } else {
      files++;
      bytes += statSync(full).size;
    }
  }
  return { files, bytes };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};

interface Render {
  status: number;
  ms: number;
  bytes: number;
  gzip: number;
  roundTrips: number | null;
}
interface Row {
  size: number;
  loadSeconds: number;
  buildSeconds: number;
  distFiles: number;
  distBytes: number;
  directoryGzip: number;
  importMs: number;
  coldMs: number;
  warmMs: number;
  roundTrips: number[];
  missingStatus: number;
}

const { admin, loaded, cleanUp } = benchKeys(REDIS_URL);

const rows: Row[] = [];
try {
  await admin.ping();
  console.log(
    `[scale] Redis ${REDIS_URL.replace(/\/\/[^@]*@/, "//***@")}, sizes ${SIZES.join(", ")}, ${RENDERS} business renders per size`,
  );
  for (const size of SIZES) {
    const prefix = `${BASE_PREFIX}${size}:`;
    loaded.push(prefix);
    let started = performance.now();
    const { slugs } = await bulkLoad(REDIS_URL, prefix, size);
    const loadSeconds = (performance.now() - started) / 1000;

    const r = rng(size);
    const picked = [...new Set(Array.from({ length: RENDERS * 2 }, () => slugs[r.int(slugs.length)]!))].slice(
      0,
      RENDERS,
    );
    const store = createStore({ transport: "redis", url: REDIS_URL, prefix });
    for (const slug of picked) {
      const business = await store.businesses.getBySlug(slug);
      for (let i = 0; i < REVIEWS_EACH; i++) {
        await store.reviews.add(business!.id, {
          customerName: `Bench Reviewer ${i}`,
          rating: 3 + (i % 3),
          title: `Visit ${i}`,
          reviewText: "Careful crew, clean site.",
          serviceType: business!.services[0] ?? "",
        });
      }
    }
    await store.close();

    // No NODE_ENV: the function runs as on Netlify (production React, see on-demand-routes.ts).
    const { NODE_ENV: _unset, ...inherited } = process.env;
    const env: NodeJS.ProcessEnv = { ...inherited, REDIS_URL, REDIS_KEY_PREFIX: prefix, TREELINE_AUTO_SEED: "0" };
    started = performance.now();
    const build = spawnSync(NODE, ["node_modules/astro/bin/astro.mjs", "build"], {
      env,
      encoding: "utf8",
      maxBuffer: 64 << 20,
    });
    const buildSeconds = (performance.now() - started) / 1000;
    if (build.status !== 0) throw new Error(`astro build failed for ${size}:\n${build.stdout}\n${build.stderr}`);
    const dist = walk("dist");

    const child = spawnSync(NODE, ["bench/scale-render.mjs", ...picked], {
      env,
      encoding: "utf8",
      maxBuffer: 16 << 20,
    });
    const line = child.stdout.trim().split("\n").pop() ?? "";
    if (child.status !== 0 || !line.startsWith("{"))
      throw new Error(`render failed for ${size}:\n${child.stdout}\n${child.stderr}`);
    const out = JSON.parse(line) as {
      importMs: number;
      cold: Render;
      warm: Render[];
      directory: Render;
      missing: Render;
    };
    for (const page of [out.cold, ...out.warm, out.directory])
      if (page.status !== 200) throw new Error(`a page answered ${page.status} at ${size}`);

    const row: Row = {
      size,
      loadSeconds,
      buildSeconds,
      distFiles: dist.files,
      distBytes: dist.bytes,
      directoryGzip: out.directory.gzip,
      importMs: out.importMs,
      coldMs: out.cold.ms,
      warmMs: median(out.warm.map((w) => w.ms)),
      roundTrips: [...new Set([out.cold, ...out.warm].map((w) => w.roundTrips ?? -1))].sort(),
      missingStatus: out.missing.status,
    };
    rows.push(row);
    console.log(`[scale] ${size}: loaded in ${loadSeconds.toFixed(1)} s, built in ${buildSeconds.toFixed(1)} s`);
    await deletePrefix(admin, prefix);
    loaded.splice(loaded.indexOf(prefix), 1);
  }
} finally {
  await cleanUp();
  admin.disconnect();
}

// --- report --------------------------------------------------------------------------------
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(2)} MB`;
const cols = [
  "businesses",
  "build",
  "dist files",
  "dist bytes",
  "/directory gzip",
  "fn import",
  "cold render",
  "warm render",
  "Redis round trips",
  "unknown slug",
];
console.log(`\n| ${cols.join(" | ")} |\n|${cols.map(() => "---").join("|")}|`);
for (const r of rows) {
  console.log(
    `| ${r.size.toLocaleString("en-US")} | ${r.buildSeconds.toFixed(1)} s | ${r.distFiles} | ${mb(r.distBytes)} | ${kb(r.directoryGzip)} | ${r.importMs.toFixed(0)} ms | ${r.coldMs.toFixed(1)} ms | ${r.warmMs.toFixed(1)} ms | ${r.roundTrips.join(", ")} | ${r.missingStatus} |`,
  );
}
if (rows.length > 1) {
  const [a, b] = [rows[0]!, rows[rows.length - 1]!];
  console.log(
    `\n${b.size.toLocaleString("en-US")} vs ${a.size.toLocaleString("en-US")}: build ${(b.buildSeconds / a.buildSeconds).toFixed(2)}x (target <= 1.2), dist files ${(b.distFiles / a.distFiles).toFixed(2)}x and bytes ${(b.distBytes / a.distBytes).toFixed(2)}x (<= 1.2), /directory gzip ${(b.directoryGzip / a.directoryGzip).toFixed(2)}x (<= 1.1), round trips per business page ${Math.max(...rows.flatMap((r) => r.roundTrips))} (<= 3)`,
  );
}
console.log(
  "render times: the built function in a fresh Node process against the real Redis; cold = its first business page (after the module import shown as 'fn import'), warm = median of the rest; each measured business has 5 reviews",
);
mkdirSync("bench/results", { recursive: true });
writeFileSync(
  "bench/results/scale.json",
  JSON.stringify({ date: new Date().toISOString(), redis: REDIS_URL.replace(/\/\/[^@]*@/, "//***@"), rows }, null, 2),
);
