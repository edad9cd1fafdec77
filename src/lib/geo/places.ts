/**
 * "Where is the job?": a 5-digit ZIP, "City, ST", "City" or "lat,lng" -> a point.
 *
 * Server and build-time only (functions, the seed generator): the ZIP dataset (zips.data.js,
 * 1.5 MB generated from the `zipcodes` package by `npm run geo:generate`) must never reach
 * the browser, which only sends the text it was given.
 */
import { findCity } from "../options.ts";
import type { Point } from "./distance.ts";
// JavaScript, not TypeScript, so tsx loads it as is (see scripts/generate-zips.ts).
import { ZIPS } from "./zips.data.js";

/** What the API answers for a place the dataset does not know. */
export const UNKNOWN_PLACE = "We couldn't find that ZIP code or city";

/** The directory is Texan: a city name without a state is looked up here. */
export const DEFAULT_STATE = "TX";

export interface Place extends Point {
  /** How the place reads back to the visitor, e.g. "Round Rock, TX 78664" or "Katy, TX". */
  label: string;
  /** The ZIP when one was given. */
  zip?: string;
  /** Its state ("FL") when the place is a ZIP or a city; absent for bare coordinates. */
  state?: string;
}

const ZIP = /^(\d{5})(?:-\d{4})?$/;
const COORDS = /^(-?\d{1,2}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)$/;

/**
 * "TEXAS" -> "TX": the states and DC, as `zipcodes.states` names them. Its Canadian provinces
 * are left out: the dataset is US only, so a city "in" one was never found anyway.
 */
const STATE_NAMES: Readonly<Record<string, string>> = {
  ALABAMA: "AL",
  ALASKA: "AK",
  ARIZONA: "AZ",
  ARKANSAS: "AR",
  CALIFORNIA: "CA",
  COLORADO: "CO",
  CONNECTICUT: "CT",
  DELAWARE: "DE",
  "DISTRICT OF COLUMBIA": "DC",
  FLORIDA: "FL",
  GEORGIA: "GA",
  HAWAII: "HI",
  IDAHO: "ID",
  ILLINOIS: "IL",
  INDIANA: "IN",
  IOWA: "IA",
  KANSAS: "KS",
  KENTUCKY: "KY",
  LOUISIANA: "LA",
  MAINE: "ME",
  MARYLAND: "MD",
  MASSACHUSETTS: "MA",
  MICHIGAN: "MI",
  MINNESOTA: "MN",
  MISSISSIPPI: "MS",
  MISSOURI: "MO",
  MONTANA: "MT",
  NEBRASKA: "NE",
  NEVADA: "NV",
  "NEW HAMPSHIRE": "NH",
  "NEW JERSEY": "NJ",
  "NEW MEXICO": "NM",
  "NEW YORK": "NY",
  "NORTH CAROLINA": "NC",
  "NORTH DAKOTA": "ND",
  OHIO: "OH",
  OKLAHOMA: "OK",
  OREGON: "OR",
  PENNSYLVANIA: "PA",
  "RHODE ISLAND": "RI",
  "SOUTH CAROLINA": "SC",
  "SOUTH DAKOTA": "SD",
  TENNESSEE: "TN",
  TEXAS: "TX",
  UTAH: "UT",
  VERMONT: "VT",
  VIRGINIA: "VA",
  WASHINGTON: "WA",
  "WEST VIRGINIA": "WV",
  WISCONSIN: "WI",
  WYOMING: "WY",
};
const STATE_CODES = new Set(Object.values(STATE_NAMES));

/** One row of the dataset, as `zipcodes` has it (city as written there, e.g. "Round Rock"). */
export interface ZipRow {
  zip: string;
  lat: number;
  lng: number;
  city: string;
  state: string;
}

/*
 * The indexes hold offsets of lines in ZIPS, not parsed rows: a row is parsed when it is
 * looked up. 42,555 row objects and their strings cost about 10 MB of heap more (measured).
 */
/** By ZIP as a number: 1 + the offset of its line, 0 for a ZIP the dataset does not have. */
let zipLines: Int32Array | undefined;
/** "ROUND ROCK|TX" -> the offset of the city's line, or of each of its lines in ZIP order. */
let cityLines: Map<string, number | number[]> | undefined;

/** Builds both indexes on first use, so importing this module costs only the string. */
function indexes(): { zipLines: Int32Array; cityLines: Map<string, number | number[]> } {
  if (zipLines && cityLines) return { zipLines, cityLines };
  const byZip = new Int32Array(100_000);
  const byCity = new Map<string, number | number[]>();
  for (let at = 0; at < ZIPS.length;) {
    const end = lineEnd(at);
    let zip = 0;
    for (let i = at; i < at + 5; i++) zip = zip * 10 + ZIPS.charCodeAt(i) - 48;
    byZip[zip] = at + 1;
    // After zip|lat|lng| comes "City|ST", which upper-cased is the city key.
    const cityAt = ZIPS.indexOf("|", ZIPS.indexOf("|", at + 6) + 1) + 1;
    const key = ZIPS.slice(cityAt, end).toUpperCase();
    const seen = byCity.get(key);
    if (seen === undefined) byCity.set(key, at);
    else if (typeof seen === "number") byCity.set(key, [seen, at]);
    else seen.push(at);
    at = end + 1;
  }
  zipLines = byZip;
  cityLines = byCity;
  return { zipLines, cityLines };
}

function lineEnd(at: number): number {
  const end = ZIPS.indexOf("\n", at);
  return end < 0 ? ZIPS.length : end;
}

function rowAt(at: number): ZipRow {
  const f = ZIPS.slice(at, lineEnd(at)).split("|");
  return { zip: f[0]!, lat: Number(f[1]), lng: Number(f[2]), city: f[3]!, state: f[4]! };
}

