/**
 * Scheduled every 15 minutes: reads the National Weather Service's active alerts for the
 * states the directory covers and suggests storms to the operator (/admin > Storms); it never
 * declares one. The check lives in ../lib/storm-alerts.ts; each run is kept for /admin > Setup.
 */
import type { Config } from "@netlify/functions";
import { env } from "../../src/lib/env.ts";
import { errorName } from "../lib/http.ts";
import { recordRun } from "../lib/scheduled-run.ts";
import { alertsSummary, checkAlerts } from "../lib/storm-alerts.ts";
import { getStore } from "../lib/store/index.ts";

export default async (): Promise<void> => {
  try {
    const store = getStore();
    const report = await recordRun(
      store,
      "storm-alerts",
      () => checkAlerts(store, { baseUrl: env().NWS_API_URL }),
      alertsSummary,
    );
    if (report.suggested > 0 || report.failed > 0) {
      console.info(
        `[storms] NWS check: ${report.matched} storm alerts in ${report.states - report.failed} states, ` +
          `${report.suggested} new suggestions; ${report.failed} states not read`,
      );
    }
  } catch (error) {
    console.error(`[storms] NWS check failed (${errorName(error)})`);
  }
};

export const config: Config = { schedule: "*/15 * * * *" };
