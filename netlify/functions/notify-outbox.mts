/**
 * Scheduled every 5 minutes: sends again, with backoff, whatever waits in the outbox: lead
 * notifications whose first attempt (right after the visitor's response) failed or never ran,
 * and owners' sign-in links, codes and claim answers whose send failed. The notifier lives in
 * ../lib/notify/index.ts. A run works for at most RUN_BUDGET_MS (../lib/run-budget.ts); what
 * it does not reach stays due for the next. Each run is kept for /admin > Setup
 * (../lib/scheduled-run.ts).
 */
import type { Config } from "@netlify/functions";
import { errorName } from "../lib/http.ts";
import { drainOutbox } from "../lib/notify/index.ts";
import { drainSummary, recordRun } from "../lib/scheduled-run.ts";
import { getStore } from "../lib/store/index.ts";

export default async (): Promise<void> => {
  try {
    const store = getStore();
    // Kept for /admin > Setup: when it ran, how long, what it did (../lib/scheduled-run.ts).
    const report = await recordRun(store, "notify-outbox", () => drainOutbox(store), drainSummary);
    if (report.claimed > 0 || report.due > 0) {
      console.info(
        `[notify] scheduled run: ${report.claimed} claimed, ${report.delivered} delivered, ${report.retry} to retry, ` +
          `${report.dropped} dropped; ${report.due} left for the next run${report.outOfTime ? " (out of time)" : ""}`,
      );
    }
  } catch (error) {
    // Items stay in the outbox; the next run tries again once their lease ends.
    console.error(`[notify] scheduled run failed (${errorName(error)})`);
  }
};

export const config: Config = { schedule: "*/5 * * * *" };
