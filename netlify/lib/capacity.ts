/**
 * Saving a business's capacity statement (src/lib/capacity.ts) from its answer page or its
 * owner page: the same form, the same words, one repository (store.capacity).
 */
import { CAPACITY_TEXT, capacityForm, type Capacity, type CapacityFormValue } from "../../src/lib/capacity.ts";
import { DEFAULT_TIME_ZONE } from "../../src/lib/hours.ts";
import { fieldErrors } from "../../src/lib/schemas/forms.ts";
import type { Store } from "./store/index.ts";
import { DIRECTORY_TAG, purgeQuietly, type Purge } from "./directory.ts";

export { capacityView, type CapacityView } from "../../src/lib/capacity.ts";

/** The form's parse against the business's today: the value, or the fields' messages. */
export function readCapacityForm(
  raw: Record<string, unknown>,
  now: number,
  timeZone = DEFAULT_TIME_ZONE,
): { ok: true; value: CapacityFormValue } | { ok: false; fields: Record<string, string> } {
  const parsed = capacityForm(now, timeZone).safeParse(raw);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, fields: fieldErrors(parsed.error) };
}

/**
 * Stores what the form said ("clear" takes the statement back); returns what is stored now.
 * The directory's cached list answers are purged: inside a storm they mark and order
 * businesses by it (a failed purge is logged; the copies then end within the hour).
 */
export async function saveCapacity(
  store: Store,
  businessId: string,
  value: CapacityFormValue,
  via: Capacity["via"],
  now: number,
  purge: Purge,
): Promise<Capacity | null> {
  if (value.capacity === "clear") {
    await store.capacity.set(businessId, null);
    await purgeQuietly(purge, [DIRECTORY_TAG]);
    return null;
  }
  const capacity: Capacity = {
    status: value.capacity,
    ...(value.capacity === "booked" ? { until: value.until } : {}),
    setAt: new Date(now).toISOString(),
    via,
  };
  await store.capacity.set(businessId, capacity);
  await purgeQuietly(purge, [DIRECTORY_TAG]);
  return capacity;
}

/** The line after a save. */
export function capacitySavedNotice(value: CapacityFormValue): string {
  if (value.capacity === "taking") return CAPACITY_TEXT.saved.taking;
  if (value.capacity === "booked") return CAPACITY_TEXT.saved.booked(value.until);
  return CAPACITY_TEXT.saved.clear;
}
