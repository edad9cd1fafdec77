/**
 * Fault injection on the embedded store's file (issue 15, item 4): a 2xx only for what is on
 * disk, a lock that a live holder keeps, and a damaged data file that does not take the
 * store down.
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
  utimesSync,
  writeFileSync,
  statSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { threadId } from "node:worker_threads";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createStore, type Store } from "../../../netlify/lib/store/index.ts";
import { EmbeddedBackend } from "../../../netlify/lib/store/transports/embedded.ts";

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
      // Nothing unsaved is served either.
      expect((await store.leads.list("quote")).items.map((l) => l.id)).toEqual([kept.lead.id]);
      expect(quiet).toHaveBeenCalledWith(expect.stringContaining("could not save"), expect.anything());
    } finally {
      rmSync(tempOf(file), { recursive: true, force: true });
      quiet.mockRestore();
    }
    const after = await store.leads.create("quote", { name: "After" }, { sourcePage: "/" });
    await store.close();

    const restarted = embedded(file);
    const names = (await restarted.leads.list("quote")).items.map((l) => (l.data as { name: string }).name);
    expect(names).toEqual(["After", "Before"]);
    expect(await restarted.leads.get(after.lead.id)).toEqual(after.lead);
  });

  // Real timings: the lock goes stale after 15 s without a refresh, and the holder keeps it 16 s.
  it("waits for a lock another process holds past the stale time, then writes after it", async () => {
    const file = join(dir, "locked", "store.json");
    const timings = { timeoutMs: 30_000 };
    const holder = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "-e",
        `const { EmbeddedBackend } = await import(${JSON.stringify(new URL("../../../netlify/lib/store/transports/embedded.ts", import.meta.url).pathname)});
         const b = new EmbeddedBackend({ file: ${JSON.stringify(file)}, lock: ${JSON.stringify(timings)} });
         await b.exclusive(async () => {
           await b.command(["SET", "holder", "1"]);
           console.log("held");
           await new Promise((r) => setTimeout(r, 16_000));
           await b.command(["SET", "order", "holder"]);
         });
         console.log("released");
         await b.close();`,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    const said: string[] = [];
    const exited = new Promise((resolve) => holder.once("exit", resolve));
    await new Promise<void>((resolve, reject) => {
      holder.stdout.on("data", (chunk: Buffer) => {
        said.push(...chunk.toString().split("\n").filter(Boolean));
        if (said.includes("held")) resolve();
      });
      void exited.then(() => reject(new Error(`the holder exited early: ${said.join(" ")}`)));
    });
    const waiter = new EmbeddedBackend({ file, lock: timings });
    open.push(waiter);
    await waiter.command(["SET", "order", "waiter"]);
    // Had the waiter taken the lock, the holder's later write would have won.
    await exited;
    expect(said).toEqual(["held", "released"]);
    const keys = JSON.parse(readFileSync(file, "utf8")).keys;
    expect(keys.holder.value).toBe("1");
    expect(keys.order.value).toBe("waiter");
  }, 60_000);

  it("takes over a stale lock whose process is gone", async () => {
    const file = join(dir, "abandoned", "store.json");
    mkdirSync(join(dir, "abandoned"));
    // A pid that surely is not running: a child that has already exited.
    const child = spawn(process.execPath, ["-e", ""]);
    await new Promise((r) => child.once("exit", r));
    writeFileSync(`${file}.lock`, `dead-token ${child.pid} 0`);
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${file}.lock`, old, old);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const backend = new EmbeddedBackend({ file, lock: { staleMs: 1_000, timeoutMs: 5_000 } });
      open.push(backend);
      await backend.command(["SET", "k", "v"]);
      expect(warn).toHaveBeenCalledWith(expect.stringContaining("took over the lock"));
    } finally {
      warn.mockRestore();
    }
    expect(existsSync(`${file}.lock`)).toBe(false);
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
    try {
      const second = embedded(file);
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
    const third = embedded(file);
    expect((await third.leads.list("quote")).items.map((l) => (l.data as { name: string }).name)).toEqual(["C", "A"]);
  });

  it("a server that wrote the newest data repairs a damaged file from its own copy", async () => {
    const file = join(dir, "damaged-live", "store.json");
    const live = embedded(file);
    await live.leads.create("quote", { name: "A" }, { sourcePage: "/" });
    await live.leads.create("quote", { name: "B" }, { sourcePage: "/" });
    writeFileSync(file, "{ not json");
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      expect((await live.leads.list("quote")).items.map((l) => (l.data as { name: string }).name)).toEqual(["B", "A"]);
      expect(errors).toHaveBeenCalledWith(expect.stringContaining("this server's copy"));
    } finally {
      errors.mockRestore();
    }
    expect(JSON.parse(readFileSync(file, "utf8")).format).toBe("treeline-embedded/1");
  });
});
