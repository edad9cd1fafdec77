/** Duplicates in a file, the plan against a directory (new, updated, unchanged, kept) and the printed report. */
import { describe, expect, it } from "vitest";
import { IMPORT_COLUMNS, type ImportColumn, type ImportRow } from "../../../netlify/lib/import/columns.ts";
import { knownDirectory } from "../../../netlify/lib/import/directory.ts";
import { nameZipKey, websiteKey } from "../../../netlify/lib/import/keys.ts";
import { mergeDuplicates } from "../../../netlify/lib/import/merge.ts";
import { KEPT_CLAIMED, importId, planImport } from "../../../netlify/lib/import/plan.ts";
import { formatReport, summarize } from "../../../netlify/lib/import/report.ts";
import { newBusiness, readRow, type Listing } from "../../../netlify/lib/import/row.ts";
import { Business } from "../../../src/lib/schemas/business.ts";

let nextLine = 2;
const row = (over: Partial<Record<ImportColumn, string>> = {}): ImportRow => ({
  line: nextLine++,
  cells: {
    ...(Object.fromEntries(IMPORT_COLUMNS.map((c) => [c, ""])) as Record<ImportColumn, string>),
    name: "Treasure Valley Tree Care",
    phone: "(208) 555-0141",
    street: "1010 W Jefferson St",
    city: "Boise",
    state: "ID",
    zip: "83702",
    services: "Tree Removal",
    hours: "Mon-Fri 7:00 AM - 6:00 PM",
    ...over,
  },
});
const listing = (over: Partial<Record<ImportColumn, string>> = {}): Listing => {
  const read = readRow(row(over));
  if (!read.ok) throw new Error(read.reasons.join("; "));
  return read.listing;
};
/** A listed business as the store answers it. */
const listed = (over: Partial<Record<ImportColumn, string>>, extra: Partial<Business> = {}): Business => {
  const l = listing(over);
  const input = newBusiness(l.fields, extra.id ?? importId(l.keys.nameZip), extra.slug ?? "listed-slug");
  return Business.parse({ ...input, rating: "4.5", reviewCount: 3, ...extra });
};
const noOwners = { list: async () => [] };

describe("keys", () => {
  it("normalizes names, websites and phones", () => {
    expect(nameZipKey("The Oak & Sons Tree Co., LLC", "83702-1234")).toBe("oak and sons tree|83702");
    expect(nameZipKey("Oak and Sons Tree", "83702")).toBe("oak and sons tree|83702");
    expect(websiteKey("https://www.Example.com/Boise/?utm=1#top")).toBe("example.com/boise");
    expect(websiteKey("http://example.com")).toBe("example.com");
  });
});

describe("duplicates within a file", () => {
  it("merges rows sharing a phone, a website or a name and ZIP, through each other too", () => {
    const a = listing({ website: "https://oak.example.com" });
    const b = listing({ name: "Other Name", phone: "", email: "b@oak.example.com", website: "oak.example.com/" });
    const c = listing({ name: "Other Name", phone: "(208) 555-0199", services: "Stump Grinding; Tree Removal" });
    const d = listing({ name: "Elsewhere", phone: "(208) 555-0100", zip: "83706" });
    const { groups, merged } = mergeDuplicates([a, b, c, d]);
    expect(groups.map((g) => g.lines)).toEqual([[a.line, b.line, c.line], [d.line]]);
    expect(merged).toEqual([
      { line: b.line, into: a.line, why: ["website", "name and ZIP"] },
      { line: c.line, into: a.line, why: ["name and ZIP"] },
    ]);
    // The first row wins; later rows fill its blanks; services are all of them.
    expect(groups[0]!.listing.fields).toMatchObject({
      name: "Treasure Valley Tree Care",
      phone: "(208) 555-0141",
      email: "b@oak.example.com",
      website: "https://oak.example.com/",
      services: ["Tree Removal", "Stump Grinding"],
    });
  });

  it("takes the place and hours from the first row only, never a mix of two addresses", () => {
    const a = listing({ street: "", hours: "by appointment" });
    const b = listing({ street: "9 Other St", lat: "43.7", lng: "-116.3", hours: "Mon 8 AM - 5 PM" });
    const [group] = mergeDuplicates([a, b]).groups;
    expect(group!.listing.fields.address).toBeUndefined();
    expect(group!.listing.fields.location).toEqual(a.fields.location);
    expect(group!.listing.fields.byAppointment).toBe(true);
  });
});

