#!/usr/bin/env node
// Lighthouse benchmark of the production build: every route, plus a "no-JS floor"
// copy of each page (all <script> elements stripped) so we can see what our JS
// costs on top of the HTML+CSS baseline. A measurement, not a test: low scores
// never fail the run; only "could not measure" does.
//
//   npm run bench:lighthouse [-- --build] [-- --routes /,/about] [-- --runs 3]
//   npm run bench:lighthouse -- --routes /directory /directory/<slug>   (<slug>: the first business)
//   CHROME_PATH=/path/to/chrome overrides /usr/bin/chromium.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import zlib from "node:zlib";
import lighthouse from "lighthouse";
import { computeMedianRun, filterToValidRuns } from "lighthouse/core/lib/median-run.js";
import * as chromeLauncher from "chrome-launcher";
import { DIST, ROOT, argValue, builtRoutes } from "./lib.mjs";

const RESULTS = path.join(ROOT, "bench", "results");
const CHROME_PATH = process.env.CHROME_PATH || "/usr/bin/chromium";
const FLOOR = "/__floor"; // proxy prefix whose HTML responses lose their scripts
const TARGET_SCORE = 0.95;

const args = process.argv.slice(2);
const forceBuild = args.includes("--build");
// Comma- or space-separated: every argument after --routes up to the next flag.
const routesArg = args.includes("--routes")
  ? args
      .slice(args.indexOf("--routes") + 1)
      .filter((_, i, rest) => !rest.slice(0, i + 1).some((a) => a.startsWith("--")))
      .join(",")
  : argValue(args, "--routes");
// A single simulated run can flip between two Lantern graphs on racy pages; --runs N
// keeps Lighthouse's own median run (closest to median FCP and TTI), not a mix of runs.
const RUNS = Math.max(1, Number(argValue(args, "--runs") || 1));

// ---- routes -----------------------------------------------------------------
// The operator's inbox is behind a token: nothing a visitor loads. The directory is rendered
// on demand, so it is not in dist/: /directory and one business page (the first in the
// directory sitemap, which lists the store's businesses) are asked of the running server.
const discoverRoutes = () => builtRoutes((r) => /^\/admin(\/|$)/.test(r));
const BUSINESS_PLACEHOLDER = /^\/directory\/(<slug>|:slug|\*)$/;
async function onDemandRoutes(origin) {
  const res = await fetch(origin + "/sitemap-directory-0.xml", { signal: AbortSignal.timeout(60_000) });
  const xml = res.ok ? await res.text() : "";
  const business = /<loc>[^<]*?(\/directory\/[^<]+)<\/loc>/.exec(xml)?.[1];
  if (!business)
    console.warn(
      `[bench] warning: no business in ${origin}/sitemap-directory-0.xml (${res.status}); measuring /directory only`,
    );
  return ["/directory", ...(business ? [business] : [])];
}

const distStamp = () => {
  try {
    return statSync(path.join(DIST, "_astro")).mtimeMs;
  } catch {
    return null;
  }
};

// ---- processes & ports ------------------------------------------------------
async function freePort(preferred) {
  const tryListen = (port) =>
    new Promise((resolve) => {
      const srv = net.createServer().once("error", () => resolve(null));
      srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(srv.address()?.port ?? port)));
    });
  return (await tryListen(preferred)) ?? (await tryListen(0));
}

let serveChild = null;
let chrome = null;
let proxy = null;

// serve.mjs ignores SIGTERM in practice (its handler awaits netlify.stop(), which does not
// return) and it spawns esbuild, so it runs in its own process group: we signal the group
// by the child's PID and escalate to SIGKILL.
function killServe(signal) {
  if (!serveChild || serveChild.exitCode !== null || serveChild.signalCode !== null) return;
  try {
    process.kill(-serveChild.pid, signal);
  } catch {
    try {
      serveChild.kill(signal);
    } catch {
      // Already gone.
    }
  }
}
async function stopServe() {
  if (!serveChild) return;
  const exited = new Promise((r) =>
    serveChild.exitCode !== null || serveChild.signalCode !== null ? r() : serveChild.once("exit", r),
  );
  killServe("SIGTERM");
  await Promise.race([exited, new Promise((r) => setTimeout(r, 2000))]);
  killServe("SIGKILL");
  serveChild = null;
}
let cleaning = null;
const cleanup = () =>
  (cleaning ??= (async () => {
    proxy?.closeAllConnections?.();
    proxy?.close();
    try {
      await chrome?.kill();
    } catch {
      // Chrome already exited.
    }
    await stopServe();
  })());
