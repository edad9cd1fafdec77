/**
 * The launch checklist's records, part of the repository contract run by contract.ts on every
 * transport (embedded, real Redis, Upstash REST): each scheduled function keeps its newest
 * RUNS_KEPT runs, newest first, apart from the others; each channel keeps one last send, the
 * latest; damaged records read as none.
 */
import { describe, expect, it } from "vitest";
import { RUNS_KEPT } from "../../../netlify/lib/store/repos/runs.ts";
import type { RunRecordInput } from "../../../src/lib/schemas/runs.ts";
import type { StoreHarness } from "./contract.types.ts";

const at = (minute: number) => new Date(Date.UTC(2026, 10, 28, 12, minute)).toISOString();

const run = (minute: number, over: Partial<RunRecordInput> = {}): RunRecordInput => ({
  name: "lead-clock",
  startedAt: at(minute),
  finishedAt: at(minute),
  durationMs: 120,
  outcome: "ok",
  counts: { due: minute, handled: minute },
  ...over,
});

export function runsContract(h: StoreHarness) {
  describe("scheduled runs and last sends", () => {
    it("keeps each function's newest runs, newest first, and no more than RUNS_KEPT", async () => {
      const store = await h.fresh("runs-kept");
      expect(await store.runs.recent("lead-clock")).toEqual([]);
      expect(await store.runs.latest(["lead-clock", "notify-outbox"])).toEqual({
        "lead-clock": null,
        "notify-outbox": null,
      });

      for (let minute = 0; minute < RUNS_KEPT + 5; minute++) await store.runs.record(run(minute));
      const stored = await store.redis.llen(`${store.prefix}runs:lead-clock`);
      expect(stored).toBe(RUNS_KEPT);
      const recent = await store.runs.recent("lead-clock");
      expect(recent.map((r) => r.counts.due)).toEqual(Array.from({ length: RUNS_KEPT }, (_, i) => RUNS_KEPT + 4 - i));
      expect(await store.runs.recent("lead-clock", 3)).toEqual(recent.slice(0, 3));
      // The other function has its own list.
      expect(await store.runs.recent("notify-outbox")).toEqual([]);
    });

    it("reads each function's latest run in one call, whole, with its outcome and error", async () => {
      const store = await h.fresh("runs-latest");
      await store.runs.record(run(1));
      const failed = await store.runs.record(
        run(2, { name: "notify-outbox", outcome: "failed", error: "TypeError", counts: {} }),
      );
      const partial = await store.runs.record(run(3, { outcome: "partial", counts: { due: 50, left: 9950 } }));
      expect(failed).toEqual({
        name: "notify-outbox",
        startedAt: at(2),
        finishedAt: at(2),
        durationMs: 120,
        outcome: "failed",
        counts: {},
        error: "TypeError",
      });
      expect(await store.runs.latest(["lead-clock", "notify-outbox"])).toEqual({
        "lead-clock": partial,
        "notify-outbox": failed,
      });
    });

    it("refuses a run that is not one, and reads a damaged record as none", async () => {
      const store = await h.fresh("runs-bad");
      await expect(store.runs.record({ ...run(1), outcome: "maybe" as "ok" })).rejects.toThrow();
      await expect(store.runs.record({ ...run(1), durationMs: -1 })).rejects.toThrow();
      await expect(store.runs.record({ ...run(1), name: "other" as "lead-clock" })).rejects.toThrow();
      await store.redis.lpush(`${store.prefix}runs:lead-clock`, "{not json");
      expect(await store.runs.latest(["lead-clock"])).toEqual({ "lead-clock": null });
      expect(await store.runs.recent("lead-clock")).toEqual([]);
    });

    it("keeps one last send per channel: the latest", async () => {
      const store = await h.fresh("sends-last");
      expect(await store.runs.lastSends()).toEqual({});
      await store.runs.recordSends([]);
      expect(await store.runs.lastSends()).toEqual({});

      const accepted = { channel: "email" as const, outcome: "accepted" as const, at: at(5), kind: "receipt" };
      const older = { channel: "email" as const, outcome: "failed" as const, at: at(4), error: "HTTP 500" };
      const sms = { channel: "sms" as const, outcome: "failed" as const, at: at(4), error: "HTTP 401" };
      // In one batch the latest of each channel wins, whatever the order.
      await store.runs.recordSends([accepted, older, sms]);
      expect(await store.runs.lastSends()).toEqual({ email: accepted, sms });

      const refused = { channel: "email" as const, outcome: "failed" as const, at: at(6), error: "HTTP 403" };
      const hook = { channel: "webhook" as const, outcome: "accepted" as const, at: at(6) };
      await store.runs.recordSends([refused, hook]);
      expect(await store.runs.lastSends()).toEqual({ email: refused, sms, webhook: hook });
      // One field per channel, however many sends.
      expect(await store.redis.hlen(`${store.prefix}sends:last`)).toBe(3);
    });

    it("refuses a send result on an unknown channel, and skips a damaged one", async () => {
      const store = await h.fresh("sends-bad");
      await expect(
        store.runs.recordSends([{ channel: "admin" as "email", outcome: "accepted", at: at(1) }]),
      ).rejects.toThrow();
      await store.redis.hset(`${store.prefix}sends:last`, {
        email: "{oops",
        sms: JSON.stringify({ channel: "email" }),
      });
      expect(await store.runs.lastSends()).toEqual({});
    });
  });
}
