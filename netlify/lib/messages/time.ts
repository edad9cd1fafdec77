/**
 * Times as messages and the pages a lead's links open say them, in the reader's zone (a
 * business's own zone when it has one, the site's otherwise).
 */
import { DEFAULT_TIME_ZONE } from "../../../src/lib/hours.ts";

/** "3:10 PM CST". */
export function clockTime(iso: string, timeZone = DEFAULT_TIME_ZONE): string {
  return new Intl.DateTimeFormat("en-US", {
    timeZone,
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
  }).format(new Date(iso));
}

/** "Thu, Nov 26, 3:10 PM CST". */
export function dayTime(iso: string, timeZone = DEFAULT_TIME_ZONE): string {
  return new Intl.DateTimeFormat("en-US", {
    timeZone,
    weekday: "short",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
  }).format(new Date(iso));
}
