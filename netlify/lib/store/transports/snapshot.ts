/**
 * The embedded store's files are lines of JSON, each checked by a CRC-32, so a line cut short
 * by a crash or damaged on disk is told apart from a good one. A snapshot is every key's value
 * at one time (written key by key while writes go on, then renamed into place); the log
 * (append-log.ts) is every change since. The layout is described in ../README.md.
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { open, unlink } from "node:fs/promises";
import { dirname } from "node:path";
import { threadId } from "node:worker_threads";
import { crc32 } from "node:zlib";
import { type Change, type Keyspace, type Value, type ZEntry, encodeScore, kindOf, wholeChange } from "./keyspace.ts";

export const FORMAT = "treeline-embedded/2";
/** The single JSON file the store kept before the log: read once at start and carried over. */
export const LEGACY_FORMAT = "treeline-embedded/1";

const hex = (n: number) => n.toString(16).padStart(8, "0");

/** `<CRC-32 of the JSON, 8 hex digits> <JSON>\n` */
export function checkedLine(value: unknown): string {
  const json = JSON.stringify(value);
  return `${hex(crc32(json))} ${json}\n`;
}

export interface ScannedLine {
  offset: number;
  value: unknown;
}

export interface Scan {
  lines: ScannedLine[];
  /** Bytes up to the end of the last good line before anything bad. */
  validBytes: number;
  /** The first line that is cut short or does not match its CRC, and whether good lines follow it. */
  bad?: { offset: number; goodLinesAfter: number };
}

function parseLine(buf: Buffer, start: number, end: number): { ok: true; value: unknown } | { ok: false } {
  // "xxxxxxxx " then at least "[]"
  if (end - start < 11 || buf[start + 8] !== 0x20) return { ok: false };
  const stated = buf.toString("latin1", start, start + 8);
  const body = buf.subarray(start + 9, end);
  if (!/^[0-9a-f]{8}$/.test(stated) || hex(crc32(body)) !== stated) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(body.toString("utf8")) };
  } catch {
    return { ok: false };
  }
}

/** Reads checked lines up to the first bad one (`limit`: read no further than this many bytes). */
export function scanLines(buf: Buffer, limit = buf.length): Scan {
  const lines: ScannedLine[] = [];
  let offset = 0;
  while (offset < limit) {
    const newline = buf.indexOf(0x0a, offset);
    const end = newline === -1 || newline >= limit ? -1 : newline;
    const parsed = end === -1 ? { ok: false as const } : parseLine(buf, offset, end);
    if (!parsed.ok) {
      let goodLinesAfter = 0;
      for (let next = end === -1 ? limit : end + 1; next < limit;) {
        const nl = buf.indexOf(0x0a, next);
        if (nl === -1 || nl >= limit) break;
        if (parseLine(buf, next, nl).ok) goodLinesAfter++;
        next = nl + 1;
      }
      return { lines, validBytes: offset, bad: { offset, goodLinesAfter } };
    }
    lines.push({ offset, value: parsed.value });
    offset = end + 1;
  }
  return { lines, validBytes: offset };
}

// --- snapshots ---------------------------------------------------------------------------

export interface SnapshotHeader {
  format: typeof FORMAT;
  /** The first log generation the snapshot does not contain: replay starts there. */
  log: number;
  savedAt: string;
}

const isHeader = (value: unknown, kind: "snapshot" | "log"): boolean =>
  typeof value === "object" &&
  value !== null &&
  (value as { format?: unknown }).format === FORMAT &&
  (value as { kind?: unknown }).kind === kind &&
  Number.isInteger((value as { log?: unknown }).log);

export const snapshotHeader = (log: number): string =>
  checkedLine({ format: FORMAT, kind: "snapshot", log, savedAt: new Date().toISOString() });
export const snapshotFooter = (lines: number): string => checkedLine({ end: true, lines });

/** Reads a snapshot, handing each line of changes to `apply`; throws when it is not whole. */
export function loadSnapshot(path: string, apply: (changes: Change[]) => void): SnapshotHeader & { bytes: number } {
  const buf = readFileSync(path);
  const { lines, bad } = scanLines(buf);
  if (bad) throw new Error(`damaged at byte ${bad.offset}`);
  const [head, ...rest] = lines;
  if (!head || !isHeader(head.value, "snapshot")) throw new Error(`not a ${FORMAT} snapshot`);
  const foot = rest.pop()?.value as { end?: unknown; lines?: unknown } | undefined;
  if (foot?.end !== true || foot.lines !== rest.length) throw new Error("cut short (no end line)");
  for (const line of rest) apply(line.value as Change[]);
  return { ...(head.value as SnapshotHeader), bytes: buf.length };
}

/** Reads a log's header; null when the file does not start with one. */
export function logHeader(value: unknown): { log: number } | null {
  return isHeader(value, "log") ? (value as { log: number }) : null;
}

export const logHeaderLine = (log: number): string =>
  checkedLine({ format: FORMAT, kind: "log", log, createdAt: new Date().toISOString() });

/** Members per line when a large key is written in parts. */
const PART = 2_000;

/**
 * Writes a snapshot of `keys` a slice at a time, between the store's other operations. Each
 * key is read when its turn comes, so the snapshot is not of one instant; what changed after
 * the log was rotated is in the new log, and replaying it over this snapshot ends in the right
 * state because every change is absolute (keyspace.ts). A large key goes in parts, so no
 * slice holds the store for long.
 */
export class SnapshotDump {
  private index = 0;
  private part: { key: string; value: Value; members: Iterator<string>; kind: "hash" | "set" | "zset" } | null = null;
  lines = 0;

