/**
 * The embedded store on disk: one JSON snapshot of every key (with its expiry), read back
 * into ioredis-mock's own maps, and written so that a crash at any moment leaves either the
 * old file or the new one (temp file, fsync, rename, fsync of the directory).
 */
import { closeSync, fsyncSync, linkSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { threadId } from "node:worker_threads";

export const FORMAT = "treeline-embedded/1";

type Value = string | Record<string, string> | Set<string> | Map<string, { score: number; value: string }> | string[];

/** The part of ioredis-mock's internals persistence needs (checked at start-up). */
export interface MockInternals {
  data: {
    keys(): string[];
    get(key: string): Value | Buffer | undefined;
    set(key: string, v: Value): void;
    delete(key: string): void;
  };
  expires: { get(key: string): number | undefined; set(key: string, at: number): void };
}

export type Dumped =
  | { type: "string"; value: string; expiresAt?: number }
  | { type: "hash"; value: Record<string, string>; expiresAt?: number }
  | { type: "set"; value: string[]; expiresAt?: number }
  | { type: "zset"; value: [string, number][]; expiresAt?: number }
  | { type: "list"; value: string[]; expiresAt?: number };

export interface Snapshot {
  format: typeof FORMAT;
  savedAt: string;
  keys: Record<string, Dumped>;
}

export function readSnapshot(file: string): Snapshot {
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
 * The temp name is fixed per process and thread (saves are serial).
 */
export function writeDurably(file: string, text: string, keepPrevious?: string): void {
  const tmp = tempOf(file);
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

const tempOf = (file: string) => `${file}.${process.pid}.${threadId}.tmp`;

/** Writes, syncs and removes the temp file a save of `file` writes first: throws when a save could not. */
export function probeWrite(file: string): void {
  const tmp = tempOf(file);
  const fd = openSync(tmp, "w");
  try {
    writeSync(fd, "probe");
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  unlinkSync(tmp);
}

export function dump(internals: MockInternals): Record<string, Dumped> {
  const { data, expires } = internals;
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

/** Loads `keys` into the mock: in place of everything (`replace`) or over what is there. */
export function restore(internals: MockInternals, keys: Record<string, Dumped>, replace = true): void {
  const { data, expires } = internals;
  if (replace) for (const key of data.keys()) data.delete(key);
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
