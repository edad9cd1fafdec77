/**
 * What the list needs of a business. The list's state and cache hold these, whether they
 * came from the server's render or an API answer; picking the card's fields keeps photos,
 * addresses and the rest out of them. Hours and time zone stay: the card's "Open now" /
 * "Closed" badge is worked out from them (with the owner's holiday and closed-day list), and
 * the response time's phrase from its minutes.
 */
import type { Business } from "./schemas/business.ts";

export type ListBusiness = Pick<
  Business,
  | "id"
  | "name"
  | "slug"
  | "description"
  | "city"
  | "state"
  | "phone"
  | "rating"
  | "reviewCount"
  | "isFeatured"
  | "services"
  | "locality"
  | "businessHours"
  | "timeZone"
  | "emergency247"
  | "responseMinutes"
  | "closedHolidays"
  | "closedDates"
> & {
  /** Miles from the searched place (a `near` search only). */
  distanceMiles?: number;
};

/** One page of GET /api/businesses. */
export interface ListPage {
  data: ListBusiness[];
  total: number;
  /** Where a `near` search was centred, as the server read it ("Round Rock, TX 78664"). */
  near?: { label: string; radius: number };
}

export function toListBusiness(b: ListBusiness): ListBusiness {
  const {
    id,
    name,
    slug,
    description,
    city,
    state,
    phone,
    rating,
    reviewCount,
    isFeatured,
    services,
    locality,
    businessHours,
    timeZone,
    emergency247,
    responseMinutes,
    closedHolidays,
    closedDates,
    distanceMiles,
  } = b;
  return {
    id,
    name,
    slug,
    description,
    city,
    state,
    ...(phone ? { phone } : {}),
    rating,
    reviewCount,
    isFeatured,
    services,
    ...(locality ? { locality } : {}),
    businessHours: businessHours ?? {},
    ...(timeZone ? { timeZone } : {}),
    ...(emergency247 ? { emergency247 } : {}),
    ...(typeof responseMinutes === "number" ? { responseMinutes } : {}),
    // The owner's closures: the card's "Open now" must agree with the business page.
    ...(closedHolidays ? { closedHolidays } : {}),
    ...(closedDates?.length ? { closedDates } : {}),
    ...(typeof distanceMiles === "number" ? { distanceMiles } : {}),
  };
}
