/**
 * The embedded store's lock file: one writer at a time across every thread and process
 * that persists to the same data file (Netlify's local runtime runs each request in its
 * own worker).
 */
import {
  closeSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeSync,
} from "node:fs";
import { dirname } from "node:path";
import { randomUUID } from "node:crypto";
import { threadId } from "node:worker_threads";

export interface LockTimings {
  /** Not refreshed for this long: the holder may be gone. */
  staleMs: number;
  /** Stale this long with its process still running: taken anyway (the pid was reused). */
  abandonedMs: number;
  /** Waiting longer than this fails the request. */
  timeoutMs: number;
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
export class FileLock {
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
      console.error(
        `[store] the lock ${this.path} was no longer ours on release; another process may have written meanwhile`,
      );
      return;
    }
    try {
      unlinkSync(this.path);
    } catch {
      // Gone already; nothing to release.
    }
  }
}
