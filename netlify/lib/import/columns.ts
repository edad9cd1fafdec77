/**
 * The import file's columns (docs/import.md): their names, the spellings a header may use for
 * them, and which a row must fill. One row is one business.
 */

/** Every column the import reads, in the documented order. */
export const IMPORT_COLUMNS = [
  "name",
  "phone",
  "email",
  "website",
  "street",
  "city",
  "state",
  "zip",
  "services",
  "hours",
  "license",
  "lat",
  "lng",
  "description",
  "emergency247",
] as const;
export type ImportColumn = (typeof IMPORT_COLUMNS)[number];

/** Columns the header must have (the rest may be left out of the file altogether). */
export const REQUIRED_COLUMNS: readonly ImportColumn[] = ["name", "city", "state", "zip", "services", "hours"];

/** Columns of which a row must fill at least one: a listing nobody can reach is no use. */
export const CONTACT_COLUMNS: readonly ImportColumn[] = ["phone", "email", "website"];

/** Other spellings a header may use, folded (lower case, letters and digits only). */
const ALIASES: Readonly<Record<string, ImportColumn>> = {
  businessname: "name",
  emailaddress: "email",
  url: "website",
  address: "street",
  streetaddress: "street",
  zipcode: "zip",
  postalcode: "zip",
  servicesoffered: "services",
  licensenumber: "license",
  latitude: "lat",
  longitude: "lng",
  lon: "lng",
  emergency: "emergency247",
  emergency24: "emergency247",
};

const fold = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, "");

/** "E-mail", "ZIP code", "Address" -> their column; undefined for a header the import does not read. */
export function columnOf(header: string): ImportColumn | undefined {
  const folded = fold(header);
  const direct = IMPORT_COLUMNS.find((c) => c === folded);
  return direct ?? (Object.hasOwn(ALIASES, folded) ? ALIASES[folded] : undefined);
}

/** One data row as text by column (a column the file does not have reads as ""), with its line in the file. */
export interface ImportRow {
  /** 1-based line the row starts on (the header is line 1). */
  line: number;
  cells: Readonly<Record<ImportColumn, string>>;
}
