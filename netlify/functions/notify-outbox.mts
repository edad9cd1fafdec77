/**
 * Scheduled every 5 minutes: delivers lead notifications whose first attempt (right after
 * the visitor's response) failed or never ran, with backoff, and sends again the messages sent
 * outside a lead (owners' sign-in links and codes, claim decisions) whose send failed. The
 * notifier lives in ../lib/notify/index.ts.
 */
import type { Config } from "@netlify/functions";
import { errorName } from "../lib/http.ts";
import { drainOutbox, retryStandalone } from "../lib/notify/index.ts";
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
    // Items stay in the outbox; the next run tries again.
    console.error(`[notify] scheduled run failed (${errorName(error)})`);
  }
  try {
    const tried = await retryStandalone(getStore());
    if (tried > 0) console.info(`[notify] scheduled run: ${tried} standalone message(s) tried again`);
  } catch (error) {
    // They stay in msgs:retry; the next run tries again once their lease ends.
    console.error(`[notify] scheduled retry of standalone messages failed (${errorName(error)})`);
  }
};

export const config: Config = { schedule: "*/5 * * * *" };
