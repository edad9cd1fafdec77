/**
 * The embedded store's data, in place of ioredis-mock's own maps.
 *
 * ioredis-mock copies a whole value on every read and write of a key (a set of 30,000 lead ids
 * is copied twice to add one), so a write costs time in proportion to the data. Here values
 * stay where they are: a command gets a proxy of the stored hash, set or sorted set, and what
 * it changes in place is recorded member by member. Each operation's changes (`Change[]`) are
 * what the append-only log stores, so a write costs what it touches, at any size.
 *
 * Changes are absolute (a field's new value, a member gone, the key's whole new value), so
 * replaying them again over data that already holds some of them gives the same result: a
 * snapshot can be written key by key while writes go on (log.ts).
 */

export type ZEntry = { score: number; value: string };
export type Hash = Record<string, string>;
export type Value = string | Hash | Set<string> | Map<string, ZEntry> | string[];
export type Kind = "string" | "hash" | "set" | "zset" | "list";

/** One change, as the log and the snapshot store it (JSON). Scores that are not finite are strings. */
export type Change =
  | ["flush"]
  | ["del", string]
  | ["string", string, string]
  | ["hash", string, Hash]
  | ["set", string, string[]]
  | ["zset", string, Scored[]]
  | ["list", string, string[]]
  | ["hset", string, Hash]
  | ["hdel", string, string[]]
  | ["sadd", string, string[]]
  | ["srem", string, string[]]
  | ["zadd", string, Scored[]]
  | ["zrem", string, string[]]
  | ["pexpireat", string, number]
  | ["persist", string];

export function kindOf(value: Value): Kind {
  if (typeof value === "string") return "string";
  if (Array.isArray(value)) return "list";
  if (value instanceof Map) return "zset";
  if (value instanceof Set) return "set";
  return "hash";
}

export type Scored = [member: string, score: number | string];

export const encodeScore = (member: string, score: number): Scored => [
  member,
  Number.isFinite(score) ? score : String(score),
];
const decodeScore = (score: number | string): number => (typeof score === "number" ? score : Number(score));

/** What one operation touched in one key. */
interface Touch {
  /** Created, replaced, retyped or deleted: the key's whole end state is the change. */
  whole: boolean;
  /** Members (fields) changed in place. */
  members: Set<string>;
  expiry: boolean;
}

const PROXY_TARGET = Symbol("keyspace target");

/** A stored hash, set or sorted set as the mock sees it: reads pass through, changes are recorded. */
function tracking<T extends object>(target: T, record: (member: string) => void, whole: () => void): T {
  if (target instanceof Map || target instanceof Set) {
    const methods = new Map<PropertyKey, unknown>();
    const proxy: T = new Proxy(target, {
      get(t, prop) {
        if (prop === PROXY_TARGET) return t;
        if (prop === "size") return (t as Map<unknown, unknown>).size;
        let method = methods.get(prop);
        if (method) return method;
        const own = Reflect.get(t, prop, t) as unknown;
        if (typeof own !== "function") return own;
        const bound = (own as (...a: unknown[]) => unknown).bind(t);
        if (prop === "set" || prop === "add") {
          method = (member: string, ...rest: unknown[]) => {
            record(String(member));
            bound(member, ...rest);
            return proxy;
          };
        } else if (prop === "delete") {
          method = (member: string) => {
            record(String(member));
            return bound(member);
          };
        } else if (prop === "clear") {
          method = () => {
            whole();
            bound();
          };
        } else {
          method = bound;
        }
        methods.set(prop, method);
        return method;
      },
    });
    return proxy;
  }
  return new Proxy(target, {
    get: (t, prop) => (prop === PROXY_TARGET ? t : Reflect.get(t, prop)),
    set(t, prop, value) {
      record(String(prop));
      return Reflect.set(t, prop, value);
    },
    defineProperty(t, prop, descriptor) {
      record(String(prop));
      return Reflect.defineProperty(t, prop, descriptor);
    },
    deleteProperty(t, prop) {
      record(String(prop));
      return Reflect.deleteProperty(t, prop);
    },
  });
}