describe("the plan against the directory", () => {
  it("plans a new business: unclaimed, unfeatured, no reviews, never a sample, a deterministic id and a free slug", async () => {
    const taken = listed(
      { name: "Someone Else", phone: "(208) 555-0000" },
      { slug: "treasure-valley-tree-care-boise" },
    );
    const plan = await planImport([row()], [], knownDirectory([taken]), noOwners);
    expect(plan.changes).toHaveLength(1);
    const change = plan.changes[0]!;
    expect(change.kind).toBe("new");
    if (change.kind !== "new") return;
    expect(change.id).toBe(importId("treasure valley tree care|83702"));
    expect(change.slug).toBe("treasure-valley-tree-care-boise-2");
    expect(change.business).toMatchObject({
      isFeatured: false,
      isSample: false,
      rating: "0.0",
      reviewCount: 0,
      images: [],
      specialties: [],
    });
    expect(change.business).not.toHaveProperty("credentials");
    expect(change.business).not.toHaveProperty("yearsInBusiness");
  });

  it("gives two new businesses of the same name and city their own slugs", async () => {
    const plan = await planImport(
      [row(), row({ phone: "(208) 555-0150", zip: "83706" })],
      [],
      knownDirectory([]),
      noOwners,
    );
    expect(plan.changes.map((c) => c.slug)).toEqual([
      "treasure-valley-tree-care-boise",
      "treasure-valley-tree-care-boise-2",
    ]);
  });

  it("updates a listed business with the columns that change; blank columns keep what is listed", async () => {
    const current = listed({ email: "old@tv.example.com", license: "ID-1" }, { id: "biz-7", slug: "tv" });
    const plan = await planImport(
      [row({ name: "Treasure Valley Tree Care", phone: "208-555-0141", hours: "Mon-Sat 7 AM - 6 PM", email: "" })],
      [],
      knownDirectory([current]),
      noOwners,
    );
    const [change] = plan.changes;
    expect(change).toMatchObject({ kind: "updated", id: "biz-7", slug: "tv", fields: ["hours"] });
    if (change?.kind !== "updated") return;
    expect(change.business).toMatchObject({ email: "old@tv.example.com", licenseNumber: "ID-1", rating: "4.5" });
    expect(change.business.businessHours).toHaveProperty("saturday", "7:00 AM - 6:00 PM");
  });

  it("reports a business the file already matches as unchanged", async () => {
    const current = listed({});
    const plan = await planImport([row()], [], knownDirectory([current]), noOwners);
    expect(plan.changes).toMatchObject([{ kind: "unchanged", id: current.id }]);
  });

  it("leaves a claimed business to its owner", async () => {
    const current = listed({}, { id: "biz-9" });
    const owners = { list: async (id: string) => (id === "biz-9" ? [{ email: "o@x.example.com" } as never] : []) };
    const plan = await planImport([row({ hours: "by appointment" })], [], knownDirectory([current]), owners);
    expect(plan.changes).toMatchObject([{ kind: "kept", id: "biz-9", reason: KEPT_CLAIMED }]);
  });

  it("refuses a row matching two listed businesses, and merges rows matching the same one", async () => {
    const byPhone = listed({ name: "Phone Match" }, { id: "biz-1", slug: "phone-match" });
    const byWebsite = listed(
      { name: "Site Match", phone: "(208) 555-0999", website: "https://site.example.com" },
      { id: "biz-2", slug: "site-match" },
    );
    // Its phone is the first one's, its name and ZIP the second's.
    const ambiguous = row({ name: "Site Match" });
    const first = row({ name: "Site Match Boise", phone: "", website: "site.example.com", zip: "83706" });
    const second = row({ name: "Other", phone: "(208) 555-0999", zip: "83706", license: "ID-2" });
    const plan = await planImport([ambiguous, first, second], [], knownDirectory([byPhone, byWebsite]), noOwners);
    expect(plan.rejected).toEqual([
      {
        line: ambiguous.line,
        name: "Site Match",
        reasons: [
          expect.stringMatching(
            /^matches 2 listed businesses: "Phone Match" \(phone-match, same phone\) and "Site Match" \(site-match, same name and ZIP\)/,
          ),
        ],
      },
    ]);
    expect(plan.merged).toEqual([{ line: second.line, into: first.line, why: ["the same listed business"] }]);
    expect(plan.changes).toMatchObject([{ kind: "updated", id: "biz-2", lines: [first.line, second.line] }]);
  });

  it("never matches a sample business", async () => {
    const sample = listed({}, { id: "biz-001", isSample: true, slug: "treasure-valley-tree-care-boise" });
    const plan = await planImport([row()], [], knownDirectory([sample]), noOwners);
    expect(plan.changes).toMatchObject([{ kind: "new", slug: "treasure-valley-tree-care-boise-2" }]);
  });
});

describe("the report", () => {
  it("names every rejected row, merge and business, and what --apply would do", async () => {
    const rows = [row(), row({ zip: "99999" }), row({ phone: "2085550141", name: "Treasure Valley Tree Care LLC" })];
    const plan = await planImport(
      rows,
      [{ line: 9, reasons: ["has 2 fields; the header has 11"] }],
      knownDirectory([]),
      noOwners,
    );
    const summary = summarize(plan);
    expect(summary).toEqual({ rows: 4, rejected: 2, merged: 1, new: 1, updated: 0, unchanged: 0, kept: 0, changes: 1 });
    const text = formatReport(plan, summary).join("\n");
    expect(text).toContain(`line ${rows[1]!.line} "Treasure Valley Tree Care": ZIP 99999 does not exist`);
    expect(text).toContain("line 9: has 2 fields; the header has 11");
    expect(text).toContain(`line ${rows[2]!.line} merged into line ${rows[0]!.line} (same phone, name and ZIP)`);
    expect(text).toContain(
      `new        "Treasure Valley Tree Care", Boise, ID (/directory/treasure-valley-tree-care-boise) from lines ${rows[0]!.line}, ${rows[2]!.line}`,
    );
    expect(text).toContain("Dry run: nothing was written. Run again with --apply to write 1 change.");
    const applied = formatReport(plan, summarize(plan, { written: 0, remaining: 1, failed: [], purged: false }), {
      written: 0,
      remaining: 1,
      failed: [],
      purged: false,
    }).join("\n");
    expect(applied).toContain("Applied: 0 changes written.");
    expect(applied).toContain("1 not reached in time: run the import again to write them.");
  });
});
