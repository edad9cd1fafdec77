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
import { mkdirSync, renameSync } from "node:fs";
import { basename, dirname } from "node:path";
import { randomUUID } from "node:crypto";
import RedisMock from "ioredis-mock";
import { isWrite, normaliseOptions } from "./embedded-commands.ts";
import { FileLock, type LockTimings } from "./file-lock.ts";
import type { CommandBackend, Reply } from "./requester.ts";
import {
  DamagedFileError,
  FORMAT,
  dump,
  readSnapshot,
  restore,
  stampOf,
  writeDurably,
  type MockInternals,
  type Snapshot,
} from "./snapshot.ts";

export type { LockTimings } from "./file-lock.ts";

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
    this.lockTimings = {
      staleMs: LOCK_STALE_MS,
      abandonedMs: LOCK_ABANDONED_MS,
      timeoutMs: LOCK_TIMEOUT_MS,
      ...options.lock,
    };
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
    restore(this.internals, snapshot?.keys ?? {});
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
      writeDurably(
        file,
        JSON.stringify({ format: FORMAT, savedAt: this.savedAt, keys: dump(this.internals) } satisfies Snapshot),
      );
      console.error(`[store] ${kept}; continuing from this server's copy of the save of ${this.savedAt}.`);
      return "memory";
    }
    if (previous) {
      writeDurably(file, JSON.stringify(previous));
      console.error(
        `[store] ${kept}; continuing from the previous save (${basename(file)}.prev, saved ${previous.savedAt}).`,
      );
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
      const snapshot: Snapshot = { format: FORMAT, savedAt: new Date().toISOString(), keys: dump(this.internals) };
      mkdirSync(dirname(file), { recursive: true });
      writeDurably(file, JSON.stringify(snapshot), `${file}.prev`);
      this.dirty = false;
      this.savedAt = snapshot.savedAt;
      this.stamp = stampOf(file);
    } catch (error) {
      this.forget();
      console.error(
        `[store] embedded store could not save ${file}; the request fails and nothing was acknowledged:`,
        error,
      );
      throw new Error(
        `ERR embedded store could not save its data (${error instanceof Error ? error.message : String(error)})`,
      );
    }
  }
}
