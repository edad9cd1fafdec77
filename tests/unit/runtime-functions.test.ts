/**
 * The in-process function runtime of `npm start` and `npm run dev` (runtime/functions.ts):
 * routing as Netlify routes `config.path`, the context a function gets, the bounded call
 * queue, scheduled runs, and the cron reader behind them.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { nextRun } from "../../runtime/cron.ts";
import {
  BUSY_MESSAGE,
  TIMING_HEADER,
  answeredBy,
  createRuntime,
  loadFunctions,
  matchFunction,
  type LocalFunction,
} from "../../runtime/functions.ts";

function fn(name: string, handler: LocalFunction["handler"], options: Partial<LocalFunction> = {}): LocalFunction {
  return { name, handler, routes: [], excluded: [], preferStatic: false, ...options };
}
const route = (pathname: string) => new URLPattern({ pathname });
const info = { ip: "127.0.0.7", origin: "http://127.0.0.1:8888" };

afterEach(() => {
  vi.useRealTimers();
});

describe("routing", () => {
  const ok = () => new Response("ok");
  const table = [
    fn("health", ok, { routes: [route("/api/health")], methods: new Set(["GET"]) }),
    fn("reviews", ok, { routes: [route("/api/businesses/:id/reviews")] }),
    fn("business", ok, { routes: [route("/api/businesses/:id")], excluded: [route("/api/businesses/featured")] }),
    fn("ssr", ok, { routes: [route("/directory/:slug"), route("/directory")], preferStatic: true }),
    fn("nightly", ok, { schedule: "@daily" }),
  ];

  it("matches config.path with its params, config.method (HEAD as GET) and excludedPath", () => {
    expect(matchFunction(table, "/api/businesses/b-1/reviews", "POST")).toMatchObject({
      fn: { name: "reviews" },
      params: { id: "b-1" },
    });
    expect(matchFunction(table, "/api/health", "HEAD")?.fn.name).toBe("health");
    expect(matchFunction(table, "/api/health", "POST")).toBeUndefined();
    expect(matchFunction(table, "/api/businesses/featured", "GET")).toBeUndefined();
    expect(matchFunction(table, "/directory/oak-co", "GET")).toMatchObject({
      fn: { name: "ssr", preferStatic: true },
      params: { slug: "oak-co" },
    });
    // A scheduled function has no route.
    expect(matchFunction(table, "/.netlify/functions/nightly", "POST")).toBeUndefined();
  });

  it("gives a page's path to the page function for GET and HEAD and to its form's function for POST", () => {
    const pages = [
      fn("answer", ok, { routes: [route("/respond/:token")], methods: new Set(["POST"]) }),
      fn("ssr", ok, { routes: [route("/respond/:token")], methods: new Set(["GET", "HEAD"]), preferStatic: true }),
    ];
    for (const order of [pages, [...pages].reverse()]) {
      expect(matchFunction(order, "/respond/abc", "GET")?.fn.name).toBe("ssr");
      expect(matchFunction(order, "/respond/abc", "HEAD")?.fn.name).toBe("ssr");
      expect(matchFunction(order, "/respond/abc", "POST")).toMatchObject({
        fn: { name: "answer" },
        params: { token: "abc" },
      });
      expect(matchFunction(order, "/respond/abc", "PATCH")).toBeUndefined();
    }
  });

  it("loads the project's functions with their config (every endpoint of docs/api.md has one)", async () => {
    const functions = await loadFunctions();
    expect(matchFunction(functions, "/api/quote", "POST")?.fn.name).toBe("quote");
    expect(matchFunction(functions, "/api/businesses/slug/oak-co", "GET")?.fn.name).toBe("business-by-slug");
    expect(functions.find((f) => f.name === "notify-outbox")?.schedule).toBe("*/5 * * * *");
  });
});

