/**
 * The embedded store answers each command, pipeline and MULTI in a later turn of the event
 * loop, as a network store does, so one caller's run of commands (a quote post) never holds up
 * a request that arrives in the middle of it: the two take turns. Before, every answer that
 * waited for no disk came back through promises alone, and such a run finished before anything
 * else could start (unless it ran past the 5 ms after which queued operations yield).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EmbeddedBackend } from "../../../netlify/lib/store/transports/embedded.ts";
import { coveredByNextWrite } from "../../../netlify/lib/store/transports/sync-scope.ts";

const dir = mkdtempSync(join(tmpdir(), "treeline-turns-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * One caller runs `steps` one after another while a reader starts in a task of its own (as a
 * request arriving on a socket does); says in which order their ends came.
 */
async function race(backend: EmbeddedBackend, steps: (() => Promise<unknown>)[]): Promise<string[]> {
  // Once beforehand, so that the race itself is quick (a script compiled, the code warm).
  for (const step of steps) await step();
  // A plain write is answered once it and every record before it are on disk.
  await backend.command(["SET", "warm", "1"]);
  const order: string[] = [];
  const reader = new Promise<void>((resolve, reject) => {
    setImmediate(() => {
      backend
        .command(["GET", "directory"])
        .then(() => order.push("read answered"))
        .then(() => resolve(), reject);
    });
  });
  const writer = (async () => {
    for (const step of steps) await step();
    order.push("writer done");
  })();
  await Promise.all([reader, writer]);
  return order;
}

describe("embedded store turns", () => {
  it("answers a read that arrives while another caller's commands run before they are all done", async () => {
    const backend = new EmbeddedBackend();
    await backend.command(["SET", "directory", "{}"]);
    const order = await race(backend, [
      () => backend.command(["GET", "limit"]),
      () => backend.command(["EVAL", "return redis.call('INCR', KEYS[1])", "1", "limit"]),
      () =>
        backend.pipeline([
          ["GET", "claim"],
          ["GET", "reference"],
        ]),
      () =>
        backend.transaction([
          ["HSET", "lead", "name", "Ada"],
          ["ZADD", "leads", "1", "lead"],
        ]),
      () => backend.command(["HGET", "lead", "name"]),
    ]);
    expect(order).toEqual(["read answered", "writer done"]);
    await backend.close();
  });

  it("does the same on a persisted store, for steps that need no sync", async () => {
    const backend = new EmbeddedBackend({ file: join(dir, "persisted", "store.json") });
    await backend.command(["SET", "directory", "{}"]);
    // A post's steps that need no sync: its rate-limit window (short-lived), its claims
    // (covered by the lead's own write), reads.
    const order = await race(backend, [
      () => backend.command(["EVAL", "return redis.call('SET', KEYS[1], '1', 'PX', '60000')", "1", "limit"]),
      () => coveredByNextWrite(() => backend.command(["SET", "claim", "lead", "NX"])),
      () =>
        backend.pipeline([
          ["GET", "reference"],
          ["HGETALL", "lead"],
        ]),
      () => backend.command(["GET", "directory"]),
    ]);
    expect(order).toEqual(["read answered", "writer done"]);
    await backend.close();
    // What each answered is what a new instance reads from the folder.
    const reopened = new EmbeddedBackend({ file: join(dir, "persisted", "store.json") });
    expect(await reopened.command(["MGET", "directory", "limit", "claim"])).toEqual(["{}", "1", "lead"]);
    await reopened.close();
  });

  it("keeps a batch whole: a read that arrives during it waits for all of it", async () => {
    const backend = new EmbeddedBackend();
    await backend.command(["SET", "directory", "{}"]);
    const order = await race(backend, [
      () =>
        backend.exclusive(async () => {
          for (let i = 0; i < 5; i++) {
            await backend.command(["SET", `business:${i}`, "{}"]);
            // As a seed reading its files does: the reader's task runs meanwhile.
            await new Promise((resolve) => setImmediate(resolve));
          }
        }),
    ]);
    expect(order).toEqual(["writer done", "read answered"]);
    await backend.close();
  });
});
