// Shared by the benchmarks: the production build (where it is, which pages it has), the
// command-line flags they take, and the running server (start and stop by PID, requests that
// never throw, raw-socket requests, /proc figures, tables and result files).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const DIST = path.join(ROOT, "dist");

/** `--name value` or `--name=value` among `args`; undefined when absent. */
export const argValue = (args, name) =>
  args.find((a, i) => args[i - 1] === name) ?? args.find((a) => a.startsWith(name + "="))?.slice(name.length + 1);

const DIRECTORY_ENTRY = /^\/directory\/[^/]+$/;

/**
 * The built HTML files as routes, sorted, without the error pages and whatever `skip` names.
 * Directory entries share one template: only the first is kept, because measuring hundreds
 * of them adds minutes, not information.
 */
export function builtRoutes(skip = (_route) => false) {
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "_astro") walk(full); // hashed assets, never pages
      } else if (entry.name.endsWith(".html")) {
        const rel = path
          .relative(DIST, full)
          .split(path.sep)
          .join("/")
          .replace(/\.html$/, "");
        found.push("/" + rel.replace(/(^|\/)index$/, ""));
      }
    }
  };
  walk(DIST);
  const routes = found
    .map((r) => (r.length > 1 ? r.replace(/\/$/, "") : r))
    .filter((r) => !/^\/(404|500)$/.test(r) && !skip(r))
    .sort();
  const entry = routes.find((r) => DIRECTORY_ENTRY.test(r));
  return routes.filter((r) => !DIRECTORY_ENTRY.test(r) || r === entry);
}

// --- the running server, for the benchmarks that talk to it over HTTP ----------------------
// (bench/serve.mjs, bench/hostile/). Nothing here knows how runtime/serve.mjs works inside:
// it is started as `node runtime/serve.mjs` with PORT/HOST and is up once it prints its URL.

/** Builds dist/ (and the on-demand function beside it) when either is missing. */
export function ensureBuilt(tag) {
  const ssr = path.join(ROOT, ".netlify", "v1", "functions", "ssr", "ssr.mjs");
  if (existsSync(path.join(DIST, "index.html")) && existsSync(ssr)) return;
  console.log(`[${tag}] dist/ missing: npm run build`);
  const built = spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// Every process a benchmark starts, so none outlives it (even on a crash or Ctrl-C).
const started = new Set();
let exitHooked = false;
/** Registers a PID this process started; it is SIGKILLed at exit unless untracked first. */
export function track(pid) {
  started.add(pid);
  if (exitHooked) return;
  exitHooked = true;
  process.on("exit", () => {
    for (const p of started) {
      try {
        process.kill(p, "SIGKILL");
      } catch {
        // already gone
      }
    }
  });
  for (const signal of ["SIGINT", "SIGTERM"]) process.once(signal, () => process.exit(130));
}
export const untrack = (pid) => started.delete(pid);

/** Store settings a benchmark must not inherit from the shell (it picks its own store). */
const STORE_ENV = [
  "REDIS_URL",
  "UPSTASH_REDIS_REST_URL",
  "UPSTASH_REDIS_REST_TOKEN",
  "TREELINE_SHARED_EMBEDDED",
  "VITEST",
];

/**
 * Starts `node runtime/serve.mjs` directly (not through npm, so the PID is the server's) on a
 * free 127.0.0.1 port, with `env` over an environment without store settings. Resolves once
 * it prints `[serve] ... on http://127.0.0.1:PORT`; `readyAt` is that moment (performance.now()).
 * @param {Record<string, string>} [env]
 * @param {{ timeoutMs?: number }} [options]
 * @returns {Promise<{ port: number, pid: number, origin: string, startMs: number, readyAt: number, log: () => string, stop: () => Promise<void> }>}
 */
export async function startServer(env = {}, { timeoutMs = 180_000 } = {}) {
  const port = await freePort();
  const base = { ...process.env };
  for (const name of STORE_ENV) delete base[name];
  const t0 = performance.now();
  const child = spawn(process.execPath, ["runtime/serve.mjs"], {
    cwd: ROOT,
    env: { ...base, HOST: "127.0.0.1", PORT: String(port), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  track(child.pid);
  let output = "";
  let readyAt = 0;
  const listening = new RegExp(`\\[serve\\].* on http://127\\.0\\.0\\.1:${port}\\b`);
  await new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`serve.mjs did not print its URL within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const onData = (chunk) => {
      output += chunk;
      if (!readyAt && listening.test(output)) {
        readyAt = performance.now();
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", (chunk) => (output += chunk));
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`serve.mjs exited (${code ?? signal}) before listening:\n${output.slice(-3000)}`));
    });
  }).catch(async (error) => {
    await stopPid(child);
    throw error;
  });
  return {
    port,
    pid: child.pid,
    origin: `http://127.0.0.1:${port}`,
    /** ms from spawn to the URL line. */
    startMs: readyAt - t0,
    readyAt,
    log: () => output,
    stop: () => stopPid(child),
  };
}

/** SIGTERM by PID, SIGKILL after 5 s; resolves once the child has exited. */
async function stopPid(child) {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    try {
      process.kill(child.pid, "SIGTERM");
    } catch {
      // already gone
    }
    const killer = setTimeout(() => {
      try {
        process.kill(child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }, 5_000);
    await exited;
    clearTimeout(killer);
  }
  untrack(child.pid);
}

/**
 * One HTTP request; never throws: a failure is status 0 with `error` ("timeout" after
 * `timeoutMs`). `ms` is until the whole body has arrived.
 * @param {number} port
 * @param {string} method
 * @param {string} pathname
 * @param {{ headers?: Record<string, string>, body?: string | Buffer, timeoutMs?: number, agent?: http.Agent | false, localAddress?: string }} [options]
 * @returns {Promise<{ status: number, headers: http.IncomingHttpHeaders, body: Buffer, ms: number, error?: string }>}
 */
export function request(
  port,
  method,
  pathname,
  { headers = {}, body, timeoutMs = 30_000, agent = false, localAddress } = {},
) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    let done = false;
    const finish = (result) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ ...result, ms: performance.now() - t0 });
    };
    let req;
    const timer = setTimeout(() => {
      finish({ status: 0, headers: {}, body: Buffer.alloc(0), error: "timeout" });
      req?.destroy();
    }, timeoutMs);
    try {
      req = http.request({ host: "127.0.0.1", port, method, path: pathname, headers, agent, localAddress }, (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => finish({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on("error", (e) => finish({ status: 0, headers: {}, body: Buffer.alloc(0), error: String(e.code ?? e) }));
      });
    } catch (error) {
      // Node refuses to send it (invalid path or header characters).
      finish({ status: 0, headers: {}, body: Buffer.alloc(0), error: `refused by client: ${error.code ?? error}` });
      return;
    }
    req.on("error", (e) => finish({ status: 0, headers: {}, body: Buffer.alloc(0), error: String(e.code ?? e) }));
    req.end(body);
  });
}

