/**
 * Faults: Redis going away and coming back under a live handler, and a slow or
 * failing Anthropic API.
 *
 * The store talks to Redis through a tiny TCP proxy on 127.0.0.1 that the test stops and
 * starts: with it down, writes answer 503 JSON and /api/health says 503; with it back, the
 * same handler and store write again without a restart.
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QUOTE_ENDPOINT } from "../../netlify/lib/lead-endpoints.ts";
import { SAVE_ERROR, leadHandler } from "../../netlify/lib/leads.ts";
import { chatHandler } from "../../netlify/lib/assistant/handler.ts";
import { CLAUDE_TIMEOUT_MS } from "../../netlify/lib/assistant/caps.ts";
import { createStore, type Store } from "../../netlify/lib/store/index.ts";
import { FAKE_API_KEY, startFakeAnthropic, type FakeAnthropic } from "../helpers/fake-anthropic.ts";
import { humanStarted, jsonRequest, nextIp, validQuote } from "../helpers/functions.ts";
import { deleteKeysWithPrefix, resolveTestRedisUrl, uniquePrefix } from "../helpers/redis.ts";
import { parseEnv } from "../../src/lib/env.ts";

const redisUrl = await resolveTestRedisUrl();

/** A TCP proxy to Redis that can be stopped (connections cut) and started again on the same port. */
class RedisProxy {
  private server?: net.Server;
  private sockets = new Set<net.Socket>();
  port = 0;
  constructor(private readonly target: URL) {}

  async start(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(Number(this.target.port || 6379), this.target.hostname);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on("close", () => this.sockets.delete(s));
        s.on("error", () => s.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.port, "127.0.0.1", () => resolve());
    });
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
  }
}

describe.skipIf(!redisUrl)("Redis unreachable, then back", () => {
  const proxy = new RedisProxy(new URL(redisUrl ?? "redis://127.0.0.1:6379"));
  const prefix = uniquePrefix("faults");
  let store: Store;
  let health: (req: Request) => Promise<Response>;
  const post = (key: string) =>
    leadHandler(QUOTE_ENDPOINT, {
      store: () => store,
      env: parseEnv({ RATE_LIMIT_PER_MINUTE: "0" }),
      notify: async () => undefined,
    })(jsonRequest("/api/quote", { ...validQuote(), _started: humanStarted() }, { "idempotency-key": key }), nextIp());

  beforeAll(async () => {
    await proxy.start();
    const url = `redis://127.0.0.1:${proxy.port}`;
    store = createStore({ transport: "redis", url, prefix });
    // /api/health uses the process-wide store from the environment: point it at the proxy.
    process.env.REDIS_URL = url;
    process.env.REDIS_KEY_PREFIX = prefix;
    health = (await import("../../netlify/functions/health.mts")).default;
  });

  afterAll(async () => {
    await proxy.stop().catch(() => {});
    await store?.close().catch(() => {});
    if (redisUrl) await deleteKeysWithPrefix(redisUrl, prefix);
  });

  it("writes while Redis answers, 503 JSON while it is gone, and writes again when it returns", async () => {
    const first = await post("faults-1");
    expect(first.status).toBe(201);
    expect((await health(new Request("http://127.0.0.1/api/health"))).status).toBe(200);

    await proxy.stop();
    const down = await post("faults-2");
    expect(down.status).toBe(503);
    expect(down.headers.get("content-type")).toContain("application/json");
    expect(await down.json()).toEqual({ error: SAVE_ERROR });
    const sick = await health(new Request("http://127.0.0.1/api/health"));
    expect(sick.status).toBe(503);
    expect(await sick.json()).toMatchObject({ ok: false, answers: false, writable: false });

    // Same handler, same store object: no restart.
    await proxy.start();
    let back: Response | undefined;
    for (let i = 0; i < 20; i++) {
      back = await post("faults-2");
      if (back.status === 201) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(back!.status).toBe(201);
    expect((await health(new Request("http://127.0.0.1/api/health"))).status).toBe(200);
    // The retried submission (same key) was stored once; the one before the outage too.
    const { items } = await store.leads.list("quote", { limit: 10 });
    expect(items).toHaveLength(2);
  }, 30_000);
});

/** A server that accepts connections and reads everything but never answers: a frozen Redis. */
async function frozenServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
    socket.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe("a store that accepts connections but never answers (frozen)", () => {
  let frozen: Awaited<ReturnType<typeof frozenServer>>;
  beforeAll(async () => {
    frozen = await frozenServer();
  });
  afterAll(() => frozen.close());

  it.each([
    ["redis", () => createStore({ transport: "redis", url: `redis://127.0.0.1:${frozen.port}`, prefix: "frozen:" })],
    [
      "upstash",
      () =>
        createStore({ transport: "upstash", url: `http://127.0.0.1:${frozen.port}`, token: "t", prefix: "frozen:" }),
    ],
  ])(
    "%s: a lead gets the 503 of a store failure, health says it cannot write, nothing hangs",
    async (_, open) => {
      const store = open();
      try {
        const res = await leadHandler(QUOTE_ENDPOINT, {
          store: () => store,
          env: parseEnv({ RATE_LIMIT_PER_MINUTE: "5" }),
          notify: async () => undefined,
        })(jsonRequest("/api/quote", { ...validQuote(), _started: humanStarted() }), nextIp());
        expect(res.status).toBe(503);
        expect(await res.json()).toEqual({ error: SAVE_ERROR });
        expect(await store.ping()).toBe(false);
        expect(await store.writable()).toBe(false);
      } finally {
        await store.close().catch(() => {});
      }
    },
    20_000,
  );
});

describe.skipIf(!redisUrl)("Anthropic slow or failing", () => {
  let fake: FakeAnthropic;
  const prefix = uniquePrefix("faults-chat");
  let store: Store;
  const chat = () =>
    chatHandler({
      store: () => store,
      env: parseEnv({ ANTHROPIC_API_KEY: FAKE_API_KEY, ANTHROPIC_BASE_URL: fake.url, CHAT_RATE_LIMIT_PER_MINUTE: "0" }),
    });
  const ask = () =>
    jsonRequest("/api/chat", { messages: [{ role: "user", content: "How much does tree removal cost?" }] });

  beforeAll(async () => {
    fake = await startFakeAnthropic();
    store = createStore({ transport: "redis", url: redisUrl!, prefix });
  });
  afterAll(async () => {
    await fake?.close();
    await store?.close();
    if (redisUrl) await deleteKeysWithPrefix(redisUrl, prefix);
  });

  it("a 500 from the API gets the built-in reply at once", async () => {
    fake.reset();
    fake.queue({ status: 500 }, { status: 500 }, { status: 500 });
    const started = Date.now();
    const res = await chat()(ask(), nextIp());
    expect(res.status).toBe(200);
    expect(typeof (await res.json()).message).toBe("string");
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("a hanging API gets the built-in reply at the 10 s deadline (no override)", async () => {
    fake.reset();
    fake.queue({ text: "too late", delayMs: CLAUDE_TIMEOUT_MS + 5_000 });
    const started = Date.now();
    const res = await chat()(ask(), nextIp());
    const took = Date.now() - started;
    expect(res.status).toBe(200);
    const body = (await res.json()) as { message: string };
    expect(body.message).not.toContain("too late");
    expect(body.message.length).toBeGreaterThan(0);
    expect(took).toBeGreaterThanOrEqual(CLAUDE_TIMEOUT_MS - 500);
    expect(took).toBeLessThan(CLAUDE_TIMEOUT_MS + 3_000);
    expect(fake.requests.length).toBeGreaterThan(0);
  }, 20_000);
});
