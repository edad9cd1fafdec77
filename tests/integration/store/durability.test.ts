/**
 * Fault injection on the embedded store's file: a 2xx only for what is on
 * disk, one server per data folder, batches seen whole, and a damaged data file that does not
 * take the store down.
 */
import { spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
  statSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { threadId } from "node:worker_threads";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createStore, type Store } from "../../../netlify/lib/store/index.ts";
import { EmbeddedBackend } from "../../../netlify/lib/store/transports/embedded.ts";
import { DataFileInUseError } from "../../../netlify/lib/store/transports/data-file-guard.ts";

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

/** The temp file a save in this thread writes first; a directory there makes the save fail. */
const tempOf = (file: string) => `${file}.${process.pid}.${threadId}.tmp`;

describe("embedded store durability", () => {
  it("fails a write whose save fails, keeps failing until a save works, and loses nothing acknowledged", async () => {
    const file = join(dir, "faulty", "store.json");
    const store = embedded(file);
    const kept = await store.leads.create("quote", { name: "Before" }, { sourcePage: "/" });
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      mkdirSync(tempOf(file));
      await expect(store.leads.create("quote", { name: "Lost 1" }, { sourcePage: "/" })).rejects.toThrow();
      // Not a one-off: the store stays refusing while the disk does.
      await expect(store.leads.create("quote", { name: "Lost 2" }, { sourcePage: "/" })).rejects.toThrow();
      // Health sees it without saving anything.
      expect(await store.writable()).toBe(false);
      // Nothing unsaved is served either.
      expect((await store.leads.list("quote")).items.map((l) => l.id)).toEqual([kept.lead.id]);
      expect(quiet).toHaveBeenCalledWith(expect.stringContaining("could not save"), expect.anything());
    } finally {
      rmSync(tempOf(file), { recursive: true, force: true });
      quiet.mockRestore();
    }
    expect(await store.writable()).toBe(true);
    const after = await store.leads.create("quote", { name: "After" }, { sourcePage: "/" });
    await store.close();

    const restarted = embedded(file);
    const names = (await restarted.leads.list("quote")).items.map((l) => (l.data as { name: string }).name);
    expect(names).toEqual(["After", "Before"]);
    expect(await restarted.leads.get(after.lead.id)).toEqual(after.lead);
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
    // Nothing of the refused one reached the file.
    expect(Object.keys(JSON.parse(readFileSync(file, "utf8")).keys)).toEqual(["holder"]);
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
    const child = spawn(process.execPath, ["-e", ""]);
    await new Promise((r) => child.once("exit", r));
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: child.pid, token: "dead" }));
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
    expect(Object.keys(JSON.parse(readFileSync(file, "utf8")).keys).sort()).toEqual(["a", "b"]);
  });

  it("keeps a damaged data file aside and carries on from the last good copy", async () => {
    const file = join(dir, "damaged", "store.json");
    const first = embedded(file);
    await first.businesses.count();
    const a = await first.leads.create("quote", { name: "A" }, { sourcePage: "/" });
    const b = await first.leads.create("quote", { name: "B" }, { sourcePage: "/" });
    await first.close();
    const damagedSize = Math.floor(statSync(file).size / 2);
    truncateSync(file, damagedSize);

    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    let names: string[];
    let second: Store;
    try {
      second = embedded(file);
      names = (await second.leads.list("quote")).items.map((l) => (l.data as { name: string }).name);
      // The store writes again, on top of the recovered data.
      await second.leads.create("quote", { name: "C" }, { sourcePage: "/" });
      expect(errors).toHaveBeenCalledWith(
        expect.stringMatching(/store\.json could not be read .*kept as store\.json\.damaged-.*previous save/),
      );
    } finally {
      errors.mockRestore();
    }
    // The previous save (before B) is the last good copy on disk; B stays in the damaged file.
    expect(names).toEqual(["A"]);
    expect(a.lead.id).not.toBe(b.lead.id);
    const aside = readdirSync(join(dir, "damaged")).filter((f) => f.startsWith("store.json.damaged-"));
    expect(aside).toHaveLength(1);
    expect(statSync(join(dir, "damaged", aside[0]!)).size).toBe(damagedSize);
    await second.close();
    const third = embedded(file);
    expect((await third.leads.list("quote")).items.map((l) => (l.data as { name: string }).name)).toEqual(["C", "A"]);
  });

  it("a running server's next save replaces a data file damaged under it", async () => {
    const file = join(dir, "damaged-live", "store.json");
    const live = embedded(file);
    await live.leads.create("quote", { name: "A" }, { sourcePage: "/" });
    writeFileSync(file, "{ not json");
    // The server reads its file only at start: it carries on from memory and saves it whole.
    await live.leads.create("quote", { name: "B" }, { sourcePage: "/" });
    await live.close();
    const restarted = embedded(file);
    expect((await restarted.leads.list("quote")).items.map((l) => (l.data as { name: string }).name)).toEqual([
      "B",
      "A",
    ]);
  });
});
