/**
 * The embedded store: ioredis-mock in this process, optionally persisted to one JSON file.
 *
 * Netlify's local runtime runs every function invocation in a fresh worker thread, so "the
 * process" lives for one request and several can run at once. The file is therefore the
 * source of truth when persisting: each request reloads it if another worker changed it, and
 * each write request runs under a lock file and saves before it returns (a 2xx means the data
 * is on disk). Whole requests run one at a time per instance, which also makes pipelines and
 * MULTI/EXEC atomic here.
 */
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { randomUUID } from "node:crypto";
import { threadId } from "node:worker_threads";
import RedisMock from "ioredis-mock";
import type { CommandBackend, Reply } from "./requester.ts";

const FORMAT = "treeline-embedded/1";
const LOCK_STALE_MS = 15_000;
const LOCK_TIMEOUT_MS = 20_000;

export interface EmbeddedOptions {
  /** JSON file to persist to; undefined keeps everything in memory. */
  file?: string;
}

type Value = string | Record<string, string> | Set<string> | Map<string, { score: number; value: string }> | string[];

/** The part of ioredis-mock's internals persistence needs (checked at start-up). */
interface MockInternals {
  data: { keys(): string[]; get(key: string): Value | Buffer | undefined; set(key: string, v: Value): void; delete(key: string): void };
  expires: { get(key: string): number | undefined; set(key: string, at: number): void };
}

type Dumped =
  | { type: "string"; value: string; expiresAt?: number }
  | { type: "hash"; value: Record<string, string>; expiresAt?: number }
  | { type: "set"; value: string[]; expiresAt?: number }
  | { type: "zset"; value: [string, number][]; expiresAt?: number }
  | { type: "list"; value: string[]; expiresAt?: number };

interface Snapshot {
  format: typeof FORMAT;
  savedAt: string;
  keys: Record<string, Dumped>;
}

export class EmbeddedBackend implements CommandBackend {
  readonly scriptCache = "local" as const;
  private readonly mock: InstanceType<typeof RedisMock>;
  private readonly internals: MockInternals;
  private queue: Promise<unknown> = Promise.resolve();
  private stamp: string | null = null;
  private exclusiveDepth = 0;
  private dirty = false;
  private persistFailed = false;

  constructor(private readonly options: EmbeddedOptions = {}) {
    // A unique host gives this instance its own keyspace (ioredis-mock shares data per host:port).
    this.mock = new RedisMock({ host: `treeline-embedded-${randomUUID()}`, lazyConnect: false });
    this.internals = this.mock as unknown as MockInternals;
    if (typeof this.internals.data?.keys !== "function" || typeof this.internals.expires?.get !== "function") {
      throw new Error("ioredis-mock internals changed; the embedded store cannot persist with this version");
    }
    if (options.file) this.reloadIfChanged();
  }

  get file(): string | undefined {
    return this.persistFailed ? undefined : this.options.file;
  }

  command(args: string[]): Promise<unknown> {
    return this.run(isWrite([args]), () => this.exec(args));
  }

  pipeline(commands: string[][]): Promise<Reply[]> {
    return this.run(isWrite(commands), () => this.execAll(commands));
  }

  async transaction(commands: string[][]): Promise<Reply[]> {
    // Like Redis: an unknown command aborts the whole transaction before anything runs.
    const unknown = commands.find(([name = ""]) => typeof this.method(name) !== "function");
    if (unknown) {
      const error = `EXECABORT Transaction discarded because of previous errors: unknown command '${unknown[0]}'`;
      return commands.map(() => ({ error }));
    }
    return this.run(isWrite(commands), () => this.execAll(commands));
  }