const targetOf = (value: unknown): object | undefined =>
  value !== null && typeof value === "object"
    ? ((value as Record<symbol, object>)[PROXY_TARGET] ?? undefined)
    : undefined;

/** A copy a caller may keep: never the stored value itself. */
export function detached(value: unknown): unknown {
  const target = targetOf(value);
  if (!target) return value;
  if (target instanceof Map) return new Map(target);
  if (target instanceof Set) return new Set(target);
  return { ...(target as Hash) };
}

function copyOf(value: Value): Value {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.slice();
  if (value instanceof Map) return new Map(value);
  if (value instanceof Set) return new Set(value);
  return { ...value };
}

function normalize(value: unknown): Value {
  const target = targetOf(value);
  if (target) return target as Value;
  if (typeof value === "string") return value;
  if (Buffer.isBuffer(value)) return value.toString("utf8");
  if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return value.map(String);
  if (value instanceof Map || value instanceof Set) return value as Value;
  if (value && typeof value === "object") return value as Hash;
  return String(value);
}

export class Keyspace {
  readonly values = new Map<string, Value>();
  readonly expiries = new Map<string, number>();
  private readonly proxies = new WeakMap<object, object>();

  /** Changes of the running unit (an operation or a batch), by key; null while none is open. */
  private touched: Map<string, Touch> | null = null;
  private flushed = false;

  /** Keys whose latest change is not yet durable, with that change's sequence number. */
  readonly pending = new Map<string, number>();
  /** The highest pending sequence number the running unit has read. */
  private seen = 0;
  private lastSeq = 0;

  /** The interface ioredis-mock's commands use as `this.data`. */
  readonly data = {
    clear: () => {
      this.values.clear();
      this.expiries.clear();
      // One "flush" says it all; what the unit writes after it is recorded from here.
      this.touched?.clear();
      this.flushed = true;
    },
    delete: (key: string) => {
      if (!this.values.has(key)) return;
      this.values.delete(key);
      this.expiries.delete(key);
      this.touch(key).whole = true;
    },
    get: (key: string): unknown => {
      this.read(key);
      if (!this.live(key)) return undefined;
      const value = this.values.get(key)!;
      if (typeof value === "string") return value;
      // Lists stay short here (recent samples); the mock changes them by copy, so hand it one.
      if (Array.isArray(value)) return value.slice();
      return this.proxyOf(key, value);
    },
    has: (key: string): boolean => {
      this.read(key);
      return this.live(key);
    },
    keys: (): string[] => {
      this.seen = this.lastSeq;
      return [...this.values.keys()].filter((key) => this.live(key));
    },
    set: (key: string, raw: unknown) => {
      const incoming = normalize(raw);
      const stored = this.values.get(key);
      if (stored !== undefined && incoming === stored) return; // changed in place, already recorded
      // A value taken from another key (RENAME, COPY) becomes this key's own.
      const value = targetOf(raw) ? copyOf(incoming) : incoming;
      this.values.set(key, value);
      this.touch(key).whole = true;
    },
    withKeyPrefix() {
      return this;
    },
  };

  /** The interface ioredis-mock's commands use as `this.expires` (absolute times in ms). */
  readonly expires = {
    clear: () => {
      for (const key of this.expiries.keys()) this.touch(key).expiry = true;
      this.expiries.clear();
    },
    get: (key: string) => this.expiries.get(key),
    set: (key: string, at: number) => {
      this.expiries.set(key, +at);
      this.touch(key).expiry = true;
    },
    has: (key: string) => this.expiries.has(key),
    isExpired: (key: string) => (this.expiries.get(key) ?? Infinity) <= Date.now(),
    delete: (key: string) => {
      if (!this.expiries.delete(key)) return;
      this.touch(key).expiry = true;
    },
    withKeyPrefix() {
      return this;
    },
  };

