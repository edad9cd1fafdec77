/**
 * "Where is the job?": a 5-digit ZIP, "City, ST", "City" or "lat,lng" -> a point.
 *
 * Server and build-time only (functions, the seed generator): the ZIP dataset (`zipcodes`,
 * about 5 MB of JSON) must never reach the browser, which only sends the text it was given.
 */
import zipcodes from "zipcodes";
import { findCity } from "../options.ts";
import type { Point } from "./distance.ts";

/** What the API answers for a place the dataset does not know. */
export const UNKNOWN_PLACE = "We couldn't find that ZIP code or city";

/** The directory is Texan: a city name without a state is looked up here. */
export const DEFAULT_STATE = "TX";

export interface Place extends Point {
  /** How the place reads back to the visitor, e.g. "Round Rock, TX 78664" or "Katy, TX". */
  label: string;
  /** The ZIP when one was given. */
  zip?: string;
}

const ZIP = /^(\d{5})(?:-\d{4})?$/;
const COORDS = /^(-?\d{1,2}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)$/;
/** "TEXAS" -> "TX". */
const STATE_NAMES: Record<string, string> = zipcodes.states.full;

/** A US ZIP's centroid, or null. */
export function zipPoint(zip: string): (Point & { city: string; state: string }) | null {
  const m = ZIP.exec(zip.trim());
  if (!m) return null;
  const hit = zipcodes.lookup(m[1]!);
  if (!hit || hit.country !== "US") return null;
  return { lat: hit.latitude, lng: hit.longitude, city: titleCase(hit.city), state: hit.state };
}

function titleCase(s: string): string {
  return s.toLowerCase().replace(/(^|[\s-])([a-z])/g, (_, sep: string, c: string) => sep + c.toUpperCase());
}

function stateCode(text: string): string | undefined {
  const t = text.trim().replace(/\.$/, "").toUpperCase();
  if (/^[A-Z]{2}$/.test(t)) return zipcodes.states.abbr[t] ? t : undefined;
  return STATE_NAMES[t];
}

/** The mean of a city's ZIP centroids. */
function cityPoint(city: string, state: string): Place | null {
  const zips = zipcodes.lookupByName(city, state).filter((z) => z.country === "US");
  if (zips.length === 0) return null;
  const lat = zips.reduce((s, z) => s + z.latitude, 0) / zips.length;
  const lng = zips.reduce((s, z) => s + z.longitude, 0) / zips.length;
  return { lat, lng, label: `${titleCase(zips[0]!.city)}, ${state}` };
}

/** Resolves what a visitor typed; null when the dataset does not know it. */
export function findPlace(input: string): Place | null {
  const text = input.trim().replace(/\s+/g, " ");
  if (!text) return null;
  const zip = ZIP.exec(text);
  if (zip) {
    const hit = zipPoint(zip[1]!);
    return hit ? { lat: hit.lat, lng: hit.lng, label: `${hit.city}, ${hit.state} ${zip[1]}`, zip: zip[1] } : null;
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
