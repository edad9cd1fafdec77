#!/usr/bin/env node
// Tap-to-open: how long a phone visitor waits between tapping a call to action and (1)
// seeing its dialog or panel, (2) typing into its first field; plus the JavaScript (gzip
// bytes on the wire) the page downloads after the tap (the island hydrating behind the
// already-open dialog). A measurement, not a test.
//
//   npm run build && npm run bench:tap-to-open [-- --runs 9] [-- --only quote,chat]
//   BASE_URL=http://127.0.0.1:8888 node bench/tap-to-open.mjs   (measure a running server)
//   BASE_URL=http://127.0.0.1:8888,http://127.0.0.1:8889 ...     (two builds, runs alternating)
//
// Kinds: quote on /, the emergency quote on /services/emergency, the audit from the
// header's Growth Audit (in the phone's menu), a phase assessment, booking and review on a
// business page, and the chat launcher (#chat-launcher -> #chat-panel, typing in #chat-input).
//
// Pixel 7 profile, CPU throttled 4x (CDP Emulation.setCPUThrottlingRate) and DevTools'
// "Slow 4G" (CDP Network.emulateNetworkConditions), a fresh browser context (cold cache)
// per run. Without BASE_URL, dist/ is served by a tiny gzip-compressing static server
// (as a CDN would compress), so the numbers reflect transfer sizes, not the dev server.
//
// Both times are stamped inside the page on its own clock, from the trigger's touchstart
// (no harness round trips in the figures): "visible" is when the first frame showing the
// target has been produced (a task queued from that frame's animation-frame callback, in
// which the target was found visible); "typing" is the first `input` event of
// text inserted into the first field (focus, then the editing command a keyboard's text
// goes through) on the first frame after that one in which the field can take focus.
// "Next paint" is Event Timing's view of the same tap: the click entry's start plus its
// duration, when the browser presented the frame after the click was handled.
import { createReadStream, existsSync, readFileSync, statSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { createGzip } from "node:zlib";
import { chromium, devices } from "@playwright/test";
import { DIST, ROOT, argValue } from "./lib.mjs";

const CHROME_PATH = process.env.CHROME_PATH || "/usr/bin/chromium";
const args = process.argv.slice(2);
const RUNS = Math.max(1, Number(argValue(args, "--runs") || 5));
const ONLY = argValue(args, "--only")?.split(",");

const seed = JSON.parse(readFileSync(path.join(ROOT, "content/directory/businesses.json"), "utf8"));
const BUSINESS = `/directory/${seed[0].slug}`;
/** The first text field of a dialog's form (the honeypot has tabindex -1; selects take no text). */
const FIELD = "form :is(input:is([type=text],[type=email],[type=tel]):not([tabindex='-1']),textarea)";

/**
 * What to tap and what to wait for. `before` runs ahead of the measured tap (opening the
 * phone's menu for the header button); `target` is the dialog or panel, `field` its first
 * text field.
 */
const KINDS = [
  {
    name: "quote",
    path: "/",
    trigger: (p) => p.getByRole("main").getByRole("button", { name: "Get Instant Quote" }),
    target: "#quote-dialog",
    field: `#quote-dialog ${FIELD}`,
  },
  {
    name: "emergency quote",
    path: "/services/emergency",
    trigger: (p) => p.getByRole("main").getByRole("button", { name: "Emergency Quote" }).first(),
    target: "#quote-dialog",
    field: `#quote-dialog ${FIELD}`,
  },
  {
    name: "audit (header)",
    path: "/",
    before: (p) => p.getByRole("button", { name: "Open menu" }).tap(),
    trigger: (p) => p.locator("#mobile-menu").getByRole("button", { name: "Growth Audit" }),
    target: "#audit-dialog",
    field: `#audit-dialog ${FIELD}`,
  },
  {
    name: "assessment",
    path: "/business-growth/phase-3",
    trigger: (p) => p.getByRole("main").getByRole("button", { name: "Get Your Free Assessment" }).first(),
    target: "#assessment-dialog",
    field: `#assessment-dialog ${FIELD}`,
  },
  {
    name: "booking",
    path: BUSINESS,
    trigger: (p) => p.getByRole("main").getByRole("button", { name: "Book Service" }),
    target: "#booking-dialog",
    field: `#booking-dialog ${FIELD}`,
  },
  {
    name: "review",
    path: BUSINESS,
    trigger: (p) => p.getByRole("main").getByRole("button", { name: "Write Review" }),
    target: "#review-dialog",
    field: `#review-dialog ${FIELD}`,
  },
  { name: "chat", path: "/", trigger: (p) => p.locator("#chat-launcher"), target: "#chat-panel", field: "#chat-input" },
].filter((k) => !ONLY || ONLY.some((o) => k.name.startsWith(o)));

// DevTools' "Slow 4G" preset (the values Lighthouse's devtools throttling uses):
// 150 ms RTT x 3.75, 1.6 Mbps down and 750 Kbps up, each x 0.9.
const SLOW_4G = {
  offline: false,
  latency: 150 * 3.75,
  downloadThroughput: (1.6 * 1024 * 1024 * 0.9) / 8,
  uploadThroughput: (750 * 1024 * 0.9) / 8,
};
const CPU_SLOWDOWN = 4;

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".xml": "application/xml",
  ".txt": "text/plain",
};

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
      // The API is not part of a static build; the pages cope (reviews keep their prerendered list).
      res.writeHead(404, { "content-type": "application/json" }).end('{"error":"not found"}');
      return;
    }
    const type = TYPES[path.extname(file)] ?? "application/octet-stream";
    const compressible = /text|javascript|json|xml|svg/.test(type);
    const gzip = compressible && /\bgzip\b/.test(String(req.headers["accept-encoding"]));
    res.writeHead(200, {
      "content-type": type,
      "cache-control": "no-store",
      ...(gzip ? { "content-encoding": "gzip" } : {}),
    });
    const stream = createReadStream(file);
    (gzip ? stream.pipe(createGzip()) : stream).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