// Last resort if we exit without awaiting cleanup (uncaught error): sync kill only.
process.on("exit", () => {
  killServe("SIGKILL");
  try {
    if (chrome?.pid) process.kill(chrome.pid, "SIGKILL");
  } catch {
    // Chrome already exited.
  }
});
for (const sig of ["SIGINT", "SIGTERM"]) {
  process.on(sig, async () => {
    console.error(`\n[bench] ${sig}: stopping server and Chrome`);
    await cleanup();
    process.exit(130);
  });
}

async function startServe(port) {
  let log = "";
  serveChild = spawn(process.execPath, ["runtime/serve.mjs"], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  serveChild.stdout.on("data", (d) => (log += d));
  serveChild.stderr.on("data", (d) => (log += d));
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (serveChild.exitCode !== null) throw new Error(`serve.mjs exited (${serveChild.exitCode}):\n${log}`);
    try {
      const res = await fetch(origin + "/", { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.status < 500) return origin;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`serve.mjs did not answer on ${origin} within 60s:\n${log}`);
}

// ---- floor proxy ------------------------------------------------------------
// The HTML parser ends a script at the first "</script", whatever the JS says, so a
// lazy regex matches exactly what the browser would treat as one element.
const stripScripts = (html) =>
  html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script\s*>/gi, "")
    // A modulepreload is a script download without the <script> tag; the floor must not pay for it.
    .replace(/<link\b[^>]*\brel=["']?modulepreload\b[^>]*>/gi, "");

// The floor's HTML goes back in the coding and at the level the server chose (serve.mjs
// compresses as the CDN does: static files hard, on-demand answers fast): sent as plain text
// it would pay for several times its bytes on slow 4G. The level matters too: Lighthouse's
// network model fits 14,600 bytes into the first round trip, so a few hundred bytes can cost
// a whole RTT (150 ms). The server's level is the one that reproduces its own answer's size.
const BR_QUALITY = zlib.constants.BROTLI_PARAM_QUALITY;
const CODINGS = {
  br: {
    decode: zlib.brotliDecompressSync,
    levels: [5, 11].map((q) => (b) => zlib.brotliCompressSync(b, { params: { [BR_QUALITY]: q } })),
  },
  gzip: { decode: zlib.gunzipSync, levels: [6, 9].map((level) => (b) => zlib.gzipSync(b, { level })) },
};
function recode(coding, body, change) {
  const codec = CODINGS[coding];
  if (!codec) return Buffer.from(change(body.toString("utf8")));
  const html = codec.decode(body);
  const sized = codec.levels.map((encode) => ({ encode, off: Math.abs(encode(html).length - body.length) }));
  const { encode } = sized.reduce((a, b) => (b.off < a.off ? b : a));
  return encode(Buffer.from(change(html.toString("utf8"))));
}

// Both the page and its floor go through this proxy, so they share one origin and one
// extra hop and differ only in the scripts.
function startProxy(upstream) {
  proxy = http.createServer((req, res) => {
    const isFloor = req.url === FLOOR || req.url.startsWith(FLOOR + "/");
    const upstreamPath = isFloor ? req.url.slice(FLOOR.length) || "/" : req.url;
    const headers = { ...req.headers, host: new URL(upstream).host };
    if (isFloor && req.headers["accept-encoding"]) headers["accept-encoding"] = Object.keys(CODINGS).join(", "); // the codings we can read
    const up = http.request(upstream + upstreamPath, { method: req.method, headers }, (upRes) => {
      const type = String(upRes.headers["content-type"] || "");
      if (!isFloor || !type.includes("text/html")) {
        res.writeHead(upRes.statusCode, upRes.headers);
        return upRes.pipe(res);
      }
      const chunks = [];
      upRes.on("data", (c) => chunks.push(c));
      upRes.on("end", () => {
        const body = recode(String(upRes.headers["content-encoding"] || ""), Buffer.concat(chunks), stripScripts);
        const out = { ...upRes.headers, "content-length": String(body.length) };
        delete out["transfer-encoding"];
        res.writeHead(upRes.statusCode, out);
        res.end(body);
      });
    });
    up.on("error", (err) => {
      res.writeHead(502);
      res.end(String(err));
    });
    req.pipe(up);
  });
  return new Promise((resolve) =>
    proxy.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${proxy.address().port}`)),
  );
}

// ---- lighthouse -------------------------------------------------------------
// Lighthouse can close a page's session while its own "is the page quiet yet?" poll is still
// waiting on it (seen on /directory, whose island reads its list after load); that poll's
// rejection escapes Lighthouse unhandled, after the run has already been reported. It says
// nothing about the page, so it must not end the benchmark; anything else still does.
process.on("unhandledRejection", (reason) => {
  if (reason?.protocolMethod && /Session closed/.test(String(reason?.message))) {
    console.warn(`[bench] ignored a stray Lighthouse rejection after its run: ${reason.message}`);
    return;
  }
  throw reason;
});

const lhConfig = {
  extends: "lighthouse:default",
  settings: {
    formFactor: "mobile",
    throttlingMethod: "simulate",
    onlyCategories: ["performance"],
    // A page that never settles should cost 30 s, not the default 45 s per run.
    maxWaitForLoad: 30_000,
  },
};

/** One Lighthouse run: its report, or why there is none. */
async function runOnce(url) {
  const started = performance.now();
  try {
    const { lhr } = await lighthouse(url, { port: chrome.port, logLevel: "error", output: "json" }, lhConfig);
    return { lhr, seconds: (performance.now() - started) / 1000 };
  } catch (err) {
    return { failure: String(err?.message || err), seconds: (performance.now() - started) / 1000 };
  }
}

/**
 * A page and its floor, RUNS times each, taking turns: simulated timings scale with the
 * CPU time Chrome observed, so on a shared machine a burst of load must fall on both, not on
 * whichever was measured during it.
 */
async function auditPair(pageUrl, floorUrl) {
  const runs = [[], []];
  for (let i = 0; i < RUNS; i++) for (const [k, url] of [pageUrl, floorUrl].entries()) runs[k].push(await runOnce(url));
  return [summarizeRuns(pageUrl, runs[0]), summarizeRuns(floorUrl, runs[1])];
}

function summarizeRuns(url, runs) {
  const lhrs = runs.flatMap((r) => (r.lhr ? [r.lhr] : []));
  const failure = runs.find((r) => r.failure)?.failure ?? null;
  const seconds = runs.reduce((t, r) => t + r.seconds, 0);
  const valid = filterToValidRuns(lhrs);
  const lhr = valid.length ? computeMedianRun(valid) : lhrs[0];
  if (!lhr) return { url, error: failure, seconds };
  const a = lhr.audits;
  const scripts = a["resource-summary"]?.details?.items?.find((i) => i.resourceType === "script");
  return {
    url,
    error: lhr.runtimeError ? `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` : null,
    warnings: lhr.runWarnings,
    score: lhr.categories.performance.score,
    fcp: a["first-contentful-paint"]?.numericValue ?? null,
    lcp: a["largest-contentful-paint"]?.numericValue ?? null,
    tbt: a["total-blocking-time"]?.numericValue ?? null,
    cls: a["cumulative-layout-shift"]?.numericValue ?? null,
    jsBytes: scripts?.transferSize ?? 0,
    totalBytes: a["total-byte-weight"]?.numericValue ?? null,
    seconds,
    lighthouseVersion: lhr.lighthouseVersion,
    userAgent: lhr.environment?.hostUserAgent,
    benchmarkIndex: lhr.environment?.benchmarkIndex,
  };
}

// ---- report -----------------------------------------------------------------
const num = (v, digits = 0) => (v == null || Number.isNaN(v) ? "n/a" : v.toFixed(digits));
const kb = (v) => (v == null ? "n/a" : (v / 1024).toFixed(1) + " KB");
const COLS = ["route", "score", "FCP ms", "LCP ms", "TBT ms", "CLS", "JS", "total", "LCP/floor", "run s"];
function rows(results) {
  const out = [];
  for (const r of results) {
    for (const [label, m] of [
      [r.route, r.page],
      [`${r.route} (floor)`, r.floor],
    ]) {
      if (!m) continue;
      if (m.error && m.score == null) {
        out.push([label, "ERROR", "", "", "", "", "", "", "", num(m.seconds, 1)]);
        continue;
      }
      out.push([
        label,
        num(m.score, 2),
        num(m.fcp),
        num(m.lcp),
        num(m.tbt),
        num(m.cls, 3),
        kb(m.jsBytes),
        kb(m.totalBytes),
        m === r.page ? num(r.lcpRatio, 2) : "",
        num(m.seconds, 1),
      ]);
    }
  }
  return out;
}
function fixedWidth(body) {
  const w = COLS.map((c, i) => Math.max(c.length, ...body.map((r) => String(r[i]).length)));
  const line = (r) => r.map((c, i) => (i === 0 ? String(c).padEnd(w[i]) : String(c).padStart(w[i]))).join("  ");
  return [line(COLS), w.map((n) => "-".repeat(n)).join("  "), ...body.map(line)].join("\n");
}
const markdown = (body) =>
  [
    `| ${COLS.join(" | ")} |`,
    `|${COLS.map((_, i) => (i === 0 ? " --- " : " ---: ")).join("|")}|`,
    ...body.map((r) => `| ${r.map((c) => String(c).replace(/\|/g, "\\|")).join(" | ")} |`),
  ].join("\n");

function summarize(results) {
  const pages = results.filter((r) => r.page?.score != null);
  if (!pages.length) return "summary: no successful page runs";
  const min = pages.reduce((a, b) => (b.page.score < a.page.score ? b : a));
  const below = pages.filter((r) => r.page.score < TARGET_SCORE).map((r) => r.route);
  const maxJs = pages.reduce((a, b) => (b.page.jsBytes > a.page.jsBytes ? b : a));
  return (
    `summary: min score ${min.page.score.toFixed(2)} (${min.route}); ${below.length} route(s) below ${TARGET_SCORE}` +
    `${below.length ? ` [${below.join(", ")}]` : ""}; max JS ${kb(maxJs.page.jsBytes)} (${maxJs.route})`
  );
}

// ---- main -------------------------------------------------------------------
async function main() {
  // chrome-launcher reports a bad binary as an unhandled 'error' event that crashes Node, so check first.
  if (!existsSync(CHROME_PATH)) throw new Error(`Chrome not found at ${CHROME_PATH} (set CHROME_PATH)`);
  if (forceBuild || !existsSync(DIST)) {
    console.log(`[bench] building (${forceBuild ? "--build" : "dist/ missing"})`);
    const build = spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
    if (build.status !== 0) throw new Error(`npm run build failed (${build.status ?? build.signal})`);
  }
  const distAtStart = distStamp();
  const origin = await startServe(await freePort(8890));
  const onDemand = await onDemandRoutes(origin);
  const all = [...discoverRoutes(), ...onDemand].sort();
  const routes = routesArg
    ? routesArg
        .split(",")
        .map((r) => r.trim())
        .filter(Boolean)
        .map((r) => (BUSINESS_PLACEHOLDER.test(r) ? (onDemand[1] ?? r) : r))
    : all;
  for (const r of routes)
    if (!all.includes(r) && !/^\/directory\//.test(r))
      console.warn(`[bench] warning: ${r} is not a page in dist/ or the directory`);
  if (!routes.length) throw new Error("no routes to measure (dist/ has no pages?)");

  const base = await startProxy(origin);
  chrome = await chromeLauncher.launch({
    chromePath: CHROME_PATH,
    handleSIGINT: false, // our handler must also stop the server
    logLevel: "silent",
    chromeFlags: [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      // Offline box: any third-party URL (font CDN, analytics) must fail at once instead of
      // waiting on DNS/TCP and stretching "network quiet"; it also keeps results from
      // depending on whether this machine happens to have a network.
      "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
    ],
  });
  console.log(`[bench] ${routes.length} route(s) via ${base} (upstream ${origin}), Chrome ${CHROME_PATH}\n`);

  // The first audit in a fresh Chrome (and the server's first requests) runs cold and
  // scores ~0.55 whatever the page; one discarded audit keeps that out of the table.
  await runOnce(base + routes[0]);

  const results = [];
  for (const route of routes) {
    const started = performance.now();
    const [page, floor] = await auditPair(base + route, base + FLOOR + (route === "/" ? "/" : route));
    const lcpRatio = page.lcp && floor.lcp ? page.lcp / floor.lcp : null;
    results.push({ route, page, floor, lcpRatio, seconds: (performance.now() - started) / 1000 });
    const err = page.error || floor.error;
    console.log(
      `[bench] ${route}: score ${num(page.score, 2)}, LCP ${num(page.lcp)} ms (floor ${num(floor.lcp)} ms) in ${num(results.at(-1).seconds, 1)} s${err ? ` ERROR ${err}` : ""}`,
    );
    for (const w of new Set([...(page.warnings || []), ...(floor.warnings || [])]))
      if (!err?.includes(w)) console.log(`         warning: ${w}`);
  }

  const table = rows(results);
  const errors = results
    .flatMap((r) => [
      [r.route, r.page],
      [`${r.route} (floor)`, r.floor],
    ])
    .filter(([, m]) => m.score == null)
    .map(([label, m]) => `ERROR ${label}: ${m.error}`);
  // astro build empties dist/ first, so a rebuild mid-run turns pages into 404s and mixes builds.
  if (distStamp() !== distAtStart)
    errors.push("WARNING dist/ was rebuilt during the run: numbers mix two builds; rerun");
  const summary = [summarize(results), ...errors].join("\n");
  const meta = results.find((r) => r.page.lighthouseVersion)?.page ?? {};
  console.log("\n" + fixedWidth(table) + "\n\n" + summary);

  const stamp = new Date()
    .toISOString()
    .replace(/:/g, "-")
    .replace(/\.\d+Z$/, "Z"); // colons break some filesystems
  mkdirSync(RESULTS, { recursive: true });
  const md = [
    `# Lighthouse ${stamp}`,
    "",
    `Lighthouse ${meta.lighthouseVersion ?? "?"}, mobile, simulated throttling (slow 4G, 4x CPU); ${meta.userAgent ?? ""}; benchmarkIndex ${meta.benchmarkIndex ?? "?"}.`,
    `"(floor)" = same page with every <script> (and modulepreload) removed, compressed like the page. JS/total = transfer sizes. ${RUNS === 1 ? "One run per row." : `Median of ${RUNS} runs per row.`}`,
    "",
    markdown(table),
    "",
    summary.replace(/\n/g, "\n\n"),
    "",
  ].join("\n");
  writeFileSync(path.join(RESULTS, `lighthouse-${stamp}.md`), md);
  writeFileSync(path.join(RESULTS, "lighthouse-latest.md"), md);
  writeFileSync(
    path.join(RESULTS, `lighthouse-${stamp}.json`),
    JSON.stringify(
      { timestamp: stamp, chromePath: CHROME_PATH, runs: RUNS, settings: lhConfig.settings, summary, results },
      null,
      2,
    ) + "\n",
  );
  console.log(`\n[bench] wrote bench/results/lighthouse-${stamp}.{md,json} and lighthouse-latest.md`);

  // Low scores are data; a route we could not measure at all means the run is incomplete.
  return results.some((r) => r.page.score == null || r.floor.score == null) ? 1 : 0;
}

let code = 1;
try {
  code = await main();
} catch (err) {
  console.error(`[bench] could not run: ${process.env.BENCH_DEBUG ? err?.stack : (err?.message ?? err)}`);
} finally {
  await cleanup();
}
process.exit(code);
