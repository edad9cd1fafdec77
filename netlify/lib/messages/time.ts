/**
 * Times as messages and the pages a lead's links open say them, in the reader's zone: the
 * job's own (`jobTimeZone(lead)`) for whatever a homeowner reads, a business's own when one
 * has it, the site's otherwise. The formatting is the browser's too (src/lib/zone-time.ts).
 */
export { clockTime, dayTime, jobTimeZone } from "../../../src/lib/zone-time.ts";
