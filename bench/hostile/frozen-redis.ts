/**
 * Bench c: a frozen Redis. Its own redis-server on a free port, the server on it, a check that
 * health, a GET and a quote work, then `kill -STOP` and the status and time of
 * GET /api/businesses?limit=3, POST /api/quote and GET /api/health (target: 503 within 5 s),
 * then `kill -CONT` and the same three again.
 */
import { spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import net from "node:net";
import { freePort, request, startServer, table, track, untrack } from "../lib.mjs";
import { quoteBody } from "./shared.ts";

/** A client's wait for an answer while Redis is frozen. */
const FROZEN_TIMEOUT_MS = 20_000;

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

interface Row {
  phase: string;
  request: string;
  status: number;
  error?: string;
  ms: number;
}

/** Runs bench c, prints its table and returns its rows. */
export async function frozenRedis(): Promise<Row[]> {
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
    const rows: Row[] = [];
    try {
      const three = async (phase: string) => {
        const answers: Row[] = [];
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
          answers.push({ phase, request: `${method} ${p}`, status: res.status, error: res.error, ms: res.ms });
        }
        return answers;
      };
      rows.push(...(await three("redis up (first calls)")), ...(await three("redis up")));
      process.kill(redis.pid!, "SIGSTOP");
      frozen = true;
      rows.push(...(await three("redis frozen")));
      process.kill(redis.pid!, "SIGCONT");
      frozen = false;
      rows.push(...(await three("after SIGCONT")));
    } finally {
      await server.stop();
    }
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
    return rows;
  } finally {
    if (frozen) process.kill(redis.pid!, "SIGCONT");
    const exited = new Promise((r) => redis.once("exit", r));
    if (redis.exitCode === null) process.kill(redis.pid!, "SIGKILL");
    await exited;
    untrack(redis.pid!);
  }
}
