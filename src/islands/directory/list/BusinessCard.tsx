/**
 * One directory card: name, Featured badge ("Sample listing" on a demo business), stars, review count,
 * description, town and state, phone, up to 3 services plus "+N more", View Details and,
 * when the business has a phone, Call Now. A near-me search adds the distance ("3.2 mi");
 * the hours add a "24/7", "Open now", "Closed" or "By appointment" badge, and the response figures ("Responds to
 * 90% of requests · usually within 2 hours · last 50 requests") under the phone.
 *
 * Pure: everything comes in as props. "Open now" depends on the clock, so it is drawn only
 * when the caller passes `now`: /directory's render time (its CDN copy ends when a card's
 * state changes), then the island's clock.
 */
import { businessPath } from "../../../lib/directory.ts";
import { formatMiles } from "../../../lib/geo/distance.ts";
import { OPEN_TEXT, byAppointmentOnly, openState } from "../../../lib/hours.ts";
import { telHref } from "../../../lib/site.ts";
import { Icon } from "../../../views/Icon.tsx";
import { SampleBadge } from "../../../views/SampleBadge.tsx";
import { Stars } from "../../Stars.tsx";
import { ResponseTime } from "../ResponseTime.tsx";
import type { ListBusiness } from "../../../lib/directory-list.ts";
import { TAKING_STORM_JOBS } from "../../../lib/storm-routing.ts";

/** A card lists at most 3 services; the rest show as "+N more". */
export const CARD_SERVICES = 3;

/** "24/7", "Open now" or "Closed" for a card; null when it cannot be known yet. */
export function OpenBadge({
  business,
  now,
}: {
  business: Pick<
    ListBusiness,
    "businessHours" | "timeZone" | "emergency247" | "closedHolidays" | "closedDates" | "byAppointment"
  >;
  now?: number;
}) {
  // No set hours to be open or closed by: the card says how to get a time instead.
  if (byAppointmentOnly(business))
    return (
      <span className="badge shrink-0 bg-slate-100 text-slate-700" data-testid="open-badge">
        {OPEN_TEXT.appointment}
      </span>
    );
  const state = openState(business.businessHours ?? {}, business.timeZone, now ?? 0, business.emergency247, business);
  if (state.always)
    return (
      <span className="badge shrink-0 bg-forest-100 text-forest-800" data-testid="open-badge">
        24/7
      </span>
    );
  if (now === undefined) return null;
  return state.open ? (
    <span className="badge shrink-0 bg-forest-100 text-forest-800" data-testid="open-badge">
      Open now
    </span>
  ) : (
    <span className="badge shrink-0 bg-slate-100 text-slate-700" data-testid="open-badge">
      Closed
    </span>
  );
}

