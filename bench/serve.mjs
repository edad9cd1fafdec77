// npm run bench:serve — what the local production server costs: how soon it answers after
// it starts, how an API call compares with a page render once warm, and how much memory
// and how many threads it holds after a thousand API calls.
//
// Builds dist/ if missing, starts `node runtime/serve.mjs` directly (so the PID is the
// server's) on a free 127.0.0.1 port with the embedded store (no REDIS_URL / Upstash,
// TREELINE_EMBEDDED_PERSIST=0: nothing written to .data) and measures:
//   a. from the `[serve] ... on http://...` line to the first answer of
//      GET /api/businesses?limit=3, / and /directory (sent together at that moment);
//   b. 20 warm GET /api/businesses?limit=3 vs 20 warm GET /directory?city=houston,
//      interleaved one at a time: median, p90 and the ratio of medians (target <= 2x);
//   c. VmRSS and Threads of the server process before, during (peak) and after CALLS
//      (default 1,000) mixed API GETs, CONCURRENCY (default 8) at a time (target < 400 MB).
// Prints a markdown table, writes bench/results/serve-<timestamp>.json and stops the
// server by its PID. Measures only: the exit code is 0 whatever the figures.
//
//   CALLS=1000 CONCURRENCY=8 WARM=20 npm run bench:serve
import { readFileSync } from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import {
  ROOT,
  ensureBuilt,
  mb,
  percentile,
  pool,
  procStatus,
  request,
  sortedNumbers,
  startServer,
  table,
  writeResult,
} from "./lib.mjs";

const CALLS = Number(process.env.CALLS || 1000);
const CONCURRENCY = Number(process.env.CONCURRENCY || 8);
const WARM = Number(process.env.WARM || 20);
const TIMEOUT_MS = Number(process.env.TIMEOUT_MS || 60_000);
const RSS_TARGET = 400 * 1024 * 1024;
const RATIO_TARGET = 2;
// What a browser sends: pages and JSON come back compressed, as they would to a visitor.
const BROWSER = { "accept-encoding": "gzip, deflate, br", accept: "*/*" };

const seed = JSON.parse(readFileSync(path.join(ROOT, "content/directory/businesses.json"), "utf8"));
const cities = [...new Set(seed.map((b) => b.city))];
const words = ["oak", "stump", "removal", "trimming", "emergency", "crane", "pruning", "zzzz"];

/** The i-th call of the mixed API load: list queries of every shape, featured, health, one business. */
function apiCall(i) {
  const b = seed[i % seed.length];
  switch (i % 8) {
    case 0:
      return `/api/businesses?limit=${1 + (i % 24)}&offset=${i % 40}`;
    case 1:
      return `/api/businesses?city=${encodeURIComponent(cities[i % cities.length])}&limit=6`;
    case 2:
      return `/api/businesses?search=${words[i % words.length]}&limit=12`;
    case 3:
      return `/api/businesses?near=${b.zipCode}&radius=${[10, 25, 50][i % 3]}&limit=12`;
    case 4:
      return `/api/businesses/featured?limit=${1 + (i % 12)}`;
    case 5:
      return "/api/health";
    case 6:
      return `/api/businesses/slug/${encodeURIComponent(b.slug)}`;
    default:
      return `/api/businesses/${encodeURIComponent(b.id)}/reviews?limit=5`;
  }
}

/** The body as sent before compression (the requests accept br and gzip). */
function decoded(res) {
  try {
    const coding = res.headers["content-encoding"];
    if (coding === "br") return zlib.brotliDecompressSync(res.body);
    if (coding === "gzip") return zlib.gunzipSync(res.body);
  } catch {
    // cut short: show what came
  }
  return res.body;
}

const statusLine = (statuses) =>
  Object.entries(statuses)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([s, n]) => `${s}: ${n}`)
    .join(", ");

