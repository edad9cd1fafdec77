/**
 * The time zone a job is in, from its state (and, where a state spans two zones, its point):
 * every time a homeowner, a pro or the operator reads about a lead is shown in it. The split
 * lines are approximations by longitude (latitude for Idaho's panhandle), good to the county
 * for the places people live; the few towns that keep another clock than their neighbors
 * get their neighbors' zone. Client-safe: no dataset.
 */
import type { Point } from "./distance.ts";

const EAST = "America/New_York";
const CENTRAL = "America/Chicago";
const MOUNTAIN = "America/Denver";
const PACIFIC = "America/Los_Angeles";

/** The zone most of each state keeps (and the territories the ZIP dataset may name). */
const STATE_ZONES: Readonly<Record<string, string>> = {
  AL: CENTRAL,
  AK: "America/Anchorage",
  AZ: "America/Phoenix",
  AR: CENTRAL,
  CA: PACIFIC,
  CO: MOUNTAIN,
  CT: EAST,
  DE: EAST,
  DC: EAST,
  FL: EAST,
  GA: EAST,
  HI: "Pacific/Honolulu",
  ID: "America/Boise",
  IL: CENTRAL,
  IN: "America/Indiana/Indianapolis",
  IA: CENTRAL,
  KS: CENTRAL,
  KY: EAST,
  LA: CENTRAL,
  ME: EAST,
  MD: EAST,
  MA: EAST,
  MI: "America/Detroit",
  MN: CENTRAL,
  MS: CENTRAL,
  MO: CENTRAL,
  MT: MOUNTAIN,
  NE: CENTRAL,
  NV: PACIFIC,
  NH: EAST,
  NJ: EAST,
  NM: MOUNTAIN,
  NY: EAST,
  NC: EAST,
  ND: CENTRAL,
  OH: EAST,
  OK: CENTRAL,
  OR: PACIFIC,
  PA: EAST,
  RI: EAST,
  SC: EAST,
  SD: CENTRAL,
  TN: CENTRAL,
  TX: CENTRAL,
  UT: MOUNTAIN,
  VT: EAST,
  VA: EAST,
  WA: PACIFIC,
  WV: EAST,
  WI: CENTRAL,
  WY: MOUNTAIN,
  PR: "America/Puerto_Rico",
  VI: "America/St_Thomas",
  GU: "Pacific/Guam",
  AS: "Pacific/Pago_Pago",
  MP: "Pacific/Saipan",
};

/** Where a state's other zone begins: the point's zone when `inside` says so. */
interface Split {
  inside(p: Point): boolean;
  zone: string;
}

const SPLITS: Readonly<Record<string, readonly Split[]>> = {
  // The panhandle west of the Apalachicola River (Pensacola, Panama City).
  FL: [{ inside: (p) => p.lng < -85.0, zone: CENTRAL }],
  // The Chicago and Evansville corners.
  IN: [{ inside: (p) => p.lng < -86.8 && (p.lat > 40.9 || p.lat < 38.6), zone: CENTRAL }],
  // West of Louisville and Lexington's region (Bowling Green, Paducah, Owensboro).
  KY: [{ inside: (p) => p.lng < -86.0, zone: CENTRAL }],
  // East Tennessee (Knoxville, Chattanooga, the Tri-Cities).
  TN: [{ inside: (p) => p.lng > -85.4, zone: EAST }],
  // The four Upper Peninsula counties along Wisconsin (Iron Mountain, Menominee).
  MI: [{ inside: (p) => p.lng < -87.5 && p.lat > 45.0 && p.lat < 46.5, zone: CENTRAL }],
  // El Paso and Hudspeth counties.
  TX: [{ inside: (p) => p.lng < -104.9, zone: MOUNTAIN }],
  // The western counties along Colorado.
  KS: [{ inside: (p) => p.lng < -101.5, zone: MOUNTAIN }],
  // The panhandle (Scottsbluff, North Platte's west).
  NE: [{ inside: (p) => p.lng < -101.0, zone: MOUNTAIN }],
  // The southwest quarter (Dickinson, Bowman).
  ND: [{ inside: (p) => p.lng < -100.5 && p.lat < 47.5, zone: MOUNTAIN }],
  // West of the Missouri River (Rapid City, Pierre's west bank).
  SD: [{ inside: (p) => p.lng < -100.4, zone: MOUNTAIN }],
  // The panhandle north of the Salmon River (Coeur d'Alene, Lewiston).
  ID: [{ inside: (p) => p.lat > 45.5, zone: PACIFIC }],
  // Malheur County (Ontario) keeps Idaho's clock.
  OR: [{ inside: (p) => p.lng < -117.2 && p.lat < 44.5, zone: "America/Boise" }],
  // The Aleutians west of 169.5 degrees.
  AK: [{ inside: (p) => p.lng < -169.5, zone: "America/Adak" }],
};

/**
 * The IANA zone of a place in `state` ("FL"), at `point` when given; undefined for a state
 * code it does not know.
 */
export function timeZoneOf(state: string | undefined, point?: Point): string | undefined {
  const code = state?.trim().toUpperCase() ?? "";
  const zone = STATE_ZONES[code];
  if (!zone) return undefined;
  if (point) for (const split of SPLITS[code] ?? []) if (split.inside(point)) return split.zone;
  return zone;
}
