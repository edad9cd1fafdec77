/**
 * An offer that no channel took to its business (the notifier's finding: notify/lead.ts)
 * waits for nobody: the delivery becomes `undelivered` (the operator is told: compose.ts),
 * and when nothing else waits and nobody accepted, the lead moves on at once, to the next
 * pro or to the operator, as the clock would at the deadline. Compare-and-set, like every
 * routing change.
 */
import { nextProFor } from "../matching.ts";
import type { Store } from "../store/index.ts";
import { advance, markUndelivered, needsNextPro } from "./routing.ts";

/** Marks the businesses' waiting offers on lead `leadId` undelivered and moves it on; true when it changed. */
export async function passOnUndelivered(
  store: Store,
  leadId: string,
  businessIds: readonly string[],
  now: number,
): Promise<boolean> {
  const lead = await store.leads.get(leadId);
  const marked = lead && markUndelivered(lead, businessIds, now);
  if (!marked) return false;
  const next = needsNextPro(marked, now) ? await nextProFor(store, marked, now) : null;
  const result = await store.leads.mutate(
    leadId,
    (fresh) => {
      const changed = markUndelivered(fresh, businessIds, now);
      return changed && (advance(changed, now, next) ?? changed);
    },
    now,
  );
  return result?.changed ?? false;
}
