/**
 * A scheduled function's run, kept for the launch checklist (/admin > Setup): when it started,
 * how long it took, its outcome and counts, or the class of the error that stopped it
 * (store.runs, newest RUNS_KEPT per function). Each scheduled function's handler runs its work
 * through recordRun. Keeping the record never fails the run: a store that cannot take it is
 * logged, and the run's own work stands.
 */
import type { ClockReport } from "./delivery/progress.ts";
import { errorName } from "./http-responses.ts";
import type { DrainReport } from "./notify/index.ts";
import type { Store } from "./store/index.ts";
import type { RunOutcome, ScheduledFunction } from "../../src/lib/schemas/runs.ts";

/**
 * Each scheduled function's cron expression, as its file's `config.schedule` says it (Netlify
 * reads that literal; tests/unit/setup-checklist.test.ts checks the two agree).
 */
export const SCHEDULES: Readonly<Record<ScheduledFunction, string>> = {
  "lead-clock": "* * * * *",
  "notify-outbox": "*/5 * * * *",
  "storm-alerts": "*/15 * * * *",
};

/** How often each one runs (ms): a run much older than this means the schedule has stopped. */
export const SCHEDULE_EVERY_MS: Readonly<Record<ScheduledFunction, number>> = {
  "lead-clock": 60_000,
  "notify-outbox": 5 * 60_000,
  "storm-alerts": 15 * 60_000,
};

/** What a run did, in the words of its record. */
export interface RunSummary {
  /** "failed" without a throw: the run finished, but what it is for did not happen (say why). */
  outcome: RunOutcome;
  counts: Record<string, number>;
  /** Why it failed, in a few words (never a message that can quote input). */
  error?: string;
}

/** The response clock's run (lead-clock.mts). */
export const clockSummary = (r: ClockReport): RunSummary => ({
  outcome: r.outOfTime ? "partial" : "ok",
  counts: { due: r.due, handled: r.handled, changed: r.changed, failed: r.failed, left: r.left },
});

/** The notifier's run (notify-outbox.mts). */
export const drainSummary = (r: DrainReport): RunSummary => ({
  outcome: r.outOfTime ? "partial" : "ok",
  counts: { claimed: r.claimed, delivered: r.delivered, retry: r.retry, dropped: r.dropped, left: r.due },
});

/**
 * Runs `work` as the scheduled function `name`, keeps the run in the store, and returns its
 * report (or throws its error, once kept).
 */
export async function recordRun<R>(
  store: Store,
  name: ScheduledFunction,
  work: () => Promise<R>,
  summarize: (report: R) => RunSummary,
  now: () => number = Date.now,
): Promise<R> {
  const started = now();
  const keep = async (summary: RunSummary) => {
    const finished = now();
    try {
      await store.runs.record({
        name,
        startedAt: new Date(started).toISOString(),
        finishedAt: new Date(finished).toISOString(),
        durationMs: Math.max(0, Math.round(finished - started)),
        ...summary,
      });
    } catch (error) {
      console.error(`[runs] ${name}: run not kept (${errorName(error)})`);
    }
  };
  let report: R;
  try {
    report = await work();
  } catch (error) {
    await keep({ outcome: "failed", counts: {}, error: errorName(error) });
    throw error;
  }
  await keep(summarize(report));
  return report;
}