/** `zipcodes.lookup` for a US ZIP: exactly 5 digits, else undefined. */
export function lookupZip(zip: string): ZipRow | undefined {
  if (!/^\d{5}$/.test(zip)) return undefined;
  const at = indexes().zipLines[Number(zip)]!;
  return at ? rowAt(at - 1) : undefined;
}

/** `zipcodes.lookupByName`: the ZIPs whose city is `city` (any case) in state `state` ("TX"). */
export function lookupCity(city: string, state: string): ZipRow[] {
  const at = indexes().cityLines.get(`${city.toUpperCase()}|${state.toUpperCase()}`);
  if (at === undefined) return [];
  return typeof at === "number" ? [rowAt(at)] : at.map(rowAt);
}

/** A US ZIP's centroid, or null. */
export function zipPoint(zip: string): (Point & { city: string; state: string }) | null {
  const m = ZIP.exec(zip.trim());
  if (!m) return null;
  const hit = lookupZip(m[1]!);
  if (!hit) return null;
  return { lat: hit.lat, lng: hit.lng, city: titleCase(hit.city), state: hit.state };
}

function titleCase(s: string): string {
  return s.toLowerCase().replace(/(^|[\s-])([a-z])/g, (_, sep: string, c: string) => sep + c.toUpperCase());
}

function stateCode(text: string): string | undefined {
  const t = text.trim().replace(/\.$/, "").toUpperCase();
  if (/^[A-Z]{2}$/.test(t)) return STATE_CODES.has(t) ? t : undefined;
  return STATE_NAMES[t];
}

/** The mean of a city's ZIP centroids. */
function cityPoint(city: string, state: string): Place | null {
  const zips = lookupCity(city, state);
  if (zips.length === 0) return null;
  const lat = zips.reduce((s, z) => s + z.lat, 0) / zips.length;
  const lng = zips.reduce((s, z) => s + z.lng, 0) / zips.length;
  return { lat, lng, label: `${titleCase(zips[0]!.city)}, ${state}`, state };
}

/** Resolves what a visitor typed; null when the dataset does not know it. */
export function findPlace(input: string): Place | null {
  const text = input.trim().replace(/\s+/g, " ");
  if (!text) return null;
  const zip = ZIP.exec(text);
  if (zip) {
    const hit = zipPoint(zip[1]!);
    return hit
      ? { lat: hit.lat, lng: hit.lng, label: `${hit.city}, ${hit.state} ${zip[1]}`, zip: zip[1], state: hit.state }
      : null;
  }
  const coords = COORDS.exec(text);
  if (coords) {
    const lat = Number(coords[1]);
    const lng = Number(coords[2]);
    if (Math.abs(lat) > 85 || Math.abs(lng) > 180) return null;
    return { lat, lng, label: "your location" };
  }
  // The directory's city shortcuts ("san-antonio") read as their names.
  const shortcut = findCity(text);
  if (shortcut) return cityPoint(shortcut.label, shortcut.state);
  // "Katy, TX", "Katy TX", "Katy, Texas", "Katy"; a trailing ZIP ("Katy, TX 77494") wins.
  const trailingZip = /\b(\d{5})$/.exec(text);
  if (trailingZip) return findPlace(trailingZip[1]!);
  const comma = text.lastIndexOf(",");
  if (comma > 0) {
    const state = stateCode(text.slice(comma + 1));
    return state ? cityPoint(text.slice(0, comma).trim(), state) : null;
  }
  const words = text.split(" ");
  for (const take of [2, 1]) {
    if (words.length <= take) continue;
    const state = stateCode(words.slice(-take).join(" "));
    if (state) return cityPoint(words.slice(0, -take).join(" "), state);
  }
  return cityPoint(text, DEFAULT_STATE);
}

/** Words after the state that name the country, not the place. */
const COUNTRY = /^(?:USA?|U\.S\.(?:A\.)?)$/i;

/**
 * The place a street address names: a ZIP in it (the last one the dataset knows: a five-digit
 * house number comes first), else the "City, ST" (or "City State") it ends with. Unlike
 * findPlace, a city without its state is not guessed. Null when it names neither.
 */
export function placeInAddress(address: string): Place | null {
  const text = address.replace(/\s+/g, " ").trim();
  // A five-digit number opening a longer address is its house number, never its ZIP.
  const zips = [...text.matchAll(/\b(\d{5})(?:-\d{4})?\b/g)]
    .filter((m) => m.index > 0 || m[0] === text)
    .map((m) => m[1]!);
  for (const zip of zips.reverse()) {
    const place = findPlace(zip);
    if (place) return place;
  }
  const words = text.split(/[\s,]+/).filter((w) => w && !/^\d{5}(?:-\d{4})?$/.test(w));
  while (words.length > 0 && COUNTRY.test(words.at(-1)!)) words.pop();
  if (words.at(-2)?.toUpperCase() === "UNITED" && /^STATES$/i.test(words.at(-1)!)) words.splice(-2);
  // "New York", "District of Columbia": a state's name may be up to three words; a city up to four.
  for (const stateWords of [1, 2, 3]) {
    const state = words.slice(-stateWords).join(" ");
    for (let cityWords = Math.min(4, words.length - stateWords); cityWords > 0; cityWords--) {
      const city = words.slice(-stateWords - cityWords, -stateWords).join(" ");
      // A city has a name: "30.26, -97.74" is a point someone typed, not a place in an address.
      if (!/[a-z]/i.test(city)) continue;
      const place = findPlace(`${city}, ${state}`);
      if (place) return place;
    }
  }
  return null;
}