ensureBuilt("serve");
const result = { node: process.version, calls: CALLS, concurrency: CONCURRENCY, warm: WARM };
let server;
let exitCode = 0;
try {
  server = await startServer({ TREELINE_EMBEDDED_PERSIST: "0", NODE_ENV: "production" });
  const { port, pid, readyAt } = server;
  console.log(
    `[serve-bench] server pid ${pid} on 127.0.0.1:${port} (URL printed ${server.startMs.toFixed(0)} ms after spawn)`,
  );
  result.startMs = server.startMs;

  // a. First answers, all asked for the moment the server says it listens.
  const first = async (pathname) => {
    const res = await request(port, "GET", pathname, { headers: BROWSER, timeoutMs: TIMEOUT_MS });
    return { path: pathname, status: res.status, error: res.error, msFromReady: performance.now() - readyAt };
  };
  const firsts = await Promise.all(["/api/businesses?limit=3", "/", "/directory"].map(first));
  result.first = firsts;
  result.rssAfterFirst = procStatus(pid);

  // b. Warm: one of each at a time, interleaved, so both see the same machine.
  const warmPaths = { api: "/api/businesses?limit=3", page: "/directory?city=houston" };
  for (const p of Object.values(warmPaths))
    for (let i = 0; i < 2; i++) await request(port, "GET", p, { headers: BROWSER });
  const warm = { api: [], page: [] };
  const warmStatuses = { api: {}, page: {} };
  for (let i = 0; i < WARM; i++) {
    for (const kind of ["api", "page"]) {
      const res = await request(port, "GET", warmPaths[kind], { headers: BROWSER, timeoutMs: TIMEOUT_MS });
      warm[kind].push(res.ms);
      warmStatuses[kind][res.status || res.error] = (warmStatuses[kind][res.status || res.error] ?? 0) + 1;
    }
  }
  const stats = (xs) => {
    const s = sortedNumbers(xs);
    return { median: percentile(s, 50), p90: percentile(s, 90), min: s[0], max: s[s.length - 1] };
  };
  result.warm = {
    api: { path: warmPaths.api, ...stats(warm.api), statuses: warmStatuses.api },
    page: { path: warmPaths.page, ...stats(warm.page), statuses: warmStatuses.page },
  };
  result.warm.ratio = result.warm.api.median / result.warm.page.median;

  // c. Memory and threads around CALLS mixed API calls; the peak is sampled while they run.
  const before = procStatus(pid);
  let peak = { ...before };
  const sampler = setInterval(() => {
    try {
      const now = procStatus(pid);
      peak = { rss: Math.max(peak.rss, now.rss), threads: Math.max(peak.threads, now.threads) };
    } catch {
      // the process is gone: the calls will say so
    }
  }, 200);
  const loadStatuses = {};
  const latencies = [];
  const notOk = [];
  const t0 = performance.now();
  await pool(CALLS, CONCURRENCY, async (i) => {
    const pathname = apiCall(i);
    const res = await request(port, "GET", pathname, { headers: BROWSER, timeoutMs: TIMEOUT_MS });
    latencies.push(res.ms);
    // Which calls failed, and how.
    if (res.status !== 200)
      notOk.push({
        path: pathname,
        status: res.status,
        error: res.error,
        ms: res.ms,
        body: decoded(res).subarray(0, 200).toString(),
      });
    const key = res.status || res.error;
    loadStatuses[key] = (loadStatuses[key] ?? 0) + 1;
  });
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  const after = procStatus(pid);
  // What it holds once idle again (workers and buffers that outlive their call show here).
  await new Promise((r) => setTimeout(r, 2_000));
  const settled = procStatus(pid);
  const lat = sortedNumbers(latencies);
  result.load = {
    seconds,
    reqPerS: CALLS / seconds,
    p50: percentile(lat, 50),
    p90: percentile(lat, 90),
    p99: percentile(lat, 99),
    statuses: loadStatuses,
    notOk,
    before,
    peak: { rss: Math.max(peak.rss, after.rss), threads: Math.max(peak.threads, after.threads) },
    after,
    settled,
  };

  const ms = (x) => `${x.toFixed(0)} ms`;
  const verdict = (ok) => (ok ? "met" : "NOT met");
  const L = result.load;
  console.log(`\nbench:serve  node ${process.version}, embedded store, server pid ${pid}\n`);
  console.log(
    table(
      ["measure", "value", "target"],
      [
        ["spawn -> URL printed", ms(server.startMs), ""],
        ...firsts.map((f) => [
          `URL printed -> first GET ${f.path}`,
          `${ms(f.msFromReady)} (${f.status || f.error})`,
          "",
        ]),
        [
          `warm GET ${warmPaths.api} (x${WARM})`,
          `median ${ms(result.warm.api.median)}, p90 ${ms(result.warm.api.p90)} (${statusLine(warmStatuses.api)})`,
          "",
        ],
        [
          `warm GET ${warmPaths.page} (x${WARM})`,
          `median ${ms(result.warm.page.median)}, p90 ${ms(result.warm.page.p90)} (${statusLine(warmStatuses.page)})`,
          "",
        ],
        [
          "API / page (medians)",
          `${result.warm.ratio.toFixed(2)}x`,
          `<= ${RATIO_TARGET}x: ${verdict(result.warm.ratio <= RATIO_TARGET)}`,
        ],
        [
          `${CALLS} mixed API GETs, ${CONCURRENCY} at a time`,
          `${L.reqPerS.toFixed(1)} req/s, p50 ${ms(L.p50)}, p90 ${ms(L.p90)}, p99 ${ms(L.p99)} (${statusLine(L.statuses)})`,
          "",
        ],
        [
          "server RSS before -> peak -> after -> 2 s idle",
          `${mb(L.before.rss)} -> ${mb(L.peak.rss)} -> ${mb(L.after.rss)} -> ${mb(L.settled.rss)}`,
          `< 400 MB: ${verdict(L.peak.rss < RSS_TARGET)} (peak)`,
        ],
        [
          "server threads before -> peak -> after -> 2 s idle",
          `${L.before.threads} -> ${L.peak.threads} -> ${L.after.threads} -> ${L.settled.threads}`,
          "",
        ],
      ],
    ),
  );
  for (const f of L.notOk.slice(0, 20))
    console.log(`not 200: ${f.status || f.error} GET ${f.path} after ${ms(f.ms)} ${f.body}`);
  console.log(`\n[serve-bench] wrote ${path.relative(ROOT, writeResult("serve", result))}`);
} catch (error) {
  console.error("[serve-bench] failed:", error);
  if (server) console.error(server.log().slice(-3000));
  exitCode = 1;
} finally {
  await server?.stop();
  if (server) console.log(`[serve-bench] server ${server.pid} stopped`);
}
process.exit(exitCode);
