// npm run bench:load — sustained valid quote posts against the production server, then a
// reconciliation of answers against the store.
//
// Starts `node runtime/serve.mjs` (building dist/ first when it is missing) on a free
// 127.0.0.1 port with REDIS_URL (default redis://127.0.0.1:6379), a unique
// REDIS_KEY_PREFIX, RATE_LIMIT_PER_MINUTE=0 and NODE_ENV=production; drives CONNECTIONS
// keep-alive connections for DURATION seconds, each posting a valid quote with its own
// Idempotency-Key and a human-paced `_started`, one request per connection at a time (so
// nothing is in flight when the clock stops and every request is answered and counted);
// prints req/s and p50/p95/p99; reconciles 2xx answers with the quote leads the store holds
// under the prefix (0 lost, 0 extra); replays a sample of keys and shows each stored once;
// deletes its keys and stops the server by PID.
//
//   CONNECTIONS=50 DURATION=20 npm run bench:load
import { spawn, spawnSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { register } from "tsx/esm/api";
import { ROOT, freePort } from "./lib.mjs";

register();
const CONNECTIONS = Number(process.env.CONNECTIONS || 50);
const DURATION_S = Number(process.env.DURATION || 20);
const REPLAY_SAMPLE = 25;
const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379";
const PREFIX = `treeline:bench-load:${randomBytes(4).toString("hex")}:`;

const { createStore } = await import("../netlify/lib/store/index.ts");
const { keyspace } = await import("../netlify/lib/store/keys.ts");

const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });

/** POST JSON; resolves { status, body, ms }. */
function post(port, pathname, body, headers = {}) {
  return new Promise((resolve) => {
    const data = Buffer.from(JSON.stringify(body));
    const t0 = performance.now();
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path: pathname,
        method: "POST",
        agent,
        headers: { "content-type": "application/json", "content-length": data.length, ...headers },
      },
      (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString(), ms: performance.now() - t0 }),
        );
      },
    );
    req.on("error", (error) => resolve({ status: 0, body: String(error), ms: performance.now() - t0 }));
    req.end(data);
  });
}

const quote = () => ({
  name: "Load Tester",
  email: "load@example.com",
  phone: "512-555-0199",
  address: "123 Oak Street, Austin TX",
  serviceType: "tree-removal",
  urgency: "standard",
  treeDetails: { treeType: "Live oak", height: "40 ft" },
  _started: String(Date.now() - 60_000),
});

async function waitUntilUp(port, child, deadlineMs = 120_000) {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const ok = await new Promise((resolve) => {
      const req = http.get({ host: "127.0.0.1", port, path: "/api/health" }, (res) => {
        res.resume();
        resolve(res.statusCode === 200);
      });
      req.on("error", () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("server did not come up");
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

if (!existsSync(path.join(ROOT, "dist", "index.html"))) {
  console.log("[load] dist/ missing: npm run build");
  const built = spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const port = await freePort();
const serverLog = [];
const child = spawn(process.execPath, ["runtime/serve.mjs"], {
  cwd: ROOT,
  env: {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    REDIS_URL,
    REDIS_KEY_PREFIX: PREFIX,
    RATE_LIMIT_PER_MINUTE: "0",
    NODE_ENV: "production",
  },
  stdio: ["ignore", "pipe", "pipe"],
});
child.stdout.on("data", (d) => serverLog.push(String(d)));
child.stderr.on("data", (d) => serverLog.push(String(d)));
const store = createStore({ transport: "redis", url: REDIS_URL, prefix: PREFIX });
const keepAlive = setInterval(() => {}, 1_000);
let exitCode = 0;

try {
  console.log(`[load] server pid ${child.pid} on 127.0.0.1:${port}, prefix ${PREFIX}`);
  await waitUntilUp(port, child);
  // Warm the function bundle so the first second is not a cold start.
  await post(port, "/api/quote", quote(), { "idempotency-key": `warm-${randomUUID()}` });
  const base = await store.redis.zcard(keyspace(PREFIX).leadsByType("quote"));

  const latencies = [];
  const statuses = {};
  const okKeys = [];
  const deadline = performance.now() + DURATION_S * 1000;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < deadline) {
        const key = randomUUID();
        const res = await post(port, "/api/quote", quote(), { "idempotency-key": key });
        latencies.push(res.ms);
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (res.status >= 200 && res.status < 300) okKeys.push([key, JSON.parse(res.body).id]);
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  const total = latencies.length;
  const ok = okKeys.length;
  const stored = (await store.redis.zcard(keyspace(PREFIX).leadsByType("quote"))) - base;

  console.log(
    `\nbench:load  POST /api/quote  ${CONNECTIONS} connections x ${DURATION_S} s  (node ${process.version}, ${REDIS_URL})`,
  );
  console.log("| requests | req/s | p50 ms | p95 ms | p99 ms | max ms | statuses |");
  console.log("|---:|---:|---:|---:|---:|---:|---|");
  console.log(
    `| ${total} | ${(total / elapsed).toFixed(1)} | ${pct(latencies, 50).toFixed(1)} | ${pct(latencies, 95).toFixed(1)} | ${pct(latencies, 99).toFixed(1)} | ${latencies[total - 1].toFixed(1)} | ${Object.entries(
      statuses,
    )
      .map(([s, n]) => `${s}: ${n}`)
      .join(", ")} |`,
  );
  const lost = ok - stored;
  console.log(
    `reconciliation: 2xx = ${ok}, stored quote leads = ${stored}, lost = ${Math.max(0, lost)}, extra = ${Math.max(0, -lost)} -> ${lost === 0 ? "OK" : "MISMATCH"}`,
  );
  if (lost !== 0 || ok !== total) exitCode = 1;

  // Idempotency: replay a sample of keys; each must answer the first id and store nothing new.
  const sample = okKeys.filter((_, i) => i % Math.max(1, Math.floor(ok / REPLAY_SAMPLE)) === 0).slice(0, REPLAY_SAMPLE);
  let same = 0;
  for (const [key, id] of sample) {
    const res = await post(port, "/api/quote", quote(), { "idempotency-key": key });
    if (res.status === 201 && JSON.parse(res.body).id === id) same++;
  }
  const after = (await store.redis.zcard(keyspace(PREFIX).leadsByType("quote"))) - base;
  console.log(
    `replay: ${sample.length} keys re-sent, ${same} answered their first id, stored leads ${stored} -> ${after} -> ${same === sample.length && after === stored ? "stored once" : "DUPLICATES"}`,
  );
  if (same !== sample.length || after !== stored) exitCode = 1;
} catch (error) {
  console.error("[load] failed:", error);
  console.error(serverLog.join("").slice(-3000));
  exitCode = 1;
} finally {
  agent.destroy();
  child.kill("SIGTERM");
  await new Promise((r) => (child.exitCode !== null ? r() : child.once("exit", r)));
  // Delete every key under the run's prefix.
  let cursor = "0";
  let deleted = 0;
  do {
    const [next, keys] = await store.redis.scan(cursor, { match: `${PREFIX}*`, count: 1000 });
    cursor = String(next);
    if (keys.length) deleted += await store.redis.del(...keys);
  } while (cursor !== "0");
  await store.close();
  clearInterval(keepAlive);
  console.log(`[load] server ${child.pid} stopped; deleted ${deleted} keys under ${PREFIX}`);
}
process.exit(exitCode);
