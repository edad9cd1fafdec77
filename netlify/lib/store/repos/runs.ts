/**
 * What the launch checklist reads (netlify/lib/admin/setup.ts): each scheduled function's
 * latest runs, a list per function trimmed to RUNS_KEPT in the same transaction that adds one,
 * and the last send on each channel, one hash field per channel overwritten by the next send.
 * Both stay the same size however long the site runs.
 */
import type { Redis } from "@upstash/redis";
import {
  RunRecord,
  SEND_CHANNELS,
  SendResult,
  type RunRecordInput,
  type ScheduledFunction,
  type SendChannel,
} from "../../../../src/lib/schemas/runs.ts";
import { asJson } from "../decode.ts";
import type { Keys } from "../keys.ts";

/** Runs kept per scheduled function (a day of the 5-minute notifier is 288; this is the last hour or more). */
export const RUNS_KEPT = 20;

export interface RunsRepository {
  /** Adds a run as its function's newest and drops the ones past RUNS_KEPT; returns it as stored. */
  record(run: RunRecordInput): Promise<RunRecord>;
  /** One function's runs, newest first (at most `limit`, RUNS_KEPT by default). */
  recent(name: ScheduledFunction, limit?: number): Promise<RunRecord[]>;
  /** The newest run of each function named (null: none recorded), in one round trip. */
  latest<N extends ScheduledFunction>(names: readonly N[]): Promise<Record<N, RunRecord | null>>;
  /** Keeps `results` as their channels' last sends (one per channel: the latest given wins). */
  recordSends(results: readonly SendResult[]): Promise<void>;
  /** The last send on each channel that has had one. */
  lastSends(): Promise<Partial<Record<SendChannel, SendResult>>>;
}

const readRun = (value: unknown): RunRecord | null => {
  const parsed = RunRecord.safeParse(asJson(value));
  return parsed.success ? parsed.data : null;
};

export function runsRepository(redis: Redis, keys: Keys): RunsRepository {
  return {
    async record(input) {
      const run = RunRecord.parse(input);
      const key = keys.runs(run.name);
      await redis
        .multi()
        .lpush(key, JSON.stringify(run))
        .ltrim(key, 0, RUNS_KEPT - 1)
        .exec();
      return run;
    },

    async recent(name, limit = RUNS_KEPT) {
      const count = Math.max(1, Math.min(RUNS_KEPT, Math.floor(limit)));
      const list = await redis.lrange(keys.runs(name), 0, count - 1);
      return list.map(readRun).filter((r): r is RunRecord => r !== null);
    },

    async latest(names) {
      const out = {} as Record<(typeof names)[number], RunRecord | null>;
      if (names.length === 0) return out;
      const p = redis.pipeline();
      for (const name of names) p.lindex(keys.runs(name), 0);
      const heads = await p.exec<unknown[]>();
      names.forEach((name, i) => {
        out[name] = readRun(heads[i]);
      });
      return out;
    },

    async recordSends(results) {
      const latest = new Map<SendChannel, SendResult>();
      for (const result of results) {
        const send = SendResult.parse(result);
        const before = latest.get(send.channel);
        if (!before || Date.parse(send.at) >= Date.parse(before.at)) latest.set(send.channel, send);
      }
      if (latest.size === 0) return;
      await redis.hset(
        keys.lastSends,
        Object.fromEntries([...latest].map(([channel, send]) => [channel, JSON.stringify(send)])),
      );
    },

    async lastSends() {
      const all = (await redis.hgetall<Record<string, unknown>>(keys.lastSends)) ?? {};
      const out: Partial<Record<SendChannel, SendResult>> = {};
      for (const channel of SEND_CHANNELS) {
        const parsed = SendResult.safeParse(asJson(all[channel]));
        if (parsed.success && parsed.data.channel === channel) out[channel] = parsed.data;
      }
      return out;
    },
  };
}