  /** Whether the key exists; one whose time is up is dropped (as Redis does on access). */
  private live(key: string): boolean {
    if (!this.values.has(key)) return false;
    const at = this.expiries.get(key);
    if (at === undefined || at > Date.now()) return true;
    // Not a change to log: the key's expiry is in the log already, and replay drops it too.
    this.values.delete(key);
    this.expiries.delete(key);
    return false;
  }

  private read(key: string): void {
    const seq = this.pending.get(key);
    if (seq !== undefined && seq > this.seen) this.seen = seq;
  }

  private proxyOf(key: string, value: Exclude<Value, string | string[]>): object {
    let proxy = this.proxies.get(value);
    if (!proxy) {
      proxy = tracking(
        value,
        (member) => {
          const touch = this.touch(key);
          if (!touch.whole) touch.members.add(member);
        },
        () => (this.touch(key).whole = true),
      );
      this.proxies.set(value, proxy);
    }
    return proxy;
  }

  private touch(key: string): Touch {
    let touch = this.touched?.get(key);
    if (!touch) {
      touch = { whole: false, members: new Set(), expiry: false };
      // Outside a unit (loading) nothing is recorded.
      this.touched?.set(key, touch);
    }
    return touch;
  }

  // --- units -------------------------------------------------------------------------------

  /** Starts recording an operation's (or a batch's) changes. */
  begin(): void {
    this.touched = new Map();
    this.flushed = false;
    this.seen = 0;
  }

  /**
   * Ends the unit: its changes (empty for a read) and the highest pending sequence number it
   * read, which its answer must wait for.
   */
  end(): { changes: Change[]; keys: string[]; seen: number } {
    const touched = this.touched ?? new Map<string, Touch>();
    const changes: Change[] = this.flushed ? [["flush"]] : [];
    for (const [key, touch] of touched) this.describe(key, touch, changes);
    const result = { changes, keys: [...touched.keys()], seen: this.seen };
    this.touched = null;
    this.flushed = false;
    this.seen = 0;
    return result;
  }

  /** Marks `keys` as changed by the durable-to-be change `seq`. */
  markPending(seq: number, keys: string[]): void {
    this.lastSeq = seq;
    for (const key of keys) this.pending.set(key, seq);
  }

  /** Everything up to `seq` is on disk. */
  settled(seq: number, keys: string[]): void {
    for (const key of keys) if ((this.pending.get(key) ?? Infinity) <= seq) this.pending.delete(key);
  }

  private describe(key: string, touch: Touch, out: Change[]): void {
    const value = this.values.get(key);
    if (value === undefined) {
      out.push(["del", key]);
      return;
    }
    if (touch.whole) {
      out.push(wholeChange(key, value));
    } else if (touch.members.size > 0) {
      const members = [...touch.members];
      if (value instanceof Map) {
        const added = members.filter((m) => value.has(m));
        const removed = members.filter((m) => !value.has(m));
        if (added.length) out.push(["zadd", key, added.map((m) => encodeScore(m, value.get(m)!.score))]);
        if (removed.length) out.push(["zrem", key, removed]);
      } else if (value instanceof Set) {
        const added = members.filter((m) => value.has(m));
        const removed = members.filter((m) => !value.has(m));
        if (added.length) out.push(["sadd", key, added]);
        if (removed.length) out.push(["srem", key, removed]);
      } else if (typeof value === "object" && !Array.isArray(value)) {
        const set: Hash = {};
        const removed: string[] = [];
        for (const m of members) {
          if (Object.hasOwn(value, m)) set[m] = value[m]!;
          else removed.push(m);
        }
        if (removed.length < members.length) out.push(["hset", key, set]);
        if (removed.length) out.push(["hdel", key, removed]);
      } else {
        out.push(wholeChange(key, value));
      }
    }
    // A key with an expiry carries it in every change, so one that replay brings back from a
    // change made before it expired expires again instead of staying.
    const at = this.expiries.get(key);
    if (at !== undefined) out.push(["pexpireat", key, at]);
    else if (touch.expiry && !touch.whole) out.push(["persist", key]);
  }

