#!/usr/bin/env node
// Tap-to-open: how long a phone visitor waits between tapping "Get Instant Quote" and
// seeing the quote dialog, given that the dialogs island (React, Radix, zod) only starts
// downloading on that first touch (client:intent). A measurement, not a test.
//
//   npm run build && npm run bench:tap-to-open [-- --runs 5] [-- --path /]
//   BASE_URL=http://127.0.0.1:8888 node bench/tap-to-open.mjs   (measure a running server)
//
// Pixel 7 profile, CPU throttled 4x (CDP Emulation.setCPUThrottlingRate) and DevTools'
// "Slow 4G" (CDP Network.emulateNetworkConditions), a fresh browser context (cold cache)
// per run. Without BASE_URL, dist/ is served by a tiny gzip-compressing static server
// (as a CDN would compress), so the number reflects transfer sizes, not the dev server.
import { createReadStream, existsSync, statSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createGzip } from "node:zlib";
import { chromium, devices } from "@playwright/test";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DIST = path.join(ROOT, "dist");
const CHROME_PATH = process.env.CHROME_PATH || "/usr/bin/chromium";
const args = process.argv.slice(2);
const argValue = (name) => args.find((a, i) => args[i - 1] === name) ?? args.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1);
const RUNS = Math.max(1, Number(argValue("--runs") || 5));
const PAGE_PATH = argValue("--path") || "/";
const TRIGGER_NAME = "Get Instant Quote";

// DevTools' "Slow 4G" preset (the values Lighthouse's devtools throttling uses):
// 150 ms RTT x 3.75, 1.6 Mbps down and 750 Kbps up, each x 0.9.
const SLOW_4G = {
  offline: false,
  latency: 150 * 3.75,
  downloadThroughput: (1.6 * 1024 * 1024 * 0.9) / 8,
  uploadThroughput: (750 * 1024 * 0.9) / 8,
};
const CPU_SLOWDOWN = 4;

const TYPES = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml", ".png": "image/png", ".ico": "image/x-icon", ".json": "application/json", ".xml": "application/xml", ".txt": "text/plain" };

/** dist/ with Netlify's pretty URLs (/about -> about.html, / -> index.html). */
function resolveFile(urlPath) {
  const clean = decodeURIComponent(urlPath.split("?")[0]).replace(/\/+$/, "") || "/index";
  for (const candidate of [clean, `${clean}.html`, path.join(clean, "index.html")]) {
    const file = path.join(DIST, candidate);
    if (file.startsWith(DIST) && existsSync(file) && statSync(file).isFile()) return file;
  }
  return null;
}

function startStaticServer() {
  const server = http.createServer((req, res) => {
    const file = resolveFile(req.url ?? "/");
    if (!file) {
      res.writeHead(404).end("not found");
      return;
    }
    const type = TYPES[path.extname(file)] ?? "application/octet-stream";
    const compressible = /text|javascript|json|xml|svg/.test(type);
    const gzip = compressible && /\bgzip\b/.test(String(req.headers["accept-encoding"]));
    res.writeHead(200, { "content-type": type, "cache-control": "no-store", ...(gzip ? { "content-encoding": "gzip" } : {}) });
    const stream = createReadStream(file);
    (gzip ? stream.pipe(createGzip()) : stream).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

async function measureOnce(browser, origin) {
  const context = await browser.newContext({ ...devices["Pixel 7"] });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", SLOW_4G);

  // Bytes on the wire (all resources) before the tap and after it.
  const bytes = { load: 0, tap: 0 };
  let phase = "load";
  cdp.on("Network.loadingFinished", (e) => {
    bytes[phase] += e.encodedDataLength ?? 0;
  });

  await page.goto(origin + PAGE_PATH, { waitUntil: "networkidle" });
  // Stamp the touch and the dialog's first frame inside the page, on the page's own clock.
  await page.evaluate(() => {
    const w = /** @type {any} */ (window);
    w.__tap = { start: 0, shown: 0 };
    addEventListener("touchstart", () => (w.__tap.start ||= performance.now()), { capture: true, passive: true });
    new MutationObserver((_, observer) => {
      if (!document.querySelector('[role="dialog"]')) return;
      observer.disconnect();
      // Two frames: the dialog's DOM exists, then it has been painted.
      requestAnimationFrame(() => requestAnimationFrame(() => (w.__tap.shown = performance.now())));
    }).observe(document.body, { childList: true, subtree: true });
  });
  phase = "tap";
  await page.getByRole("link", { name: TRIGGER_NAME }).tap();
  await page.getByRole("dialog").waitFor({ state: "visible", timeout: 60_000 });
  await page.waitForFunction(() => /** @type {any} */ (window).__tap.shown > 0, null, { timeout: 10_000 });
  const { start, shown } = await page.evaluate(() => /** @type {any} */ (window).__tap);
  await context.close();
  return { ms: shown - start, bytes };
}

async function main() {
  let server = null;
  let origin = process.env.BASE_URL?.replace(/\/$/, "");
  if (!origin) {
    if (!existsSync(path.join(DIST, "index.html"))) {
      console.error("tap-to-open: no dist/ (run npm run build first) or set BASE_URL");
      process.exit(1);
    }
    server = await startStaticServer();
    origin = `http://127.0.0.1:${server.address().port}`;
  }
  const browser = await chromium.launch({ executablePath: CHROME_PATH, args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"] });
  const times = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      const { ms, bytes } = await measureOnce(browser, origin);
      times.push(ms);
      console.error(`  run ${i + 1}: ${Math.round(ms)} ms (transferred: ${Math.round(bytes.load / 1024)} KB on load, ${Math.round(bytes.tap / 1024)} KB after tap)`);
    }
  } finally {
    await browser.close();
    server?.close();
  }
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  console.log(
    `tap-to-open ${PAGE_PATH} "${TRIGGER_NAME}" (Pixel 7, ${CPU_SLOWDOWN}x CPU, Slow 4G, cold cache): median ${Math.round(median)} ms over ${RUNS} runs [${sorted.map((t) => Math.round(t)).join(", ")}]`,
  );
}

await main();
