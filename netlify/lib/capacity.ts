/**
 * Saving a business's capacity statement (src/lib/capacity.ts) from its answer page or its
 * owner page: the same form, the same words, one repository (store.capacity).
 */
import { CAPACITY_TEXT, capacityForm, type Capacity, type CapacityFormValue } from "../../src/lib/capacity.ts";
import { DEFAULT_TIME_ZONE } from "../../src/lib/hours.ts";
import { fieldErrors } from "../../src/lib/schemas/forms.ts";
import type { Store } from "./store/index.ts";

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

/** Stores what the form said ("clear" takes the statement back); returns what is stored now. */
export async function saveCapacity(
  store: Store,
  businessId: string,
  value: CapacityFormValue,
  via: Capacity["via"],
  now: number,
): Promise<Capacity | null> {
  if (value.capacity === "clear") {
    await store.capacity.set(businessId, null);
    return null;
  }
  const capacity: Capacity = {
    status: value.capacity,
    ...(value.capacity === "booked" ? { until: value.until } : {}),
    setAt: new Date(now).toISOString(),
    via,
  };
  await store.capacity.set(businessId, capacity);
  return capacity;
}

/** The line after a save. */
export function capacitySavedNotice(value: CapacityFormValue): string {
  if (value.capacity === "taking") return CAPACITY_TEXT.saved.taking;
  if (value.capacity === "booked") return CAPACITY_TEXT.saved.booked(value.until);
  return CAPACITY_TEXT.saved.clear;
}
