/**
 * An @upstash/redis Requester over any command backend (real Redis through ioredis, or the
 * embedded ioredis-mock). The Upstash client then behaves the same on every transport: it
 * gets the REST protocol's shapes (integers as numbers, bulk replies as strings, nil as null,
 * HGETALL as a flat array) and per-command errors inside pipelines and MULTI/EXEC.
 */
import type { Requester, UpstashRequest, UpstashResponse } from "@upstash/redis";
import { ScriptRegistry } from "./lua-registry.ts";

export type Reply = { result?: unknown; error?: string };

export interface CommandBackend {
  /** Server-side script cache (Redis) or none (mock: EVALSHA is answered from the registry). */
  readonly scriptCache: "server" | "local";
  /** One command; rejects with the Redis error. */
  command(args: string[]): Promise<unknown>;
  /** Commands in order, not atomic. */
  pipeline(commands: string[][]): Promise<Reply[]>;
  /** Commands as one MULTI/EXEC. */
  transaction(commands: string[][]): Promise<Reply[]>;
}

/** Converts a backend reply to what the Upstash REST API would send. */
export function toRestValue(value: unknown): unknown {
  if (value === undefined || value === null || value === false) return null;
  if (value === true) return 1;
  if (typeof value === "string" || typeof value === "number") return value;
  if (typeof value === "bigint") return Number(value);
  if (Buffer.isBuffer(value)) return value.toString("utf8");
  if (Array.isArray(value)) return value.map(toRestValue);
  if (value instanceof Map) return [...value].flatMap(([k, v]) => [toRestValue(k), toRestValue(v)]);
  // ioredis turns HGETALL into an object; REST sends field, value, field, value...
  if (typeof value === "object") return Object.entries(value).flatMap(([k, v]) => [k, toRestValue(v)]);
  return String(value);
}

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));
const isNoScript = (e: unknown) => /NOSCRIPT/i.test(errorText(e));

/** Lua numbers become integer replies in Redis; the mock passes floats through. */
function truncateLuaNumbers(value: unknown): unknown {
  if (typeof value === "number") return Math.trunc(value);
  if (Array.isArray(value)) return value.map(truncateLuaNumbers);
  return value;
}

type Planned =
  | { kind: "run"; args: string[]; fallback?: string[]; isScript?: boolean; mapResult?: (r: unknown) => unknown }
  | { kind: "reply"; reply: Reply };

export class BackendRequester implements Requester {
  private readonly scripts: ScriptRegistry;

  constructor(private readonly backend: CommandBackend) {
    this.scripts = new ScriptRegistry(backend.scriptCache === "server" ? "redis" : "mock");
  }

  async request<TResult = unknown>(req: UpstashRequest): Promise<UpstashResponse<TResult>> {
    const path = req.path ?? [];
    const route = path.join("/");
    if (route === "pipeline" || route === "multi-exec") {
      const commands = (req.body as unknown[][]).map(stringifyArgs);
      const replies = await this.batch(commands, route === "multi-exec");
      return replies as unknown as UpstashResponse<TResult>;
    }
    if (route !== "") return { error: `ERR unsupported path /${route}` };
    return (await this.single(stringifyArgs(req.body as unknown[]))) as UpstashResponse<TResult>;
  }

  private async single(args: string[]): Promise<Reply> {
    const plan = this.plan(args, false);
    if (plan.kind === "reply") return plan.reply;
    try {
      return { result: this.finish(plan, await this.backend.command(plan.args)) };
    } catch (error) {
      if (plan.fallback && isNoScript(error)) {
        try {
          return { result: this.finish(plan, await this.backend.command(plan.fallback)) };
        } catch (again) {
          return { error: errorText(again) };
        }
      }
      return { error: errorText(error) };
    }
  }

  private async batch(commands: string[][], atomic: boolean): Promise<Reply[]> {
    // Inside a batch a NOSCRIPT cannot be retried on its own, so known scripts go as EVAL.
    const plans = commands.map((c) => this.plan(c, true));
    const runnable = plans.flatMap((p) => (p.kind === "run" ? [p.args] : []));
    const replies = runnable.length
      ? atomic
        ? await this.backend.transaction(runnable)
        : await this.backend.pipeline(runnable)
      : [];
    let next = 0;
    return plans.map((p) => {
      if (p.kind === "reply") return p.reply;
      const reply = replies[next++] ?? { error: "ERR missing reply" };
      return reply.error !== undefined ? { error: reply.error } : { result: this.finish(p, reply.result) };
    });
  }

  private finish(plan: Extract<Planned, { kind: "run" }>, raw: unknown): unknown {
    let value = toRestValue(raw);
    if (plan.isScript && this.backend.scriptCache === "local") value = truncateLuaNumbers(value);
    return plan.mapResult ? plan.mapResult(value) : value;
  }

  /** Rewrites script commands; everything else runs as sent. */
  private plan(args: string[], inBatch: boolean): Planned {
    const name = (args[0] ?? "").toUpperCase();
    const local = this.backend.scriptCache === "local";
    const rest = args.slice(2);
    switch (name) {
      case "EVAL":
      case "EVAL_RO": {
        const { entry } = this.scripts.register(args[1] ?? "");
        return { kind: "run", args: [local ? "EVAL" : name, entry.script, ...rest], isScript: true };
      }
      case "EVALSHA":
      case "EVALSHA_RO": {
        const entry = this.scripts.lookup(args[1] ?? "");
        const evalName = name === "EVALSHA_RO" && !local ? "EVAL_RO" : "EVAL";
        if (!entry) {
          if (local) return { kind: "reply", reply: { error: "NOSCRIPT No matching script. Please use EVAL." } };
          return { kind: "run", args, isScript: true };
        }
        if (local || inBatch) return { kind: "run", args: [evalName, entry.script, ...rest], isScript: true };
        return {
          kind: "run",
          args: [name, entry.sha, ...rest],
          fallback: [evalName, entry.script, ...rest],
          isScript: true,
        };
      }
      case "SCRIPT": {
        const sub = (args[1] ?? "").toUpperCase();
        if (sub === "LOAD") {
          const { clientSha, entry } = this.scripts.register(args[2] ?? "");
          if (local) return { kind: "reply", reply: { result: clientSha } };
          return { kind: "run", args: ["SCRIPT", "LOAD", entry.script], mapResult: () => clientSha };
        }
        if (sub === "EXISTS") {
          const shas = args.slice(2);
          if (local) return { kind: "reply", reply: { result: shas.map((s) => (this.scripts.lookup(s) ? 1 : 0)) } };
          return { kind: "run", args: ["SCRIPT", "EXISTS", ...shas.map((s) => this.scripts.lookup(s)?.sha ?? s)] };
        }
        if (sub === "FLUSH") {
          this.scripts.clear();
          if (local) return { kind: "reply", reply: { result: "OK" } };
        }
        return { kind: "run", args };
      }
      default:
        return { kind: "run", args };
    }
  }
}

// The REST protocol carries numbers and booleans as JSON; Redis only knows strings.
function stringifyArgs(args: unknown[]): string[] {
  return args.map((a) =>
    typeof a === "string" ? a : typeof a === "object" && a !== null ? JSON.stringify(a) : String(a),
  );
}
