/**
 * Fault injection on the embedded store's data folder: a 2xx only for what is on disk (under
 * kill -9, a full disk, a log that cannot be written, a folder that cannot be written), one
 * server per data folder, batches seen whole, a torn last record skipped, a damaged snapshot
 * that does not take the store down, and temp files of a crash removed.
 */
import { spawn } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createStore, lendEmbeddedBackend, type Store } from "../../../netlify/lib/store/index.ts";
import { EmbeddedBackend } from "../../../netlify/lib/store/transports/embedded.ts";
import { DataFileInUseError } from "../../../netlify/lib/store/transports/data-file-guard.ts";
import { layoutOf, loadFolder } from "../../../netlify/lib/store/transports/data-folder.ts";
import { Keyspace } from "../../../netlify/lib/store/transports/keyspace.ts";

const dir = mkdtempSync(join(tmpdir(), "treeline-durability-"));
const open: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(open.map((s) => s.close().catch(() => {})));
  rmSync(dir, { recursive: true, force: true });
});

function embedded(file: string): Store {
  const store = createStore({ transport: "embedded", prefix: "t:", file });
  open.push(store);
  return store;
}

/** A server's backend and a store over it, as the local server has them. */
function server(file: string, options: { compactMinBytes?: number } = {}) {
  const backend = new EmbeddedBackend({ file, ...options });
  open.push(backend);
  lendEmbeddedBackend(backend);
  try {
    return { backend, store: createStore({ transport: "embedded", prefix: "t:" }) };
  } finally {
    lendEmbeddedBackend(undefined);
  }
}

/** What the folder holds, read without opening a store on it. */
function keysOnDisk(file: string): string[] {
  const keyspace = new Keyspace();
  loadFolder(layoutOf(file), keyspace, { repair: false });
  return [...keyspace.values.keys()].sort();
}

/** The log being written (the highest generation). */
const currentLog = (file: string) => layoutOf(file).logs().at(-1)!.path;

const names = async (store: Store) =>
  (await store.leads.list("quote", { limit: 100 })).items.map((l) => (l.data as { name: string }).name);

const CHILD = fileURLToPath(new URL("./durability-child.ts", import.meta.url));

/** Runs durability-child.ts and gathers what it says, line by line. */
function child(args: string[], options: { shell?: string; uid?: number; gid?: number } = {}) {
  const node = [process.execPath, "--import", "tsx", CHILD, ...args];
  const proc = options.shell
    ? spawn("sh", ["-c", `${options.shell} && exec "$@"`, "sh", ...node], { stdio: ["ignore", "pipe", "pipe"] })
    : spawn(node[0]!, node.slice(1), { stdio: ["ignore", "pipe", "pipe"], uid: options.uid, gid: options.gid });
  const lines: string[] = [];
  let stderr = "";
  let buffered = "";
  const listeners = new Set<() => void>();
  proc.stdout.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split("\n");
    buffered = parts.pop()!;
    lines.push(...parts);
    for (const l of listeners) l();
  });
  proc.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
  return {
    proc,
    lines,
    stderr: () => stderr,
    exited,
    /** Resolves once `test` holds for the lines so far; rejects if the child exits first. */
    until(test: (lines: string[]) => boolean) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!test(lines)) return;
          listeners.delete(check);
          resolve();
        };
        listeners.add(check);
        check();
        void exited.then((code) => reject(new Error(`the child exited (${code}) early: ${stderr.slice(-2000)}`)));
      });
    },
    acks: () =>
      lines
        .filter((l) => l.startsWith("ack "))
        .map((l) => {
          const [, id, name] = l.split(" ");
          return { id: id!, name: name! };
        }),
  };
}

