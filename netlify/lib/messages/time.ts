/**
 * Times as messages and the pages a lead's links open say them, in the reader's zone (a
 * business's own zone when it has one, the site's otherwise).
 */
import { DEFAULT_TIME_ZONE } from "../../../src/lib/hours.ts";

const DAY: Intl.DateTimeFormatOptions = { weekday: "short", month: "short", day: "numeric" };

const format = (iso: string, timeZone: string, day: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat("en-US", {
    timeZone,
    ...day,
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
  }).format(new Date(iso));

/** "3:10 PM CST". */
export const clockTime = (iso: string, timeZone = DEFAULT_TIME_ZONE) => format(iso, timeZone, {});

/** "Thu, Nov 26, 3:10 PM CST". */
export const dayTime = (iso: string, timeZone = DEFAULT_TIME_ZONE) => format(iso, timeZone, DAY);
