/**
 * The embedded store: ioredis-mock in this process, optionally persisted to a data folder.
 *
 * It lives in one long-lived process (the local server, which runs the functions in-process
 * and lends this backend to every copy of the store code it loads: see ../local.ts). The
 * folder is read once at start, and a guard file keeps a second server off it. Commands run
 * one at a time, which also makes pipelines, MULTI/EXEC and scripts atomic here, and each
 * answer comes a turn of the event loop later, as a network store's would (see run).
 *
 * The mock's data lives in a Keyspace (keyspace.ts), which records what each operation
 * changed. A write is acknowledged only once that record is on disk in the append-only log
 * (append-log.ts); reads go on meanwhile, and one that read something not yet on disk waits
 * for it too, so nothing unsaved is ever answered. When the log has grown past the snapshot,
 * a fresh snapshot is written in the background, a slice at a time, and the log restarts.
 *
 * If the log cannot be written the writes fail (the API answers 503), the store reads its data
 * back from disk so that nothing unsaved is kept, and every later write fails too until the
 * log takes data again.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { link, open, rename, rm } from "node:fs/promises";
import { randomUUID } from "node:crypto";
import RedisMock from "ioredis-mock";
import { AppendLog } from "./append-log.ts";
import { DataFileGuard } from "./data-file-guard.ts";
import {
  type Layout,
  carryOver,
  createLog,
  layoutOf,
  loadFolder,
  openLog,
  removeLeftovers,
  removeOldLogs,
} from "./data-folder.ts";
import { isWrite, normalizeOptions } from "./embedded-commands.ts";
import { Keyspace, detached } from "./keyspace.ts";
import { LuaScripts, type SyncCommand } from "./lua-vm.ts";
import { isCoveredByNextWrite } from "./sync-scope.ts";
import type { CommandBackend, Reply } from "./requester.ts";
import { SnapshotDump, fsyncDirAsync, probeWrite, snapshotFooter, snapshotHeader, tempOf } from "./snapshot.ts";

export interface EmbeddedOptions {
  /** The data file the folder's files are named after (`.data/store.json`); undefined keeps everything in memory. */
  file?: string;
  /** The log is compacted into a fresh snapshot once it is larger than this... */
  compactMinBytes?: number;
  /** ...and larger than the snapshot times this. */
  compactRatio?: number;
}

/** Small enough to replay in a blink at start, large enough that compaction is occasional. */
const COMPACT_MIN_BYTES = 8 * 1024 * 1024;
const COMPACT_RATIO = 1;
/** How long one slice of a snapshot may hold the store's other operations. */
const SLICE_MS = 2;
const COMPACT_RETRY_MS = 30_000;
/** How long operations may run back to back before the event loop gets a turn. */
const YIELD_MS = 5;
/**
 * A write that only changes keys expiring within this long (rate-limit windows, lockout
 * counters) is answered once appended, not once synced: such a key is lost at a crash only if
 * it would have vanished anyway minutes later, and no answer promises it.
 */
export const EPHEMERAL_MS = 5 * 60_000;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

class Aborted extends Error {}

/**
 * The mock's synchronous command functions (what its own EVAL calls), by lower-case name. The
 * mock does not export them; its pipeline wraps each one once on creation, so that is where
 * they are picked up.
 */
function syncCommandsOf(mock: InstanceType<typeof RedisMock>): (name: string) => SyncCommand | undefined {
  const proto = Object.getPrototypeOf(mock.pipeline()) as {
    _createCommand?: (name: string, fn: SyncCommand) => unknown;
  };
  const original = proto._createCommand;
  if (typeof original !== "function") {
    throw new Error("ioredis-mock internals changed; the embedded store cannot run with this version");
  }
  const found = new Map<string, SyncCommand>();
  proto._createCommand = function (this: unknown, name: string, fn: SyncCommand) {
    found.set(name.toLowerCase(), fn.bind(mock));
    return original.call(this, name, fn);
  };
  try {
    mock.pipeline();
  } finally {
    proto._createCommand = original;
  }
  return (name) => found.get(name);
}

function saveError(error: unknown): Error {
  return new Error(
    `ERR embedded store could not save its data (${error instanceof Error ? error.message : String(error)})`,
    { cause: error },
  );
}

