/**
 * The embedded store's data folder: which files it holds, how start-up reads them back
 * (snapshot, then every log after it), and what start-up tidies: a torn last record cut off,
 * temp files of a crashed process removed, the single file of earlier versions carried over.
 */
import {
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  readdirSync,
  renameSync,
  rmSync,
  truncateSync,
  unlinkSync,
  writeSync,
  fsyncSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { LOG_FLAGS, type LogFile } from "./append-log.ts";
import { type Change, Keyspace } from "./keyspace.ts";
import {
  SnapshotDump,
  fsyncDir,
  loadSnapshot,
  logHeader,
  logHeaderLine,
  readLegacySnapshot,
  scanLines,
  snapshotFooter,
  snapshotHeader,
  writeDurably,
} from "./snapshot.ts";

export interface Layout {
  /** The configured data file (`store.json`): the name everything else derives from. */
  file: string;
  dir: string;
  snapshot: string;
  /** The snapshot before the current one, kept with the logs since it in case the current is damaged. */
  previous: string;
  log(gen: number): string;
  /** Log files present, oldest first. */
  logs(): { gen: number; path: string }[];
  /** Temp files a process writes first (snapshots, health probes, earlier versions' saves). */
  isTemp(name: string): boolean;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export function layoutOf(file: string): Layout {
  const dir = dirname(file);
  const name = basename(file);
  const stem = name.replace(/\.json$/, "");
  const logName = new RegExp(`^${escape(stem)}\\.log\\.(\\d+)$`);
  const temp = new RegExp(`^(${escape(name)}|${escape(stem)}\\.snapshot)\\.\\d+\\.\\d+\\.tmp$`);
  return {
    file,
    dir,
    snapshot: join(dir, `${stem}.snapshot`),
    previous: join(dir, `${stem}.snapshot.prev`),
    log: (gen) => join(dir, `${stem}.log.${gen}`),
    logs: () => {
      let names: string[] = [];
      try {
        names = readdirSync(dir);
      } catch {
        // No folder yet.
      }
      return names
        .map((n) => ({ gen: Number(logName.exec(n)?.[1] ?? NaN), path: join(dir, n) }))
        .filter((l) => Number.isInteger(l.gen))
        .sort((a, b) => a.gen - b.gen);
    },
    isTemp: (n) => temp.test(n),
  };
}

const stamp = () => new Date().toISOString().replace(/[:.]/g, "-");

export interface Loaded {
  /** The first log generation the loaded snapshot does not hold (1 without a snapshot). */
  from: number;
  snapshotBytes: number;
  /** The logs replayed, oldest first, with their good bytes. */
  logs: { gen: number; path: string; bytes: number }[];
}

export interface LoadOptions {
  /** The owner at start-up: repair what it finds (cut a torn record, move damaged files aside). */
  repair: boolean;
  /**
   * The log the running store appends to: read through its open file, whatever its path now
   * leads to, and only up to `size` (what is known to be on disk).
   */
  current?: { gen: number; fd: number; size: number };
}

/** The first log a snapshot file needs, from its header line; null when there is none. */
function firstLogOf(snapshot: string): number | null {
  try {
    const fd = openSync(snapshot, "r");
    try {
      const buf = Buffer.alloc(1024);
      const n = readSync(fd, buf, 0, buf.length, 0);
      const end = buf.subarray(0, n).indexOf(0x0a);
      const head = end === -1 ? undefined : (scanLines(buf.subarray(0, end + 1)).lines[0]?.value as { log?: unknown });
      return typeof head?.log === "number" ? head.log : null;
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
}

/** Reads the folder's data into `keyspace`; with `repair`, leaves the files ready to append to. */
export function loadFolder(layout: Layout, keyspace: Keyspace, options: LoadOptions): Loaded {
  const { repair } = options;
  const apply = (changes: Change[]) => keyspace.apply(changes);
  let from = 1;
  let snapshotBytes = 0;
  let haveSnapshot = false;
  for (const [path, label] of [
    [layout.snapshot, "snapshot"],
    [layout.previous, "previous snapshot"],
  ] as const) {
    if (!existsSync(path)) continue;
    try {
      const loaded = loadSnapshot(path, apply);
      from = loaded.log;
      snapshotBytes = loaded.bytes;
      haveSnapshot = true;
      break;
    } catch (error) {
      keyspace.reset();
      const why = (error as Error).message;
      if (repair) {
        const aside = `${path}.damaged-${stamp()}`;
        renameSync(path, aside);
        console.error(
          `[store] the ${label} ${basename(path)} could not be read (${why}); it is kept as ${basename(aside)}.`,
        );
      } else {
        throw new Error(`the ${label} ${basename(path)} could not be read (${why})`, { cause: error });
      }
    }
  }

  const logs: Loaded["logs"] = [];
  const found = layout.logs().filter((l) => l.gen >= from && l.gen !== options.current?.gen);
  if (options.current) found.push({ gen: options.current.gen, path: layout.log(options.current.gen) });
  if (!haveSnapshot && found.length > 0 && found[0]!.gen > 1) {
    console.error(
      `[store] no snapshot could be read, and the logs start at ${basename(found[0]!.path)}: what came before it is missing.`,
    );
  }
  for (let i = 0; i < found.length; i++) {
    const { gen, path } = found[i]!;
    const current = options.current?.gen === gen ? options.current : null;
    const buf = current ? readOpen(current.fd, current.size) : readFileSync(path);
    const limit = buf.length;
    const scan = scanLines(buf, limit);
    const [head, ...records] = scan.lines;
    if (!head || !logHeader(head.value) || logHeader(head.value)!.log !== gen) {
      if (scan.lines.length === 0 && i === found.length - 1) {
        // Cut short while it was being started: it holds no record.
        if (repair) unlinkSync(path);
        continue;
      }
      throw new Error(`${basename(path)} is not a log of this store (no header)`);
    }
    for (const record of records) apply(record.value as Change[]);
    logs.push({ gen, path, bytes: scan.validBytes });
    if (!scan.bad) continue;
    const later = found.slice(i + 1);
    // A record cut short by a crash is the last thing written: nothing good follows it anywhere.
    const torn = scan.bad.goodLinesAfter === 0 && !later.some((l) => scanLines(readFileSync(l.path)).lines.length > 1);
    const name = basename(path);
    if (torn) {
      console.warn(
        `[store] skipped a torn record at byte ${scan.bad.offset} of ${name} (${limit - scan.bad.offset} bytes, a write cut short by a crash); nothing acknowledged is lost.`,
      );
      if (repair) truncateSync(path, scan.validBytes);
      continue;
    }
    // Damage inside the log: keep what is there for a person to look at and go on from the good part.
    if (!repair) throw new Error(`${name} is damaged at byte ${scan.bad.offset}`);
    const aside = `${path}.damaged-${stamp()}`;
    copyFileSync(path, aside);
    truncateSync(path, scan.validBytes);
    for (const l of later) renameSync(l.path, `${l.path}.damaged-${stamp()}`);
    console.error(
      `[store] ${name} is damaged at byte ${scan.bad.offset}; the store goes on from the records before it. ` +
        `The whole file is kept as ${basename(aside)}${later.length ? `, and the logs after it beside it` : ""}.`,
    );
    break;
  }
  keyspace.dropExpired();
  return { from, snapshotBytes, logs };
}

function readOpen(fd: number, size: number): Buffer {
  const buf = Buffer.alloc(size);
  for (let done = 0; done < size;) {
    const n = readSync(fd, buf, done, size - done, done);
    if (n === 0) break;
    done += n;
  }
  return buf;
}

/** Removes temp files left by a process that died while writing them. */
export function removeLeftovers(layout: Layout): void {
  let names: string[];
  try {
    names = readdirSync(layout.dir);
  } catch {
    return;
  }
  const removed = names.filter((n) => layout.isTemp(n));
  for (const n of removed) rmSync(join(layout.dir, n), { force: true, recursive: true });
  if (removed.length > 0)
    console.warn(`[store] removed ${removed.length} temp file(s) left by a crash: ${removed.join(", ")}`);
}

/** Removes logs no snapshot on disk needs any more. */
export function removeOldLogs(layout: Layout, from: number): void {
  const keepFrom = Math.min(from, firstLogOf(layout.previous) ?? from);
  for (const l of layout.logs()) if (l.gen < keepFrom) rmSync(l.path, { force: true });
}

/** Creates log `gen` (header only) and opens it for appending. */
export function createLog(layout: Layout, gen: number): LogFile {
  const path = layout.log(gen);
  // Readable too: after a failed write the store reads its data back through this file.
  const fd = openSync(path, LOG_FLAGS | constants.O_CREAT | constants.O_TRUNC, 0o666);
  const header = Buffer.from(logHeaderLine(gen));
  writeSync(fd, header);
  fsyncSync(fd);
  fsyncDir(layout.dir);
  const { dev, ino } = fstatSync(fd);
  return { gen, path, fd, size: header.length, dev, ino };
}

/** Opens an existing log (already cut to `bytes`) for appending. */
export function openLog(gen: number, path: string, bytes: number): LogFile {
  const fd = openSync(path, LOG_FLAGS);
  const { dev, ino } = fstatSync(fd);
  return { gen, path, fd, size: bytes, dev, ino };
}

/** Writes a snapshot of everything in `keyspace` at once (start-up), saying replay starts at log `from`. */
export function writeSnapshotNow(layout: Layout, keyspace: Keyspace, from: number): number {
  const dump = new SnapshotDump(keyspace, [...keyspace.values.keys()]);
  let text = snapshotHeader(from);
  for (let part = dump.next(Infinity); part !== null; part = dump.next(Infinity)) text += part;
  text += snapshotFooter(dump.lines);
  writeDurably(layout.snapshot, text);
  return Buffer.byteLength(text);
}

/**
 * The data file of earlier versions (one JSON snapshot, `treeline-embedded/1`): read once into
 * `keyspace` and written as the first snapshot; the file is then kept as `<file>.v1`. One
 * that cannot be read is kept aside, and its previous save (`<file>.prev`) is used instead.
 */
export function carryOver(layout: Layout, keyspace: Keyspace): { snapshotBytes: number } | null {
  const { file } = layout;
  if (!existsSync(file)) return null;
  let read: ReturnType<typeof readLegacySnapshot>;
  try {
    read = readLegacySnapshot(file);
  } catch (error) {
    const aside = `${file}.damaged-${stamp()}`;
    renameSync(file, aside);
    const why = (error as Error).message;
    try {
      read = readLegacySnapshot(`${file}.prev`);
      console.error(
        `[store] ${file} could not be read (${why}); it is kept as ${basename(aside)}; continuing from the previous save (${basename(file)}.prev, saved ${read.savedAt}).`,
      );
    } catch {
      console.error(
        `[store] ${file} could not be read (${why}); it is kept as ${basename(aside)}; no earlier copy exists, so the store starts empty.`,
      );
      return null;
    }
  }
  keyspace.apply(read.changes);
  keyspace.dropExpired();
  mkdirSync(layout.dir, { recursive: true });
  const snapshotBytes = writeSnapshotNow(layout, keyspace, 1);
  const kept = existsSync(file);
  if (kept) renameSync(file, `${file}.v1`);
  rmSync(`${file}.prev`, { force: true });
  console.log(
    `[store] carried the data saved ${read.savedAt} over to ${basename(layout.snapshot)} and its log` +
      (kept ? `; the old file is kept as ${basename(file)}.v1.` : "."),
  );
  return { snapshotBytes };
}
