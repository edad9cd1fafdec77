/**
 * The embedded store: ioredis-mock in this process, optionally persisted to one JSON file.
 *
 * It lives in one long-lived process (the local server, which runs the functions in-process
 * and lends this backend to every copy of the store code it loads: see ../local.ts). The file
 * is read once at start, and a guard file keeps a second server off the same data folder.
 * Commands run one at a time, which also makes pipelines and MULTI/EXEC atomic here.
 *
 * A write is acknowledged only once it is durable: after each write command (or batch) the
 * snapshot goes to a temp file that is fsynced, renamed over the data file, and the directory
 * is fsynced. If that fails the command fails (the API answers 503) and the store forgets the
 * unsaved change by reloading the file, so nothing unsaved is ever read back and every later
 * write fails too until a save succeeds again. The previous save is kept as `<file>.prev`; a
 * data file that cannot be read is moved aside as `<file>.damaged-<time>` and the last good
 * copy is used instead.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { existsSync, mkdirSync, renameSync } from "node:fs";
import { basename, dirname } from "node:path";
import { randomUUID } from "node:crypto";
import RedisMock from "ioredis-mock";
import { isWrite, normaliseOptions } from "./embedded-commands.ts";
import { DataFileGuard } from "./data-file-guard.ts";
import type { CommandBackend, Reply } from "./requester.ts";
import {
  FORMAT,
  dump,
  probeWrite,
  readSnapshot,
  restore,
  writeDurably,
  type MockInternals,
  type Snapshot,
} from "./snapshot.ts";

export interface EmbeddedOptions {
  /** JSON file to persist to; undefined keeps everything in memory. */
  file?: string;
}

export class EmbeddedBackend implements CommandBackend {
  readonly scriptCache = "local" as const;
  private readonly mock: InstanceType<typeof RedisMock>;
  private readonly internals: MockInternals;
  private readonly guard?: DataFileGuard;
  private queue: Promise<unknown> = Promise.resolve();
  /** Set inside exclusive(): its commands run without waiting for the batch they belong to. */
  private readonly inBatch = new AsyncLocalStorage<true>();
  /** The running batch, which every other operation waits for. */
  private batchDone: Promise<void> | null = null;
  private dirty = false;
  /** After a failed save or reload: the next operation reloads the file first. */
  private stale = false;

  constructor(private readonly options: EmbeddedOptions = {}) {
    // A unique host gives this instance its own keyspace (ioredis-mock shares data per host:port).
    this.mock = new RedisMock({ host: `treeline-embedded-${randomUUID()}`, lazyConnect: false });
    this.internals = this.mock as unknown as MockInternals;
    if (typeof this.internals.data?.keys !== "function" || typeof this.internals.expires?.get !== "function") {
      throw new Error("ioredis-mock internals changed; the embedded store cannot persist with this version");
    }
    if (options.file) {
      this.guard = DataFileGuard.take(`${options.file}.lock`);
      try {
        this.load();
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
   * Runs fn as one unit and saves once at the end (seeding in bulk): other callers wait until
   * it is done, so none reads half a batch, and a batch that throws is forgotten whole.
   */
  async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    if (this.inBatch.getStore()) return fn();
    while (this.batchDone) await this.batchDone;
    let finish!: () => void;
    this.batchDone = new Promise((resolve) => (finish = resolve));
    try {
      return await this.inBatch.run(true, async () => {
        try {
          const result = await fn();
          if (this.dirty) await this.serial(async () => this.save());
          return result;
        } catch (error) {
          if (this.dirty) await this.serial(async () => this.forget());
          throw error;
        }
      });
    } finally {
      this.batchDone = null;
      finish();
    }
  }

  /**
   * Whether a write would be saved now, without saving the whole store (a health check may
   * come every few seconds): the temp file a save writes first can be written and synced.
   */
  canSave(): Promise<boolean> {
    const file = this.file;
    if (!file) return Promise.resolve(true);
    return this.serial(async () => {
      try {
        probeWrite(file);
        return true;
      } catch {
        return false;
      }
    });
  }

  /** Adds every key of another instance's data file (a seeded copy) and saves. */
  adopt(file: string): Promise<void> {
    return this.run(true, async () => restore(this.internals, readSnapshot(file).keys, false));
  }

  async close(): Promise<void> {
    await this.queue.catch(() => {});
    this.mock.disconnect();
    this.guard?.release();
  }

  // --- execution -----------------------------------------------------------------------

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => {});
    return next;
  }

  private async run<T>(write: boolean, fn: () => Promise<T>): Promise<T> {
    const batched = Boolean(this.inBatch.getStore());
    if (!batched) while (this.batchDone) await this.batchDone;
    return this.serial(async () => {
      if (this.stale) this.load();
      const result = await fn();
      if (write && this.file) {
        this.dirty = true;
        if (!batched) this.save();
      }
      return result;
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

  /** Reads the data file into memory (empty when there is none), repairing a damaged one. */
  private load(): void {
    const file = this.file;
    if (!file) return;
    let snapshot: Snapshot | null = null;
    if (existsSync(file)) {
      try {
        snapshot = readSnapshot(file);
      } catch (error) {
        snapshot = this.recover(file, error);
      }
    }
    restore(this.internals, snapshot?.keys ?? {});
    this.dirty = false;
    this.stale = false;
  }

  /**
   * The data file cannot be read (at start, or when reloading after a failed save): keep it
   * aside for a person to look at, and carry on from the previous save (`<file>.prev`),
   * written back as the data file; empty when there is none.
   */
  private recover(file: string, error: unknown): Snapshot | null {
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

  /** Drops changes that were never saved by reading the file back (or on the next operation). */
  private forget(): void {
    this.dirty = false;
    this.stale = true;
    try {
      this.load();
    } catch {
      // Still unreadable: the next operation tries again and fails until it can.
    }
  }

  /** Makes the in-memory state durable, or throws (and forgets the unsaved change). */
  private save(): void {
    const file = this.file;
    if (!file) return;
    try {
      const snapshot: Snapshot = { format: FORMAT, savedAt: new Date().toISOString(), keys: dump(this.internals) };
      mkdirSync(dirname(file), { recursive: true });
      writeDurably(file, JSON.stringify(snapshot), `${file}.prev`);
      this.dirty = false;
    } catch (error) {
      this.forget();
      console.error(
        `[store] embedded store could not save ${file}; the request fails and nothing was acknowledged:`,
        error,
      );
      throw new Error(
        `ERR embedded store could not save its data (${error instanceof Error ? error.message : String(error)})`,
        { cause: error },
      );
    }
  }
}
