/**
 * /owner/availability: the owner says the business is taking storm jobs, or fully booked
 * until a day, or back to normal (src/lib/capacity.ts); the same form and words as the answer
 * page's (netlify/lib/capacity.ts). A plain form, 303 back to the page with a notice, or with
 * the day's message after a refused post (422). Routing reads it at once (matching.ts).
 */
import { DEFAULT_TIME_ZONE } from "../../../src/lib/hours.ts";
import { capacityView, type Capacity, type CapacityView } from "../../../src/lib/capacity.ts";
import type { Business } from "../../../src/lib/schemas/business.ts";
import { capacitySavedNotice, readCapacityForm, saveCapacity } from "../capacity.ts";
import { netlifyPurge, type Purge } from "../directory.ts";
import { KB, storeCall, type Endpoint, type EndpointDeps } from "../http.ts";
import { INVALID_STATUS, backToPage, ownerEndpoint, seeOwnerPage, type FlashValues } from "./page.ts";

export const AVAILABILITY_ROUTE = "/owner/availability";

/** What the page shows: the statement and the form, with a refused post's day and message. */
export interface AvailabilityView {
  action: string;
  capacity: CapacityView;
  until?: string;
  error?: string;
}

export function availabilityView(
  business: Business,
  capacity: Capacity | null,
  now: number,
  flash: { values: FlashValues; errors: Record<string, string> } | null,
): AvailabilityView {
  const until = flash?.values.until;
  return {
    action: AVAILABILITY_ROUTE,
    capacity: capacityView(capacity, now, business.timeZone ?? DEFAULT_TIME_ZONE),
    ...(typeof until === "string" ? { until } : {}),
    ...(flash?.errors.until ? { error: flash.errors.until } : {}),
  };
}

export interface OwnerAvailabilityDeps extends EndpointDeps {
  purge?: Purge;
}

export function ownerAvailabilityHandler(deps: OwnerAvailabilityDeps = {}): Endpoint {
  const purge = deps.purge ?? netlifyPurge;
  return ownerEndpoint(
    {
      log: "[owner] availability",
      body: { urlencoded: 1 * KB },
      rateLimit: { name: "owner-availability", perMinute: () => 30 },
    },
    deps,
    async (call, { business }) => {
      const raw = Object.fromEntries(call.body!.value);
      const now = call.now();
      const read = readCapacityForm(raw, now, business.timeZone ?? DEFAULT_TIME_ZONE);
      if (!read.ok)
        return backToPage(call.store, {
          path: AVAILABILITY_ROUTE,
          status: INVALID_STATUS,
          values: { until: typeof raw.until === "string" ? raw.until.slice(0, 20) : "" },
          errors: read.fields,
          problem: Object.values(read.fields)[0],
        });
      await storeCall(() => saveCapacity(call.store, business.id, read.value, "owner", now, purge), { step: "save" });
      console.info(`[owner] availability ${business.id}: ${read.value.capacity}`);
      return seeOwnerPage(call.store, AVAILABILITY_ROUTE, capacitySavedNotice(read.value));
    },
  );
}
