/**
 * Bench a: >= 10,000 hostile requests (--runs generated cases, plus the known problem cases
 * and raw-socket requests of ./request-cases.ts) through `node runtime/serve.mjs` with the
 * embedded store and the default rate limits, each request from its own 127.x.y.z address:
 * the API cases of tests/helpers/fuzz.ts sent as real requests, generated page requests,
 * malformed %-escapes, prototype keys in queries, odd methods, repeated parameters. Counts
 * answers by status class per endpoint and lists every 5xx and every request left unanswered
 * (target: 0 x 5xx).
 */
import fc from "fast-check";
import { fuzzCase, type FuzzCase } from "../../tests/helpers/fuzz.ts";
import { percentile, pool, procStatus, rawRequest, request, sortedNumbers, startServer, table } from "../lib.mjs";
import { RAW, endpointOf, knownCases, pageCase, reseat, wirePath, type Case } from "./request-cases.ts";
import type { HostileOptions } from "./shared.ts";

type Answer = Awaited<ReturnType<typeof request>>;

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

/** Runs bench a, prints its tables and returns its figures. */
export async function hostileRequests(options: HostileOptions): Promise<Record<string, unknown>> {
  const { runs, seed } = options;
  console.log(`[hostile] a: ${runs} generated cases (seed ${seed}) + known cases + ${RAW.length} raw requests`);
  const server = await startServer({ TREELINE_EMBEDDED_PERSIST: "0", NODE_ENV: "production" });
  try {
    return await sendAll(server, options);
  } finally {
    await server.stop();
  }
}

async function sendAll(
  server: Awaited<ReturnType<typeof startServer>>,
  { runs, seed, concurrency, timeoutMs }: HostileOptions,
): Promise<Record<string, unknown>> {
  const { port } = server;
  const host = `127.0.0.1:${port}`;

  // Three generated API cases to one page case; the API ones are the fuzzer's own.
  const made = fc.sample(
    fc.oneof(
      { weight: 3, arbitrary: fuzzCase.map((p) => ({ kind: "api" as const, p })) },
      { weight: 1, arbitrary: pageCase.map((c) => ({ kind: "page" as const, c })) },
    ),
    { seed, numRuns: runs },
  );
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
  await pool(cases.length, concurrency, async (i) => {
    const c = cases[i]!;
    const localAddress = addressOf(++seq);
    let res: Answer = await request(port, c.method, wirePath(c.path), {
      headers: c.headers,
      body: c.body,
      timeoutMs,
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
        { timeoutMs, localAddress },
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
      timeoutMs,
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
  const result = {
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

  const classes = ["2xx", "3xx", "4xx", "5xx", "timeout", "no answer"];
  console.log(
    `\na. ${outcomes.length} hostile requests in ${seconds.toFixed(0)} s (${(outcomes.length / seconds).toFixed(1)} req/s, p50 ${percentile(lat, 50).toFixed(0)} ms, p99 ${percentile(lat, 99).toFixed(0)} ms), ${concurrency} at a time\n`,
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
  return result;
}
