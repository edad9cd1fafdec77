/**
 * When the embedded store answers a write: once its record is synced, except a write that a
 * later write of the same caller covers (transports/sync-scope.ts) and one that only sets keys
 * expiring within minutes (EPHEMERAL_MS). A read of such a key still waits for its sync, and
 * the log keeps every record in order, so a restart finds them all.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EmbeddedBackend } from "../../../netlify/lib/store/transports/embedded.ts";
import { coveredByNextWrite } from "../../../netlify/lib/store/transports/sync-scope.ts";

const dir = mkdtempSync(join(tmpdir(), "treeline-acks-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Holds every sync the log is asked to wait for until release() (the disk is slow). */
function holdSyncs(backend: EmbeddedBackend) {
  const log = (backend as unknown as { log: { whenSynced(seq: number): Promise<void> } }).log;
  const real = log.whenSynced.bind(log);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  log.whenSynced = (seq) => gate.then(() => real(seq));
  return () => {
    log.whenSynced = real;
    release();
  };
}

/** Whether the promise settles within a few turns of the event loop. */
async function settlesSoon(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let i = 0; i < 20 && !settled; i++) await new Promise((resolve) => setImmediate(resolve));
  return settled;
}

describe("embedded store acknowledgements", () => {
  it("answers a plain write once synced, a covered or short-lived one once appended, and loses none", async () => {
    const file = join(dir, "acks", "store.json");
    const backend = new EmbeddedBackend({ file });
    const release = holdSyncs(backend);

    const plain = backend.command(["SET", "lead", "1"]);
    expect(await settlesSoon(plain)).toBe(false);
    expect(await settlesSoon(backend.command(["SET", "limit", "1", "PX", "60000"]))).toBe(true);
    expect(await settlesSoon(coveredByNextWrite(() => backend.command(["SET", "claim", "1"])))).toBe(true);
    // A key that lives for a day is data: its write waits like any other.
    expect(await settlesSoon(backend.command(["SET", "token", "1", "EX", "86400"]))).toBe(false);
    // Nothing unsaved is ever answered: reading the short-lived key waits for its record.
    const read = backend.command(["GET", "limit"]);
    expect(await settlesSoon(read)).toBe(false);

    release();
    await plain;
    expect(await read).toBe("1");
    await backend.close();

    const reopened = new EmbeddedBackend({ file });
    expect(await reopened.command(["MGET", "lead", "limit", "claim", "token"])).toEqual(["1", "1", "1", "1"]);
    await reopened.close();
  });
});
