/**
 * A business reports a lead as a bad lead from its answer page (docs/lead-delivery.md,
 * "Reporting a lead"): the lead's offer stops for that business (routing.ts applyReport), the
 * report is kept for /admin by reason and by form, and the lead leaves the business's response
 * figures. The lead's change comes first (compare-and-set); the report and the figures follow
 * from the stored lead, also on a repeat, so a post retried after a failure completes them.
 */
import type { ReportReason } from "../../../src/lib/lead-routing.ts";
import type { Purge } from "../directory.ts";
import type { Store } from "../store/index.ts";
import type { StepResult } from "./accepted.ts";
import { excludeReported } from "./response-figures.ts";
import { applyReport, type AnswerOutcome } from "./routing.ts";

export async function reportLead(
  store: Store,
  leadId: string,
  businessId: string,
  reason: ReportReason,
  now: number,
  purge: Purge,
): Promise<StepResult | null> {
  let outcome: AnswerOutcome = "closed";
  const result = await store.leads.mutate(
    leadId,
    (lead) => {
      const applied = applyReport(lead, businessId, reason, now);
      outcome = applied.outcome;
      return applied.lead;
    },
    now,
  );
  if (!result) return null;
  const lead = result.lead;
  const delivery = lead.routing?.deliveries.find((d) => d.businessId === businessId);
  if (delivery?.reportedAt && delivery.report) {
    await excludeReported(store, leadId, businessId, purge);
    await store.leadReports.add({
      leadId,
      ...(lead.reference ? { reference: lead.reference } : {}),
      businessId,
      businessName: delivery.name,
      // The first report stands: a repeat keeps its reason and time.
      reason: delivery.report as ReportReason,
      form: lead.type,
      sourcePage: lead.sourcePage.slice(0, 500),
      at: delivery.reportedAt,
    });
  }
  return { outcome, lead };
}
