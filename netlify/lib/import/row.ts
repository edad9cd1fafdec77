/**
 * One import row -> the listing it describes, or every reason it is refused. The values are
 * read as docs/import.md says (phone, website, hours, services, yes/no), the place comes from
 * the ZIP dataset (coordinates unless the row gives lat and lng, and the time zone), and the
 * result is checked by the Business schema itself, so a row the directory could not store is
 * refused here and never half written.
 */
import { lookupZip } from "../../../src/lib/geo/places.ts";
import { timeZoneOf } from "../../../src/lib/geo/time-zone.ts";
import { BusinessInput, type BusinessHours } from "../../../src/lib/schemas/business.ts";
import type { ProService } from "../../../src/lib/options.ts";
import { CONTACT_COLUMNS, type ImportColumn, type ImportRow } from "./columns.ts";
import { parseImportHours } from "./hours.ts";
import { listingKeys, phoneDigits, type ListingKeys } from "./keys.ts";
import { parseImportServices } from "./services.ts";

/** What an import sets on a business: the file's columns, read. Absent = the row left it blank. */
export interface ListingFields {
  name: string;
  phone?: string;
  email?: string;
  website?: string;
  address?: string;
  city: string;
  state: string;
  zipCode: string;
  services: ProService[];
  businessHours: BusinessHours;
  byAppointment: boolean;
  licenseNumber?: string;
  location: { lat: number; lng: number };
  timeZone?: string;
  description?: string;
  emergency247?: boolean;
}

/** The Business fields an import writes (ListingFields' keys), for comparing and reporting. */
export const LISTING_FIELDS = [
  "name",
  "phone",
  "email",
  "website",
  "address",
  "city",
  "state",
  "zipCode",
  "services",
  "businessHours",
  "byAppointment",
  "licenseNumber",
  "location",
  "timeZone",
  "description",
  "emergency247",
] as const satisfies readonly (keyof ListingFields)[];

/** The column a Business field comes from, for reasons and reports. */
export const FIELD_COLUMN: Readonly<Record<string, ImportColumn>> = {
  name: "name",
  phone: "phone",
  email: "email",
  website: "website",
  address: "street",
  city: "city",
  state: "state",
  zipCode: "zip",
  services: "services",
  businessHours: "hours",
  byAppointment: "hours",
  licenseNumber: "license",
  location: "lat",
  timeZone: "zip",
  description: "description",
  emergency247: "emergency247",
};

export interface Listing {
  line: number;
  fields: ListingFields;
  keys: ListingKeys;
}

export type ReadRow = { ok: true; listing: Listing } | { ok: false; line: number; reasons: string[] };

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

/** "(208) 555-0142" for any way of writing a 10-digit US number. */
export function formatPhone(digits: string): string {
  return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
}

/** "example.com/boise" -> "https://example.com/boise"; undefined when it is no web address. */
export function readWebsite(text: string): string | undefined {
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(text) ? text : `https://${text}`;
  try {
    const url = new URL(withScheme);
    if ((url.protocol !== "https:" && url.protocol !== "http:") || !url.hostname.includes(".")) return undefined;
    return url.href;
  } catch {
    return undefined;
  }
}

const YES = /^(?:y|yes|true|1|x)$/i;
const NO = /^(?:n|no|false|0)$/i;

function readNumber(text: string): number | undefined {
  if (!/^-?\d{1,3}(?:\.\d+)?$/.test(text)) return undefined;
  return Number(text);
}