describe("embedded store durability", () => {
  it("fails writes while the log cannot be written, keeps failing until it can, and loses nothing acknowledged", async () => {
    const file = join(dir, "faulty", "store.json");
    const store = embedded(file);
    const kept = await store.leads.create("quote", { name: "Before" }, { sourcePage: "/" });
    const log = currentLog(file);
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      // The log's path no longer leads to the file the store appends to.
      renameSync(log, `${log}.aside`);
      mkdirSync(log);
      await expect(store.leads.create("quote", { name: "Lost 1" }, { sourcePage: "/" })).rejects.toThrow(
        /could not save/,
      );
      // Not a one-off: the store stays refusing while the disk does.
      await expect(store.leads.create("quote", { name: "Lost 2" }, { sourcePage: "/" })).rejects.toThrow(
        /could not save/,
      );
      expect(await store.writable()).toBe(false);
      // A batch does not even start.
      await expect(
        store.batch(() => store.leads.create("quote", { name: "Lost 3" }, { sourcePage: "/" })),
      ).rejects.toThrow(/could not save/);
      // Nothing unsaved is served either.
      expect((await store.leads.list("quote")).items.map((l) => l.id)).toEqual([kept.lead.id]);
      expect(quiet).toHaveBeenCalledWith(expect.stringContaining("could not save"), expect.anything());
    } finally {
      rmSync(log, { recursive: true, force: true });
      renameSync(`${log}.aside`, log);
      quiet.mockRestore();
    }
    expect(await store.writable()).toBe(true);
    const after = await store.leads.create("quote", { name: "After" }, { sourcePage: "/" });
    await store.close();

    const restarted = embedded(file);
    expect(await names(restarted)).toEqual(["After", "Before"]);
    expect(await restarted.leads.get(after.lead.id)).toEqual(after.lead);
  });

  it("kill -9 during six concurrent writers loses no acknowledged write", async () => {
    const file = join(dir, "killed", "store.json");
    // A small compaction threshold: snapshots are written and logs rotated while it runs.
    const writer = child([file, "6", "20000"]);
    // Killed once it has written a snapshot and rotated its log at least once, mid-stream.
    await writer.until(
      (lines) => lines.filter((l) => l.startsWith("ack ")).length >= 200 && existsSync(layoutOf(file).snapshot),
    );
    writer.proc.kill("SIGKILL");
    await writer.exited;
    const acked = writer.acks();

    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    let restarted: Store;
    try {
      restarted = embedded(file);
      await restarted.ready();
    } finally {
      warn.mockRestore();
    }
    const missing: string[] = [];
    for (const { id, name } of acked) {
      const lead = await restarted.leads.get(id);
      if ((lead?.data as { name?: string } | undefined)?.name !== name) missing.push(`${name} (${id})`);
    }
    expect(missing).toEqual([]);
    expect((await restarted.leads.counts()).quote).toBeGreaterThanOrEqual(acked.length);
    // Whatever the kill left half written is gone.
    expect(readdirSync(dirname(file)).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  }, 120_000);

  it("skips a torn last record (a crash mid-append) on the next start, naming its offset", async () => {
    const file = join(dir, "torn", "store.json");
    const first = server(file);
    await first.store.leads.create("quote", { name: "A" }, { sourcePage: "/" });
    await first.store.leads.create("quote", { name: "B" }, { sourcePage: "/" });
    await first.store.leads.create("quote", { name: "C" }, { sourcePage: "/" });
    await first.backend.close();
    // The last record (the one that stores C) only half on disk, as a crash during its write leaves it.
    const log = currentLog(file);
    const text = readFileSync(log);
    const cut = text.lastIndexOf(0x0a, text.length - 2) + 1;
    truncateSync(log, cut + Math.floor((text.length - cut) / 2));

    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const second = server(file);
      expect(await names(second.store)).toEqual(["B", "A"]);
      expect(warn).toHaveBeenCalledWith(expect.stringContaining(`torn record at byte ${cut} of store.log.1`));
      // Cut back, so what comes next is appended to good records.
      expect(statSync(log).size).toBe(cut);
      await second.store.leads.create("quote", { name: "D" }, { sourcePage: "/" });
      await second.backend.close();
      warn.mockClear();
      const third = server(file);
      expect(await names(third.store)).toEqual(["D", "B", "A"]);
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });

  it("a full disk: a write that does not reach it is refused, never acknowledged, and what was acknowledged stays", async () => {
    const file = join(dir, "full", "store.json");
    mkdirSync(dirname(file));
    // The child may write no file beyond about 60 KB: its log fills that "disk".
    const writer = child([file, "3", String(1 << 30), "6"], { shell: "ulimit -f 120" });
    expect(await writer.exited, writer.stderr()).toBe(0);
    const acked = writer.acks();
    const refused = writer.lines.filter((l) => l.startsWith("fail ")).map((l) => l.split(" ")[1]!);
    expect(refused.length).toBeGreaterThanOrEqual(6);
    expect(writer.lines.filter((l) => l.startsWith("fail ")).every((l) => l.includes("could not save"))).toBe(true);
    expect(acked.length).toBeGreaterThan(20);
    // What the child itself read after the failures is what is on disk, nothing more.
    expect(writer.lines).toContain(`listed ${acked.length}`);

    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    let restarted: Store;
    try {
      restarted = embedded(file);
      await restarted.ready();
    } finally {
      warn.mockRestore();
    }
    const stored = await names(restarted);
    expect(stored.length).toBe(acked.length);
    expect(new Set(stored)).toEqual(new Set(acked.map((a) => a.name)));
    for (const name of refused) expect(stored).not.toContain(name);
  }, 120_000);

  it("a data folder that cannot be written: the store refuses to start, says why, and changes nothing", async () => {
    const file = join(dir, "read-only", "store.json");
    const before = embedded(file);
    await before.leads.create("quote", { name: "Kept" }, { sourcePage: "/" });
    await before.close();
    const folder = dirname(file);
    const listing = () => readdirSync(folder).map((n) => `${n} ${statSync(join(folder, n)).size}`);
    const was = listing();
    // Permissions do not bind root: as root the store runs as nobody, for whom the folder is read-only.
    const asRoot = process.getuid?.() === 0;
    if (asRoot) chmodSync(dir, 0o755);
    else chmodSync(folder, 0o555);
    try {
      const writer = child([file, "1", "4096", "1"], asRoot ? { uid: 65534, gid: 65534 } : {});
      expect(await writer.exited).not.toBe(0);
      expect(writer.stderr()).toContain(`${folder}: the data folder cannot be written`);
      expect(writer.lines.filter((l) => l.startsWith("ack "))).toEqual([]);
    } finally {
      if (!asRoot) chmodSync(folder, 0o755);
    }
    expect(listing()).toEqual(was);
    expect(await names(embedded(file))).toEqual(["Kept"]);
  }, 60_000);

  it("removes the temp files a crashed process left at start", async () => {
    const file = join(dir, "leftovers", "store.json");
    mkdirSync(dirname(file));
    const left = ["store.json.4242.0.tmp", "store.snapshot.4242.0.tmp", "store.snapshot.4243.1.tmp"];
    for (const name of left) writeFileSync(join(dirname(file), name), "x".repeat(1000));
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const store = embedded(file);
      await store.ready();
      expect(warn).toHaveBeenCalledWith(expect.stringContaining("removed 3 temp file(s) left by a crash"));
    } finally {
      warn.mockRestore();
    }
    expect(readdirSync(dirname(file)).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });

  it("refuses a second server on the same data folder while the first runs, and names it", async () => {
    const file = join(dir, "guarded", "store.json");
    const holder = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "-e",
        `const { EmbeddedBackend } = await import(${JSON.stringify(new URL("../../../netlify/lib/store/transports/embedded.ts", import.meta.url).pathname)});
         const b = new EmbeddedBackend({ file: ${JSON.stringify(file)} });
         await b.command(["SET", "holder", "1"]);
         console.log("open");
         process.stdin.once("data", async () => { await b.close(); console.log("closed"); });`,
      ],
      { stdio: ["pipe", "pipe", "inherit"] },
    );
    const said: string[] = [];
    const exited = new Promise((resolve) => holder.once("exit", resolve));
    const saw = (line: string) =>
      new Promise<void>((resolve, reject) => {
        const check = () => said.includes(line) && resolve();
        holder.stdout.on("data", (chunk: Buffer) => {
          said.push(...chunk.toString().split("\n").filter(Boolean));
          check();
        });
        check();
        void exited.then(() => reject(new Error(`the holder exited early: ${said.join(" ")}`)));
      });
    await saw("open");
    expect(() => new EmbeddedBackend({ file })).toThrow(
      new DataFileInUseError(
        `${file}.lock: the data folder is in use by process ${holder.pid} (another server?); stop it or set TREELINE_DATA_DIR`,
      ),
    );
    // Nothing of the refused one reached the folder.
    expect(keysOnDisk(file)).toEqual(["holder"]);
    holder.stdin.write("close\n");
    await saw("closed");
    holder.kill();
    await exited;
    const next = new EmbeddedBackend({ file });
    open.push(next);
    expect(await next.command(["GET", "holder"])).toBe("1");
  }, 30_000);

  it("refuses a second store on one data file in the same process", async () => {
    const file = join(dir, "twice", "store.json");
    const first = new EmbeddedBackend({ file });
    expect(() => new EmbeddedBackend({ file })).toThrow(DataFileInUseError);
    await first.close();
    // Closing gives the folder back.
    const again = new EmbeddedBackend({ file });
    open.push(again);
    expect(existsSync(`${file}.lock`)).toBe(true);
  });

  it("takes over a guard left by a process that is gone", async () => {
    const file = join(dir, "abandoned", "store.json");
    mkdirSync(join(dir, "abandoned"));
    // A pid that surely is not running: a child that has already exited.
    const gone = spawn(process.execPath, ["-e", ""]);
    await new Promise((r) => gone.once("exit", r));
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: gone.pid, token: "dead" }));
    const backend = new EmbeddedBackend({ file });
    await backend.command(["SET", "k", "v"]);
    expect(JSON.parse(readFileSync(`${file}.lock`, "utf8")).pid).toBe(process.pid);
    await backend.close();
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it("a batch is seen whole or not at all: other callers wait for it, a failed one is forgotten", async () => {
    const file = join(dir, "batch", "store.json");
    const backend = new EmbeddedBackend({ file });
    open.push(backend);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const batch = backend.exclusive(async () => {
      await backend.command(["SET", "a", "1"]);
      await held;
      await backend.command(["SET", "b", "1"]);
    });
    const reader = backend.command(["MGET", "a", "b"]);
    release();
    await batch;
    expect(await reader).toEqual(["1", "1"]);
    await expect(
      backend.exclusive(async () => {
        await backend.command(["SET", "c", "1"]);
        throw new Error("half way");
      }),
    ).rejects.toThrow("half way");
    expect(await backend.command(["GET", "c"])).toBeNull();
    expect(keysOnDisk(file)).toEqual(["a", "b"]);
  });

  it("keeps a damaged snapshot aside and carries on from the previous one and the logs since, losing nothing", async () => {
    const file = join(dir, "damaged", "store.json");
    const first = server(file);
    await first.store.leads.create("quote", { name: "A" }, { sourcePage: "/" });
    await first.backend.compactNow();
    await first.store.leads.create("quote", { name: "B" }, { sourcePage: "/" });
    await first.backend.compactNow();
    await first.store.leads.create("quote", { name: "C" }, { sourcePage: "/" });
    await first.backend.close();
    const { snapshot } = layoutOf(file);
    const damagedSize = Math.floor(statSync(snapshot).size / 2);
    truncateSync(snapshot, damagedSize);

    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const second = server(file);
      expect(await names(second.store)).toEqual(["C", "B", "A"]);
      expect(errors).toHaveBeenCalledWith(
        expect.stringMatching(/the snapshot store\.snapshot could not be read .*kept as store\.snapshot\.damaged-/),
      );
      // The store writes again, on top of the recovered data.
      await second.store.leads.create("quote", { name: "D" }, { sourcePage: "/" });
      await second.backend.close();
    } finally {
      errors.mockRestore();
    }
    const aside = readdirSync(dirname(file)).filter((f) => f.startsWith("store.snapshot.damaged-"));
    expect(aside).toHaveLength(1);
    expect(statSync(join(dirname(file), aside[0]!)).size).toBe(damagedSize);
    expect(await names(embedded(file))).toEqual(["D", "C", "B", "A"]);
  });

  it("a running store's next snapshot replaces one damaged under it", async () => {
    const file = join(dir, "damaged-live", "store.json");
    const live = server(file);
    await live.store.leads.create("quote", { name: "A" }, { sourcePage: "/" });
    await live.backend.compactNow();
    writeFileSync(layoutOf(file).snapshot, "{ not a snapshot");
    // The store reads its files only at start: it carries on from memory and writes a whole one.
    await live.store.leads.create("quote", { name: "B" }, { sourcePage: "/" });
    await live.backend.compactNow();
    await live.backend.close();
    expect(await names(embedded(file))).toEqual(["B", "A"]);
  });
});
