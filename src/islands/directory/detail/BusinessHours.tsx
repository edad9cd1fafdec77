/**
 * The business page's hours: the week with today's line marked and an "Open now" /
 * "Closed now" / "Open 24/7" state, both on the business's own clock (its time zone, see
 * src/lib/hours.ts), and the area it serves.
 *
 * The page is HTML without a framework, and cached, so "today" and "open" cannot be baked
 * in: the markup carries the hours and the zone (data-business-hours), and the page script
 * (src/scripts/business-hours.ts) marks today's row and fills in the state in the browser.
 * A caller that knows the moment (a test, a fresh server render) may pass `now`.
 */
import { DEFAULT_TIME_ZONE, OPEN_TEXT, openState } from "../../../lib/hours.ts";
import { hoursRows } from "../../../lib/directory.ts";
import type { Business } from "../../../lib/schemas/business.ts";

/** "Central Time" for America/Chicago; the zone id where the runtime has no name for it. */
export function timeZoneName(timeZone: string): string {
  try {
    const part = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longGeneric" }).formatToParts(0).find((p) => p.type === "timeZoneName");
    return part?.value ?? timeZone;
  } catch {
    return timeZone;
  }
}

/** The open state as a badge; empty until the page script (or `now`) knows it. */
export function OpenNow({ business, now }: { business: Pick<Business, "businessHours" | "timeZone">; now?: number }) {
  const state = now === undefined ? null : openState(business.businessHours, business.timeZone, now);
  const text = state ? (state.always ? OPEN_TEXT.always : state.open ? OPEN_TEXT.open : OPEN_TEXT.closed) : "";
  return (
    <p
      className="badge bg-forest-100 text-forest-800 empty:hidden data-[closed]:bg-slate-100 data-[closed]:text-slate-700"
      data-open-status=""
      data-closed={state && !state.open ? "" : undefined}
      aria-live="polite"
    >
      {text}
    </p>
  );
}

/** Monday..Sunday; today's row (on the business's clock) is highlighted. */
export function HoursTable({ business, now }: { business: Pick<Business, "businessHours" | "timeZone">; now?: number }) {
  const timeZone = business.timeZone ?? DEFAULT_TIME_ZONE;
  const today = now === undefined ? undefined : openState(business.businessHours, timeZone, now).today;
  return (
    <div data-business-hours={JSON.stringify(business.businessHours)} data-time-zone={timeZone}>
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
              <span className="sr-only" data-today-label="">
                {row.day === today ? " (today)" : ""}
              </span>
            </dt>
            <dd className={row.hours === "Closed" ? "text-slate-500" : "text-slate-700"}>{row.hours}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 text-xs text-slate-500">Times are {timeZoneName(timeZone)}.</p>
    </div>
  );
}

/** Where the business is based and the towns it serves. */
export function ServiceArea({ business }: { business: Pick<Business, "serviceAreas" | "city" | "locality" | "state"> }) {
  const base = business.locality ? `${business.locality}, ${business.state} (${business.city} area)` : `${business.city}, ${business.state}`;
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
