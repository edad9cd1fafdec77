/**
 * What an import would do (the dry run) and, for --apply, exactly what it then writes: every
 * group of rows (merge.ts) is new, an update of the listed business it matches (with the
 * fields that change), unchanged, or kept as its owner has it. Comparing field by field is
 * what makes a second run report nothing to do.
 *
 * Against a listed business the file's non-blank columns win; a blank column keeps what is
 * listed (an import never deletes). A claimed business (one with an owner) is left to its
 * owner. A group matching two listed businesses is refused: which one it means is the
 * operator's call. Groups matching the same listed business are merged into one.
 */
import { createHash } from "node:crypto";
import type { ImportRejectedRow } from "../../../src/lib/admin-import.ts";
import type { Business, BusinessInput } from "../../../src/lib/schemas/business.ts";
import { slugify } from "../admin/claims.ts";
import type { Store } from "../store/index.ts";
import type { KnownDirectory } from "./directory.ts";
import type { MatchKind } from "./keys.ts";
import { mergeDuplicates, mergeGroup, type Group, type MergedRow } from "./merge.ts";
import { FIELD_COLUMN, LISTING_FIELDS, newBusiness, readRow, type Listing, type ListingFields } from "./row.ts";
import type { ImportRow } from "./columns.ts";
import type { RowProblem } from "./csv.ts";

/** A business the import names in its report. */
export interface Named {
  /** The rows it comes from, first row first. */
  lines: number[];
  id: string;
  slug: string;
  name: string;
  city: string;
  state: string;
}

export type PlannedChange =
  | (Named & { kind: "new"; business: BusinessInput })
  | (Named & { kind: "updated"; business: BusinessInput; fields: string[] })
  | (Named & { kind: "unchanged" })
  | (Named & { kind: "kept"; reason: string });

export type Rejected = ImportRejectedRow;

export interface ImportPlan {
  /** Data rows read (the header not counted). */
  rows: number;
  rejected: Rejected[];
  merged: MergedRow[];
  changes: PlannedChange[];
}

/** Why a claimed business is left alone. */
export const KEPT_CLAIMED = "claimed: its owner keeps the listing up to date";

/** A new business's id: fixed by its name and ZIP, so the same row imported twice is one business. */
export function importId(nameZipKey: string): string {
  return `imp-${createHash("sha256").update(nameZipKey, "utf8").digest("hex").slice(0, 16)}`;
}

const named = (lines: number[], b: { id: string; slug: string; name: string; city: string; state: string }): Named => ({
  lines,
  id: b.id,
  slug: b.slug,
  name: b.name,
  city: b.city,
  state: b.state,
});

const same = (field: string, a: unknown, b: unknown) =>
  field === "byAppointment" || field === "emergency247"
    ? Boolean(a) === Boolean(b)
    : JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The columns whose values would change `current`, and the business with them. */
export function overlay(current: Business, fields: ListingFields): { business: BusinessInput; columns: string[] } {
  const next: Record<string, unknown> = { ...current };
  const columns = new Set<string>();
  for (const field of LISTING_FIELDS) {
    const value = fields[field];
    if (value === undefined) continue;
    if (!same(field, current[field as keyof Business], value)) columns.add(FIELD_COLUMN[field]!);
    next[field] = value;
  }
  return { business: next as BusinessInput, columns: [...columns] };
}

/** The first of slug, slug-2, slug-3... that no business has and no other new one takes. */
function freeSlug(base: string, taken: Set<string>): string {
  for (let n = 1; ; n++) {
    const slug = n === 1 ? base : `${base}-${n}`;
    if (!taken.has(slug)) {
      taken.add(slug);
      return slug;
    }
  }
}

/** Owner lookups in flight at once (a re-import of a large directory asks once per business). */
const OWNER_LOOKUPS = 50;

