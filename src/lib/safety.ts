/**
 * Safety first and the site's own line: every emergency confirmation, status page, e-mail and
 * storm notice says these. Its own module, importing only the site's facts, so the storm notice
 * (which lead confirmations carry) can use them without an import circle through forms/copy.ts.
 */
import { SITE } from "./site.ts";

/**
 * What every emergency confirmation, status page and e-mail says before anything else. The
 * site controls neither a crew's dispatch nor its arrival, so no confirmation of one request
 * promises either: it says what keeps people safe, then what is happening to the request.
 */
export const DANGER_FIRST = {
  hurt: "If anyone is hurt or in danger, call 911.",
  lines: "Stay away from downed power lines and call your electric utility.",
} as const;

/** The site's own number, named as the site's, so nobody takes it for a pro's. */
export const HOTLINE = {
  /** What the number is, before it (the number itself never wraps). */
  label: `${SITE.name}'s 24/7 line`,
  text: `${SITE.name}'s 24/7 line: ${SITE.phone}`,
} as const;
