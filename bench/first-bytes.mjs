#!/usr/bin/env node
// First-round-trip check of the production build: where does the first click-to-call link
// land in the gzip-compressed HTML? A server's first flight is about 10 TCP segments
// (14,600 bytes); a link inside it can be shown and tapped before the rest of the page
// arrives, which matters to someone with a tree on the roof and one bar of signal.
//
// For each page it reports the compressed byte offset at which the first `href="tel:` link's
// opening tag (and, if the page marks one with `data-call-now`, its own call button with the
// number) can be decoded. The offset is exact for this compressor: the page is gzipped once
// (level 6, the common server default) and we find the shortest prefix of that stream whose
// partial decompression already contains the whole tag. A measurement, not a test: it
// always exits 0 unless there is nothing to measure.
//
//   npm run bench:first-bytes [-- --routes /,/services/emergency] [-- --level 9] [-- --json]
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { DIST, argValue, builtRoutes } from "./lib.mjs";

const BUDGET = 14_600;

const args = process.argv.slice(2);
const level = Number(argValue(args, "--level") || 6);
const asJson = args.includes("--json");

/** dist file for a route, following build.format "file" (/a/b -> a/b.html, / -> index.html). */
function fileFor(route) {
  const clean = route.replace(/\/$/, "") || "/";
  const candidates = clean === "/" ? ["index.html"] : [`${clean.slice(1)}.html`, `${clean.slice(1)}/index.html`];
  return candidates.map((c) => path.join(DIST, c)).find((f) => existsSync(f));
}

/** Smallest n such that inflating the first n compressed bytes yields at least `target` bytes. */
function compressedOffset(gz, target) {
  const inflated = (n) => {
    try {
      return zlib.gunzipSync(gz.subarray(0, n), { finishFlush: zlib.constants.Z_SYNC_FLUSH }).length;
    } catch {
      return 0; // too short to hold the gzip header
    }
  };
  let lo = 1;
  let hi = gz.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (inflated(mid) >= target) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Byte offset just past the opening tag that contains `index` (the whole <a ...> decoded). */
function tagEnd(buf, index) {
  const close = buf.indexOf(">", index);
  return close === -1 ? buf.length : close + 1;
}

function measure(route) {
  const file = fileFor(route);
  if (!file) return { route, error: "not built" };
  const html = readFileSync(file);
  const gz = zlib.gzipSync(html, { level });
  const row = { route, rawBytes: html.length, gzipBytes: gz.length };
  const first = html.indexOf('href="tel:');
  if (first !== -1) {
    row.firstTelRaw = first;
    row.firstTelGzip = compressedOffset(gz, tagEnd(html, first));
  }
  // The page's own call button (data-call-now), which also shows the number.
  const marker = html.indexOf("data-call-now");
  if (marker !== -1) {
    const start = html.lastIndexOf("<a", marker);
    const close = html.indexOf("</a>", marker);
    row.callNowRaw = start;
    // The whole link, label with the number included, must have arrived.
    row.callNowGzip = compressedOffset(gz, close === -1 ? tagEnd(html, marker) : close + 4);
  }
  return row;
}

if (!existsSync(DIST)) {
  console.error("first-bytes: no dist/ (run npm run build first)");
  process.exit(1);
}
const routesArg = argValue(args, "--routes");
const routes = routesArg
  ? routesArg
      .split(",")
      .map((r) => r.trim())
      .filter(Boolean)
  : builtRoutes();
const rows = routes.map(measure);
if (rows.every((r) => r.error)) {
  console.error("first-bytes: none of the routes is built");
  process.exit(1);
}

if (asJson) {
  console.log(JSON.stringify({ budget: BUDGET, level, rows }, null, 2));
} else {
  const fmt = (n) => (n === undefined ? "-" : n.toLocaleString("en-US"));
  const ok = (n) => (n === undefined ? "-" : n <= BUDGET ? "yes" : "NO");
  const header = [
    "route",
    "html",
    "gzip",
    "1st tel: gz offset",
    `<= ${fmt(BUDGET)}`,
    "call-now gz offset",
    `<= ${fmt(BUDGET)}`,
  ];
  const lines = rows.map((r) =>
    r.error
      ? [r.route, r.error, "", "", "", "", ""]
      : [
          r.route,
          fmt(r.rawBytes),
          fmt(r.gzipBytes),
          fmt(r.firstTelGzip),
          ok(r.firstTelGzip),
          fmt(r.callNowGzip),
          ok(r.callNowGzip),
        ],
  );
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => String(l[i]).length)));
  const print = (cells) =>
    console.log(
      cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join("  "),
    );
  console.log(
    `First click-to-call link in the gzip (level ${level}) HTML; budget ${fmt(BUDGET)} bytes (first round trip).`,
  );
  print(header);
  print(widths.map((w) => "-".repeat(w)));
  for (const line of lines) print(line);
  const late = rows.filter((r) => r.firstTelGzip !== undefined && r.firstTelGzip > BUDGET);
  const noTel = rows.filter((r) => !r.error && r.firstTelGzip === undefined);
  const measured = rows.filter((r) => !r.error).length;
  console.log(
    `\n${measured - late.length - noTel.length} of ${measured} pages have a tel: link inside the budget${late.length ? `; late: ${late.map((r) => r.route).join(", ")}` : ""}${noTel.length ? `; none: ${noTel.map((r) => r.route).join(", ")}` : ""}.`,
  );
}
