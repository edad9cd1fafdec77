/**
 * Points, distances and the 52-bit geohash that Redis GEO stores as a sorted-set score.
 * Browser-safe (no dataset here): the island formats distances with it, the store indexes
 * and searches with it. Place names and ZIP codes are resolved in ./places.ts, server-side.
 */

/** A WGS84 position in decimal degrees. */
export interface Point {
  lat: number;
  lng: number;
}

const EARTH_RADIUS_MILES = 3958.7613;
const METERS_PER_MILE = 1609.344;

/** Limits Redis GEO uses (Web Mercator), so our scores equal what GEOADD would store. */
const LAT_MIN = -85.05112878;
const LAT_MAX = 85.05112878;
const LNG_MIN = -180;
const LNG_MAX = 180;
/** Bits per coordinate; 2 x 26 = 52 bits, exact in a double. */
export const GEO_STEP = 26;

const rad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance in miles (haversine, as Redis GEODIST). */
export function distanceMiles(a: Point, b: Point): number {
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** "3.2 mi" (one decimal under 10 miles, whole miles above). */
export function formatMiles(miles: number): string {
  const shown = miles < 10 ? Math.round(miles * 10) / 10 : Math.round(miles);
  return `${shown.toFixed(miles < 10 ? 1 : 0)} mi`;
}

/** Cell index of a coordinate at `step` bits. */
function cellIndex(value: number, min: number, max: number, step: number): number {
  const cells = 2 ** step;
  const i = Math.floor(((value - min) / (max - min)) * cells);
  return Math.max(0, Math.min(cells - 1, i));
}

/** Interleaves lng (odd, higher bits) and lat (even bits) like Redis' geohash, as a number. */
function interleave(latIdx: number, lngIdx: number, step: number): number {
  let hash = 0;
  for (let bit = step - 1; bit >= 0; bit--) {
    const lngBit = Math.floor(lngIdx / 2 ** bit) % 2;
    const latBit = Math.floor(latIdx / 2 ** bit) % 2;
    hash = hash * 4 + lngBit * 2 + latBit;
  }
  return hash;
}

/** The 52-bit score GEOADD stores for a point. */
export function geohashScore(p: Point): number {
  return interleave(
    cellIndex(p.lat, LAT_MIN, LAT_MAX, GEO_STEP),
    cellIndex(p.lng, LNG_MIN, LNG_MAX, GEO_STEP),
    GEO_STEP,
  );
}

/** The center of a score's cell (within about 0.6 m of the stored point, as GEOPOS). */
export function decodeGeohashScore(score: number): Point {
  let latIdx = 0;
  let lngIdx = 0;
  let rest = score;
  for (let bit = 0; bit < GEO_STEP; bit++) {
    const pair = rest % 4;
    rest = Math.floor(rest / 4);
    latIdx += (pair % 2) * 2 ** bit;
    lngIdx += Math.floor(pair / 2) * 2 ** bit;
  }
  const cells = 2 ** GEO_STEP;
  return {
    lat: LAT_MIN + ((latIdx + 0.5) / cells) * (LAT_MAX - LAT_MIN),
    lng: LNG_MIN + ((lngIdx + 0.5) / cells) * (LNG_MAX - LNG_MIN),
  };
}

/**
 * Score ranges [min, max) covering every point within `miles` of `center`: the cells that
 * meet the circle's bounding box, at the finest precision whose cells are at least half
 * the radius wide (so at most 5 x 5 cells, merged where their hashes run on). Redis
 * GEOSEARCH reads the 3 x 3 cells of radius size instead; the smaller cells read about a
 * third as many members that lie outside the circle. The count of ranges is bounded
 * whatever the directory's size; callers still filter by exact distance.
 */
export function searchRanges(center: Point, miles: number): { min: number; max: number }[] {
  const meters = miles * METERS_PER_MILE;
  const dLat = meters / 111_320;
  // Width shrinks towards the poles; measure it at the edge of the search nearest the pole.
  const edgeLat = Math.min(89, Math.abs(center.lat) + dLat);
  const dLng = Math.min(180, dLat / Math.cos(rad(edgeLat)));
  const latCellDeg = (step: number) => (LAT_MAX - LAT_MIN) / 2 ** step;
  const lngCellDeg = (step: number) => (LNG_MAX - LNG_MIN) / 2 ** step;
  let step = GEO_STEP;
  while (step > 1 && (latCellDeg(step) < dLat / 2 || lngCellDeg(step) < dLng / 2)) step--;
  const cells = 2 ** step;
  const shift = 2 ** (2 * (GEO_STEP - step));
  const lat0 = cellIndex(Math.max(LAT_MIN, center.lat - dLat), LAT_MIN, LAT_MAX, step);
  const lat1 = cellIndex(Math.min(LAT_MAX, center.lat + dLat), LAT_MIN, LAT_MAX, step);
  const lng0 = Math.floor(((center.lng - dLng - LNG_MIN) / (LNG_MAX - LNG_MIN)) * cells);
  const lng1 = Math.floor(((center.lng + dLng - LNG_MIN) / (LNG_MAX - LNG_MIN)) * cells);
  const hashes = new Set<number>();
  for (let la = lat0; la <= lat1; la++) {
    // Longitude wraps at the antimeridian.
    for (let lo = lng0; lo <= Math.min(lng1, lng0 + cells - 1); lo++)
      hashes.add(interleave(la, ((lo % cells) + cells) % cells, step));
  }
  // Neighboring cells are often consecutive hashes: merge them into fewer ranges.
  const ranges = [...hashes].sort((a, b) => a - b).map((h) => ({ min: h * shift, max: (h + 1) * shift }));
  const merged: { min: number; max: number }[] = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && last.max === r.min) last.max = r.max;
    else merged.push({ ...r });
  }
  return merged;
}
