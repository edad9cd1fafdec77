/**
 * The embedded store's append-only log: each acknowledged write appends one record (a checked
 * line of its changes) and is acknowledged once that record is on disk. Records that arrive
 * while a write and fsync are in flight go out together in the next one (group commit), and
 * all of it runs on libuv's thread pool, so the event loop never waits for the disk.
 *
 * A failure (full disk, the file removed or replaced under the store) fails the records not
 * yet on disk and everything after them, and the log takes nothing more until `repair()` cuts
 * the file back to its last synced byte.
 */
import { close, constants, fdatasync, fstat, ftruncate, open, statSync, unlink, write } from "node:fs";
import { dirname } from "node:path";
import { promisify } from "node:util";
import type { Change } from "./keyspace.ts";
import { checkedLine, fsyncDirAsync, logHeaderLine } from "./snapshot.ts";

const openAsync = promisify(open);
const closeAsync = promisify(close);
const writeAsync = promisify(write);
const fdatasyncAsync = promisify(fdatasync);
const ftruncateAsync = promisify(ftruncate);
const fstatAsync = promisify(fstat);
const unlinkAsync = promisify(unlink);

/**
 * Logs are opened for synchronous data writes: a write returns once its bytes are on disk, so
 * a group costs one trip to the thread pool instead of a write and then an fdatasync. Where the
 * flag does not exist, each write is followed by an fdatasync.
 */
export const DSYNC: number = constants.O_DSYNC ?? 0;
export const LOG_FLAGS = constants.O_RDWR | DSYNC;

async function writeAll(fd: number, buf: Buffer, position: number): Promise<void> {
  for (let done = 0; done < buf.length;) {
    const { bytesWritten } = await writeAsync(fd, buf, done, buf.length - done, position + done);
    done += bytesWritten;
  }
}

export interface LogFile {
  gen: number;
  path: string;
  fd: number;
  /** Bytes on disk and synced. */
  size: number;
  dev: number;
  ino: number;
}

interface Queued {
  seq: number;
  text: string;
  keys: string[];
}

interface Rotation {
  gen: number;
  done: (error?: Error) => void;
}

interface Waiter {
  seq: number;
  resolve: () => void;
  reject: (error: Error) => void;
}

export interface LogEvents {
  /** Records up to `seq` are on disk; `keys` are the keys they changed. */
  synced(seq: number, keys: string[]): void;
  /** Records after the last synced one are lost; the data in memory must be read back from disk. */
  failed(error: Error): void;
}

export class AppendLog {
  private lastSeq = 0;
  private syncedSeq = 0;
  /** Sequence numbers that were never written (a failure, or appended while failed). */
  private lost: [number, number][] = [];
  private queue: (Queued | Rotation)[] = [];
  private waiters: Waiter[] = [];
  private pumping = false;
  private idleWaiters: (() => void)[] = [];
  private repairing: Promise<void> | null = null;
  failure: Error | null = null;
  /** Bytes of earlier generations not yet in a snapshot. */
  earlierBytes = 0;

  constructor(
    private current: LogFile,
    private readonly pathOf: (gen: number) => string,
    private readonly events: LogEvents,
  ) {}

  get gen(): number {
    return this.current.gen;
  }

  /** Bytes written since the last snapshot. */
  get bytes(): number {
    return this.earlierBytes + this.current.size;
  }

  /** The generation being written: its open file and the bytes of it on disk. */
  get file(): { gen: number; fd: number; size: number } {
    return { gen: this.current.gen, fd: this.current.fd, size: this.current.size };
  }

  get appended(): number {
    return this.lastSeq;
  }

  /** Queues a record; returns its sequence number (see `whenSynced`). */
  append(changes: Change[], keys: string[]): number {
    const seq = ++this.lastSeq;
    if (this.failure) return seq;
    this.queue.push({ seq, text: checkedLine(changes), keys });
    this.kick();
    return seq;
  }

