/**
 * The functions of netlify/functions run in this process, as Netlify runs them: each module is
 * imported once and its default export called with (Request, Context) for the requests its
 * `config.path` names; a scheduled function runs on its `config.schedule`. Used by `npm start`
 * (runtime/serve.mjs) and `npm run dev` (src/integrations/local-functions.ts).
 *
 * Calls beyond what the machine should run at once wait in a bounded queue; a call that finds
 * the queue full, or waits too long, is answered 503 with Retry-After before any work starts,
 * so a refused request has changed nothing and can simply be sent again.
 */
import { randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Config, Context } from "@netlify/functions";
import { nextRun } from "./cron.ts";

type Handler = (req: Request, context: Context) => Response | void | Promise<Response | void>;
interface FunctionModule {
  default: Handler;
  config?: Config;
}

export interface LocalFunction {
  name: string;
  handler: Handler;
  /** The routes of `config.path` (none for a scheduled function). */
  routes: URLPattern[];
  excluded: URLPattern[];
  /** `config.method`, upper case; undefined = every method reaches the handler. */
  methods?: ReadonlySet<string>;
  /** A static file at the same path wins (the on-demand page function). */
  preferStatic: boolean;
  schedule?: string;
}

/** Imports every function in `dir` (.mts/.ts/.mjs/.js) once; `load` lets a dev server use its own loader. */
export async function loadFunctions(
  dir = resolve("netlify/functions"),
  load: Loader = (file) => import(/* @vite-ignore */ pathToFileURL(file).href),
): Promise<LocalFunction[]> {
  const files = readdirSync(dir)
    .filter((name) => /\.(m?ts|m?js)$/.test(name) && !name.endsWith(".d.ts"))
    .sort();
  return Promise.all(files.map((file) => loadFunction(join(dir, file), load)));
}

type Loader = (file: string) => Promise<FunctionModule>;

/** Imports one function module and reads its config. */
export async function loadFunction(
  file: string,
  load: Loader = (f) => import(/* @vite-ignore */ pathToFileURL(f).href),
): Promise<LocalFunction> {
  const mod = await load(file);
  if (typeof mod.default !== "function") throw new Error(`${file}: no default export to call`);
  const config = mod.config ?? {};
  const list = (value: string | string[] | undefined) => (value === undefined ? [] : [value].flat());
  const methods = list(config.method as string | string[] | undefined).map((m) => m.toUpperCase());
  return {
    name: basename(file).replace(/\.[^.]+$/, ""),
    handler: mod.default,
    routes: list(config.path).map((pathname) => new URLPattern({ pathname })),
    excluded: list(config.excludedPath).map((pathname) => new URLPattern({ pathname })),
    methods: methods.length ? new Set(methods) : undefined,
    preferStatic: config.preferStatic === true,
    schedule: config.schedule,
  };
}

export interface Match {
  fn: LocalFunction;
  params: Record<string, string>;
}

/** The function a request reaches, as Netlify matches `config.path`/`method`/`excludedPath`. */
export function matchFunction(
  functions: readonly LocalFunction[],
  pathname: string,
  method: string,
): Match | undefined {
  for (const fn of functions) {
    if (fn.methods && !fn.methods.has(method) && !(method === "HEAD" && fn.methods.has("GET"))) continue;
    if (fn.excluded.some((p) => p.test({ pathname }))) continue;
    for (const route of fn.routes) {
      const match = route.exec({ pathname });
      if (!match) continue;
      const params: Record<string, string> = {};
      for (const [name, value] of Object.entries(match.pathname.groups)) if (value !== undefined) params[name] = value;
      return { fn, params };
    }
  }
  return undefined;
}

export interface QueueLimits {
  /** Calls running at once. */
  concurrent: number;
  /** Calls waiting for a turn; one more is refused at once. */
  waiting: number;
  /** A call that waited this long is refused instead of started. */
  maxWaitMs: number;
}

/**
 * Sized for a 2-core machine: the functions mostly wait on the store, so 16 can overlap; 256
 * waiting is about a second of work, far less than any client's timeout.
 */
export const DEFAULT_LIMITS: QueueLimits = { concurrent: 16, waiting: 256, maxWaitMs: 10_000 };

