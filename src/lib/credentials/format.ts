/** Dates and money as the credentials forms read them and the pages show them. */
import { DEFAULT_TIME_ZONE, localTime } from "../hours.ts";
import { formatDollars } from "../estimate.ts";

/** "YYYY-MM-DD" at `now` in the business's time zone. */
export const todayIn = (now: number, timeZone: string = DEFAULT_TIME_ZONE) => localTime(now, timeZone).date;

/** "Nov 28, 2026" for an ISO date or date-time, read in `timeZone`. */
export function formatCredentialDate(iso: string, timeZone: string = DEFAULT_TIME_ZONE): string {
  // A bare date is a calendar day: read it at noon UTC so no zone moves it to another day.
  const date = /^\d{4}-\d{2}-\d{2}$/.test(iso) ? new Date(`${iso}T12:00:00Z`) : new Date(iso);
  return date.toLocaleDateString("en-US", {
    year: "numeric",
    month: "short",
    day: "numeric",
    timeZone: /^\d{4}-\d{2}-\d{2}$/.test(iso) ? "UTC" : timeZone,
  });
}

/**
 * When the operator checked a credential, for /admin: the date the public badge and the owner's
 * page show (the business's own day) with the time and the zone, e.g. "Nov 27, 2026, 10:24 PM
 * PST", so it does not silently contradict the admin's other times, which are the operator's.
 */
export function formatCheckedAt(iso: string, timeZone: string = DEFAULT_TIME_ZONE): string {
  return new Date(iso).toLocaleString("en-US", {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZone,
    timeZoneName: "short",
  });
}

/** Cover in whole dollars, "$1,000,000": the site's one dollar format. */
export const formatUsd = formatDollars;

/** "$1,000,000", "1000000", "$2M", "1.5 million" -> whole dollars; null when it is not an amount. */
export function parseCoverUsd(raw: string): number | null {
  const s = raw
    .trim()
    .toLowerCase()
    .replace(/[$,\s]/g, "")
    .replace(/usd$/, "");
  const m = /^(\d+(?:\.\d+)?)(m|million|k)?$/.exec(s);
  if (!m) return null;
  const n = Number(m[1]) * (m[2] === "k" ? 1_000 : m[2] ? 1_000_000 : 1);
  return Number.isFinite(n) && Number.isInteger(n) ? n : null;
}
