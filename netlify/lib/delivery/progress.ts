/**
 * The store-side steps of lead delivery: a business's answer and the response clock's run.
 * Each applies a pure step from routing.ts with compare-and-set (leads.mutate, which also
 * queues the lead's messages), then hands the lead to the notifier.
 */
import { netlifyPurge, type Purge } from "../directory.ts";
import type { Delivery, Lead } from "../../../src/lib/schemas/lead.ts";
import { placeOfText } from "../job-place.ts";
import { nextProFor } from "../matching.ts";
import { errorName } from "../http.ts";
import { notifyLead, type NotifyDeps } from "../notify/index.ts";
import type { Store } from "../store/index.ts";
import { newlyExpired, recordAnswer, recordMisses } from "./response-figures.ts";
import { advance, applyAnswer, needsNextPro, type Answer, type AnswerOutcome } from "./routing.ts";

/** Rows the clock handles per scheduled run (each is a few store calls). */
export const CLOCK_BATCH = 50;

/** The clock's step for one lead at `now`; true when it changed. Offers it expires count as misses. */
export async function advanceLead(
  store: Store,
  leadId: string,
  now: number,
  purge: Purge = netlifyPurge,
): Promise<boolean> {
  const lead = await store.leads.get(leadId);
  if (!lead) return false;
  // The next pro is the nearest one not offered yet, under the same rules as the first offers.
  const candidate = needsNextPro(lead, now)
    ? await nextProFor(store, lead, now, lead.place ?? (await placeOfText(lead)))
    : null;
  // The mutation runs once per compare-and-set attempt; its last run is the change stored.
  let expired: Delivery[] = [];
  const result = await store.leads.mutate(
    leadId,
    (fresh) => {
      const next = advance(fresh, now, candidate);
      expired = newlyExpired(fresh, next);
      return next;
    },
    now,
  );
  if (result?.changed) await recordMisses(store, leadId, expired, purge);
  return result?.changed ?? false;
}

export interface AnswerResult {
  outcome: AnswerOutcome;
  lead: Lead;
}

/**
 * A business's answer: applied once (a repeat is a no-op), its response recorded on its
 * first answer, and a lead left with nobody (every pro declined) passed on at once.
 */
export async function answerLead(
  store: Store,
  leadId: string,
  businessId: string,
  answer: Answer,
  now: number,
  purge: Purge = netlifyPurge,
): Promise<AnswerResult | null> {
  let outcome: AnswerOutcome = "closed";
  let firstAnswer = false;
  const result = await store.leads.mutate(
    leadId,
    (lead) => {
      const before = lead.routing?.deliveries.find((d) => d.businessId === businessId);
      const applied = applyAnswer(lead, businessId, answer, now);
      outcome = applied.outcome;
      firstAnswer = applied.lead !== null && before?.answeredAt === undefined;
      return applied.lead;
    },
    now,
  );
  if (!result) return null;
  let lead = result.lead;
  if (result.changed) {
    const delivery = lead.routing?.deliveries.find((d) => d.businessId === businessId);
    if (firstAnswer && delivery) {
      await recordAnswer(store, leadId, delivery, now, purge);
    }
    // Everyone declined: no need to wait for the clock.
    if (
      lead.routing &&
      !lead.routing.escalatedAt &&
      !lead.routing.deliveries.some((d) => d.state === "waiting" || d.state === "accepted")
    ) {
      if (await advanceLead(store, leadId, now, purge)) lead = (await store.leads.get(leadId)) ?? lead;
    }
  }
  return { outcome, lead };
}

export interface ClockReport {
  due: number;
  changed: number;
  failed: number;
}

/** The scheduled run: every lead whose deadline has passed, then their messages. */
export async function runClock(store: Store, deps: NotifyDeps & { purge?: Purge } = {}): Promise<ClockReport> {
  const now = (deps.now ?? Date.now)();
  const ids = await store.leads.clockDue(now, CLOCK_BATCH);
  const report: ClockReport = { due: ids.length, changed: 0, failed: 0 };
  for (const id of ids) {
    try {
      if (await advanceLead(store, id, now, deps.purge)) {
        report.changed++;
        await notifyLead(store, id, deps);
      }
    } catch (error) {
      report.failed++;
      console.error(`[clock] ${id}: step failed (${errorName(error)})`);
    }
  }
  return report;
}
