/**
 * An offer that no channel took to its business (the notifier's finding: notify/lead.ts)
 * waits for nobody: the delivery becomes `undelivered` (the operator is told: compose.ts),
 * and when nothing else waits and nobody accepted, the lead moves on at once, to the next
 * pro or to the operator, as the clock would at the deadline. Compare-and-set, like every
 * routing change. An undelivered offer is no miss for its business (it never had it); other
 * offers the same step finds past their deadline are, as the clock's would be.
 */
import { netlifyPurge, type Purge } from "../directory.ts";
import { nextProFor } from "../matching.ts";
import type { Store } from "../store/index.ts";
import type { Delivery } from "../../../src/lib/schemas/lead.ts";
import { newlyExpired, recordMisses } from "./response-figures.ts";
import { advance, markUndelivered, needsNextPro } from "./routing.ts";

/** Marks the businesses' waiting offers on lead `leadId` undelivered and moves it on; true when it changed. */
export async function passOnUndelivered(
  store: Store,
  leadId: string,
  businessIds: readonly string[],
  now: number,
  purge: Purge = netlifyPurge,
): Promise<boolean> {
  const lead = await store.leads.get(leadId);
  const marked = lead && markUndelivered(lead, businessIds, now);
  if (!marked) return false;
  const next = needsNextPro(marked, now) ? await nextProFor(store, marked, now) : null;
  // The mutation runs once per compare-and-set attempt; its last run is the change stored.
  let expired: Delivery[] = [];
  const result = await store.leads.mutate(
    leadId,
    (fresh) => {
      const changed = markUndelivered(fresh, businessIds, now);
      const moved = changed && (advance(changed, now, next) ?? changed);
      expired = newlyExpired(fresh, moved);
      return moved;
    },
    now,
  );
  if (result?.changed) await recordMisses(store, result.lead, expired, purge);
  return result?.changed ?? false;
}
