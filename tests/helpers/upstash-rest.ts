/**
 * The local fake of Upstash: a small Upstash-REST-compatible endpoint in front of any command
 * backend. Tests put it in front of a real Redis to exercise the production client path
 * (HTTP, bearer token, base64 responses, /pipeline, /multi-exec).
 *
 *   POST /            body ["CMD", ...args]      -> {result} | 400 {error}
 *   POST /pipeline    body [[...], [...]]        -> [{result} | {error}, ...]
 *   POST /multi-exec  body [[...], [...]]        -> same, run as MULTI/EXEC
 *
 * Commands are executed through the store's own ioredis Requester (which also rewrites the
 * Upstash-only Lua shebang flag that real Redis rejects).
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { BackendRequester, type CommandBackend } from "../../netlify/lib/store/transports/requester.ts";
import { IORedisBackend } from "../../netlify/lib/store/transports/redis.ts";
import { STORE_TIMEOUT_MS } from "../../netlify/lib/store/index.ts";

export interface UpstashRestServer {
  url: string;
  token: string;
  /** Requests served, by path ("/", "/pipeline", "/multi-exec"). */
  hits: Record<string, number>;
  close(): Promise<void>;
}

function encodeBase64(value: unknown): unknown {
  // Upstash leaves status replies like OK readable; bulk strings are base64.
  if (typeof value === "string") return value === "OK" ? value : Buffer.from(value, "utf8").toString("base64");
  if (Array.isArray(value)) return value.map(encodeBase64);
  return value;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export interface RestServerOptions {
  backend: CommandBackend & { close(): Promise<void> };
  /** Bearer token clients must send. */
  token: string;
  /** 0 picks a free port. Always bound to 127.0.0.1. */
  port?: number;
}

export async function startRestServer(options: RestServerOptions): Promise<UpstashRestServer> {
  const { token, backend } = options;
  const requester = new BackendRequester(backend);
  const hits: Record<string, number> = {};

  const server = createServer(async (req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    try {
      if (req.method !== "POST") return send(405, { error: "ERR method not allowed" });
      if (req.headers.authorization !== `Bearer ${token}`) return send(401, { error: "Unauthorized" });
      const path = (req.url ?? "/").split("?")[0] ?? "/";
      hits[path] = (hits[path] ?? 0) + 1;
      const base64 = String(req.headers["upstash-encoding"] ?? "").toLowerCase() === "base64";
      const body = JSON.parse(await readBody(req)) as unknown;
      if (path === "/pipeline" || path === "/multi-exec") {
        if (!Array.isArray(body) || !body.every(Array.isArray))
          return send(400, { error: "ERR body must be an array of commands" });
        const replies = (await requester.request({ path: [path.slice(1)], body })) as unknown as {
          result?: unknown;
          error?: string;
        }[];
        return send(
          200,
          replies.map((r) =>
            r.error !== undefined ? { error: r.error } : { result: base64 ? encodeBase64(r.result) : r.result },
          ),
        );
      }
      if (path !== "/") return send(404, { error: "ERR unknown path" });
      if (!Array.isArray(body)) return send(400, { error: "ERR body must be a command array" });
      const reply = await requester.request({ body });
      if (reply.error !== undefined) return send(400, { error: reply.error });
      return send(200, { result: base64 ? encodeBase64(reply.result) : reply.result });
    } catch (error) {
      return send(500, { error: `ERR ${error instanceof Error ? error.message : String(error)}` });
    }
  });

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    hits,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await backend.close();
    },
  };
}

export function startUpstashRestServer(options: { redisUrl: string; token?: string }): Promise<UpstashRestServer> {
  const backend = new IORedisBackend(options.redisUrl, { timeoutMs: STORE_TIMEOUT_MS });
  return startRestServer({ backend, token: options.token ?? "test-token" });
}