describe("calls", () => {
  it("gives the function the socket's address, the route params and a waitUntil the runtime waits for", async () => {
    let finished = false;
    const runtime = createRuntime([]);
    const seen = await runtime.call(
      {
        fn: fn("echo", (req, context) => {
          context.waitUntil(new Promise<void>((r) => setTimeout(() => ((finished = true), r()), 20)));
          return Response.json({ ip: context.ip, params: context.params, url: req.url });
        }),
        params: { id: "b-2" },
      },
      new Request("http://127.0.0.1:8888/api/x/b-2", { headers: { "x-forwarded-for": "6.6.6.6" } }),
      info,
    );
    expect(await seen.json()).toEqual({
      ip: "127.0.0.7",
      params: { id: "b-2" },
      url: "http://127.0.0.1:8888/api/x/b-2",
    });
    expect(finished).toBe(false);
    await runtime.stop();
    expect(finished).toBe(true);
  });

  it("runs at most `concurrent` calls, queues `waiting` more, and refuses the rest with 503 before any work", async () => {
    const started: number[] = [];
    const gates: Array<() => void> = [];
    const slow = fn("slow", async (req) => {
      const n = Number(new URL(req.url).searchParams.get("n"));
      started.push(n);
      await new Promise<void>((r) => gates.push(r));
      return new Response(String(n));
    });
    const runtime = createRuntime([slow], { concurrent: 2, waiting: 1, maxWaitMs: 60_000 });
    const call = (n: number) => runtime.call({ fn: slow, params: {} }, new Request(`http://x/api/slow?n=${n}`), info);
    const calls = [1, 2, 3, 4].map(call);
    await vi.waitFor(() => expect(started).toEqual([1, 2]));
    const refused = await calls[3]!;
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("2");
    expect(await refused.json()).toEqual({ error: BUSY_MESSAGE });
    gates.shift()!();
    await vi.waitFor(() => expect(started).toEqual([1, 2, 3]));
    while (gates.length) gates.shift()!();
    expect(await Promise.all(calls.slice(0, 3).map(async (r) => (await r).text()))).toEqual(["1", "2", "3"]);
    // Call 4 never started: a refused request changed nothing.
    expect(started).not.toContain(4);
  });

  it("refuses a call that waited longer than maxWaitMs, without starting it", async () => {
    vi.useFakeTimers();
    let release!: () => void;
    const ran: string[] = [];
    const busy = fn("busy", async (req) => {
      ran.push(req.url);
      await new Promise<void>((r) => (release = r));
      return new Response("done");
    });
    const runtime = createRuntime([busy], { concurrent: 1, waiting: 5, maxWaitMs: 1_000 });
    const first = runtime.call({ fn: busy, params: {} }, new Request("http://x/a"), info);
    const second = runtime.call({ fn: busy, params: {} }, new Request("http://x/b"), info);
    await vi.advanceTimersByTimeAsync(1_000);
    expect((await second).status).toBe(503);
    release();
    expect((await first).status).toBe(200);
    expect(ran).toEqual(["http://x/a"]);
  });

  it("runs a scheduled function on its schedule with Netlify's next_run body", async () => {
    vi.useFakeTimers({ now: new Date("2026-11-26T10:02:30Z") });
    const bodies: unknown[] = [];
    const runtime = createRuntime([
      fn(
        "tick",
        async (req) => {
          bodies.push({ method: req.method, body: await req.json() });
        },
        { schedule: "*/5 * * * *" },
      ),
    ]);
    runtime.startSchedules();
    await vi.advanceTimersByTimeAsync(2 * 60_000);
    expect(bodies).toEqual([]);
    await vi.advanceTimersByTimeAsync(31_000);
    expect(bodies).toEqual([{ method: "POST", body: { next_run: "2026-11-26T10:10:00.000Z" } }]);
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(bodies).toHaveLength(2);
    await runtime.stop();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(bodies).toHaveLength(2);
  });

  it("follows a new table: an edited handler runs, a changed schedule moves, a removed one stops", async () => {
    vi.useFakeTimers({ now: new Date("2026-11-26T10:00:30Z") });
    const runs: string[] = [];
    const tick = (label: string, schedule: string) => fn("tick", () => void runs.push(label), { schedule });
    const runtime = createRuntime([tick("v1", "* * * * *")]);
    runtime.startSchedules();
    await vi.advanceTimersByTimeAsync(31_000);
    expect(runs).toEqual(["v1"]);
    // Edited code on the same schedule: the next run is the new code's.
    runtime.update([tick("v2", "* * * * *")]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs).toEqual(["v1", "v2"]);
    // Every 5 minutes now (10:05, 10:10): nothing at 10:03 or 10:04.
    runtime.update([tick("v3", "*/5 * * * *")]);
    await vi.advanceTimersByTimeAsync(2 * 60_000);
    expect(runs).toEqual(["v1", "v2"]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs).toEqual(["v1", "v2", "v3"]);
    runtime.update([]);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(runs).toEqual(["v1", "v2", "v3"]);
    await runtime.stop();
  });

  it("names the function that answered in Server-Timing, on answers whose headers are immutable too", async () => {
    const runtime = createRuntime([]);
    const moved = await runtime.call(
      { fn: fn("mover", () => Response.redirect("http://127.0.0.1:8888/there", 303)), params: {} },
      new Request("http://127.0.0.1:8888/here"),
      info,
    );
    expect(moved.status).toBe(303);
    expect(moved.headers.get("location")).toBe("http://127.0.0.1:8888/there");
    expect(answeredBy(moved.headers.get(TIMING_HEADER))).toBe("mover");
    const empty = await runtime.call({ fn: fn("quiet", () => {}), params: {} }, new Request("http://x/"), info);
    expect(empty.status).toBe(204);
    expect(answeredBy(empty.headers.get(TIMING_HEADER))).toBe("quiet");
    expect(answeredBy(null)).toBeUndefined();
    expect(answeredBy('cache;desc="hit", fn;desc="health";dur=1.0')).toBe("health");
  });
});

describe("nextRun (cron, UTC)", () => {
  const at = (iso: string) => new Date(iso);
  it.each([
    ["*/5 * * * *", "2026-11-26T10:02:30Z", "2026-11-26T10:05:00.000Z"],
    ["*/5 * * * *", "2026-11-26T10:05:00Z", "2026-11-26T10:10:00.000Z"],
    ["@hourly", "2026-11-26T10:59:59Z", "2026-11-26T11:00:00.000Z"],
    ["@daily", "2026-11-26T10:00:00Z", "2026-11-27T00:00:00.000Z"],
    ["0 9 * * 1-5", "2026-11-27T09:00:00Z", "2026-11-30T09:00:00.000Z"],
    ["30 6 1,15 * *", "2026-11-16T00:00:00Z", "2026-12-01T06:30:00.000Z"],
    ["0 0 29 2 *", "2026-03-01T00:00:00Z", "2028-02-29T00:00:00.000Z"],
    ["0 12 * * 7", "2026-11-26T00:00:00Z", "2026-11-29T12:00:00.000Z"],
  ])("%s after %s is %s", (expression, after, next) => {
    expect(nextRun(expression, at(after)).toISOString()).toBe(next);
  });

  it.each(["* * * *", "61 * * * *", "*/0 * * * *", "5-1 * * * *", "x * * * *"])("refuses %s", (expression) => {
    expect(() => nextRun(expression, new Date())).toThrow();
  });
});
