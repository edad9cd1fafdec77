/**
 * The embedded store: ioredis-mock in this process, optionally persisted to one JSON file.
 *
 * Netlify's local runtime runs every function invocation in a fresh worker thread, so "the
 * process" lives for one request and several can run at once. The file is therefore the
 * source of truth when persisting: each request reloads it if another worker changed it, and
 * each write request runs under a lock file and saves before it returns (a 2xx means the data
 * is on disk). Whole requests run one at a time per instance, which also makes pipelines and
 * MULTI/EXEC atomic here.
 *
 * A write is acknowledged only once it is durable: the snapshot goes to a temp file that is
 * fsynced, renamed over the data file, and the directory is fsynced. If that fails the
 * command fails (the API answers 503) and the instance forgets the unsaved change by
 * reloading the file, so every later write fails too until a save succeeds again. The
 * previous save is kept as `<file>.prev`; a data file that cannot be read is moved aside as
 * `<file>.damaged-<time>` and the last good copy is used instead.
 */
import {
  closeSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { basename, dirname } from "node:path";
import { randomUUID } from "node:crypto";
import { threadId } from "node:worker_threads";
import RedisMock from "ioredis-mock";
import type { CommandBackend, Reply } from "./requester.ts";

const FORMAT = "treeline-embedded/1";
/** A lock file not refreshed for this long belongs to a holder that is gone (if its process is). */
const LOCK_STALE_MS = 15_000;
/** A stale lock whose recorded process still runs (a reused pid) is taken after this long. */
const LOCK_ABANDONED_MS = 5 * 60_000;
const LOCK_TIMEOUT_MS = 20_000;
/** Never a file's stamp: after a failed save the next operation reloads whatever is on disk. */
const UNSAVED = "unsaved";

export interface EmbeddedOptions {
  /** JSON file to persist to; undefined keeps everything in memory. */
  file?: string;
  /** Lock timings (tests shorten them). */
  lock?: Partial<LockTimings>;
}

export interface LockTimings {
  /** Not refreshed for this long: the holder may be gone. */
  staleMs: number;
  /** Stale this long with its process still running: taken anyway (the pid was reused). */
  abandonedMs: number;
  /** Waiting longer than this fails the request. */
  timeoutMs: number;
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
  /** `savedAt` of the snapshot in memory (loaded or saved), null before any. */
  private savedAt: string | null = null;
  private readonly lockTimings: LockTimings;

  constructor(private readonly options: EmbeddedOptions = {}) {
    // A unique host gives this instance its own keyspace (ioredis-mock shares data per host:port).
    this.mock = new RedisMock({ host: `treeline-embedded-${randomUUID()}`, lazyConnect: false });
    this.internals = this.mock as unknown as MockInternals;
    this.lockTimings = { staleMs: LOCK_STALE_MS, abandonedMs: LOCK_ABANDONED_MS, timeoutMs: LOCK_TIMEOUT_MS, ...options.lock };
    if (typeof this.internals.data?.keys !== "function" || typeof this.internals.expires?.get !== "function") {
      throw new Error("ioredis-mock internals changed; the embedded store cannot persist with this version");
    }
    if (options.file) {
      try {
        this.reloadIfChanged(false);
      } catch (error) {
        // Repaired by the first operation, under the lock.
        if (!(error instanceof DamagedFileError)) throw error;
      }
    }
  }

  get file(): string | undefined {
    return this.options.file;
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
    const lock = await FileLock.acquire(`${this.file}.lock`, this.lockTimings);
    try {
      await this.serial(async () => this.reloadIfChanged(true));
      this.exclusiveDepth++;
      let result: T;
      try {
        result = await fn();
      } catch (error) {
        // Half a batch is not kept: back to what the file says.
        if (this.dirty) this.forget();
        throw error;
      } finally {
        this.exclusiveDepth--;
      }
      if (this.dirty) await this.serial(async () => this.save(lock));
      return result;
    } finally {
      lock.release();
    }
  }

  async close(): Promise<void> {
    await this.queue.catch(() => {});
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
    const locked = async () => {
      const lock = await FileLock.acquire(`${this.file}.lock`, this.lockTimings);
      try {
        return await this.serial(async () => {
          this.reloadIfChanged(true);
          const result = await fn();
          if (write) {
            this.dirty = true;
            this.save(lock);
          }
          return result;
        });
      } finally {
        lock.release();
      }
    };
    if (write) return locked();
    return this.serial(async () => {
      this.reloadIfChanged(false);
      return fn();
    }).catch((error: unknown) => {
      if (error instanceof DamagedFileError) return locked();
      throw error;
    });
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

  /**
   * Loads the file if it changed since this instance last saw it. A file that cannot be read
   * is recovered only with the lock held (`locked`); otherwise DamagedFileError says to retry
   * under the lock, so two instances never both repair it.
   */
  private reloadIfChanged(locked: boolean): void {
    const file = this.file;
    if (!file) return;
    const stamp = stampOf(file);
    if (stamp === this.stamp) return;
    let snapshot: Snapshot | null = null;
    if (stamp) {
      try {
        snapshot = readSnapshot(file);
      } catch (error) {
        if (!locked) throw new DamagedFileError();
        const recovered = this.recover(file, error);
        if (recovered === "memory") {
          this.stamp = stampOf(file);
          return;
        }
        snapshot = recovered;
      }
    }
    this.restore(snapshot?.keys ?? {});
    this.savedAt = snapshot?.savedAt ?? null;
    this.stamp = stamp === null ? null : stampOf(file);
  }

  /**
   * The data file cannot be read: keep it aside for a person to look at, and carry on from
   * the last good copy, whichever is newer of this instance's own data and the previous
   * save (`<file>.prev`), written back as the data file; empty when there is neither.
   */
  private recover(file: string, error: unknown): Snapshot | null | "memory" {
    const aside = `${file}.damaged-${new Date().toISOString().replace(/[:.]/g, "-")}`;
    renameSync(file, aside);
    let previous: Snapshot | null = null;
    try {
      previous = readSnapshot(`${file}.prev`);
    } catch {
      // No good previous save either.
    }
    const why = error instanceof Error ? error.message : String(error);
    const kept = `${file} could not be read (${why}); it is kept as ${basename(aside)}`;
    if (this.savedAt !== null && (!previous || this.savedAt >= previous.savedAt)) {
      writeDurably(file, JSON.stringify({ format: FORMAT, savedAt: this.savedAt, keys: this.dump() } satisfies Snapshot));
      console.error(`[store] ${kept}; continuing from this server's copy of the save of ${this.savedAt}.`);
      return "memory";
    }
    if (previous) {
      writeDurably(file, JSON.stringify(previous));
      console.error(`[store] ${kept}; continuing from the previous save (${basename(file)}.prev, saved ${previous.savedAt}).`);
      return previous;
    }
    console.error(`[store] ${kept}; no earlier copy exists, so the store starts empty.`);
    return null;
  }

  /** Drops changes that were never saved: the next operation reloads the file. */
  private forget(): void {
    this.dirty = false;
    this.stamp = UNSAVED;
  }

  /**
   * Makes the in-memory state durable, or throws (and forgets the unsaved change, so no
   * later read serves data that is not on disk). Only while `lock` is still ours: a lock
   * taken over means another writer may have saved since we loaded.
   */
  private save(lock: FileLock): void {
    const file = this.file;
    if (!file) return;
    try {
      if (!lock.held()) throw new Error(`the lock ${lock.path} was taken over by another process`);
      const snapshot: Snapshot = { format: FORMAT, savedAt: new Date().toISOString(), keys: this.dump() };
      mkdirSync(dirname(file), { recursive: true });
      writeDurably(file, JSON.stringify(snapshot), `${file}.prev`);
      this.dirty = false;
      this.savedAt = snapshot.savedAt;
      this.stamp = stampOf(file);
    } catch (error) {
      this.forget();
      console.error(`[store] embedded store could not save ${file}; the request fails and nothing was acknowledged:`, error);
      throw new Error(`ERR embedded store could not save its data (${error instanceof Error ? error.message : String(error)})`);
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

// --- files -------------------------------------------------------------------------------

/** The data file does not parse; the operation is retried with the lock held, which repairs it. */
class DamagedFileError extends Error {}

function stampOf(file: string): string | null {
  try {
    const s = statSync(file);
    return `${s.mtimeMs}:${s.size}:${s.ino}`;
  } catch {
    return null;
  }
}

function readSnapshot(file: string): Snapshot {
  const snapshot = JSON.parse(readFileSync(file, "utf8")) as Snapshot;
  if (!snapshot || snapshot.format !== FORMAT || typeof snapshot.keys !== "object" || snapshot.keys === null) {
    throw new Error(`unknown format ${String(snapshot?.format)}`);
  }
  return snapshot;
}

function fsyncPath(path: string, flags: string): void {
  const fd = openSync(path, flags);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Replaces `file` with `text` so that a crash at any moment leaves either the old or the new
 * content, and returns only once the new content is on disk: temp file, fsync, rename, fsync
 * of the directory. With `keepPrevious`, the replaced file stays reachable under that name.
 * The temp name is fixed per process and thread (saves are serial under the lock).
 */
function writeDurably(file: string, text: string, keepPrevious?: string): void {
  const tmp = `${file}.${process.pid}.${threadId}.tmp`;
  const fd = openSync(tmp, "w");
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  if (keepPrevious) {
    try {
      unlinkSync(keepPrevious);
    } catch {
      // First save: nothing to replace.
    }
    try {
      linkSync(file, keepPrevious);
    } catch {
      // No data file yet (or no hard links here): no previous copy this time.
    }
  }
  renameSync(tmp, file);
  fsyncPath(dirname(file), "r");
}

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * A lock file shared by every thread and process using the same data file. It names its
 * owner (a random token and the pid); the owner touches it every staleMs/3 while it holds
 * it, so only a lock whose holder is gone goes stale. Release removes it only if it is
 * still ours.
 */
class FileLock {
  private readonly refresher: ReturnType<typeof setInterval>;
  private lost = false;

  private constructor(
    readonly path: string,
    private readonly token: string,
    staleMs: number,
  ) {
    this.refresher = setInterval(() => this.refresh(), Math.max(50, Math.floor(staleMs / 3)));
    this.refresher.unref?.();
  }

  static async acquire(path: string, timings: LockTimings): Promise<FileLock> {
    const deadline = Date.now() + timings.timeoutMs;
    mkdirSync(dirname(path), { recursive: true });
    const token = randomUUID();
    for (let attempt = 0; ; attempt++) {
      try {
        const fd = openSync(path, "wx");
        try {
          writeSync(fd, `${token} ${process.pid} ${threadId}`);
        } finally {
          closeSync(fd);
        }
        return new FileLock(path, token, timings.staleMs);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      FileLock.takeIfAbandoned(path, timings);
      if (Date.now() > deadline) throw new Error(`embedded store: timed out waiting for ${path}`);
      await new Promise((r) => setTimeout(r, Math.min(2 + attempt, 25)));
    }
  }

  /** Removes a lock whose holder stopped refreshing it and whose process is gone. */
  private static takeIfAbandoned(path: string, timings: LockTimings): void {
    try {
      const age = Date.now() - statSync(path).mtimeMs;
      if (age <= timings.staleMs) return;
      const [token = "", pid = ""] = readFileSync(path, "utf8").split(" ");
      if (processRuns(Number(pid)) && age <= timings.abandonedMs) return;
      // Move it aside before deciding, so a fresh lock created meanwhile is never deleted.
      const aside = `${path}.${randomUUID()}.stale`;
      renameSync(path, aside);
      const [moved = ""] = readFileSync(aside, "utf8").split(" ");
      if (moved === token) {
        unlinkSync(aside);
        console.warn(`[store] took over the lock ${path} from process ${pid}, which stopped holding it`);
      } else {
        // Someone else's fresh lock: put it back (fails only if yet another one exists now).
        try {
          linkSync(aside, path);
        } finally {
          unlinkSync(aside);
        }
      }
    } catch {
      // Released or taken between our looks; the caller just retries.
    }
  }

  /** True while the lock file still carries our token. */
  held(): boolean {
    if (this.lost) return false;
    try {
      return readFileSync(this.path, "utf8").startsWith(`${this.token} `);
    } catch {
      return false;
    }
  }

  private refresh(): void {
    if (!this.held()) {
      this.lost = true;
      clearInterval(this.refresher);
      return;
    }
    const now = new Date();
    try {
      utimesSync(this.path, now, now);
    } catch {
      this.lost = true;
    }
  }

  release(): void {
    clearInterval(this.refresher);
    if (!this.held()) {
      console.error(`[store] the lock ${this.path} was no longer ours on release; another process may have written meanwhile`);
      return;
    }
    try {
      unlinkSync(this.path);
    } catch {
      // Gone already; nothing to release.
    }
  }
}
