// npm run bench:store — the embedded store against Redis, side by side, through the production
// server as a new user runs it (`node runtime/serve.mjs`, default rate limits: every post comes
// from its own 127.x.y.z address).
//
// Starts two servers on free 127.0.0.1 ports, one on the embedded store persisted to a temp
// data folder, one on Redis (REDIS_URL, default redis://127.0.0.1:6379, under a key prefix of
// its own), both seeded with the sample directory, with the same quote leads stored in each
// beforehand (written through the store in this process while the servers are stopped). Then,
// at each size in LEADS (default 300 and 30,000 leads stored):
//   a. write: SAMPLES quote posts one at a time, embedded and Redis taking turns: p50/p95;
//   b. burst: ROUNDS times 30 posts sent at once to one store, then to the other: the time until
//      all 30 are answered (median over the rounds);
//   c. read: SAMPLES GET /api/businesses, taking turns, nothing else running: p50/p95;
//   d. read under writes: on one store at a time, one client posts continuously while SAMPLES
//      reads go one at a time: p50/p95 and the ratio of that p95 to (c)'s.
// For (c) and (d) it also sums the server's own CPU time during each read (its main thread,
// from /proc on Linux): a figure other processes on a shared machine do not inflate.
// Prints the figures and the ratios the store aims at, writes bench/results/store-<time>.json,
// stops both servers by PID, deletes the Redis keys and the data folder. It measures; the exit
// code is 0 whatever the figures.
//
//   LEADS=300,30000 SAMPLES=150 ROUNDS=5 npm run bench:store
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { register } from "tsx/esm/api";
import { ensureBuilt, percentile, pool, request, sortedNumbers, startServer, table, writeResult } from "./lib.mjs";

register();
const { createStore, DEFAULT_PREFIX, lendEmbeddedBackend } = await import("../netlify/lib/store/index.ts");
const { EmbeddedBackend } = await import("../netlify/lib/store/transports/embedded.ts");

const LEADS = (process.env.LEADS || "300,30000").split(",").map(Number);
const SAMPLES = Number(process.env.SAMPLES || 150);
const ROUNDS = Number(process.env.ROUNDS || 5);
const BURST = 30;
const WARM = 20;
const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379";
const REDIS_PREFIX = `treeline:bench-store:${randomBytes(4).toString("hex")}:`;
const dataDir = mkdtempSync(path.join(os.tmpdir(), "treeline-bench-store-"));
const dataFile = path.join(dataDir, "store.json");

const STORES = {
  embedded: {
    env: { TREELINE_EMBEDDED_PERSIST: "1", TREELINE_DATA_DIR: dataDir, REDIS_KEY_PREFIX: DEFAULT_PREFIX },
    /** The store behind the server, opened here while the server is stopped. */
    open() {
      const backend = new EmbeddedBackend({ file: dataFile });
      lendEmbeddedBackend(backend);
      const store = createStore({ transport: "embedded", prefix: DEFAULT_PREFIX });
      lendEmbeddedBackend(undefined);
      return { store, close: () => backend.close() };
    },
  },
  redis: {
    env: { REDIS_URL, REDIS_KEY_PREFIX: REDIS_PREFIX },
    open() {
      const store = createStore({ transport: "redis", url: REDIS_URL, prefix: REDIS_PREFIX });
      return { store, close: () => store.close() };
    },
  },
};
const KINDS = /** @type {const} */ (["embedded", "redis"]);

const quote = (name) => ({
  name,
  email: "bench@example.com",
  phone: "512-555-0199",
  address: "123 Oak Street, Austin TX",
  serviceType: "tree-removal",
  urgency: "standard",
  treeDetails: { treeType: "Live oak", height: "40 ft" },
});

// Each post from an address of its own, so the per-address rate limit (5 a minute) never bites.
let nextAddress = 0;
const freshAddress = () => {
  const i = nextAddress++;
  return `127.${10 + (Math.floor(i / 64516) % 200)}.${1 + (Math.floor(i / 254) % 254)}.${1 + (i % 254)}`;
};

let posted = 0;
async function post(server) {
  const name = `Bench ${++posted}`;
  const res = await request(server.port, "POST", "/api/quote", {
    headers: { "content-type": "application/json", accept: "application/json", "idempotency-key": randomUUID() },
    body: JSON.stringify({ ...quote(name), _started: String(Date.now() - 60_000) }),
    localAddress: freshAddress(),
  });
  if (res.status !== 201)
    throw new Error(`POST /api/quote answered ${res.status}: ${res.body.toString().slice(0, 300)}`);
  return res.ms;
}