  /** Resolves once record `seq` is on disk; rejects if it never will be. */
  whenSynced(seq: number): Promise<void> {
    if (this.lost.some(([from, to]) => seq >= from && seq <= to)) return Promise.reject(this.lostError());
    if (seq <= this.syncedSeq) return Promise.resolve();
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => this.waiters.push({ seq, resolve, reject }));
  }

  /**
   * Starts generation `gen`: records queued from now on go to its file. Resolves once the new
   * file exists on disk; a failure leaves the log where it was (and still working).
   */
  rotate(gen: number): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.failure) return reject(this.failure);
      this.queue.push({ gen, done: (error) => (error ? reject(error) : resolve()) });
      this.kick();
    });
  }

  /** Resolves when nothing is queued or being written. */
  idle(): Promise<void> {
    if (!this.pumping && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Throws unless the log's path is still the file being written. A stat of a file the kernel
   * has cached, done here: a trip to the thread pool for it would cost more than it does.
   */
  check(): void {
    const { path, dev, ino } = this.current;
    let now;
    try {
      now = statSync(path);
    } catch (error) {
      throw new Error(`${path} is gone (${(error as Error).message})`, { cause: error });
    }
    if (now.dev !== dev || now.ino !== ino) throw new Error(`${path} was replaced while the store was running`);
  }

  /** After a failure: cuts the file back to what was synced and takes records again, or throws. */
  repair(): Promise<void> {
    if (!this.failure) return Promise.resolve();
    this.repairing ??= (async () => {
      try {
        await this.idle();
        this.check();
        await ftruncateAsync(this.current.fd, this.current.size);
        await fdatasyncAsync(this.current.fd);
        this.lost.push([this.syncedSeq + 1, this.lastSeq]);
        this.syncedSeq = this.lastSeq;
        this.failure = null;
      } finally {
        this.repairing = null;
      }
    })();
    return this.repairing;
  }

  async close(): Promise<void> {
    await this.idle();
    await closeAsync(this.current.fd);
  }

  // --- writing -------------------------------------------------------------------------

  private kick(): void {
    if (this.pumping) return;
    this.pumping = true;
    void this.pump();
  }

  private async pump(): Promise<void> {
    try {
      while (this.queue.length > 0 && !this.failure) {
        const head = this.queue[0]!;
        if ("gen" in head) {
          this.queue.shift();
          await this.switchTo(head);
          continue;
        }
        const group: Queued[] = [];
        while (this.queue.length > 0 && !("gen" in this.queue[0]!)) group.push(this.queue.shift() as Queued);
        await this.writeGroup(group);
      }
    } finally {
      this.pumping = false;
      if (this.queue.length === 0 || this.failure) for (const resolve of this.idleWaiters.splice(0)) resolve();
      else this.kick();
    }
  }

  private async writeGroup(group: Queued[]): Promise<void> {
    const buf = Buffer.from(group.map((r) => r.text).join(""));
    try {
      // Appending to a file that is no longer the log would acknowledge writes that are gone.
      this.check();
      await writeAll(this.current.fd, buf, this.current.size);
      if (!DSYNC) await fdatasyncAsync(this.current.fd);
    } catch (error) {
      this.fail(new Error(`could not append to ${this.current.path}: ${(error as Error).message}`, { cause: error }));
      return;
    }
    this.current.size += buf.length;
    this.syncedSeq = group.at(-1)!.seq;
    this.waiters = this.waiters.filter((w) => {
      if (w.seq > this.syncedSeq) return true;
      w.resolve();
      return false;
    });
    this.events.synced(
      this.syncedSeq,
      group.flatMap((r) => r.keys),
    );
  }

  private async switchTo(rotation: Rotation): Promise<void> {
    const path = this.pathOf(rotation.gen);
    let fd: number | undefined;
    try {
      // A file left by a rotation that failed holds no record: start it again.
      fd = await openAsync(path, LOG_FLAGS | constants.O_CREAT | constants.O_TRUNC, 0o666);
      const header = Buffer.from(logHeaderLine(rotation.gen));
      await writeAll(fd, header, 0);
      if (!DSYNC) await fdatasyncAsync(fd);
      await fsyncDirAsync(dirname(path));
      const { dev, ino } = await fstatAsync(fd);
      const previous = this.current;
      this.current = { gen: rotation.gen, path, fd, size: header.length, dev, ino };
      this.earlierBytes += previous.size;
      await closeAsync(previous.fd).catch(() => {});
      rotation.done();
    } catch (error) {
      if (fd !== undefined && this.current.fd !== fd) {
        await closeAsync(fd).catch(() => {});
        await unlinkAsync(path).catch(() => {});
      }
      rotation.done(new Error(`could not start ${path}: ${(error as Error).message}`, { cause: error }));
    }
  }

  private fail(error: Error): void {
    this.failure = error;
    for (const item of this.queue.splice(0)) if ("gen" in item) item.done(error);
    for (const waiter of this.waiters.splice(0)) waiter.reject(error);
    this.events.failed(error);
  }

  private lostError(): Error {
    return new Error("the write was not saved (the log failed before it reached the disk)");
  }
}
