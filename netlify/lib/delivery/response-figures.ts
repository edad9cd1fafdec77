/**
 * Lead delivery's side of the response figures (src/lib/response-time.ts): each offer's outcome
 * goes to its business once, when it becomes known. A first answer is recorded with the daytime
 * minutes it took and whether it came by the deadline; an offer the clock expires is a miss. An
 * offer no channel delivered (undelivered, or only kept: no provider here sends offers) is never
 * either, so it does not count against the business, and an acceptance given back later keeps
 * its answer. The business's page is purged when its public line changes.
 *
 * The lead's change is stored first (compare-and-set) and its outcomes recorded after, from the
 * committed change: a clock step that runs twice finds nothing newly expired the second time,
 * and the store keeps one outcome per lead and business whatever the callers do.
 */
import { DEFAULT_TIME_ZONE } from "../../../src/lib/hours.ts";
import { daytimeMinutesBetween, responseLabel, type OfferOutcome } from "../../../src/lib/response-time.ts";
import type { Delivery, Lead } from "../../../src/lib/schemas/lead.ts";
import { businessTag, purgeQuietly, type Purge } from "../directory.ts";
import { errorName } from "../http.ts";
import type { Store } from "../store/index.ts";
import { offerKept } from "./kept.ts";

/** The business's outcome for this offer; its page is purged when the public line changed. */
async function record(
  store: Store,
  leadId: string,
  delivery: Delivery,
  outcome: OfferOutcome,
  at: number,
  purge: Purge,
): Promise<void> {
  try {
    const result = await store.businesses.recordOutcome(delivery.businessId, leadId, outcome, new Date(at));
    if (result?.recorded && responseLabel(result.before) !== responseLabel(result.after)) {
      await purgeQuietly(purge, [businessTag(delivery.businessId)]);
    }
  } catch (error) {
    // The lead's own change is stored; only this business's figure misses one outcome.
    console.warn(`[delivery] ${leadId}: response of ${delivery.businessId} not recorded (${errorName(error)})`);
  }
}

/** A business's first answer to its offer, at `now`. */
export function recordAnswer(store: Store, leadId: string, delivery: Delivery, now: number, purge: Purge) {
  const minutes = daytimeMinutesBetween(Date.parse(delivery.offeredAt), now, delivery.timeZone ?? DEFAULT_TIME_ZONE);
  const inTime = now <= Date.parse(delivery.deadlineAt);
  return record(store, leadId, delivery, { answered: true, minutes, inTime }, now, purge);
}

/** The offers a routing change expired: waiting in `before`, expired in `after`. */
export function newlyExpired(before: Lead, after: Lead | null): Delivery[] {
  if (!after) return [];
  const waiting = new Set(
    (before.routing?.deliveries ?? []).filter((d) => d.state === "waiting").map((d) => d.businessId),
  );
  return (after.routing?.deliveries ?? []).filter((d) => d.state === "expired" && waiting.has(d.businessId));
}

/**
 * Each expired offer is a miss for its business, dated at its deadline; an offer that was only
 * kept (no provider here carried it: kept.ts) has no outcome, its business never had it.
 */
export async function recordMisses(
  store: Store,
  lead: Lead,
  expired: readonly Delivery[],
  purge: Purge,
): Promise<void> {
  if (expired.length === 0) return;
  let missed = expired;
  try {
    const messages = await store.messages.forLead(lead.id);
    missed = expired.filter((d) => !offerKept(lead, d.businessId, messages));
  } catch (error) {
    // Without the message log the offers count as they did before it: each one a miss.
    console.warn(`[delivery] ${lead.id}: messages not read for the response figures (${errorName(error)})`);
  }
  await Promise.all(missed.map((d) => record(store, lead.id, d, { answered: false }, Date.parse(d.deadlineAt), purge)));
}

/**
 * A lead the business reported as a bad lead leaves its figures for good: an outcome already
 * kept is taken out, and none recorded later counts (EXCLUDE_OUTCOME). Safe to repeat; an
 * error is the caller's (the report is kept only once this has run).
 */
export async function excludeReported(store: Store, leadId: string, businessId: string, purge: Purge): Promise<void> {
  const result = await store.businesses.excludeOutcome(businessId, leadId);
  if (result?.recorded && responseLabel(result.before) !== responseLabel(result.after)) {
    await purgeQuietly(purge, [businessTag(businessId)]);
  }
}
