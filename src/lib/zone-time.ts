/**
 * Times as people read them about a job: in a given IANA zone, with the zone's short name
 * ("3:10 PM EST"), so a homeowner in Miami and the pro answering them read the same clock.
 * Client-safe: the confirmations say an offer's deadline in the browser, and the messages
 * and the pages behind a lead's links (netlify/lib/messages/time.ts) say theirs on the server.
 */
import { DEFAULT_TIME_ZONE } from "./hours.ts";

const DAY: Intl.DateTimeFormatOptions = { weekday: "short", month: "short", day: "numeric" };

/**
 * One formatter per zone and shape, made once: building an Intl.DateTimeFormat costs about ten
 * times what formatting with it does, and a lead's messages say a dozen times.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

const format = (iso: string, timeZone: string, withDay: boolean) => {
  const key = `${withDay ? "day" : "clock"} ${timeZone}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      ...(withDay ? DAY : {}),
      hour: "numeric",
      minute: "2-digit",
      timeZoneName: "short",
    });
    formatters.set(key, formatter);
  }
  return formatter.format(new Date(iso));
};

/** "3:10 PM CST". */
export const clockTime = (iso: string, timeZone = DEFAULT_TIME_ZONE) => format(iso, timeZone, false);

/** "Thu, Nov 26, 3:10 PM CST". */
export const dayTime = (iso: string, timeZone = DEFAULT_TIME_ZONE) => format(iso, timeZone, true);

/** The zone a lead's times are said in: the job's own, else the site's. */
export const jobTimeZone = (lead: { timeZone?: string }) => lead.timeZone ?? DEFAULT_TIME_ZONE;