  /**
   * Runs fn with the file lock held for its whole duration and saves once at the end: used to
   * seed in bulk, and to make "seed if empty" a single decision across workers.
   */
  async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    if (!this.file || this.exclusiveDepth > 0) {
      this.exclusiveDepth++;
      try {
        return await fn();
      } finally {
        this.exclusiveDepth--;
      }
    }
    const release = await acquireLock(`${this.file}.lock`);
    try {
      await this.serial(async () => this.reloadIfChanged());
      this.exclusiveDepth++;
      try {
        return await fn();
      } finally {
        this.exclusiveDepth--;
        if (this.dirty) await this.serial(async () => this.save());
      }
    } finally {
      release();
    }
  }

  async close(): Promise<void> {
    await this.queue.catch(() => {});
    if (this.dirty && this.file) this.save();
    this.mock.disconnect();
  }

  // --- execution -----------------------------------------------------------------------

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => {});
    return next;
  }

  private run<T>(write: boolean, fn: () => Promise<T>): Promise<T> {
    if (!this.file) return this.serial(fn);
    if (this.exclusiveDepth > 0) {
      return this.serial(async () => {
        const result = await fn();
        if (write) this.dirty = true;
        return result;
      });
    }
    if (!write) {
      return this.serial(async () => {
        this.reloadIfChanged();
        return fn();
      });
    }
    return (async () => {
      const release = await acquireLock(`${this.file}.lock`);
      try {
        return await this.serial(async () => {
          this.reloadIfChanged();
          const result = await fn();
          this.dirty = true;
          this.save();
          return result;
        });
      } finally {
        release();
      }
    })();
  }

  private method(name: string): ((...args: string[]) => Promise<unknown>) | undefined {
    const fn = (this.mock as unknown as Record<string, unknown>)[name.toLowerCase()];
    return typeof fn === "function" ? (fn as (...args: string[]) => Promise<unknown>).bind(this.mock) : undefined;
  }

  private async exec(args: string[]): Promise<unknown> {
    const [name = "", ...rest] = args;
    const fn = this.method(name);
    if (!fn) throw new Error(`ERR unknown command '${name}'`);
    return fn(...normaliseOptions(name.toUpperCase(), rest));
  }

  private async execAll(commands: string[][]): Promise<Reply[]> {
    const replies: Reply[] = [];
    for (const command of commands) {
      try {
        replies.push({ result: await this.exec(command) });
      } catch (error) {
        replies.push({ error: error instanceof Error ? error.message : String(error) });
      }
    }
    return replies;
  }

  // --- persistence ---------------------------------------------------------------------

  private reloadIfChanged(): void {
    const file = this.file;
    if (!file) return;
    let stamp: string | null;
    try {
      const s = statSync(file);
      stamp = `${s.mtimeMs}:${s.size}:${s.ino}`;
    } catch {
      stamp = null;
    }
    if (stamp === this.stamp) return;
    const snapshot = stamp ? (JSON.parse(readFileSync(file, "utf8")) as Snapshot) : null;
    if (snapshot && snapshot.format !== FORMAT) throw new Error(`${file}: unknown format ${String(snapshot.format)}`);
    this.restore(snapshot?.keys ?? {});
    this.stamp = stamp;
  }

  private save(): void {
    const file = this.file;
    this.dirty = false;
    if (!file) return;
    const snapshot: Snapshot = { format: FORMAT, savedAt: new Date().toISOString(), keys: this.dump() };
    const tmp = `${file}.${process.pid}.${threadId}.tmp`;
    try {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(tmp, JSON.stringify(snapshot));
      renameSync(tmp, file);
      const s = statSync(file);
      this.stamp = `${s.mtimeMs}:${s.size}:${s.ino}`;
    } catch (error) {
      // A read-only filesystem (e.g. a deployed function) must not take the site down.
      this.persistFailed = true;
      console.error(`[store] embedded store cannot write ${file}; continuing in memory only:`, error);
    }
  }

  private dump(): Record<string, Dumped> {
    const { data, expires } = this.internals;
    const out: Record<string, Dumped> = {};
    for (const key of data.keys()) {
      const raw = data.get(key);
      const at = expires.get(key);
      const expiresAt = typeof at === "number" && Number.isFinite(at) ? at : undefined;
      let item: Dumped | undefined;
      if (typeof raw === "string" || typeof raw === "number") item = { type: "string", value: String(raw) };
      else if (Buffer.isBuffer(raw)) item = { type: "string", value: raw.toString("utf8") };
      else if (raw instanceof Map) item = { type: "zset", value: [...raw.values()].map((e) => [e.value, e.score]) };
      else if (raw instanceof Set) item = { type: "set", value: [...raw].map(String) };
      else if (Array.isArray(raw)) item = { type: "list", value: raw.map(String) };
      else if (raw && typeof raw === "object") item = { type: "hash", value: { ...raw } };
      if (item) out[key] = expiresAt === undefined ? item : { ...item, expiresAt };
    }
    return out;
  }

  private restore(keys: Record<string, Dumped>): void {
    const { data, expires } = this.internals;
    for (const key of data.keys()) data.delete(key);
    const now = Date.now();
    for (const [key, item] of Object.entries(keys)) {
      if (item.expiresAt !== undefined && item.expiresAt <= now) continue;
      switch (item.type) {
        case "string":
          data.set(key, item.value);
          break;
        case "hash":
          data.set(key, { ...item.value });
          break;
        case "set":
          data.set(key, new Set(item.value));
          break;
        case "list":
          data.set(key, [...item.value]);
          break;
        case "zset":
          data.set(key, new Map(item.value.map(([member, score]) => [member, { score, value: member }])));
          break;
      }
      if (item.expiresAt !== undefined) expires.set(key, item.expiresAt);
    }
  }
}

