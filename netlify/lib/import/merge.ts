/**
 * Duplicates within one file: rows that share a phone, a website or a name and ZIP (keys.ts),
 * directly or through another row, are one business. Which values win (docs/import.md):
 *   - the place (street, city, state, ZIP, coordinates, time zone) and the hours are the
 *     first row's, taken together so they never mix two addresses;
 *   - every other column: the first row that fills it (a later row only fills blanks);
 *   - services: all of them, in the order the rows name them.
 */
import type { ImportMergedRow } from "../../../src/lib/admin-import.ts";
import { listingKeys, sharedKeys, keyStrings } from "./keys.ts";
import type { Listing, ListingFields } from "./row.ts";

/** A row folded into an earlier one, and what it shares: a key (MatchKind), or "the same listed business". */
export type MergedRow = ImportMergedRow;

export interface Group {
  /** The merged listing; its line is the first row's. */
  listing: Listing;
  /** Every row's line, first row first. */
  lines: number[];
}

/** Fields taken from the first row only, as one unit. */
const PLACE: readonly (keyof ListingFields)[] = [
  "address",
  "city",
  "state",
  "zipCode",
  "location",
  "timeZone",
  "businessHours",
  "byAppointment",
];

/** Groups the listings (in file order) and merges each group. */
export function mergeDuplicates(listings: readonly Listing[]): { groups: Group[]; merged: MergedRow[] } {
  // Union-find over shared key strings.
  const parent = listings.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  const owner = new Map<string, number>();
  for (const [i, listing] of listings.entries()) {
    for (const key of keyStrings(listing.keys)) {
      const seen = owner.get(key);
      if (seen === undefined) owner.set(key, i);
      else {
        const [a, b] = [find(seen), find(i)];
        // The earlier row stays the root, so a group's root is its first row.
        if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
      }
    }
  }
  const members = new Map<number, Listing[]>();
  for (const [i, listing] of listings.entries()) {
    const root = find(i);
    members.set(root, [...(members.get(root) ?? []), listing]);
  }
  const groups: Group[] = [];
  const merged: MergedRow[] = [];
  for (const rows of members.values()) {
    const [first, ...rest] = rows as [Listing, ...Listing[]];
    for (const row of rest) {
      // Named by what it shares with the group's other rows (at least one, by construction).
      const others = rows.filter((r) => r !== row);
      const why = [...new Set(others.flatMap((b) => sharedKeys(b.keys, row.keys)))];
      merged.push({ line: row.line, into: first.line, why });
    }
    groups.push({ listing: mergeGroup(first, rest), lines: rows.map((r) => r.line) });
  }
  groups.sort((a, b) => a.listing.line - b.listing.line);
  merged.sort((a, b) => a.line - b.line);
  return { groups, merged };
}

/** One listing from a group's rows, first row first (the rules above). */
export function mergeGroup(first: Listing, rest: readonly Listing[]): Listing {
  if (rest.length === 0) return first;
  const fields: ListingFields = { ...first.fields };
  const target = fields as unknown as Record<string, unknown>;
  for (const row of rest) {
    for (const [key, value] of Object.entries(row.fields)) {
      if (PLACE.includes(key as keyof ListingFields) || value === undefined) continue;
      if (target[key] === undefined) target[key] = value;
    }
    fields.services = [...new Set([...fields.services, ...row.fields.services])];
  }
  return { line: first.line, fields, keys: listingKeys(fields) };
}