/** Seconds a refused client is asked to wait. */
const RETRY_AFTER_S = 2;
export const BUSY_MESSAGE = "The server is busy right now. Please try again in a moment.";

/** A counting semaphore with a bounded FIFO queue. */
class CallQueue {
  private running = 0;
  private readonly waiters: Array<{ start: () => void; timer: ReturnType<typeof setTimeout> }> = [];
  constructor(private readonly limits: QueueLimits) {}

  /** Resolves with a release function, or with null when the call is refused. */
  acquire(): Promise<(() => void) | null> {
    if (this.running < this.limits.concurrent) return Promise.resolve(this.take());
    if (this.waiters.length >= this.limits.waiting) return Promise.resolve(null);
    return new Promise((resolveTurn) => {
      const waiter = {
        start: () => resolveTurn(this.take()),
        timer: setTimeout(() => {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          resolveTurn(null);
        }, this.limits.maxWaitMs),
      };
      this.waiters.push(waiter);
    });
  }

  private take(): () => void {
    this.running++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
      const next = this.waiters.shift();
      if (next) {
        clearTimeout(next.timer);
        next.start();
      }
    };
  }
}

/**
 * The Request a function sees for a Node request: this server's origin, the body as read,
 * and the client's address from the socket in the headers Netlify's edge overwrites
 * (clientIp() reads X-Nf-Client-Connection-Ip when a function has no context.ip).
 */
export function requestFromNode(
  req: { url?: string; method?: string; headers: Record<string, string | string[] | undefined> },
  origin: string,
  ip: string,
  body: Uint8Array<ArrayBuffer> | null,
): Request {
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (value === undefined || key === "content-length" || key === "transfer-encoding") continue;
    for (const item of [value].flat()) headers.append(key, item);
  }
  headers.set("x-forwarded-for", ip);
  headers.set("x-nf-client-connection-ip", ip);
  return new Request(`${origin}${req.url}`, { method: req.method, headers, body });
}

export interface CallInfo {
  /** The client's address, from the socket. */
  ip: string;
  /** This server's origin, for the context's site URL. */
  origin: string;
}

export interface LocalRuntime {
  /** The function table requests are matched against. */
  readonly functions: readonly LocalFunction[];
  /** The function a request reaches (matchFunction over the current table). */
  match(pathname: string, method: string): Match | undefined;
  /** Runs a matched function, or answers 503 when the queue refuses it. */
  call(match: Match, req: Request, info: CallInfo): Promise<Response>;
  /** Replaces the table (a dev server's edited functions); schedules follow the new configs. */
  update(functions: readonly LocalFunction[]): void;
  /** Starts the scheduled functions' timers. */
  startSchedules(): void;
  /** Stops the timers and waits for running calls and their waitUntil work (at most `ms`). */
  stop(ms?: number): Promise<void>;
}

/**
 * The header naming the function that answered, with its time: browsers' developer tools show
 * it (Network > Timing), and the routing tests read it.
 */
export const TIMING_HEADER = "server-timing";

/** `fn;desc="name";dur=ms`, the Server-Timing entry of a function's answer. */
export function timingEntry(name: string, ms: number): string {
  return `fn;desc="${name}";dur=${ms.toFixed(1)}`;
}

/** The name of the function a Server-Timing value says answered, if any. */
export function answeredBy(timing: string | null | undefined): string | undefined {
  return timing ? /(?:^|,)\s*fn;desc="([^"]*)"/.exec(timing)?.[1] : undefined;
}