export function BusinessCard({
  business,
  className = "",
  now,
  near,
}: {
  business: ListBusiness;
  className?: string;
  now?: number;
  /** The place searched, as typed: View Details carries it so the business page gives the distance. */
  near?: string;
}) {
  const {
    name,
    slug,
    description,
    city,
    locality,
    state,
    phone,
    rating,
    reviewCount,
    isFeatured,
    services,
    distanceMiles,
  } = business;
  const shown = services.slice(0, CARD_SERVICES);
  const more = services.length - shown.length;

  return (
    <li className={`card relative flex flex-col p-5 sm:p-6 ${className}`} data-testid="business-card">
      <div className="flex items-start justify-between gap-3">
        <h3 className="min-w-0 text-lg leading-snug font-semibold break-words">{name}</h3>
        {isFeatured && <span className="badge mt-0.5 shrink-0 bg-amber-100 text-amber-800">Featured</span>}
      </div>
      {business.isSample && <SampleBadge className="mt-2 self-start" />}
      <Stars rating={rating} count={reviewCount} className="mt-2" />
      <div className="mt-2 flex flex-wrap items-center gap-2 empty:hidden">
        <OpenBadge business={business} now={now} />
        {business.emergency247 && <span className="badge shrink-0 bg-red-50 text-red-800">24/7 emergency</span>}
        {business.takingStormJobs && (
          <span className="badge shrink-0 bg-forest-50 text-forest-900">{TAKING_STORM_JOBS}</span>
        )}
      </div>

      <p className="mt-3 line-clamp-3 text-slate-600">{description}</p>

      <ul className="mt-4 space-y-1.5 text-sm text-slate-700">
        <li className="flex items-center gap-1.5">
          <Icon name="mapPin" className="size-4 shrink-0 text-forest-500" />
          <span>
            {locality ?? city}, {state}
          </span>
          {typeof distanceMiles === "number" && (
            <span className="ml-auto shrink-0 font-semibold text-forest-800" data-testid="distance">
              {formatMiles(distanceMiles)}
              <span className="sr-only"> away</span>
            </span>
          )}
        </li>
        {phone && (
          <li className="flex items-center gap-1.5">
            <Icon name="phone" className="size-4 shrink-0 text-forest-500" />
            <span className="whitespace-nowrap">{phone}</span>
          </li>
        )}
        {business.responseRate !== undefined && (
          <li>
            <ResponseTime figures={business} />
          </li>
        )}
      </ul>

      {shown.length > 0 && (
        <ul className="mt-4 flex flex-wrap gap-1.5" aria-label="Services">
          {shown.map((service) => (
            <li
              key={service}
              className="rounded-md border border-forest-100 bg-forest-50 px-2 py-0.5 text-xs font-medium text-forest-800"
            >
              {service}
            </li>
          ))}
          {more > 0 && (
            <li className="rounded-md border border-slate-200 bg-white px-2 py-0.5 text-xs font-medium text-slate-600">
              +{more} more<span className="sr-only"> {more === 1 ? "service" : "services"}</span>
            </li>
          )}
        </ul>
      )}

      {/* mt-auto keeps the buttons on one line across a row of cards of different heights. */}
      <div className="mt-auto flex flex-wrap gap-3 pt-5">
        <a
          href={businessPath(slug, typeof distanceMiles === "number" ? near : undefined)}
          className="btn-outline min-w-0 flex-1 whitespace-nowrap"
        >
          View Details<span className="sr-only"> for {name}</span>
        </a>
        {phone && (
          <a href={telHref(phone)} className="btn-primary min-w-0 flex-1 whitespace-nowrap">
            <Icon name="phone" className="size-4 shrink-0" />
            Call Now
            <span className="sr-only">
              {" "}
              {name} at {phone}
            </span>
          </a>
        )}
      </div>
    </li>
  );
}

/** Widths of the skeleton's description lines and service chips, like a typical card's. */
const SKELETON_LINES = ["", "", "w-2/3"];
const SKELETON_CHIPS = ["w-20", "w-24", "w-16"];

/** A placeholder the size of a card while a page loads; hidden from assistive tech. */
export function SkeletonCard() {
  return (
    <li className="card flex flex-col p-5 sm:p-6" aria-hidden="true" data-testid="skeleton-card">
      <div className="motion-safe:animate-pulse">
        <div className="h-5 w-3/4 rounded bg-slate-200" />
        <div className="mt-3 h-4 w-1/2 rounded bg-slate-200" />
        <div className="mt-4 space-y-2">
          {SKELETON_LINES.map((width, i) => (
            <div key={i} className={`h-3.5 rounded bg-slate-100 ${width}`} />
          ))}
        </div>
        <div className="mt-4 h-4 w-1/3 rounded bg-slate-200" />
        <div className="mt-4 flex gap-1.5">
          {SKELETON_CHIPS.map((width) => (
            <div key={width} className={`h-5 rounded-md bg-forest-50 ${width}`} />
          ))}
        </div>
        <div className="mt-6 flex gap-3">
          <div className="h-11 flex-1 rounded-lg bg-slate-100" />
          <div className="h-11 flex-1 rounded-lg bg-slate-200" />
        </div>
      </div>
    </li>
  );
}
