/**
 * What the list needs of a business. The list's state and cache hold these, whether they
 * came from the server's render or an API answer; picking the card's fields keeps photos,
 * addresses and the rest out of them. Hours and time zone stay: the card's "Open now" /
 * "Closed" badge is worked out from them (with the owner's holiday and closed-day list), and
 * the response time's phrase from its minutes.
 */
import type { Business } from "./schemas/business.ts";
import type { StormNotice } from "./storm.ts";

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
  | "responseRate"
  | "responseOffers"
  | "closedHolidays"
  | "closedDates"
  | "byAppointment"
  | "isSample"
> & {
  /** Miles from the searched place (a `near` search only). */
  distanceMiles?: number;
  /** Said it is taking storm jobs; set only on a near search inside an active storm. */
  takingStormJobs?: true;
};

/** One page of GET /api/businesses. */
export interface ListPage {
  data: ListBusiness[];
  total: number;
  /** Where a `near` search was centered, as the server read it ("Round Rock, TX 78664"). */
  near?: { label: string; radius: number };
  /** The storm notice when an active storm covers the searched place (src/lib/storm.ts). */
  storm?: StormNotice;
  /** Inside a storm: the page lists businesses taking storm jobs first (TAKING_FIRST.directory). */
  takingFirst?: true;
}

export function toListBusiness(b: ListBusiness): ListBusiness {
  return {
    id: b.id,
    name: b.name,
    slug: b.slug,
    description: b.description,
    city: b.city,
    state: b.state,
    ...(b.phone ? { phone: b.phone } : {}),
    rating: b.rating,
    reviewCount: b.reviewCount,
    isFeatured: b.isFeatured,
    services: b.services,
    ...(b.locality ? { locality: b.locality } : {}),
    businessHours: b.businessHours ?? {},
    ...(b.timeZone ? { timeZone: b.timeZone } : {}),
    ...(b.emergency247 ? { emergency247: b.emergency247 } : {}),
    ...(typeof b.responseMinutes === "number" ? { responseMinutes: b.responseMinutes } : {}),
    ...(typeof b.responseRate === "number" ? { responseRate: b.responseRate } : {}),
    ...(typeof b.responseOffers === "number" ? { responseOffers: b.responseOffers } : {}),
    // The owner's closures: the card's "Open now" must agree with the business page.
    ...(b.closedHolidays ? { closedHolidays: b.closedHolidays } : {}),
    ...(b.closedDates?.length ? { closedDates: b.closedDates } : {}),
    ...(b.byAppointment ? { byAppointment: true } : {}),
    ...(typeof b.distanceMiles === "number" ? { distanceMiles: b.distanceMiles } : {}),
    // A demo business: its card says so (src/lib/sample.ts).
    ...(b.isSample ? { isSample: true } : {}),
    ...(b.takingStormJobs ? { takingStormJobs: true } : {}),
  };
}