// --- helpers -------------------------------------------------------------------------------

const READ_ONLY = new Set(
  (
    "GET MGET STRLEN EXISTS TYPE TTL PTTL HGET HMGET HGETALL HEXISTS HLEN HKEYS HVALS " +
    "ZRANGE ZREVRANGE ZRANGEBYSCORE ZREVRANGEBYSCORE ZRANGEBYLEX ZREVRANGEBYLEX ZCARD ZCOUNT ZSCORE " +
    "ZMSCORE ZRANK ZREVRANK ZLEXCOUNT SMEMBERS SISMEMBER SMISMEMBER SCARD LRANGE LLEN LINDEX " +
    "PING ECHO TIME DBSIZE KEYS SCAN INFO"
  ).split(" "),
);

function isWrite(commands: string[][]): boolean {
  return commands.some(([name = ""]) => !READ_ONLY.has(name.toUpperCase()));
}

const OPTION_WORDS = new Set(
  "NX XX GT LT CH INCR EX PX EXAT PXAT KEEPTTL GET BYSCORE BYLEX REV LIMIT WITHSCORES WEIGHTS AGGREGATE SUM MIN MAX MATCH COUNT TYPE".split(
    " ",
  ),
);

/**
 * ioredis-mock only recognises upper-case option words ("NX", "BYSCORE"), while the Upstash
 * client sends them lower-case. Upper-case them where options may appear, never in values.
 */
function normaliseOptions(name: string, args: string[]): string[] {
  let start: number;
  switch (name) {
    case "ZADD": {
      const out = [...args];
      for (let i = 1; i < out.length && OPTION_WORDS.has(out[i]!.toUpperCase()); i++) out[i] = out[i]!.toUpperCase();
      return out;
    }
    case "SET":
    case "EXPIRE":
    case "PEXPIRE":
      start = 2;
      break;
    case "ZRANGE":
    case "ZREVRANGE":
    case "ZRANGEBYSCORE":
    case "ZREVRANGEBYSCORE":
    case "ZRANGEBYLEX":
    case "ZREVRANGEBYLEX":
      start = 3;
      break;
    case "ZINTERSTORE":
    case "ZUNIONSTORE":
      start = 2 + Number(args[1] ?? 0);
      break;
    case "SCAN":
      start = 1;
      break;
    default:
      return args;
  }
  const out = [...args];
  for (let i = start; i < out.length; i++) {
    const upper = out[i]!.toUpperCase();
    if (!OPTION_WORDS.has(upper)) continue;
    out[i] = upper;
    if (upper === "MATCH" || upper === "TYPE") i++;
  }
  return out;
}

/** A lock file shared by every thread and process using the same data file. */
async function acquireLock(path: string): Promise<() => void> {
  const deadline = Date.now() + LOCK_TIMEOUT_MS;
  mkdirSync(dirname(path), { recursive: true });
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(path, "wx");
      writeFileSync(fd, `${process.pid}:${threadId}:${Date.now()}`);
      closeSync(fd);
      return () => {
        try {
          unlinkSync(path);
        } catch {
          // Already removed as stale by someone else; nothing to release.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      try {
        if (Date.now() - statSync(path).mtimeMs > LOCK_STALE_MS) unlinkSync(path);
      } catch {
        // Released between our attempts; just retry.
      }
      if (Date.now() > deadline) throw new Error(`embedded store: timed out waiting for ${path}`);
      await new Promise((r) => setTimeout(r, Math.min(2 + attempt, 25)));
    }
  }
}
