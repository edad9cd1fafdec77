/**
 * A business's report of a bad lead (from its answer page: docs/lead-delivery.md, "Reporting a
 * lead"), as the store keeps it for /admin: which lead, who reported it, why, and which form the
 * lead came from, so the operator can fix what sends bad leads.
 */
import { z } from "../zod.ts";
import { REPORT_REASONS } from "../lead-routing.ts";
import { optionValues } from "../options.ts";
import { LeadType } from "./lead.ts";

export const LeadReport = z.object({
  /** The lead reported. */
  leadId: z.string().min(1).max(64),
  /** Its reference ("TL-7KQ2-9F"), when it has one. */
  reference: z.string().max(20).optional(),
  /** The business that reported it. */
  businessId: z.string().min(1).max(64),
  /** Its name when it reported. */
  businessName: z.string().max(120),
  /** Why (one of REPORT_REASONS' values). */
  reason: z.enum(optionValues(REPORT_REASONS)),
  /** The form the lead came from (its lead type). */
  form: LeadType,
  /** The page that form was sent from. */
  sourcePage: z.string().max(500),
  /** When it was reported (ISO). */
  at: z.iso.datetime({ offset: true }),
});
export type LeadReport = z.infer<typeof LeadReport>;

/** What /admin shows: every report counted by reason and by form, and the newest ones. */
export interface LeadReportSummary {
  total: number;
  byReason: Record<string, number>;
  byForm: Record<string, number>;
  recent: LeadReport[];
}
