/**
 * Scheduled every minute: the response clock. Offers past their deadline expire; a lead
 * nobody accepted goes to the next pro, then to the operator, and its messages go out.
 * The steps live in ../lib/delivery/progress.ts, the deadlines in ../lib/delivery/clock.ts.
 * A run works for at most RUN_BUDGET_MS (../lib/run-budget.ts); the leads it does not reach
 * stay due for the next. Each run is kept for /admin > Setup (../lib/scheduled-run.ts).
 */
import type { Config } from "@netlify/functions";
import { errorName } from "../lib/http.ts";
import { runClock } from "../lib/delivery/progress.ts";
import { clockSummary, recordRun } from "../lib/scheduled-run.ts";
import { getStore } from "../lib/store/index.ts";

export default async (): Promise<void> => {
  try {
    const store = getStore();
    // Kept for /admin > Setup: when it ran, how long, what it did (../lib/scheduled-run.ts).
    const report = await recordRun(store, "lead-clock", () => runClock(store), clockSummary);
    if (report.due > 0) {
      console.info(
        `[clock] ${report.handled} of ${report.due} due handled, ${report.changed} moved on, ${report.failed} failed; ` +
          `${report.left} left for the next run${report.outOfTime ? " (out of time)" : ""}`,
      );
    }
  } catch (error) {
    // The leads stay on the clock; the next run tries again.
    console.error(`[clock] scheduled run failed (${errorName(error)})`);
  }
};

export const config: Config = { schedule: "* * * * *" };