  constructor(
    private readonly keyspace: Keyspace,
    private readonly keys: string[],
  ) {}

  /** The next lines, taking about `budgetMs`; null when every key is written. */
  next(budgetMs: number): string | null {
    if (!this.part && this.index >= this.keys.length) return null;
    const until = performance.now() + budgetMs;
    let out = "";
    let batch: Change[] = [];
    const flush = () => {
      if (batch.length === 0) return;
      out += checkedLine(batch);
      this.lines++;
      batch = [];
    };
    const now = Date.now();
    while (performance.now() < until) {
      if (this.part) {
        this.continuePart(batch);
        flush();
        continue;
      }
      if (this.index >= this.keys.length) break;
      const key = this.keys[this.index++]!;
      const value = this.keyspace.values.get(key);
      const at = this.keyspace.expiries.get(key);
      if (value === undefined || (at !== undefined && at <= now)) continue;
      const kind = kindOf(value);
      const fields = kind === "hash" ? Object.keys(value as Record<string, string>) : null;
      const size = fields ? fields.length : kind === "set" || kind === "zset" ? (value as Set<string>).size : 0;
      if (size > PART) {
        const members = fields ? fields[Symbol.iterator]() : (value as Map<string, unknown> | Set<string>).keys();
        const partKind = kind as "hash" | "set" | "zset";
        batch.push(partKind === "hash" ? ["hash", key, {}] : partKind === "set" ? ["set", key, []] : ["zset", key, []]);
        if (at !== undefined) batch.push(["pexpireat", key, at]);
        this.part = { key, value, members, kind: partKind };
        this.continuePart(batch);
      } else {
        batch.push(wholeChange(key, value));
        if (at !== undefined) batch.push(["pexpireat", key, at]);
      }
      if (batch.length >= 200) flush();
    }
    flush();
    return out;
  }

  /** Adds up to PART members of the key being written in parts. */
  private continuePart(batch: Change[]): void {
    const part = this.part!;
    // Replaced or deleted since the last slice: the log holds that, whatever is written here.
    const current = this.keyspace.values.get(part.key);
    if (current !== part.value) {
      this.part = null;
      if (current !== undefined) this.keys.splice(this.index, 0, part.key);
      return;
    }
    const members: string[] = [];
    for (let i = 0; i < PART; i++) {
      const next = part.members.next();
      if (next.done) {
        this.part = null;
        break;
      }
      members.push(next.value);
    }
    if (members.length === 0) return;
    if (part.kind === "hash") {
      const hash = part.value as Record<string, string>;
      const fields: Record<string, string> = {};
      for (const m of members) if (Object.hasOwn(hash, m)) fields[m] = hash[m]!;
      batch.push(["hset", part.key, fields]);
    } else if (part.kind === "set") {
      batch.push(["sadd", part.key, members]);
    } else {
      const zset = part.value as Map<string, ZEntry>;
      batch.push([
        "zadd",
        part.key,
        members.flatMap((m) => {
          const entry = zset.get(m);
          return entry ? [encodeScore(m, entry.score)] : [];
        }),
      ]);
    }
  }
}

// --- writing files -----------------------------------------------------------------------

export function fsyncDir(dir: string): void {
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export async function fsyncDirAsync(dir: string): Promise<void> {
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The temp name a write of `file` by this process and thread uses; start-up removes leftovers. */
export const tempOf = (file: string) => `${file}.${process.pid}.${threadId}.tmp`;

/**
 * Replaces `file` with `text` so that a crash at any moment leaves either the old or the new
 * content, and returns only once the new content is on disk: temp file, fsync, rename, fsync
 * of the directory.
 */
export function writeDurably(file: string, text: string): void {
  const tmp = tempOf(file);
  const fd = openSync(tmp, "w");
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
  fsyncDir(dirname(file));
}

/** Writes, syncs and removes a temp file next to `file`: throws when the folder takes no new data. */
export async function probeWrite(file: string): Promise<void> {
  const tmp = tempOf(file);
  const handle = await open(tmp, "w");
  try {
    await handle.write("probe");
    await handle.sync();
  } finally {
    await handle.close();
  }
  await unlink(tmp);
}

// --- the file kept before the log ---------------------------------------------------------

type Dumped =
  | { type: "string"; value: string; expiresAt?: number }
  | { type: "hash"; value: Record<string, string>; expiresAt?: number }
  | { type: "set"; value: string[]; expiresAt?: number }
  | { type: "zset"; value: [string, number][]; expiresAt?: number }
  | { type: "list"; value: string[]; expiresAt?: number };

/** Reads a `treeline-embedded/1` file as changes that recreate it. */
export function readLegacySnapshot(file: string): { savedAt: string; changes: Change[] } {
  const snapshot = JSON.parse(readFileSync(file, "utf8")) as {
    format?: unknown;
    savedAt?: unknown;
    keys?: Record<string, Dumped>;
  };
  if (!snapshot || snapshot.format !== LEGACY_FORMAT || typeof snapshot.keys !== "object" || snapshot.keys === null) {
    throw new Error(`unknown format ${String(snapshot?.format)}`);
  }
  const changes: Change[] = [];
  for (const [key, item] of Object.entries(snapshot.keys)) {
    changes.push(
      item.type === "zset"
        ? ["zset", key, item.value.map(([m, s]) => encodeScore(m, s))]
        : ([item.type, key, item.value] as Change),
    );
    if (item.expiresAt !== undefined) changes.push(["pexpireat", key, item.expiresAt]);
  }
  return { savedAt: String(snapshot.savedAt), changes };
}