async function measureOnce(browser, origin, kind) {
  const context = await browser.newContext({ ...devices["Pixel 7"] });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", SLOW_4G);

  // Script bytes on the wire after the tap.
  const scripts = new Set();
  let afterTap = false;
  let jsBytes = 0;
  cdp.on("Network.responseReceived", (e) => {
    if (afterTap && e.type === "Script") scripts.add(e.requestId);
  });
  cdp.on("Network.loadingFinished", (e) => {
    if (scripts.has(e.requestId)) jsBytes += e.encodedDataLength ?? 0;
  });

  await page.goto(origin + kind.path, { waitUntil: "networkidle" });
  if (kind.before) await kind.before(page);
  await page.evaluate(
    ({ target, field }) => {
      const w = /** @type {any} */ (window);
      w.__tap = { start: 0, shown: 0, typed: 0, painted: 0 };
      // The tap's click only: an earlier click (the menu opened before the audit's tap) can be
      // reported after this observer starts.
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) {
          if (e.name === "click" && w.__tap.start && e.startTime >= w.__tap.start - 50 && !w.__tap.painted)
            w.__tap.painted = e.startTime + e.duration;
        }
      }).observe({ type: "event", durationThreshold: 16 });
      const visible = (el) => el && el.checkVisibility() && el.getBoundingClientRect().height > 0;
      const tryTyping = () => {
        const input = document.querySelector(field);
        if (!visible(input)) return false;
        input.focus();
        if (document.activeElement !== input) return false;
        document.execCommand("insertText", false, "a");
        return true;
      };
      document.addEventListener(
        "input",
        (e) => {
          if (!w.__tap.typed && /** @type {Element} */ (e.target).matches?.(field)) w.__tap.typed = performance.now();
        },
        true,
      );
      addEventListener(
        "touchstart",
        () => {
          if (w.__tap.start) return;
          w.__tap.start = performance.now();
          let shown = false;
          const frame = () => {
            if (!shown) {
              if (visible(document.querySelector(target))) {
                shown = true;
                // This frame paints it: a task queued from its animation-frame callback runs once
                // that frame has been produced (the usual "next paint" stamp).
                setTimeout(() => (w.__tap.shown = performance.now()), 0);
              }
              // Typing starts from the next frame: the visitor types into what they see, and the
              // harness's own focus and text insertion must not delay the frame it stamps.
              requestAnimationFrame(frame);
            } else if (!tryTyping()) requestAnimationFrame(frame);
          };
          requestAnimationFrame(frame);
        },
        { capture: true, passive: true },
      );
    },
    { target: kind.target, field: kind.field },
  );

  afterTap = true;
  await kind.trigger(page).tap();
  await page.waitForFunction(
    () => /** @type {any} */ (window).__tap.shown > 0 && /** @type {any} */ (window).__tap.typed > 0,
    null,
    { timeout: 60_000, polling: 50 },
  );
  const { start, shown, typed, painted } = await page.evaluate(() => /** @type {any} */ (window).__tap);
  // Let what the tap started (the island, React) finish downloading: until the dialog's form
  // is hydrated (lead dialogs mark it), then until the network is quiet.
  await page
    .locator(`${kind.target} form[data-hydrated]`)
    .waitFor({ state: "attached", timeout: 45_000 })
    .catch(() => {});
  await page.waitForLoadState("networkidle").catch(() => {});
  await page.waitForTimeout(1000);
  await context.close();
  return { visible: shown - start, typing: typed - start, painted: painted ? painted - start : NaN, jsBytes };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  let server = null;
  // Several origins (comma-separated) are measured in alternation, run by run, so a change
  // and its baseline share whatever the machine is doing at the time.
  let origins =
    process.env.BASE_URL?.split(",")
      .map((o) => o.trim().replace(/\/$/, ""))
      .filter(Boolean) ?? [];
  if (origins.length === 0) {
    if (!existsSync(path.join(DIST, "index.html"))) {
      console.error("tap-to-open: no dist/ (run npm run build first) or set BASE_URL");
      process.exit(1);
    }
    server = await startStaticServer();
    origins = [`http://127.0.0.1:${server.address().port}`];
  }
  const browser = await chromium.launch({
    executablePath: CHROME_PATH,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
  const rows = new Map(origins.map((o) => [o, KINDS.map((kind) => ({ kind, runs: [] }))]));
  try {
    for (const [k, kind] of KINDS.entries()) {
      for (let i = 0; i < RUNS; i++) {
        for (const origin of origins) {
          const label = origins.length > 1 ? ` (${origin})` : "";
          try {
            const run = await measureOnce(browser, origin, kind);
            rows.get(origin)[k].runs.push(run);
            console.error(
              `  ${kind.name}${label} run ${i + 1}: visible ${Math.round(run.visible)} ms, presented ${Math.round(run.painted)} ms, typing ${Math.round(run.typing)} ms, JS after tap ${(run.jsBytes / 1024).toFixed(1)} KB`,
            );
          } catch (error) {
            console.error(`  ${kind.name}${label} run ${i + 1}: failed (${error.message.split("\n")[0]})`);
          }
        }
      }
    }
  } finally {
    await browser.close();
    server?.close();
  }
  for (const origin of origins) {
    console.log(
      `tap-to-open${origins.length > 1 ? ` ${origin}` : ""} (Pixel 7, ${CPU_SLOWDOWN}x CPU, Slow 4G, cold cache, gzip), medians over ${RUNS} runs:`,
    );
    console.log(
      "| dialog | page | tap -> visible (ms) | next paint (ms) | tap -> typing (ms) | JS after tap (KB gzip) | runs (visible/typing) |",
    );
    console.log("|---|---|---:|---:|---:|---:|---|");
    for (const { kind, runs } of rows.get(origin)) {
      if (runs.length === 0) {
        console.log(`| ${kind.name} | ${kind.path} | failed | failed | failed | - | - |`);
        continue;
      }
      const v = runs.map((r) => r.visible);
      const p = runs.map((r) => r.painted).filter((x) => Number.isFinite(x));
      const t = runs.map((r) => r.typing);
      const kb = (median(runs.map((r) => r.jsBytes)) / 1024).toFixed(1);
      console.log(
        `| ${kind.name} | ${kind.path} | ${Math.round(median(v))} | ${p.length ? Math.round(median(p)) : "-"} | ${Math.round(median(t))} | ${kb} | ${runs.map((r) => `${Math.round(r.visible)}/${Math.round(r.typing)}`).join(", ")} |`,
      );
    }
  }
}

await main();