/** The ids among `ids` that have an owner. */
async function claimedOf(owners: Pick<Store["owners"], "list">, ids: readonly string[]): Promise<Set<string>> {
  const claimed = new Set<string>();
  for (let i = 0; i < ids.length; i += OWNER_LOOKUPS) {
    const chunk = ids.slice(i, i + OWNER_LOOKUPS);
    const lists = await Promise.all(chunk.map((id) => owners.list(id)));
    for (const [j, list] of lists.entries()) if (list.length > 0) claimed.add(chunk[j]!);
  }
  return claimed;
}

const whyText = (why: readonly MatchKind[]) => why.join(", ");

/** Plans an import of `rows` against the directory `known` (owners answer whether a business is claimed). */
export async function planImport(
  rows: readonly ImportRow[],
  problems: readonly RowProblem[],
  known: KnownDirectory,
  owners: Pick<Store["owners"], "list">,
): Promise<ImportPlan> {
  const rejected: Rejected[] = problems.map((p) => ({ line: p.line, reasons: p.reasons }));
  const listings: Listing[] = [];
  for (const row of rows) {
    const read = readRow(row);
    if (read.ok) listings.push(read.listing);
    else
      rejected.push({
        line: read.line,
        ...(row.cells.name.trim() ? { name: row.cells.name.trim() } : {}),
        reasons: read.reasons,
      });
  }
  const { groups, merged } = mergeDuplicates(listings);

  // Each group's listed business: by its keys, or by the id an earlier import gave it.
  const target = new Map<Group, Business>();
  const refused = new Set<Group>();
  const byTarget = new Map<string, Group[]>();
  for (const group of groups) {
    const matches = known.matches(group.listing.keys);
    if (matches.length > 1) {
      const which = matches.map((m) => `"${m.business.name}" (${m.business.slug}, same ${whyText(m.why)})`);
      rejected.push({
        line: group.listing.line,
        name: group.listing.fields.name,
        reasons: [
          `matches ${matches.length} listed businesses: ${which.join(" and ")}; fix the row or merge those first`,
        ],
      });
      refused.add(group);
      continue;
    }
    const existing = matches[0]?.business ?? known.byId.get(importId(group.listing.keys.nameZip));
    if (!existing) continue;
    target.set(group, existing);
    byTarget.set(existing.id, [...(byTarget.get(existing.id) ?? []), group]);
  }

  const claimed = await claimedOf(owners, [...byTarget.keys()]);
  const taken = new Set(known.slugs);
  const changes: PlannedChange[] = [];
  const done = new Set<Group>();
  for (const group of groups) {
    if (done.has(group) || refused.has(group)) continue;
    const existing = target.get(group);
    if (!existing) {
      const f = group.listing.fields;
      const id = importId(group.listing.keys.nameZip);
      const slug = freeSlug(slugify(`${f.name} ${f.city}`), taken);
      const business = newBusiness(f, id, slug);
      changes.push({ kind: "new", ...named(group.lines, { ...f, id, slug }), business });
      continue;
    }
    // Groups the file did not link but that name the same listed business are one.
    const siblings = byTarget.get(existing.id)!;
    for (const s of siblings) done.add(s);
    const [first, ...rest] = siblings as [Group, ...Group[]];
    const listing = mergeGroup(
      first.listing,
      rest.map((g) => g.listing),
    );
    const lines = siblings.flatMap((g) => g.lines).sort((a, b) => a - b);
    for (const g of rest)
      merged.push({ line: g.listing.line, into: first.listing.line, why: ["the same listed business"] });
    if (claimed.has(existing.id)) {
      changes.push({ kind: "kept", ...named(lines, existing), reason: KEPT_CLAIMED });
      continue;
    }
    const { business, columns } = overlay(existing, listing.fields);
    changes.push(
      columns.length
        ? { kind: "updated", ...named(lines, existing), business, fields: columns }
        : { kind: "unchanged", ...named(lines, existing) },
    );
  }
  rejected.sort((a, b) => a.line - b.line);
  merged.sort((a, b) => a.line - b.line);
  return { rows: rows.length + problems.length, rejected, merged, changes };
}