export function createRuntime(functions: readonly LocalFunction[], limits: QueueLimits = DEFAULT_LIMITS): LocalRuntime {
  // What Netlify's local tooling sets for functions: @netlify/functions' purgeCache then skips
  // (there is no CDN here) instead of failing for want of a site ID.
  process.env.NETLIFY_LOCAL ??= "true";
  const queue = new CallQueue(limits);
  const pending = new Set<Promise<unknown>>();
  /** The pending timer of each scheduled function, by name, with the expression it follows. */
  const timers = new Map<string, { schedule: string; timer: ReturnType<typeof setTimeout> }>();
  let table = functions;
  let scheduling = false;
  let stopped = false;

  const track = (work: Promise<unknown>) => {
    const settled = work.then(
      () => {},
      (error: unknown) => console.error("[functions] work after the response failed:", error),
    );
    pending.add(settled);
    void settled.finally(() => pending.delete(settled));
  };

  /** The part of Netlify's Context these functions can rely on locally. */
  function contextFor(req: Request, params: Record<string, string>, info: CallInfo): Context {
    const context = {
      ip: info.ip,
      params,
      requestId: randomUUID(),
      url: new URL(req.url),
      waitUntil: (work: Promise<unknown>) => track(Promise.resolve(work)),
      geo: {},
      site: { id: "local", name: "treeline", url: info.origin },
      deploy: { context: "dev", id: "0", published: false },
      server: { region: "local" },
      account: { id: "local" },
      json: (value: unknown, init?: ResponseInit) => Response.json(value, init),
      log: console.log,
    };
    // Cookies, next() and rewrite() belong to edge functions and are not used here.
    return context as unknown as Context;
  }

  async function invoke(fn: LocalFunction, req: Request, context: Context): Promise<Response> {
    const started = performance.now();
    const answer = await fn.handler(req, context);
    // A function that returns nothing (a scheduled one does) gets an empty answer.
    const response = answer instanceof Response ? answer : new Response(null, { status: 204 });
    // A copy: Response.redirect() and fetch() answers have headers that cannot be changed.
    const headers = new Headers(response.headers);
    headers.append(TIMING_HEADER, timingEntry(fn.name, performance.now() - started));
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }

  /** Sets the timer for the next run of the scheduled function `name` on `expression`. */
  function schedule(name: string, expression: string): void {
    if (stopped) return;
    const at = nextRun(expression, new Date());
    // Long waits are chained in steps: setTimeout cannot wait more than about 24.8 days.
    const wait = Math.min(at.getTime() - Date.now(), 2 ** 31 - 1);
    const timer = setTimeout(async () => {
      if (timers.get(name)?.timer !== timer) return;
      if (Date.now() < at.getTime()) return schedule(name, expression);
      // The table's function of that name now (a dev server may have reloaded it).
      const fn = table.find((f) => f.name === name && f.schedule === expression);
      const release = fn ? await queue.acquire() : null;
      if (fn && release) {
        const next = nextRun(expression, new Date(Date.now() + 1000));
        // Netlify sends a scheduled function a POST whose body names its next run.
        const req = new Request("http://localhost/.netlify/functions/" + name, {
          method: "POST",
          body: JSON.stringify({ next_run: next.toISOString() }),
          headers: { "content-type": "application/json" },
        });
        const run = invoke(fn, req, contextFor(req, {}, { ip: "127.0.0.1", origin: "http://localhost" }));
        track(run);
        await run.catch(() => {});
        release();
      }
      if (timers.get(name)?.timer === timer) schedule(name, expression);
    }, wait);
    timer.unref();
    timers.set(name, { schedule: expression, timer });
  }

  /** Brings the timers in line with the table: a schedule added, changed or gone. */
  function syncSchedules(): void {
    const wanted = new Map(table.flatMap((fn) => (fn.schedule ? [[fn.name, fn.schedule] as const] : [])));
    for (const [name, { schedule: expression, timer }] of timers) {
      if (wanted.get(name) === expression) continue;
      clearTimeout(timer);
      timers.delete(name);
    }
    for (const [name, expression] of wanted) if (!timers.has(name)) schedule(name, expression);
  }

  return {
    get functions() {
      return table;
    },
    match: (pathname, method) => matchFunction(table, pathname, method),
    async call(match, req, info) {
      const release = await queue.acquire();
      if (!release) {
        return Response.json(
          { error: BUSY_MESSAGE },
          { status: 503, headers: { "retry-after": String(RETRY_AFTER_S), "cache-control": "no-store" } },
        );
      }
      try {
        return await invoke(match.fn, req, contextFor(req, match.params, info));
      } finally {
        release();
      }
    },
    update(functions) {
      table = functions;
      if (scheduling) syncSchedules();
    },
    startSchedules() {
      scheduling = true;
      syncSchedules();
    },
    async stop(ms = 5_000) {
      stopped = true;
      for (const { timer } of timers.values()) clearTimeout(timer);
      timers.clear();
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        Promise.all([...pending]),
        new Promise((r) => {
          timer = setTimeout(r, ms);
        }),
      ]);
      clearTimeout(timer);
    },
  };
}