/** Reads and checks one row. */
export function readRow(row: ImportRow): ReadRow {
  const c = row.cells;
  const reasons: string[] = [];
  const fields: Partial<ListingFields> = {};

  const name = oneLine(c.name);
  if (!name) reasons.push("name is missing");
  else fields.name = name;

  if (CONTACT_COLUMNS.every((col) => !c[col].trim())) reasons.push("needs a phone, an email or a website");
  if (c.phone.trim()) {
    const digits = phoneDigits(c.phone);
    if (digits) fields.phone = formatPhone(digits);
    else reasons.push(`phone "${c.phone}" is not a 10-digit US number`);
  }
  if (c.email.trim()) fields.email = c.email.trim().toLowerCase();
  if (c.website.trim()) {
    const website = readWebsite(c.website.trim());
    if (website) fields.website = website;
    else reasons.push(`website "${c.website}" is not a web address`);
  }
  if (c.street.trim()) fields.address = oneLine(c.street);
  if (c.license.trim()) fields.licenseNumber = oneLine(c.license);
  if (c.description.trim()) fields.description = c.description.trim();

  const city = oneLine(c.city);
  if (!city) reasons.push("city is missing");
  else fields.city = city;

  const state = c.state.trim().toUpperCase();
  const zip = c.zip.trim();
  if (!/^[A-Z]{2}$/.test(state)) reasons.push(`state "${c.state}" is not a two-letter code such as ID`);
  else fields.state = state;
  const zipMatch = /^(\d{5})(?:-\d{4})?$/.exec(zip);
  const place = zipMatch ? lookupZip(zipMatch[1]!) : undefined;
  if (!zip) reasons.push("zip is missing");
  else if (!zipMatch) reasons.push(`zip "${zip}" is not a 5-digit ZIP code`);
  else if (!place) reasons.push(`ZIP ${zip} does not exist`);
  else if (fields.state && place.state !== fields.state)
    reasons.push(`ZIP ${zip} is in ${place.state}, not ${fields.state}`);
  else fields.zipCode = zip;

  const lat = c.lat.trim();
  const lng = c.lng.trim();
  if (lat || lng) {
    const point = { lat: readNumber(lat), lng: readNumber(lng) };
    if (point.lat === undefined || point.lng === undefined)
      reasons.push("lat and lng must both be decimal degrees (e.g. 43.6150, -116.2023), or both blank");
    else fields.location = { lat: point.lat, lng: point.lng };
  } else if (place) fields.location = { lat: place.lat, lng: place.lng };
  if (fields.state && fields.location) fields.timeZone = timeZoneOf(fields.state, fields.location);

  const services = parseImportServices(c.services);
  if (services.ok) fields.services = services.services;
  else reasons.push(services.reason);

  const hours = parseImportHours(c.hours);
  if (hours.ok) {
    fields.businessHours = hours.businessHours;
    fields.byAppointment = hours.byAppointment;
  } else reasons.push(hours.reason);

  const emergency = c.emergency247.trim();
  if (YES.test(emergency)) fields.emergency247 = true;
  else if (NO.test(emergency)) fields.emergency247 = false;
  else if (emergency) reasons.push(`emergency247 "${emergency}" is not yes or no`);

  if (reasons.length) return { ok: false, line: row.line, reasons };
  const listing = fields as ListingFields;
  // The schema has the last word: lengths, e-mail form, coordinates, time zone.
  const checked = BusinessInput.safeParse(probe(listing));
  if (!checked.success) {
    return {
      ok: false,
      line: row.line,
      reasons: checked.error.issues.map((issue) => {
        const field = String(issue.path[0] ?? "");
        return `${FIELD_COLUMN[field] ?? field}: ${issue.message}`;
      }),
    };
  }
  return { ok: true, listing: { line: row.line, fields: listing, keys: listingKeys(listing) } };
}

/** A whole business around the listing, as a new import would write it. */
function probe(fields: ListingFields): BusinessInput {
  return newBusiness(fields, "imp-probe", "probe");
}

/**
 * A new business from an import: unclaimed, not featured, no reviews, no images or
 * credentials, never a sample. Only what the file gave is set.
 */
export function newBusiness(fields: ListingFields, id: string, slug: string): BusinessInput {
  return {
    ...fields,
    id,
    slug,
    description: fields.description ?? "",
    address: fields.address ?? "",
    isFeatured: false,
    isSample: false,
    rating: "0.0",
    reviewCount: 0,
    specialties: [],
    serviceAreas: [],
    images: [],
  };
}
