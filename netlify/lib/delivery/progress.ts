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
import { DRAIN_BATCH, notifyLead, SEND_TIMEOUT_MS, type NotifyDeps } from "../notify/index.ts";
import { RUN_BUDGET_MS } from "../run-budget.ts";
import type { Store } from "../store/index.ts";
import { newlyExpired, recordAnswer, recordMisses } from "./response-figures.ts";
import { advance, applyAnswer, needsNextPro, type Answer, type AnswerOutcome } from "./routing.ts";

/** Due leads one scheduled run reads; the run's budget decides how many of them it reaches. */
export const CLOCK_BATCH = 200;
/** Leads moved on together, their messages then sent in parallel (about one send's time). */
export const CLOCK_CHUNK = DRAIN_BATCH;

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
  if (result?.changed) await recordMisses(store, result.lead, expired, purge);
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
  /** Due leads read at the start (at most CLOCK_BATCH). */
  due: number;
  /** Of those, the ones the run reached before its budget ran out. */
  handled: number;
  changed: number;
  failed: number;
  /** Leads still due when the run ended, for the next run (failed ones among them). */
  left: number;
  /** True when the budget stopped the run with leads it had read still waiting. */
  outOfTime: boolean;
}

/**
 * The scheduled run: leads whose deadline has passed, CLOCK_CHUNK at a time, moved on together
 * and then their messages sent, while the run's budget (RUN_BUDGET_MS, or `deps.deadline`) still
 * has room for a send. A lead is moved on only when its messages can go in the same run; the
 * ones not reached keep their place on the clock for the next run (a minute later).
 */
export async function runClock(store: Store, deps: NotifyDeps & { purge?: Purge } = {}): Promise<ClockReport> {
  const clock = deps.now ?? Date.now;
  const start = clock();
  const deadline = deps.deadline ?? start + RUN_BUDGET_MS;
  const notifyDeps: NotifyDeps = { ...deps, now: clock, deadline };
  const ids = await store.leads.clockDue(start, CLOCK_BATCH);
  const report: ClockReport = { due: ids.length, handled: 0, changed: 0, failed: 0, left: 0, outOfTime: false };
  while (report.handled < ids.length) {
    if (deadline - clock() < SEND_TIMEOUT_MS) {
      report.outOfTime = true;
      break;
    }
    const chunk = ids.slice(report.handled, report.handled + CLOCK_CHUNK);
    report.handled += chunk.length;
    const now = clock();
    // The chunk's leads are stepped at once: each is its own compare-and-set, and a storm's
    // minute can bring a full batch due (docs/storm-benchmark.md).
    const steps = await Promise.all(
      chunk.map(async (id) => {
        try {
          return (await advanceLead(store, id, now, deps.purge)) ? id : null;
        } catch (error) {
          report.failed++;
          console.error(`[clock] ${id}: step failed (${errorName(error)})`);
          return null;
        }
      }),
    );
    const changed = steps.filter((id): id is string => id !== null);
    report.changed += changed.length;
    // notifyLead never throws; a send that does not fit leaves the lead's outbox item due.
    await Promise.all(changed.map((id) => notifyLead(store, id, notifyDeps)));
  }
  report.left = await store.leads.clockDueCount(start);
  return report;
}
