/**
 * Businesses' reports of bad leads (schemas/lead-report.ts): one per lead and business, kept
 * with counts by reason and by form that are updated in the same step (ADD_REPORT), so /admin
 * reads the totals without walking every report.
 */
import type { Redis } from "@upstash/redis";
import { LeadReport, type LeadReportSummary } from "../../../../src/lib/schemas/lead-report.ts";
import { asJson, asNumber, asString } from "../decode.ts";
import type { Keys } from "../keys.ts";
import { ADD_REPORT } from "../lua.ts";

/** Newest reports /admin lists at most. */
export const RECENT_REPORTS = 50;

export interface LeadReportsRepository {
  /** Keeps the report; false when this business had already reported this lead (the first stands). */
  add(report: LeadReport): Promise<boolean>;
  /** Every report counted by reason and by form, and the newest `limit` (RECENT_REPORTS). */
  summary(limit?: number): Promise<LeadReportSummary>;
}

const reportId = (r: Pick<LeadReport, "leadId" | "businessId">) => `${r.leadId}|${r.businessId}`;

export function leadReportsRepository(redis: Redis, keys: Keys): LeadReportsRepository {
  const addScript = redis.createScript<unknown>(ADD_REPORT);
  return {
    async add(input) {
      const report = LeadReport.parse(input);
      const added = await addScript.exec(
        [keys.reports, keys.reportDocs, keys.reportCounts],
        [reportId(report), JSON.stringify(report), String(Date.parse(report.at)), report.reason, report.form],
      );
      return asNumber(added) === 1;
    },

    async summary(limit = RECENT_REPORTS) {
      const p = redis.pipeline();
      p.hgetall(keys.reportCounts);
      p.zrange(keys.reports, 0, Math.max(1, limit) - 1, { rev: true });
      const [counts, ids] = await p.exec<[Record<string, unknown> | null, unknown[]]>();
      const byReason: Record<string, number> = {};
      const byForm: Record<string, number> = {};
      for (const [field, value] of Object.entries(counts ?? {})) {
        const n = asNumber(value);
        if (field.startsWith("reason:")) byReason[field.slice(7)] = n;
        else if (field.startsWith("form:")) byForm[field.slice(5)] = n;
      }
      const members = ids.map((v) => asString(v) ?? "").filter(Boolean);
      const docs = members.length > 0 ? await redis.hmget<Record<string, unknown>>(keys.reportDocs, ...members) : null;
      const recent: LeadReport[] = [];
      for (const id of members) {
        const parsed = LeadReport.safeParse(asJson(docs?.[id]));
        if (parsed.success) recent.push(parsed.data);
      }
      return { total: asNumber(counts?.total), byReason, byForm, recent };
    },
  };
}
