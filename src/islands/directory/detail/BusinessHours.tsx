/**
 * The business page's hours: the week with today's line marked and an "Open now" /
 * "Closed now" / "Open 24/7" state, both on the business's own clock (its time zone, see
 * src/lib/hours.ts), and the area it serves.
 *
 * Drawn by the server for the moment of the render (`now`), so they are right at first
 * paint and without JavaScript; the page leaves the CDN when they next change
 * (nextOpenStateChange, src/pages/directory/[slug].astro).
 */
import { closingHolidaysOf, upcomingClosedDates } from "../../../lib/holidays.ts";
import {
  DEFAULT_TIME_ZONE,
  OPEN_TEXT,
  byAppointmentOnly,
  isOpen247,
  localTime,
  openState,
} from "../../../lib/hours.ts";
import { hoursRows } from "../../../lib/directory.ts";
import type { Business } from "../../../lib/schemas/business.ts";

/** "Central Time" for America/Chicago; the zone id where the runtime has no name for it. */
export function timeZoneName(timeZone: string): string {
  try {
    const part = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longGeneric" })
      .formatToParts(0)
      .find((p) => p.type === "timeZoneName");
    return part?.value ?? timeZone;
  } catch {
    return timeZone;
  }
}

/** "a", "a and b", "a, b and c". */
function listed(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/** "2026-12-24" -> "Thursday, December 24, 2026" (a calendar date: no time zone shift). */
function dayLabel(date: string): string {
  return new Intl.DateTimeFormat("en-US", { dateStyle: "full", timeZone: "UTC" }).format(new Date(`${date}T12:00:00Z`));
}

/** The open state as a badge. */
export function OpenNow({
  business,
  now,
}: {
  business: Pick<
    Business,
    "businessHours" | "timeZone" | "emergency247" | "closedHolidays" | "closedDates" | "byAppointment"
  >;
  now: number;
}) {
  const state = openState(business.businessHours, business.timeZone, now, business.emergency247, business);
  // By appointment without set hours: neither open nor closed now, so the page says neither.
  if (byAppointmentOnly(business))
    return (
      <p className="badge bg-slate-100 text-slate-700" data-open-status="" data-appointment="">
        {OPEN_TEXT.appointment}
      </p>
    );
  return (
    <p
      className="badge bg-forest-100 text-forest-800 data-[closed]:bg-slate-100 data-[closed]:text-slate-700"
      data-open-status=""
      data-closed={state.open ? undefined : ""}
    >
      {state.always ? OPEN_TEXT.always : state.open ? OPEN_TEXT.open : OPEN_TEXT.closed}
    </p>
  );
}

/** Monday..Sunday; today's row (on the business's clock) is highlighted. */
export function HoursTable({
  business,
  now,
}: {
  business: Pick<
    Business,
    "businessHours" | "timeZone" | "emergency247" | "closedHolidays" | "closedDates" | "byAppointment"
  >;
  now: number;
}) {
  if (byAppointmentOnly(business))
    return (
      <p className="text-sm text-slate-700" data-hours-appointment="">
        {OPEN_TEXT.appointment}: call or write to the business to arrange a time.
      </p>
    );
  const timeZone = business.timeZone ?? DEFAULT_TIME_ZONE;
  const state = openState(business.businessHours, timeZone, now, business.emergency247, business);
  const today = state.today;
  const holidayOpen = business.emergency247 === true || isOpen247(business.businessHours);
  const holidays = closingHolidaysOf(business);
  const upcoming = upcomingClosedDates(business, localTime(now, timeZone).date);
  return (
    <div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-6 text-sm">
        {hoursRows(business.businessHours).map((row) => (
          <div
            key={row.day}
            className="col-span-2 grid grid-cols-subgrid rounded-md px-2 py-1 data-[today]:bg-forest-50 data-[today]:font-semibold data-[today]:text-forest-900"
            data-day={row.day}
            data-today={row.day === today ? "" : undefined}
          >
            <dt className="font-medium text-slate-800">
              {row.label}
              {row.day === today ? <span className="sr-only"> (today)</span> : null}
            </dt>
            <dd className={row.hours === "Closed" ? "text-slate-500" : "text-slate-700"}>{row.hours}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 text-xs text-slate-500" data-holiday-hours="">
        {state.closedDate ? `Closed today (${state.closedDate}). ` : ""}
        {state.holiday ? `Closed today for ${state.holiday}. ` : ""}
        {holidayOpen
          ? "Open on public holidays for emergencies."
          : holidays.length === 0
            ? "Open on public holidays."
            : `Closed on ${listed(holidays)} (and the weekday${holidays.length === 1 ? "" : "s"} ${holidays.length === 1 ? "it is" : "they are"} observed on).`}
      </p>
      {upcoming.length > 0 && (
        <div className="mt-2 text-xs text-slate-600" data-closed-dates="">
          <p className="font-semibold">Also closed</p>
          <ul>
            {upcoming.map((d) => (
              <li key={d.date}>
                <time dateTime={d.date}>{dayLabel(d.date)}</time>
                {d.note ? `: ${d.note}` : ""}
              </li>
            ))}
          </ul>
        </div>
      )}
      {business.byAppointment && (
        <p className="mt-1 text-xs text-slate-600" data-hours-appointment="">
          Also {OPEN_TEXT.appointment.toLowerCase()}.
        </p>
      )}
      <p className="mt-1 text-xs text-slate-500">Times are {timeZoneName(timeZone)}.</p>
    </div>
  );
}

/** Where the business is based and the towns it serves. */
export function ServiceArea({
  business,
}: {
  business: Pick<Business, "serviceAreas" | "city" | "locality" | "state">;
}) {
  const base = business.locality
    ? `${business.locality}, ${business.state} (${business.city} area)`
    : `${business.city}, ${business.state}`;
  return (
    <div className="space-y-3 text-sm">
      <p className="text-slate-700">
        Based in <span className="font-semibold text-slate-900">{base}</span>
      </p>
      {business.serviceAreas.length > 0 && (
        <ul className="flex flex-wrap gap-2" aria-label="Areas served">
          {business.serviceAreas.map((a) => (
            <li key={a} className="badge bg-slate-100 text-slate-800">
              {a}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