  // --- loading -----------------------------------------------------------------------------

  /** Applies changes read from disk, recording nothing. Expired keys stay until `dropExpired`. */
  apply(changes: Change[]): void {
    for (const change of changes) applyChange(this.values, this.expiries, change);
  }

  dropExpired(now = Date.now()): void {
    for (const [key, at] of this.expiries) {
      if (at > now) continue;
      this.values.delete(key);
      this.expiries.delete(key);
    }
  }

  /** Forgets everything (before loading the files again). */
  reset(): void {
    this.values.clear();
    this.expiries.clear();
    this.pending.clear();
    this.lastSeq = 0;
    this.touched = null;
    this.flushed = false;
    this.seen = 0;
  }
}

export function wholeChange(key: string, value: Value): Change {
  switch (kindOf(value)) {
    case "string":
      return ["string", key, value as string];
    case "list":
      return ["list", key, (value as string[]).slice()];
    case "zset":
      return ["zset", key, [...(value as Map<string, ZEntry>).values()].map((e) => encodeScore(e.value, e.score))];
    case "set":
      return ["set", key, [...(value as Set<string>)]];
    case "hash":
      return ["hash", key, { ...(value as Hash) }];
  }
}

/** A key's value of `kind`, created when absent or of another kind (a change replayed over a later state). */
function ensure<K extends "hash" | "set" | "zset">(
  values: Map<string, Value>,
  expiries: Map<string, number>,
  key: string,
  kind: K,
): K extends "hash" ? Hash : K extends "set" ? Set<string> : Map<string, ZEntry> {
  const current = values.get(key);
  if (current !== undefined && kindOf(current) === kind) return current as never;
  const fresh = kind === "hash" ? {} : kind === "set" ? new Set<string>() : new Map<string, ZEntry>();
  values.set(key, fresh as Value);
  expiries.delete(key);
  return fresh as never;
}

export function applyChange(values: Map<string, Value>, expiries: Map<string, number>, change: Change): void {
  switch (change[0]) {
    case "flush":
      values.clear();
      expiries.clear();
      return;
    case "del":
      values.delete(change[1]);
      expiries.delete(change[1]);
      return;
    case "string":
      values.set(change[1], change[2]);
      expiries.delete(change[1]);
      return;
    case "hash":
      values.set(change[1], { ...change[2] });
      expiries.delete(change[1]);
      return;
    case "set":
      values.set(change[1], new Set(change[2]));
      expiries.delete(change[1]);
      return;
    case "zset":
      values.set(
        change[1],
        new Map(change[2].map(([member, score]) => [member, { score: decodeScore(score), value: member }])),
      );
      expiries.delete(change[1]);
      return;
    case "list":
      values.set(change[1], change[2].slice());
      expiries.delete(change[1]);
      return;
    case "hset":
      Object.assign(ensure(values, expiries, change[1], "hash"), change[2]);
      return;
    case "hdel": {
      const hash = ensure(values, expiries, change[1], "hash");
      for (const field of change[2]) delete hash[field];
      return;
    }
    case "sadd": {
      const set = ensure(values, expiries, change[1], "set");
      for (const member of change[2]) set.add(member);
      return;
    }
    case "srem": {
      const set = ensure(values, expiries, change[1], "set");
      for (const member of change[2]) set.delete(member);
      return;
    }
    case "zadd": {
      const zset = ensure(values, expiries, change[1], "zset");
      for (const [member, score] of change[2]) zset.set(member, { score: decodeScore(score), value: member });
      return;
    }
    case "zrem": {
      const zset = ensure(values, expiries, change[1], "zset");
      for (const member of change[2]) zset.delete(member);
      return;
    }
    case "pexpireat":
      if (values.has(change[1])) expiries.set(change[1], change[2]);
      return;
    case "persist":
      expiries.delete(change[1]);
      return;
    default:
      throw new Error(`unknown change ${JSON.stringify((change as unknown[])[0])}`);
  }
}
