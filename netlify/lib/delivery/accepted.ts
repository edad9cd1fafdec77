/**
 * The store-side steps after a business accepted a job: it gives the job back (withdraw), or
 * the homeowner says the job is done. Each applies its pure step from routing.ts with
 * compare-and-set (leads.mutate, which also queues the lead's messages); the caller hands the
 * lead to the notifier. A withdrawal leaves the business's response time as it was: its
 * first answer was the acceptance.
 */
import type { Lead } from "../../../src/lib/schemas/lead.ts";
import type { Store } from "../store/index.ts";
import { advanceLead } from "./progress.ts";
import { applyComplete, applyWithdraw, isSettled, type AnswerOutcome, type WithdrawReason } from "./routing.ts";

/** The flash `form` of the status page's "The job is done" (its post's notice shows there). */
export const DONE_FORM = "done";

export interface StepResult {
  outcome: AnswerOutcome;
  lead: Lead;
}

/** Runs one pure step on the lead; null when the lead is gone. */
async function step(
  store: Store,
  leadId: string,
  now: number,
  apply: (lead: Lead) => { lead: Lead | null; outcome: AnswerOutcome },
): Promise<(StepResult & { changed: boolean }) | null> {
  let outcome: AnswerOutcome = "closed";
  const result = await store.leads.mutate(
    leadId,
    (lead) => {
      const applied = apply(lead);
      outcome = applied.outcome;
      return applied.lead;
    },
    now,
  );
  return result ? { outcome, lead: result.lead, changed: result.changed } : null;
}

/**
 * A business gives back the job it accepted. When nobody else holds or waits on the lead, it
 * moves on at once as after a decline: the next pro, else the operator.
 */
export async function withdrawLead(
  store: Store,
  leadId: string,
  businessId: string,
  reason: WithdrawReason,
  now: number,
): Promise<StepResult | null> {
  const result = await step(store, leadId, now, (lead) => applyWithdraw(lead, businessId, reason, now));
  if (!result) return null;
  let lead = result.lead;
  const routing = lead.routing;
  if (result.changed && routing && !isSettled(routing) && !routing.deliveries.some((d) => d.state === "waiting")) {
    if (await advanceLead(store, leadId, now)) lead = (await store.leads.get(leadId)) ?? lead;
  }
  return { outcome: result.outcome, lead };
}

/** The homeowner marks the job a business accepted as done: its review invitation may go now. */
export async function completeLead(
  store: Store,
  leadId: string,
  businessId: string,
  now: number,
): Promise<StepResult | null> {
  const result = await step(store, leadId, now, (lead) => applyComplete(lead, businessId, now));
  return result ? { outcome: result.outcome, lead: result.lead } : null;
}