export class EmbeddedBackend implements CommandBackend {
  readonly scriptCache = "local" as const;
  private readonly mock: InstanceType<typeof RedisMock>;
  private readonly keyspace = new Keyspace();
  private readonly lua: LuaScripts;
  private readonly layout?: Layout;
  private readonly guard?: DataFileGuard;
  private log?: AppendLog;
  private queue: Promise<unknown> = Promise.resolve();
  /** Operations queued or running, and since when they have run without the event loop having a turn. */
  private queued = 0;
  private ranSince = performance.now();
  private turnPending = false;
  /** Set inside exclusive(): its commands run without waiting for the batch they belong to. */
  private readonly inBatch = new AsyncLocalStorage<true>();
  /** The running batch, which every other operation waits for. */
  private batchDone: Promise<void> | null = null;
  /** After a failed write: the data is read back from disk before anything else runs. */
  private stale = false;
  /** Counts the times the data was read back from disk; a compaction begun before stops. */
  private epoch = 0;
  private snapshotBytes = 0;
  /** The first log the current snapshot does not hold. */
  private snapshotFrom = 1;
  private compaction: Promise<void> | null = null;
  private compactNotBefore = 0;
  private closing = false;

  constructor(private readonly options: EmbeddedOptions = {}) {
    // A unique host gives this instance its own keyspace (ioredis-mock shares data per host:port).
    this.mock = new RedisMock({ host: `treeline-embedded-${randomUUID()}`, lazyConnect: false });
    const internals = this.mock as unknown as { data?: { get?: unknown }; expires?: { get?: unknown } };
    if (typeof internals.data?.get !== "function" || typeof internals.expires?.get !== "function") {
      throw new Error("ioredis-mock internals changed; the embedded store cannot run with this version");
    }
    Object.assign(this.mock, { data: this.keyspace.data, expires: this.keyspace.expires });
    this.lua = new LuaScripts(syncCommandsOf(this.mock));
    if (options.file) {
      this.layout = layoutOf(options.file);
      this.guard = DataFileGuard.take(`${options.file}.lock`);
      try {
        this.open(this.layout);
      } catch (error) {
        this.guard.release();
        throw error;
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
   * Runs fn as one unit, saved as one record at the end (seeding in bulk): other callers wait
   * until it is done, so none reads half a batch, and a batch that throws is forgotten whole.
   */
  async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    if (this.inBatch.getStore()) return fn();
    while (this.batchDone) await this.batchDone;
    let finish!: () => void;
    this.batchDone = new Promise((resolve) => (finish = resolve));
    try {
      const epoch = await this.serial(async () => {
        await this.prepare(true);
        if (this.log) this.keyspace.begin();
        return this.epoch;
      });
      return await this.inBatch.run(true, async () => {
        let result: T;
        try {
          result = await fn();
        } catch (error) {
          await this.serial(() => this.forgetBatch());
          throw error;
        }
        // Wrapped: an async function returning the promise would hold the queue until it settles.
        const { durable } = await this.serial(async () => {
          // Read back from disk under the batch (a failed write before it): what it did is lost.
          if (this.epoch !== epoch) {
            await this.forgetBatch();
            throw saveError(new Error("the data was read back from disk during the batch"));
          }
          return { durable: this.commit() };
        });
        if (durable) await durable.catch((error: unknown) => Promise.reject(saveError(error)));
        return result;
      });
    } finally {
      this.batchDone = null;
      finish();
    }
  }

  /**
   * Whether a write would be saved now (for the health check): the log is the file on disk
   * and takes data, and the folder takes a new file (a snapshot needs one).
   */
  async canSave(): Promise<boolean> {
    const { log, layout } = this;
    if (!log || !layout) return true;
    try {
      if (this.stale || log.failure) await this.serial(() => this.prepare(true));
      log.check();
      await probeWrite(layout.file);
      return true;
    } catch {
      return false;
    }
  }

  /** Adds every key of another instance's data folder (a seeded copy), as one record. */
  adopt(file: string): Promise<void> {
    return this.run(true, async () => {
      const other = new Keyspace();
      loadFolder(layoutOf(file), other, { repair: false });
      for (const [key, value] of other.values) {
        this.keyspace.data.set(key, value);
        const at = other.expiries.get(key);
        if (at !== undefined) this.keyspace.expires.set(key, at);
      }
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.queue.catch(() => {});
    await this.compaction?.catch(() => {});
    await this.log?.close().catch(() => {});
    this.mock.disconnect();
    this.lua.close();
    this.guard?.release();
  }

  // --- execution -----------------------------------------------------------------------

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    this.queued++;
    const run = async () => {
      // Operations queued back to back (many callers at once, a batch's commands, the slices
      // of a snapshot) run through promises alone: after YIELD_MS the event loop gets a turn,
      // the log's own completions included. (Each caller's answer comes a turn later anyway:
      // see run.)
      if (performance.now() - this.ranSince > YIELD_MS) {
        await turn();
        this.ranSince = performance.now();
      }
      try {
        return await fn();
      } finally {
        if (--this.queued === 0) this.noteTurn();
      }
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => {});
    return next;
  }

  /** Restarts the clock once the event loop has had a turn (not when the next operation follows at once). */
  private noteTurn(): void {
    if (this.turnPending) return;
    this.turnPending = true;
    setImmediate(() => {
      this.turnPending = false;
      this.ranSince = performance.now();
    });
  }

  private async run<T>(mayWrite: boolean, fn: () => Promise<T>): Promise<T> {
    const batched = Boolean(this.inBatch.getStore());
    if (!batched) while (this.batchDone) await this.batchDone;
    const { outcome, durable } = await this.serial(async () => {
      // Within a batch the data may not be read back from disk: the batch would lose its start.
      if (batched && this.stale) throw saveError(new Error("a write failed during the batch"));
      await this.prepare(mayWrite);
      if (!batched && this.log) this.keyspace.begin();
      let outcome: { ok: true; value: T } | { ok: false; error: unknown };
      try {
        outcome = { ok: true, value: await fn() };
      } catch (error) {
        outcome = { ok: false, error };
      }
      return { outcome, durable: batched ? null : this.commit() };
    });
    if (durable) await durable.catch((error: unknown) => Promise.reject(saveError(error)));
    // The answer comes in a later turn of the event loop, as a network store's reply does:
    // otherwise a caller's run of commands that wait for no disk (a quote post's rate limit,
    // claims, reads, the messages it composes between them) resolves through promises alone,
    // as one long task, and a request that arrives meanwhile waits for all of it. Now the two
    // take turns, command by command. Within a batch every other caller waits anyway.
    if (!batched) await turn();
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  }

  /** Before an operation: the data matches the disk, and a write has a log to go to. */
  private async prepare(mayWrite: boolean): Promise<void> {
    if (this.stale) this.reload();
    if (mayWrite && this.log?.failure) {
      try {
        await this.log.repair();
      } catch (error) {
        throw saveError(error);
      }
    }
  }

  /** Ends the operation's unit: appends its changes, and says what its answer waits for. */
  private commit(): Promise<void> | null {
    const log = this.log;
    if (!log) return null;
    const { changes, keys, seen } = this.keyspace.end();
    if (changes.length > 0) {
      const seq = log.append(changes, keys);
      this.keyspace.markPending(seq, keys);
      this.maybeCompact();
      // Still on the log in order, and a read of these keys still waits for their sync.
      if (isCoveredByNextWrite() || this.ephemeral(changes)) return seen > 0 ? log.whenSynced(seen) : null;
      return log.whenSynced(seq);
    }
    return seen > 0 ? log.whenSynced(seen) : null;
  }

  /** Whether every change sets a key that expires within EPHEMERAL_MS (see there). */
  private ephemeral(changes: readonly (readonly unknown[])[]): boolean {
    const until = Date.now() + EPHEMERAL_MS;
    return changes.every(([kind, key]) => {
      if (kind === "flush" || kind === "del" || typeof key !== "string") return false;
      const at = this.keyspace.expiries.get(key);
      return at !== undefined && at <= until;
    });
  }

  private async forgetBatch(): Promise<void> {
    if (!this.log) return;
    this.keyspace.end();
    await this.log.idle();
    this.reload();
  }

  private method(name: string): ((...args: string[]) => Promise<unknown>) | undefined {
    const fn = (this.mock as unknown as Record<string, unknown>)[name.toLowerCase()];
    return typeof fn === "function" ? (fn as (...args: string[]) => Promise<unknown>).bind(this.mock) : undefined;
  }

  private async exec(args: string[]): Promise<unknown> {
    const [name = "", ...rest] = args;
    if (name.toUpperCase() === "EVAL") {
      const [script = "", numberOfKeys = "0", ...scriptArgs] = rest;
      return detached(this.lua.eval(script, numberOfKeys, scriptArgs));
    }
    const fn = this.method(name);
    if (!fn) throw new Error(`ERR unknown command '${name}'`);
    // A reply must not be the stored value itself (HGETALL hands back the hash).
    return detached(await fn(...normalizeOptions(name.toUpperCase(), rest)));
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

  /** Start-up: tidy the folder, read it back (or carry the old single file over), open the log. */
  private open(layout: Layout): void {
    removeLeftovers(layout);
    const loaded = loadFolder(layout, this.keyspace, { repair: true });
    this.snapshotBytes = loaded.snapshotBytes;
    this.snapshotFrom = loaded.from;
    if (loaded.snapshotBytes === 0 && loaded.logs.length === 0) {
      const carried = carryOver(layout, this.keyspace);
      if (carried) this.snapshotBytes = carried.snapshotBytes;
    }
    removeOldLogs(layout, loaded.from);
    const latest = loaded.logs.at(-1);
    const file = latest ? openLog(latest.gen, latest.path, latest.bytes) : createLog(layout, loaded.from);
    this.log = new AppendLog(file, layout.log, {
      synced: (seq, keys) => this.keyspace.settled(seq, keys),
      failed: (error) => {
        this.stale = true;
        console.error(
          `[store] embedded store could not save to ${layout.dir}; the requests waiting for it fail and nothing of them was acknowledged:`,
          error,
        );
      },
    });
    this.log.earlierBytes = loaded.logs.slice(0, -1).reduce((sum, l) => sum + l.bytes, 0);
    this.maybeCompact();
  }

  /** Reads the data back from disk (after a failed write), dropping everything not saved. */
  private reload(): void {
    const { layout, log } = this;
    if (!layout || !log) return;
    this.epoch++;
    this.keyspace.reset();
    this.stale = true;
    try {
      loadFolder(layout, this.keyspace, { repair: false, current: log.file });
    } catch (error) {
      throw saveError(
        new Error(`its data could not be read back from disk: ${(error as Error).message}`, { cause: error }),
      );
    }
    this.stale = false;
  }

  /** Writes a fresh snapshot now (or waits for the one being written); rejects if it fails. */
  compactNow(): Promise<void> {
    const { log, layout } = this;
    if (!log || !layout) return Promise.resolve();
    this.compaction ??= this.compact(log, layout).finally(() => {
      this.compaction = null;
    });
    return this.compaction;
  }

  private maybeCompact(): void {
    const log = this.log;
    if (!log || this.compaction || this.closing || log.failure || Date.now() < this.compactNotBefore) return;
    const minBytes = this.options.compactMinBytes ?? COMPACT_MIN_BYTES;
    const ratio = this.options.compactRatio ?? COMPACT_RATIO;
    if (log.bytes < Math.max(minBytes, ratio * this.snapshotBytes)) return;
    this.compactNow().catch((error: unknown) => {
      this.compactNotBefore = Date.now() + COMPACT_RETRY_MS;
      if (error instanceof Aborted) return;
      console.error(
        "[store] writing a fresh snapshot failed; the log keeps everything and it is tried again later:",
        error,
      );
    });
  }

  private stop(epoch: number): void {
    if (this.closing) throw new Aborted("closing");
    if (this.stale || epoch !== this.epoch) throw new Aborted("a write failed: the data is read back from disk");
  }

  /**
   * Writes a fresh snapshot and lets the logs it makes unneeded go. The log is rotated first,
   * so writes carry on into the new log while the snapshot is written a slice at a time.
   */
  private async compact(log: AppendLog, layout: Layout): Promise<void> {
    const epoch = this.epoch;
    const gen = log.gen + 1;
    const { keys, rotated } = await this.serial(async () => {
      this.stop(epoch);
      return { keys: [...this.keyspace.values.keys()], rotated: log.rotate(gen) };
    });
    await rotated;
    const tmp = tempOf(layout.snapshot);
    let bytes = 0;
    try {
      const handle = await open(tmp, "w");
      try {
        const put = async (text: string) => {
          await handle.write(text);
          bytes += Buffer.byteLength(text);
        };
        await put(snapshotHeader(gen));
        const dump = new SnapshotDump(this.keyspace, keys);
        for (;;) {
          // A batch is not on disk until it ends: none of it may be in a snapshot before.
          while (this.batchDone) await this.batchDone;
          const text = await this.serial(async () => {
            this.stop(epoch);
            return dump.next(SLICE_MS);
          });
          if (text === null) break;
          if (text) await put(text);
        }
        await put(snapshotFooter(dump.lines));
        await handle.sync();
      } finally {
        await handle.close();
      }
      // Everything the snapshot holds must be on disk before it stands in for the logs.
      const last = await this.serial(async () => {
        this.stop(epoch);
        return log.appended;
      });
      await log.whenSynced(last);
      await rm(layout.previous, { force: true });
      await link(layout.snapshot, layout.previous).catch(() => {});
      await rename(tmp, layout.snapshot);
      await fsyncDirAsync(layout.dir);
    } catch (error) {
      await rm(tmp, { force: true });
      throw error;
    }
    const before = this.snapshotFrom;
    this.snapshotBytes = bytes;
    this.snapshotFrom = gen;
    log.earlierBytes = 0;
    // The previous snapshot (the one just replaced) needs the logs from its own start.
    for (const old of layout.logs()) if (old.gen < before) await rm(old.path, { force: true });
  }
}
