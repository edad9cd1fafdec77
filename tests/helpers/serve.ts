/**
 * The real `npm start` server (node runtime/serve.mjs over dist/) on a free 127.0.0.1 port,
 * for hostile tests at the HTTP level, plus a raw request helper that can pick its source
 * address (any 127.x.y.z is this machine) so a test can be several clients at once.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** Whether `npm run build` has produced the site the server serves. */
export const BUILT = existsSync(`${ROOT}dist/index.html`);

export interface Served {
  origin: string;
  port: number;
  pid: number;
  /** Everything the server printed so far. */
  log(): string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts the server with `env` on top of a store-less environment (the embedded store). */
export async function startServe(env: Record<string, string>, port?: number): Promise<Served> {
  const chosen = port ?? (await freePort());
  const base = { ...process.env };
  for (const name of ["REDIS_URL", "UPSTASH_REDIS_REST_URL", "UPSTASH_REDIS_REST_TOKEN", "VITEST", "NODE_ENV"])
    delete base[name];
  const child: ChildProcess = spawn(process.execPath, ["runtime/serve.mjs"], {
    cwd: ROOT,
    env: { ...base, HOST: "127.0.0.1", PORT: String(chosen), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (output += c.toString()));
  const deadline = Date.now() + 90_000;
  while (!output.includes("[serve] Treeline production build on")) {
    if (child.exitCode !== null) throw new Error(`serve.mjs exited (${child.exitCode}):\n${output}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`serve.mjs did not start within 90 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    origin: `http://127.0.0.1:${chosen}`,
    port: chosen,
    pid: child.pid!,
    log: () => output,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      process.kill(child.pid!, "SIGTERM");
      const killer = setTimeout(() => child.exitCode === null && process.kill(child.pid!, "SIGKILL"), 5_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  text: string;
}

/** One HTTP request from `from` (a 127.x.y.z source address), without any client-side magic. */
export function send(
  served: Pick<Served, "port">,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string | Buffer; from?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port: served.port,
        method,
        path,
        headers: options.headers,
        localAddress: options.from ?? "127.0.0.1",
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const body = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString("utf8") });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

/** The server process's resident memory in bytes (Linux /proc). */
export async function rssOf(pid: number): Promise<number> {
  const { readFileSync } = await import("node:fs");
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return Number(kb) * 1024;
}
