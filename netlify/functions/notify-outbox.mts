/**
 * Scheduled every 5 minutes: sends again, with backoff, whatever waits in the outbox: lead
 * notifications whose first attempt (right after the visitor's response) failed or never ran,
 * and owners' sign-in links, codes and claim answers whose send failed. The notifier lives in
 * ../lib/notify/index.ts.
 */
import type { Config } from "@netlify/functions";
import { errorName } from "../lib/http.ts";
import { drainOutbox } from "../lib/notify/index.ts";
import { getStore } from "../lib/store/index.ts";

export default async (): Promise<void> => {
  try {
    const report = await drainOutbox(getStore());
    if (report.claimed > 0) {
      console.info(
        `[notify] scheduled run: ${report.delivered} delivered, ${report.retry} to retry, ${report.dropped} dropped`,
      );
    }
  } catch (error) {
    // Items stay in the outbox; the next run tries again once their lease ends.
    console.error(`[notify] scheduled run failed (${errorName(error)})`);
  }
};

export const config: Config = { schedule: "*/5 * * * *" };