const READS = [
  "/api/businesses?limit=12&offset=0",
  "/api/businesses?city=austin&limit=12",
  "/api/businesses?search=oak&limit=12",
  "/api/businesses?limit=12&offset=12",
];
/**
 * The CPU time the server's main thread has had (ms; Linux, from its schedstat), null where
 * there is none to read. Unlike a read's wall time, what it adds up during a read does not
 * grow when other processes take the CPUs: it is the server's own work the read waited for.
 */
function serverCpu(server) {
  try {
    return Number(readFileSync(`/proc/${server.pid}/task/${server.pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
  } catch {
    return null;
  }
}

/** One read: its wall time; the server's CPU meanwhile goes to `cpu` when given. */
async function read(server, i, cpu) {
  const before = cpu ? serverCpu(server) : null;
  const res = await request(server.port, "GET", READS[i % READS.length]);
  if (before !== null) cpu.push(serverCpu(server) - before);
  if (res.status !== 200) throw new Error(`GET ${READS[i % READS.length]} answered ${res.status}`);
  return res.ms;
}

const stats = (xs) => {
  const s = sortedNumbers(xs);
  return { n: s.length, p50: percentile(s, 50), p95: percentile(s, 95), max: s.at(-1) };
};
const ms = (x) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));

/** Adds quote leads through the store until `target` are stored; resolves to the count. */
async function fill(kind, target) {
  const { store, close } = STORES[kind].open();
  try {
    const have = (await store.leads.counts()).quote;
    let n = have;
    const t0 = performance.now();
    await pool(Math.max(0, target - have), 32, async () => {
      const { lead } = await store.leads.create("quote", quote(`Stored ${++n}`), { sourcePage: "/bench" });
      // As after its notification went out: the outbox holds only what is still to send.
      await store.outbox.done(lead.id);
    });
    const count = (await store.leads.counts()).quote;
    console.log(
      `[store] ${kind}: ${count} quote leads stored (${((performance.now() - t0) / 1000).toFixed(0)} s to add ${count - have})`,
    );
    return count;
  } finally {
    await close();
  }
}

async function startBoth() {
  const servers = {};
  for (const kind of KINDS) {
    servers[kind] = await startServer({ ...STORES[kind].env, NODE_ENV: "production", TREELINE_AUTO_SEED: "1" });
    // First calls seed (Redis), load code and warm the JIT.
    for (let i = 0; i < WARM; i++) {
      await post(servers[kind]);
      await read(servers[kind], i);
    }
  }
  return servers;
}

const folderBytes = () =>
  readdirSync(dataDir)
    .filter((n) => !n.startsWith("."))
    .reduce((sum, n) => sum + statSync(path.join(dataDir, n)).size, 0);

async function measure(servers) {
  const writes = { embedded: [], redis: [] };
  for (let i = 0; i < SAMPLES; i++)
    for (const kind of i % 2 ? [...KINDS].reverse() : KINDS) writes[kind].push(await post(servers[kind]));

  const bursts = { embedded: [], redis: [] };
  for (let r = 0; r < ROUNDS; r++) {
    for (const kind of r % 2 ? [...KINDS].reverse() : KINDS) {
      const t0 = performance.now();
      await Promise.all(Array.from({ length: BURST }, () => post(servers[kind])));
      bursts[kind].push(performance.now() - t0);
    }
  }

  const idle = { embedded: [], redis: [] };
  const idleCpu = { embedded: [], redis: [] };
  for (let i = 0; i < SAMPLES; i++)
    for (const kind of i % 2 ? [...KINDS].reverse() : KINDS)
      idle[kind].push(await read(servers[kind], i, idleCpu[kind]));

  const busy = {};
  for (const kind of KINDS) {
    let stop = false;
    let during = 0;
    const writer = (async () => {
      while (!stop) {
        await post(servers[kind]);
        during++;
      }
    })();
    const reads = [];
    const cpu = [];
    for (let i = 0; i < SAMPLES; i++) reads.push(await read(servers[kind], i, cpu));
    stop = true;
    await writer;
    busy[kind] = { reads, cpu, writesDuring: during };
  }

  const out = {};
  for (const kind of KINDS) {
    out[kind] = {
      write: stats(writes[kind]),
      burst: { ...stats(bursts[kind]), rounds: bursts[kind] },
      readIdle: stats(idle[kind]),
      readDuringWrites: stats(busy[kind].reads),
      // Empty where the server's CPU cannot be read (not Linux).
      readIdleServerCpu: idleCpu[kind].length ? stats(idleCpu[kind]) : null,
      readDuringWritesServerCpu: busy[kind].cpu.length ? stats(busy[kind].cpu) : null,
      writesDuringReads: busy[kind].writesDuring,
    };
  }
  return out;
}

/**
 * In this process, on the embedded store as the last size left it: reads of the directory
 * (through the store, no HTTP) while nothing else runs, then while a compaction writes a fresh
 * snapshot, and how long that takes.
 */
async function compaction() {
  const backend = new EmbeddedBackend({ file: dataFile });
  lendEmbeddedBackend(backend);
  const store = createStore({ transport: "embedded", prefix: DEFAULT_PREFIX });
  lendEmbeddedBackend(undefined);
  try {
    const readOnce = async (i) => {
      const t0 = performance.now();
      await store.businesses.list(i % 2 ? { city: "austin" } : { search: "oak" });
      return performance.now() - t0;
    };
    for (let i = 0; i < WARM; i++) await readOnce(i);
    const idle = [];
    for (let i = 0; i < SAMPLES; i++) idle.push(await readOnce(i));
    const during = [];
    let done = false;
    const t0 = performance.now();
    const compacting = backend.compactNow().finally(() => (done = true));
    for (let i = 0; !done; i++) during.push(await readOnce(i));
    await compacting;
    const seconds = (performance.now() - t0) / 1000;
    return {
      seconds,
      snapshotBytes: statSync(path.join(dataDir, "store.snapshot")).size,
      readIdle: stats(idle),
      readDuring: stats(during),
    };
  } finally {
    await backend.close();
  }
}

const context = {
  node: process.version,
  cpus: os.cpus().length,
  loadAverageAtStart: os.loadavg().map((l) => Number(l.toFixed(2))),
  redis: REDIS_URL,
  samples: SAMPLES,
  rounds: ROUNDS,
  startedAt: new Date().toISOString(),
};
const bySize = {};
let servers = null;
let compacted = null;
try {
  ensureBuilt("store");
  console.log(
    `[store] data folder ${dataDir}; Redis ${REDIS_URL} under ${REDIS_PREFIX}; load average ${context.loadAverageAtStart.join(" ")} on ${context.cpus} CPUs`,
  );
  for (const size of LEADS) {
    const stored = {};
    for (const kind of KINDS) stored[kind] = await fill(kind, size);
    const t0 = performance.now();
    servers = await startBoth();
    const started = { embedded: servers.embedded.startMs, redis: servers.redis.startMs };
    console.log(
      `[store] servers up (embedded ${ms(started.embedded)} ms, Redis ${ms(started.redis)} ms to their URL); measuring at ${size} leads`,
    );
    const figures = await measure(servers);
    for (const kind of KINDS) await servers[kind].stop();
    servers = null;
    bySize[size] = {
      stored,
      startMs: started,
      dataFolderBytes: folderBytes(),
      seconds: (performance.now() - t0) / 1000,
      ...figures,
    };
  }
  compacted = await compaction();
} catch (error) {
  console.error("[store] failed:", error);
  for (const server of Object.values(servers ?? {})) console.error(server.log().slice(-3000));
} finally {
  for (const server of Object.values(servers ?? {})) await server.stop();
  const { store, close } = STORES.redis.open();
  let cursor = "0";
  let deleted = 0;
  do {
    const [next, keys] = await store.redis.scan(cursor, { match: `${REDIS_PREFIX}*`, count: 1000 });
    cursor = String(next);
    if (keys.length) deleted += await store.redis.del(...keys);
  } while (cursor !== "0");
  await close();
  rmSync(dataDir, { recursive: true, force: true });
  console.log(`[store] deleted ${deleted} Redis keys and the data folder`);
}

context.loadAverageAtEnd = os.loadavg().map((l) => Number(l.toFixed(2)));
const sizes = Object.keys(bySize).map(Number);
if (sizes.length > 0) {
  const rows = [];
  for (const size of sizes) {
    const f = bySize[size];
    const row = (what, e, r) =>
      rows.push([
        size.toLocaleString("en-US"),
        what,
        e,
        r,
        (Number(e.split(" / ")[0]) / Number(r.split(" / ")[0])).toFixed(1) + "x",
      ]);
    row(
      "quote post p50 / p95 (ms)",
      `${ms(f.embedded.write.p50)} / ${ms(f.embedded.write.p95)}`,
      `${ms(f.redis.write.p50)} / ${ms(f.redis.write.p95)}`,
    );
    row("30 posts at once, all answered (ms, median)", ms(f.embedded.burst.p50), ms(f.redis.burst.p50));
    row(
      "GET /api/businesses idle p50 / p95 (ms)",
      `${ms(f.embedded.readIdle.p50)} / ${ms(f.embedded.readIdle.p95)}`,
      `${ms(f.redis.readIdle.p50)} / ${ms(f.redis.readIdle.p95)}`,
    );
    row(
      "the same while one client posts, p50 / p95 (ms)",
      `${ms(f.embedded.readDuringWrites.p50)} / ${ms(f.embedded.readDuringWrites.p95)}`,
      `${ms(f.redis.readDuringWrites.p50)} / ${ms(f.redis.readDuringWrites.p95)}`,
    );
    if (f.embedded.readIdleServerCpu && f.redis.readIdleServerCpu) {
      const cpu = (x) => `${x.p50.toFixed(2)} / ${x.p95.toFixed(2)}`;
      row(
        "server CPU during a read, idle p50 / p95 (ms)",
        cpu(f.embedded.readIdleServerCpu),
        cpu(f.redis.readIdleServerCpu),
      );
      row(
        "the same while one client posts, p50 / p95 (ms)",
        cpu(f.embedded.readDuringWritesServerCpu),
        cpu(f.redis.readDuringWritesServerCpu),
      );
    }
  }
  for (const size of sizes) {
    const f = bySize[size];
    rows.push([
      size.toLocaleString("en-US"),
      "server start to its URL (ms)",
      ms(f.startMs.embedded),
      ms(f.startMs.redis),
      "",
    ]);
  }
  console.log(
    `\nbench:store (node ${context.node}, ${context.cpus} CPUs, load ${context.loadAverageAtStart.join(" ")} -> ${context.loadAverageAtEnd.join(" ")})`,
  );
  console.log(table(["leads stored", "measure", "embedded", "Redis", "embedded / Redis (p50)"], rows));

  const [small, large] = [sizes[0], sizes.at(-1)];
  const s = bySize[small];
  const l = bySize[large];
  // Every target holds at every size: each ratio is given per size, not for the first one only.
  const targets = sizes.flatMap((size) => {
    const at = bySize[size];
    return [
      [`quote post p50, embedded / Redis (${size} leads)`, at.embedded.write.p50 / at.redis.write.p50, 2],
      [`30 posts at once, embedded / Redis (${size} leads)`, at.embedded.burst.p50 / at.redis.burst.p50, 3],
      [
        `embedded read p95 under writes / idle (${size} leads)`,
        at.embedded.readDuringWrites.p95 / at.embedded.readIdle.p95,
        2,
      ],
    ];
  });
  if (large !== small)
    targets.push([`embedded write p50, ${large} / ${small} leads`, l.embedded.write.p50 / s.embedded.write.p50, 1.2]);
  console.log(
    "\n" +
      table(
        ["ratio", "measured", "target", ""],
        targets.map(([what, value, target]) => [
          what,
          value.toFixed(2),
          `<= ${target}`,
          value <= target ? "met" : "NOT met",
        ]),
      ),
  );
  // The same ratio in the server's own CPU time, which other processes on the machine do not
  // move: what the reads waited for of the server's work, not of the machine's.
  const cpuRatios = sizes.flatMap((size) =>
    KINDS.filter((kind) => bySize[size][kind].readIdleServerCpu).map(
      (kind) =>
        `${kind} ${(bySize[size][kind].readDuringWritesServerCpu.p95 / bySize[size][kind].readIdleServerCpu.p95).toFixed(2)} (${size} leads)`,
    ),
  );
  if (cpuRatios.length > 0) console.log(`\nserver CPU during a read, p95 under writes / idle: ${cpuRatios.join(", ")}`);
  if (compacted) {
    console.log(
      `\ncompaction at ${sizes.at(-1).toLocaleString("en-US")} leads (in process): ${compacted.seconds.toFixed(1)} s for a ${(compacted.snapshotBytes / 1e6).toFixed(1)} MB snapshot; ` +
        `directory reads through the store p50 / p95 ${ms(compacted.readIdle.p50)} / ${ms(compacted.readIdle.p95)} ms idle, ` +
        `${ms(compacted.readDuring.p50)} / ${ms(compacted.readDuring.p95)} ms during it (${compacted.readDuring.n} reads)`,
    );
  }
  const file = writeResult("store", {
    compaction: compacted,
    context,
    bySize,
    targets: targets.map(([what, value, target]) => ({ what, value, target })),
  });
  console.log(`\n[store] figures written to ${path.relative(process.cwd(), file)}`);
}
process.exit(0);
