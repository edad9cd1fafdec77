/**
 * One server per data file: the embedded store lives in one process (the local server), and
 * a second server started on the same data folder would overwrite the first one's saves. The
 * guard is a lock file naming its owner's pid, created exclusively at start and removed at
 * close; one left behind by a process that is gone is taken over.
 */
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { dirname } from "node:path";

/** Paths this process holds: a second store on one file in one process is refused too. */
const held = new Set<string>();

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function ownerOf(path: string): { pid: number; token: string } | null {
  try {
    const owner = JSON.parse(readFileSync(path, "utf8")) as { pid?: unknown; token?: unknown };
    return typeof owner.pid === "number" && typeof owner.token === "string"
      ? { pid: owner.pid, token: owner.token }
      : null;
  } catch {
    return null;
  }
}

export class DataFileInUseError extends Error {}

/** The errors a folder the process may not write (permissions, a read-only mount) gives. */
const NOT_WRITABLE = new Set(["EACCES", "EPERM", "EROFS"]);

function notWritable(path: string, error: unknown): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (!code || !NOT_WRITABLE.has(code)) return error as Error;
  return new Error(
    `${dirname(path)}: the data folder cannot be written (${code}); the store keeps its data there, so give this user write access to it or set TREELINE_DATA_DIR`,
    { cause: error },
  );
}

export class DataFileGuard {
  private constructor(
    readonly path: string,
    private readonly token: string,
  ) {}

  /** Takes the lock at `path` or throws DataFileInUseError naming the process that has it. */
  static take(path: string): DataFileGuard {
    if (held.has(path)) throw new DataFileInUseError(`${path} is already open in this process`);
    try {
      mkdirSync(dirname(path), { recursive: true });
    } catch (error) {
      throw notWritable(path, error);
    }
    const token = randomUUID();
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const fd = openSync(path, "wx");
        try {
          writeSync(fd, JSON.stringify({ pid: process.pid, token }));
        } finally {
          closeSync(fd);
        }
        held.add(path);
        return new DataFileGuard(path, token);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw notWritable(path, error);
      }
      const owner = ownerOf(path);
      if (owner && owner.pid !== process.pid && processRuns(owner.pid)) {
        throw new DataFileInUseError(
          `${path}: the data folder is in use by process ${owner.pid} (another server?); stop it or set TREELINE_DATA_DIR`,
        );
      }
      // Left by a process that is gone (or unreadable, i.e. torn at a crash): take it over.
      try {
        unlinkSync(path);
      } catch {
        // Another starter removed it first; try again.
      }
    }
    throw new DataFileInUseError(`${path}: could not take the data folder's lock`);
  }

  release(): void {
    if (!held.delete(this.path)) return;
    if (ownerOf(this.path)?.token !== this.token) return;
    try {
      unlinkSync(this.path);
    } catch {
      // Already gone.
    }
  }
}
