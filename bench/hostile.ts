/**
 * npm run bench:hostile [-- --runs N --seed S --concurrency C --parts abc]: hostile traffic
 * through the real `node runtime/serve.mjs` over HTTP (issue 24's "done when" lines).
 *
 *   a. >= 10,000 hostile requests (default --runs 10000 generated cases, plus a fixed list of
 *      known problem cases and raw-socket requests no HTTP client would send), with the
 *      embedded store and the default rate limits, each request from its own 127.x.y.z
 *      address: the API cases of tests/helpers/fuzz.ts sent as real requests, generated page
 *      requests (/directory and its filters, business pages, other pages), malformed
 *      %-escapes, prototype keys in queries, odd methods, repeated parameters. Counts answers
 *      by status class per endpoint and lists every 5xx and every request left unanswered
 *      (target: 0 x 5xx).
 *   b. 50 concurrent valid POST /api/quote, each with its own Idempotency-Key, on the Redis at
 *      REDIS_URL (default redis://127.0.0.1:6379) under a unique REDIS_KEY_PREFIX, once with
 *      RATE_LIMIT_PER_MINUTE=0 and once with the default limit: only 2xx, 429 or 503 may
 *      answer; every 2xx's lead is stored exactly once and no refused payload is stored
 *      (matched by a marker in treeDetails.condition). Its keys are deleted afterwards.
 *   c. a frozen Redis: its own redis-server on a free port, the server on it, a check that
 *      health, a GET and a quote work, then `kill -STOP` and the status and time of
 *      GET /api/businesses?limit=3, POST /api/quote and GET /api/health (target: 503 within
 *      5 s), then `kill -CONT` and the same three again.
 *
 * Prints a summary, writes bench/results/hostile-<timestamp>.json and stops every process it
 * started by PID, even on failure. Measures only: the exit code is 0 whatever the figures.
 */
import { spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import fc from "fast-check";
import { FUZZ_BUSINESS, FUZZ_BUSINESS_SLUG, fuzzCase, type FuzzCase } from "../tests/helpers/fuzz.ts";
import { validQuote } from "../tests/helpers/functions.ts";
import { deleteKeysWithPrefix } from "../tests/helpers/redis.ts";
import { createStore } from "../netlify/lib/store/index.ts";
import { DIRECTORY_PARAMS } from "../src/lib/directory-url.ts";
import {
  ROOT,
  argValue,
  ensureBuilt,
  freePort,
  percentile,
  pool,
  procStatus,
  rawRequest,
  request,
  sortedNumbers,
  startServer,
  table,
  track,
  untrack,
  writeResult,
} from "./lib.mjs";

const args = process.argv.slice(2);
const RUNS = Number(argValue(args, "--runs") ?? 10_000);
const SEED = Number(argValue(args, "--seed") ?? Date.now() % 2 ** 31);
const CONCURRENCY = Number(argValue(args, "--concurrency") ?? 8);
const PARTS = argValue(args, "--parts") ?? "abc";
const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379";
const TIMEOUT_MS = Number(process.env.TIMEOUT_MS || 30_000);
const FROZEN_TIMEOUT_MS = 20_000;

const seed = JSON.parse(readFileSync(path.join(ROOT, "content/directory/businesses.json"), "utf8")) as {
  id: string;
  slug: string;
}[];
const BIZ = seed[0]!;

type Answer = Awaited<ReturnType<typeof request>>;
interface Sent {
  label: string;
  method: string;
  path: string;
  how: "http" | "raw";
}
const result: Record<string, unknown> = { node: process.version, seed: SEED, runs: RUNS, concurrency: CONCURRENCY };
const servers: { stop(): Promise<void>; pid: number }[] = [];
let exitCode = 0;

// ---------------------------------------------------------------------------------------
// a. hostile requests

/** The endpoint a path reaches (for the per-endpoint counts). */
function endpointOf(p: string): string {
  const pathname = p.split("?")[0]!;
  const routes: [RegExp, string][] = [
    [/^\/api\/businesses\/?$/, "/api/businesses"],
    [/^\/api\/businesses\/featured\/?$/, "/api/businesses/featured"],
    [/^\/api\/businesses\/slug\/./, "/api/businesses/slug/:slug"],
    [/^\/api\/businesses\/[^/]+\/reviews\/?$/, "/api/businesses/:id/reviews"],
    [/^\/api\/(quote|audit|assessment|find-pros|booking-request|chat|health)\/?$/, "/api/$1"],
    [/^\/api\//, "/api/* (no function)"],
    [/^\/directory\/?$/, "/directory"],
    [/^\/directory\/./, "/directory/:slug"],
    [/^\/sitemap/, "/sitemap*"],
  ];
  for (const [re, name] of routes) {
    const m = re.exec(pathname);
    if (m) return name.replace("$1", m[1] ?? "");
  }
  return "other pages";
}

/** Percent-encodes what no HTTP client puts on the wire raw (controls, space, non-ASCII); keeps the rest, broken escapes included. */
function wirePath(p: string): string {
  let out = "";
  for (const ch of p) {
    const code = ch.codePointAt(0)!;
    out +=
      code <= 0x20 || code >= 0x7f
        ? [...Buffer.from(ch, "utf8")].map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join("")
        : ch;
  }
  return out;
}

/** The fuzz cases name a business the embedded store does not hold: point them at a seed one. */
const reseat = (s: string) => s.replaceAll(FUZZ_BUSINESS_SLUG, BIZ.slug).replaceAll(FUZZ_BUSINESS, BIZ.id);

// Page requests: /directory with its filters, business pages, other pages.
const PROTO = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "valueOf"];
const nasty = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 30 }),
  fc.constantFrom(
    "<script>alert(1)</script>",
    '"><svg onload=alert(1)>',
    "../../etc/passwd",
    "%",
    "%zz",
    "%E0%A4%A",
    "%c0%ae",
    "%00",
    "\u0000",
    "\uD800",
    "-1",
    "0",
    "1e309",
    "NaN",
    "99999999999999999999",
    "houston",
    "Austin",
    "78701",
    "tree-removal",
    "true",
    "rating",
    "distance",
  ),
  fc.integer({ min: 1_000, max: 9_000 }).map((n) => "x".repeat(n)),
);
const DIRECTORY_KEYS = [...DIRECTORY_PARAMS, ...PROTO];
const pageMethod = fc.oneof(
  { weight: 12, arbitrary: fc.constant("GET") },
  { weight: 2, arbitrary: fc.constant("HEAD") },
  { weight: 2, arbitrary: fc.constantFrom("POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "PROPFIND") },
);
/** A query of known and prototype keys, some repeated, encoded or sent raw. */
const pageQuery = fc
  .tuple(fc.array(fc.tuple(fc.constantFrom(...DIRECTORY_KEYS), nasty), { maxLength: 6 }), fc.boolean())
  .map(([pairs, raw]) =>
    pairs.length === 0
      ? ""
      : "?" +
        (raw
          ? pairs.map(([k, v]) => `${k}=${v}`).join("&")
          : new URLSearchParams(pairs as [string, string][]).toString()),
  );
const pageSegment = fc
  .tuple(
    fc.oneof(
      fc.constantFrom(BIZ.slug, "%zz", "%c0%ae", "%E0%A4%A", "..", "%2e%2e", "__proto__", "constructor", "a/../b"),
      fc.string({ maxLength: 30 }),
    ),
    fc.boolean(),
  )
  .map(([s, raw]) => (raw ? s : encodeURIComponent(s)));
const pageCase: fc.Arbitrary<Sent & { headers: Record<string, string>; body?: string }> = fc
  .tuple(
    pageMethod,
    fc.oneof(
      { weight: 5, arbitrary: fc.constant("/directory") },
      { weight: 3, arbitrary: pageSegment.map((s) => `/directory/${s}`) },
      {
        weight: 2,
        arbitrary: fc
          .tuple(fc.constantFrom("", "blog/", "services/", "business-growth/"), pageSegment)
          .map(([dir, s]) => `/${dir}${s}`),
      },
      { weight: 1, arbitrary: fc.constantFrom("/", "/about", "/sitemap-index.xml", "/sitemap-directory-0.xml") },
    ),
    pageQuery,
  )
  .map(([method, p, q]) => ({
    label: endpointOf(p),
    method,
    path: p + q,
    how: "http" as const,
    headers: (method === "POST" || method === "PUT"
      ? { "content-type": "application/x-www-form-urlencoded" }
      : {}) as Record<string, string>,
    body: method === "POST" || method === "PUT" ? "q=oak" : undefined,
  }));

/** Known problem cases, sent as they are. */
function knownCases(): (Sent & { headers: Record<string, string>; body?: string })[] {
  const get = (p: string, method = "GET") => ({
    label: endpointOf(p),
    method,
    path: p,
    how: "http" as const,
    headers: {},
  });
  const cases = [
    ...[
      "/directory/%zz",
      "/directory/%",
      "/directory/%E0%A4%A",
      "/%c0%ae",
      "/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd",
      "/%zz",
      "/%00",
      "/blog/%zz",
      "/services/%E0%A4%A",
      "/sitemap-directory-%zz.xml",
      "/api/businesses/%E0%A4%A",
      "/api/businesses/%zz/reviews",
      "/api/businesses/slug/%E0%A4%A",
      "/api/businesses/slug/%zz",
      "/api/businesses/slug/%c0%ae%c0%ae",
      "/api/%zz",
      "/directory?city=%zz",
      "/directory?q=%E0%A4%A",
      "/api/businesses?search=%zz",
      "/api/businesses?city=%E0%A4%A",
    ].map((p) => get(p)),
  ];
  const targets = [
    "/",
    "/directory",
    `/directory/${BIZ.slug}`,
    "/api/businesses",
    "/api/businesses/featured",
    "/api/health",
    `/api/businesses/slug/${BIZ.slug}`,
    `/api/businesses/${BIZ.id}/reviews`,
    "/api/quote",
  ];
  for (const t of targets) {
    for (const key of ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "__proto__[polluted]"])
      cases.push(get(`${t}?${key}=1`));
    cases.push(get(`${t}?__proto__=x&constructor=y&toString=z&hasOwnProperty=w`));
    for (const method of ["TRACE", "PROPFIND", "MKCOL", "COPY", "MOVE", "LOCK", "SEARCH", "PURGE", "OPTIONS", "PATCH"])
      cases.push(get(t, method));
  }
  for (const p of [
    "/api/businesses?search=a&search=b",
    "/api/businesses?limit=1&limit=2",
    "/api/businesses?city=austin&city=houston",
    "/api/businesses?near=78701&near=x",
    "/api/businesses/featured?limit=1&limit=x",
    `/api/businesses/${BIZ.id}/reviews?offset=1&offset=-1`,
    "/directory?city=a&city=b",
    "/directory?city=houston&city=austin",
    "/directory?page=1&page=2",
    "/directory?q=a&q=b",
    "/directory?near=78701&near=77002&radius=10&radius=x",
    `/directory/${BIZ.slug}?x=1&x=2`,
  ])
    cases.push(get(p));
  return cases;
}

/** Raw requests no HTTP client would send; `PORT` stands for the server's port in Host. */
const RAW: [string, string][] = [
  ["TRACK", "TRACK / HTTP/1.1\r\nHost: HOST\r\n\r\n"],
  ["TRACK", "TRACK /api/businesses HTTP/1.1\r\nHost: HOST\r\n\r\n"],
  ["CONNECT host:port", "CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n"],
  ["CONNECT path", "CONNECT /api/businesses HTTP/1.1\r\nHost: HOST\r\n\r\n"],
  ["CONNEC", "CONNEC / HTTP/1.1\r\nHost: HOST\r\n\r\n"],
  ["G\\0T", "G\0T / HTTP/1.1\r\nHost: HOST\r\n\r\n"],
  ["lowercase get", "get / HTTP/1.1\r\nHost: HOST\r\n\r\n"],
  ["BREW (unknown method)", "BREW /api/quote HTTP/1.1\r\nHost: HOST\r\n\r\n"],
  ["HTTP/2.0 line", "GET / HTTP/2.0\r\nHost: HOST\r\n\r\n"],
  ["HTTP/0.9", "GET /\r\n\r\n"],
  ["HTTP/1.0 no Host", "GET /directory HTTP/1.0\r\n\r\n"],
  ["foreign Host", "GET /api/health HTTP/1.1\r\nHost: evil.example\r\n\r\n"],
  ["two Hosts", "GET /api/health HTTP/1.1\r\nHost: HOST\r\nHost: evil.example\r\n\r\n"],
  ["absolute-form target", "GET http://evil.example/api/health HTTP/1.1\r\nHost: HOST\r\n\r\n"],
  ["absolute-form own host", "GET http://HOST/directory HTTP/1.1\r\nHost: HOST\r\n\r\n"],
  ["asterisk target", "OPTIONS * HTTP/1.1\r\nHost: HOST\r\n\r\n"],
  ["raw UTF-8 path", "GET /directory/caf\u00c3\u00a9 HTTP/1.1\r\nHost: HOST\r\n\r\n"],
  ["raw UTF-8 query", "GET /directory?q=\u00c3\u00a9t\u00c3\u00a9 HTTP/1.1\r\nHost: HOST\r\n\r\n"],
  ["space in target", "GET /directory?q=a b HTTP/1.1\r\nHost: HOST\r\n\r\n"],
  ["control char in target", "GET /api/businesses?search=\u0001 HTTP/1.1\r\nHost: HOST\r\n\r\n"],
  ["header without colon", "GET / HTTP/1.1\r\nHost: HOST\r\nNoColonHere\r\n\r\n"],
  ["obs-fold header", "GET / HTTP/1.1\r\nHost: HOST\r\nX-A: a\r\n b\r\n\r\n"],
  ["32 KB header", `GET / HTTP/1.1\r\nHost: HOST\r\nX-Big: ${"a".repeat(32_768)}\r\n\r\n`],
  ["bare LF lines", "GET /api/health HTTP/1.1\nHost: HOST\n\n"],
  [
    "CL + TE (smuggling)",
    "POST /api/quote HTTP/1.1\r\nHost: HOST\r\nContent-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
  ],
  [
    "bad chunk size",
    "POST /api/quote HTTP/1.1\r\nHost: HOST\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
  ],
  ["negative Content-Length", "POST /api/quote HTTP/1.1\r\nHost: HOST\r\nContent-Length: -1\r\n\r\n{}"],
  ["two Content-Lengths", "POST /api/quote HTTP/1.1\r\nHost: HOST\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}"],
  ["huge Content-Length", "POST /api/quote HTTP/1.1\r\nHost: HOST\r\nContent-Length: 99999999999\r\n\r\n{}"],
  ["Content-Length on GET", "GET /api/businesses HTTP/1.1\r\nHost: HOST\r\nContent-Length: 2\r\n\r\n{}"],
  [
    "Expect: 100-continue",
    "POST /api/quote HTTP/1.1\r\nHost: HOST\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n{}",
  ],
  ["NUL in header value", "GET / HTTP/1.1\r\nHost: HOST\r\nX-A: a\0b\r\n\r\n"],
];

/** 5xx answers grouped by status and the first line of their body. */
function distinctCauses(fivexx: Outcome[]) {
  const groups = new Map<string, Outcome[]>();
  for (const o of fivexx) {
    const key = `${o.status} ${JSON.stringify(o.body.split("\n")[0]!.slice(0, 120))}`;
    groups.set(key, [...(groups.get(key) ?? []), o]);
  }
  return [...groups]
    .sort(([, a], [, b]) => b.length - a.length)
    .map(([cause, list]) => ({
      cause,
      count: list.length,
      examples: list.slice(0, 3).map((o) => `${o.method} ${JSON.stringify(o.path.slice(0, 80))}`),
    }));
}

/** Errors in the server's output: each message with its first stack frame in a file, by count. */
function loggedErrors(log: string) {
  const counts = new Map<string, number>();
  const lines = log.split("\n");
  lines.forEach((line, i) => {
    const m = /(\w*Error\b.*)$/.exec(line);
    if (!m || /^\s+at /.test(line)) return;
    // The first frame with a file: "at decodeURIComponent (<anonymous>)" says little.
    const frames: string[] = [];
    for (let j = i + 1; j < lines.length && /^\s+at /.test(lines[j]!); j++) frames.push(lines[j]!);
    const where = (frames.find((l) => !l.includes("<anonymous>")) ?? frames[0] ?? "").trim();
    const key = `${m[1]!.slice(0, 160)}\u0000${where}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  });
  return [...counts]
    .sort(([, a], [, b]) => b - a)
    .map(([key, count]) => ({ message: key.split("\u0000")[0]!, where: key.split("\u0000")[1]!, count }));
}

interface Outcome {
  label: string;
  method: string;
  path: string;
  status: number;
  error?: string;
  body: string;
  ms: number;
}

async function partA(): Promise<void> {
  console.log(`[hostile] a: ${RUNS} generated cases (seed ${SEED}) + known cases + ${RAW.length} raw requests`);
  const server = await startServer({ TREELINE_EMBEDDED_PERSIST: "0", NODE_ENV: "production" });
  servers.push(server);
  const { port } = server;
  const host = `127.0.0.1:${port}`;

  // Three generated API cases to one page case; the API ones are the fuzzer's own.
  const made = fc.sample(
    fc.oneof(
      { weight: 3, arbitrary: fuzzCase.map((p) => ({ kind: "api" as const, p })) },
      { weight: 1, arbitrary: pageCase.map((c) => ({ kind: "page" as const, c })) },
    ),
    { seed: SEED, numRuns: RUNS },
  );
  type Case = Sent & { headers: Record<string, string>; body?: string };
  const cases: Case[] = [];
  for (const m of made) {
    if (m.kind === "page") cases.push(m.c);
    else {
      const c: FuzzCase = await m.p;
      const p = reseat(c.path);
      cases.push({
        label: endpointOf(p),
        method: c.method,
        path: p,
        how: "http",
        headers: c.headers,
        body: c.method === "GET" || c.method === "HEAD" || c.body === undefined ? undefined : reseat(c.body),
      });
    }
  }
  cases.push(...knownCases());

  const outcomes: Outcome[] = [];
  let seq = 0;
  // A fresh source address per request (any 127.x.y.z is this machine): the rate limits run
  // but do not turn the run into a wall of 429s.
  const addressOf = (i: number) => `127.${1 + ((i >> 16) % 250)}.${(i >> 8) & 255}.${1 + ((i & 255) % 254)}`;
  const t0 = performance.now();
  let lastReport = t0;
  await pool(cases.length, CONCURRENCY, async (i) => {
    const c = cases[i]!;
    const localAddress = addressOf(++seq);
    let res: Answer = await request(port, c.method, wirePath(c.path), {
      headers: c.headers,
      body: c.body,
      timeoutMs: TIMEOUT_MS,
      localAddress,
    });
    let how = "http";
    if (res.error?.startsWith("refused by client")) {
      // Node will not send it (a header value it rejects): write it byte for byte instead.
      const head = Object.entries(c.headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join("");
      const body = Buffer.from(c.body ?? "", "utf8");
      res = await rawRequest(
        port,
        Buffer.concat([
          Buffer.from(
            `${c.method} ${wirePath(c.path)} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n${head}content-length: ${body.length}\r\n\r\n`,
            "utf8",
          ),
          body,
        ]),
        { timeoutMs: TIMEOUT_MS, localAddress },
      );
      how = "raw";
    }
    outcomes.push({
      label: c.label + (how === "raw" ? " (raw)" : ""),
      method: c.method,
      path: c.path,
      status: res.status,
      error: res.error,
      body: res.body.subarray(0, 200).toString("utf8"),
      ms: res.ms,
    });
    if (performance.now() - lastReport > 10_000) {
      lastReport = performance.now();
      process.stderr.write(`\r[hostile] a: ${outcomes.length}/${cases.length + RAW.length} answered...`);
    }
  });
  for (const [name, text] of RAW) {
    const res = await rawRequest(port, Buffer.from(text.replaceAll("HOST", host), "latin1"), {
      timeoutMs: TIMEOUT_MS,
      localAddress: addressOf(++seq),
    });
    const method = text.slice(0, text.search(/[ \r\n]/));
    outcomes.push({
      label: "raw socket",
      method: `${method} (${name})`,
      path: text.split(/\s+/)[1] ?? "",
      status: res.status,
      error: res.error,
      body: res.body.subarray(0, 200).toString("latin1"),
      ms: res.ms,
    });
  }
  process.stderr.write("\n");
  const seconds = (performance.now() - t0) / 1000;

  const byEndpoint: Record<string, Record<string, number>> = {};
  for (const o of outcomes) {
    const cls = o.status ? `${String(o.status)[0]}xx` : o.error === "timeout" ? "timeout" : "no answer";
    (byEndpoint[o.label] ??= {})[cls] = (byEndpoint[o.label]![cls] ?? 0) + 1;
  }
  const fivexx = outcomes.filter((o) => o.status >= 500);
  const unanswered = outcomes.filter((o) => !o.status && o.label !== "raw socket");
  const rawClosed = outcomes.filter((o) => !o.status && o.label === "raw socket");
  const lat = sortedNumbers(outcomes.map((o) => o.ms));
  const causes = distinctCauses(fivexx);
  const logged = loggedErrors(server.log());
  result.a = {
    requests: outcomes.length,
    seconds,
    reqPerS: outcomes.length / seconds,
    p50: percentile(lat, 50),
    p99: percentile(lat, 99),
    rss: procStatus(server.pid),
    byEndpoint,
    causes,
    serverErrors: logged,
    fivexx: fivexx.map(({ label: _label, ms: _ms, ...o }) => o),
    unanswered: unanswered.map(({ label: _label, ms: _ms, body: _body, ...o }) => o),
    rawClosed: rawClosed.map((o) => `${o.method}: ${o.error}`),
  };
  await server.stop();

  const classes = ["2xx", "3xx", "4xx", "5xx", "timeout", "no answer"];
  console.log(
    `\na. ${outcomes.length} hostile requests in ${seconds.toFixed(0)} s (${(outcomes.length / seconds).toFixed(1)} req/s, p50 ${percentile(lat, 50).toFixed(0)} ms, p99 ${percentile(lat, 99).toFixed(0)} ms), ${CONCURRENCY} at a time\n`,
  );
  console.log(
    table(
      ["endpoint", "requests", ...classes],
      Object.entries(byEndpoint)
        .sort(([x], [y]) => x.localeCompare(y))
        .map(([e, c]) => [
          e,
          String(Object.values(c).reduce((s, n) => s + n, 0)),
          ...classes.map((k) => (c[k] ? (k === "5xx" ? `**${c[k]}**` : String(c[k])) : "")),
        ]),
    ),
  );
  console.log(`\n5xx: ${fivexx.length} (target 0)`);
  if (fivexx.length) {
    console.log("distinct 5xx answers (status and first body line), with examples:");
    for (const c of causes) console.log(`  ${c.count} x ${c.cause}  e.g. ${c.examples.join(" ; ")}`);
    console.log("errors the server logged (message and where), by count:");
    for (const e of logged) console.log(`  ${e.count} x ${e.message}  ${e.where}`);
    console.log("every 5xx:");
  }
  for (const o of fivexx)
    console.log(`  ${o.status} ${o.method} ${JSON.stringify(o.path.slice(0, 160))}: ${JSON.stringify(o.body)}`);
  if (unanswered.length) console.log(`unanswered: ${unanswered.length}`);
  for (const o of unanswered.slice(0, 30))
    console.log(`  ${o.error} after ${o.ms.toFixed(0)} ms: ${o.method} ${JSON.stringify(o.path.slice(0, 160))}`);
  if (rawClosed.length)
    console.log(
      `raw requests closed without an answer (no status to count): ${rawClosed.map((o) => `${o.method}: ${o.error}`).join("; ")}`,
    );
}

// ---------------------------------------------------------------------------------------
// b. concurrent quotes on real Redis

const quoteBody = (marker: string) =>
  JSON.stringify({
    ...validQuote(),
    treeDetails: { treeType: "Live oak", height: "40 ft", condition: marker },
    _started: String(Date.now() - 60_000),
  });

async function quoteBurst(limit: string | undefined): Promise<Record<string, unknown>> {
  const prefix = `treeline:bench-hostile:${randomBytes(4).toString("hex")}:`;
  const env: Record<string, string> = { REDIS_URL, REDIS_KEY_PREFIX: prefix, NODE_ENV: "production" };
  if (limit !== undefined) env.RATE_LIMIT_PER_MINUTE = limit;
  const server = await startServer(env);
  servers.push(server);
  const store = createStore({ transport: "redis", url: REDIS_URL, prefix });
  try {
    // The first call to a function may pay for its bundling: an invalid body, from another
    // address, takes that cost out of the burst and stores nothing.
    await request(server.port, "POST", "/api/quote", {
      headers: { "content-type": "application/json" },
      body: "{}",
      localAddress: "127.0.0.2",
      timeoutMs: 120_000,
    });
    const run = randomBytes(3).toString("hex");
    let peakRss = procStatus(server.pid).rss;
    const sampler = setInterval(() => {
      try {
        peakRss = Math.max(peakRss, procStatus(server.pid).rss);
      } catch {
        // gone
      }
    }, 100);
    const sent = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const marker = `bench-hostile-${run}-${i}`;
        const res = await request(server.port, "POST", "/api/quote", {
          headers: { "content-type": "application/json", "idempotency-key": randomUUID() },
          body: quoteBody(marker),
          timeoutMs: 120_000,
        });
        let id: string | undefined;
        try {
          id = JSON.parse(res.body.toString()).id;
        } catch {
          // not JSON
        }
        return {
          marker,
          status: res.status,
          error: res.error,
          ms: res.ms,
          id,
          body: res.body.toString().slice(0, 200),
        };
      }),
    );
    clearInterval(sampler);
    // Every stored quote under the prefix, by marker.
    const stored = new Map<string, string[]>();
    let cursor: string | null = null;
    do {
      const page = await store.leads.list("quote", { cursor, limit: 100 });
      for (const lead of page.items) {
        const marker = String((lead.data as { treeDetails?: { condition?: string } }).treeDetails?.condition ?? "");
        stored.set(marker, [...(stored.get(marker) ?? []), lead.id]);
      }
      cursor = page.nextCursor;
    } while (cursor);
    const statuses: Record<string, number> = {};
    const problems: string[] = [];
    for (const s of sent) {
      const key = String(s.status || s.error);
      statuses[key] = (statuses[key] ?? 0) + 1;
      const ids = stored.get(s.marker) ?? [];
      const ok = s.status >= 200 && s.status < 300;
      if (!(ok || s.status === 429 || s.status === 503))
        problems.push(`${s.marker}: answered ${s.status || s.error} ${JSON.stringify(s.body)}`);
      if (ok && (ids.length !== 1 || ids[0] !== s.id))
        problems.push(`${s.marker}: answered ${s.status} id ${s.id}, stored ${JSON.stringify(ids)}`);
      if (!ok && ids.length)
        problems.push(`${s.marker}: answered ${s.status || s.error} but stored ${JSON.stringify(ids)}`);
    }
    const markers = new Set(sent.map((s) => s.marker));
    for (const [m, ids] of stored)
      if (!markers.has(m)) problems.push(`stored lead(s) ${ids.join(", ")} with unknown marker ${m}`);
    const lat = sortedNumbers(sent.map((s) => s.ms));
    return {
      rateLimit: limit ?? "default",
      statuses,
      stored: [...stored.values()].reduce((n, ids) => n + ids.length, 0),
      p50: percentile(lat, 50),
      max: lat[lat.length - 1],
      peakRss,
      problems,
    };
  } finally {
    await server.stop();
    await store.close();
    await deleteKeysWithPrefix(REDIS_URL, prefix);
  }
}

async function partB(): Promise<void> {
  console.log(`[hostile] b: 50 concurrent POST /api/quote on ${REDIS_URL}`);
  const runs = [await quoteBurst("0"), await quoteBurst(undefined)];
  result.b = runs;
  console.log("\nb. 50 concurrent valid POST /api/quote, each with its own Idempotency-Key, one client address\n");
  console.log(
    table(
      ["RATE_LIMIT_PER_MINUTE", "statuses", "stored", "p50 ms", "max ms", "peak RSS", "only 2xx/429/503, reconciled"],
      runs.map((r) => [
        String(r.rateLimit),
        Object.entries(r.statuses as Record<string, number>)
          .map(([s, n]) => `${s}: ${n}`)
          .join(", "),
        String(r.stored),
        (r.p50 as number).toFixed(0),
        (r.max as number).toFixed(0),
        `${((r.peakRss as number) / 1024 / 1024).toFixed(0)} MB`,
        (r.problems as string[]).length ? `NO (${(r.problems as string[]).length})` : "yes",
      ]),
    ),
  );
  for (const r of runs) for (const p of (r.problems as string[]).slice(0, 5)) console.log(`  ${r.rateLimit}: ${p}`);
}

// ---------------------------------------------------------------------------------------
// c. frozen Redis

/** Resolves once the Redis on `port` answers PING (10 s at most). */
async function redisAnswers(port: number): Promise<void> {
  const until = Date.now() + 10_000;
  while (Date.now() < until) {
    const pong = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: "127.0.0.1", port }, () => socket.write("PING\r\n"));
      socket.setTimeout(1_000, () => socket.destroy());
      socket.on("data", (d) => {
        socket.destroy();
        resolve(d.toString().startsWith("+PONG"));
      });
      socket.on("error", () => resolve(false));
      socket.on("close", () => resolve(false));
    });
    if (pong) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`redis-server on ${port} does not answer PING`);
}

async function partC(): Promise<void> {
  const redisPort = await freePort();
  console.log(`[hostile] c: own redis-server on 127.0.0.1:${redisPort}, then SIGSTOP`);
  const redis = spawn(
    "redis-server",
    ["--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: "ignore" },
  );
  track(redis.pid!);
  let frozen = false;
  try {
    await redisAnswers(redisPort);
    const prefix = `treeline:bench-frozen:${randomBytes(4).toString("hex")}:`;
    const server = await startServer({
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      REDIS_KEY_PREFIX: prefix,
      RATE_LIMIT_PER_MINUTE: "0",
      NODE_ENV: "production",
    });
    servers.push(server);
    const three = async (phase: string) => {
      const rows = [];
      for (const [method, p, body] of [
        ["GET", "/api/businesses?limit=3", undefined],
        ["POST", "/api/quote", quoteBody(`bench-frozen-${phase}`)],
        ["GET", "/api/health", undefined],
      ] as const) {
        const res = await request(server.port, method, p, {
          headers: body ? { "content-type": "application/json", "idempotency-key": randomUUID() } : {},
          body,
          timeoutMs: FROZEN_TIMEOUT_MS,
        });
        rows.push({ phase, request: `${method} ${p}`, status: res.status, error: res.error, ms: res.ms });
      }
      return rows;
    };
    const rows = [...(await three("redis up (first calls)")), ...(await three("redis up"))];
    process.kill(redis.pid!, "SIGSTOP");
    frozen = true;
    rows.push(...(await three("redis frozen")));
    process.kill(redis.pid!, "SIGCONT");
    frozen = false;
    rows.push(...(await three("after SIGCONT")));
    await server.stop();
    result.c = rows;
    console.log(
      `\nc. frozen Redis (kill -STOP), client gives up after ${FROZEN_TIMEOUT_MS / 1000} s; target: 503 within 5 s\n`,
    );
    console.log(
      table(
        ["phase", "request", "status", "ms", "503 within 5 s"],
        rows.map((r) => [
          r.phase,
          r.request,
          String(r.status || r.error),
          r.ms.toFixed(0),
          r.phase === "redis frozen" ? (r.status === 503 && r.ms <= 5_000 ? "yes" : "NO") : "",
        ]),
      ),
    );
  } finally {
    if (frozen) process.kill(redis.pid!, "SIGCONT");
    const exited = new Promise((r) => redis.once("exit", r));
    if (redis.exitCode === null) process.kill(redis.pid!, "SIGKILL");
    await exited;
    untrack(redis.pid!);
  }
}

// ---------------------------------------------------------------------------------------

ensureBuilt("hostile");
// The store's Redis socket is unref'd while idle: hold the loop open.
const keepAlive = setInterval(() => {}, 1_000);
try {
  if (PARTS.includes("a")) await partA();
  if (PARTS.includes("b")) await partB();
  if (PARTS.includes("c")) await partC();
  console.log(`\n[hostile] wrote ${path.relative(ROOT, writeResult("hostile", result))}`);
} catch (error) {
  console.error("[hostile] failed:", error);
  exitCode = 1;
} finally {
  for (const s of servers) await s.stop().catch(() => {});
  clearInterval(keepAlive);
}
process.exit(exitCode);
