/**
 * Scheduled every minute: the response clock. Offers past their deadline expire; a lead
 * nobody accepted goes to the next pro, then to the operator, and its messages go out.
 * The steps live in ../lib/delivery/progress.ts, the deadlines in ../lib/delivery/clock.ts.
 */
import type { Config } from "@netlify/functions";
import { errorName } from "../lib/http.ts";
import { runClock } from "../lib/delivery/progress.ts";
import { getStore } from "../lib/store/index.ts";

export default async (): Promise<void> => {
  try {
    const report = await runClock(getStore());
    if (report.due > 0) console.info(`[clock] ${report.due} due, ${report.changed} moved on, ${report.failed} failed`);
  } catch (error) {
    // The leads stay on the clock; the next run tries again.
    console.error(`[clock] scheduled run failed (${errorName(error)})`);
  }
};

export const config: Config = { schedule: "* * * * *" };