/**
 * Bytes written as they are to a fresh connection (what no HTTP client would send); the
 * status is read from the first answer line, 0 when the server closes without one.
 * @param {number} port
 * @param {Buffer} bytes
 * @param {{ timeoutMs?: number, localAddress?: string }} [options]
 * @returns {Promise<{ status: number, headers: {}, body: Buffer, ms: number, error?: string }>}
 */
export function rawRequest(port, bytes, { timeoutMs = 30_000, localAddress } = {}) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const chunks = [];
    let done = false;
    const socket = net.connect({ host: "127.0.0.1", port, localAddress });
    const finish = (error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      // Interim answers (100 Continue) come before the one that counts.
      const text = Buffer.concat(chunks)
        .toString("latin1")
        .replace(/^(HTTP\/1\.[01] 1\d\d[^\r]*\r\n(?:[^\r]+\r\n)*\r\n)+/, "");
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
      const head = text.indexOf("\r\n\r\n");
      const body = Buffer.from(head >= 0 ? text.slice(head + 4) : "", "latin1");
      resolve({ status, headers: {}, body, ms: performance.now() - t0, error: status ? undefined : error });
    };
    const timer = setTimeout(() => finish("timeout"), timeoutMs);
    socket.on("connect", () => socket.write(bytes));
    socket.on("data", (c) => {
      chunks.push(c);
      // One answer is all we want: stop once its head is in and the body is complete or unsized.
      const text = Buffer.concat(chunks)
        .toString("latin1")
        .replace(/^(HTTP\/1\.[01] 1\d\d[^\r]*\r\n(?:[^\r]+\r\n)*\r\n)+/, "");
      const head = text.indexOf("\r\n\r\n");
      if (head < 0) return;
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(text.slice(0, head))?.[1];
      if (length !== undefined && Buffer.byteLength(text, "latin1") - head - 4 >= Number(length)) finish();
      else if (/\r\ntransfer-encoding:\s*chunked/i.test(text.slice(0, head)) && text.endsWith("0\r\n\r\n")) finish();
    });
    socket.on("end", () => finish("closed without an answer"));
    socket.on("close", () => finish("closed without an answer"));
    socket.on("error", (e) => finish(String(e.code ?? e)));
  });
}

/** VmRSS (bytes) and thread count of a live process, from /proc (Linux). */
export function procStatus(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return {
    rss: Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024,
    threads: Number(/Threads:\s+(\d+)/.exec(status)?.[1] ?? 0),
  };
}

/**
 * Runs `task(i)` for i < n with at most `concurrency` at once.
 * @param {number} n
 * @param {number} concurrency
 * @param {(i: number) => Promise<void>} task
 */
export async function pool(n, concurrency, task) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, concurrency) }, async () => {
      while (next < n) await task(next++);
    }),
  );
}

/** Nearest-rank percentile of an ascending array. */
export const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
export const sortedNumbers = (xs) => [...xs].sort((a, b) => a - b);
export const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** A markdown table. */
export const table = (head, rows) =>
  [`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`, ...rows.map((r) => `| ${r.join(" | ")} |`)].join(
    "\n",
  );

/** Writes bench/results/<name>-<timestamp>.json and returns its path. */
export function writeResult(name, data) {
  const dir = path.join(ROOT, "bench", "results");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, JSON.stringify(data, null, 2) + "\n");
  return file;
}
