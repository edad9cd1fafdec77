/** The import file read: CSV and its header, the hours and services columns, and one row's checks. */
import { describe, expect, it } from "vitest";
import { readImportCsv } from "../../../netlify/lib/import/csv.ts";
import { parseImportHours } from "../../../netlify/lib/import/hours.ts";
import { parseImportServices } from "../../../netlify/lib/import/services.ts";
import { readRow } from "../../../netlify/lib/import/row.ts";
import { IMPORT_COLUMNS, type ImportColumn } from "../../../netlify/lib/import/columns.ts";
import { daySpans } from "../../../src/lib/hours.ts";

const HEADER = "name,phone,email,website,street,city,state,zip,services,hours,license";

const row = (over: Partial<Record<ImportColumn, string>> = {}, line = 2) => ({
  line,
  cells: {
    ...(Object.fromEntries(IMPORT_COLUMNS.map((c) => [c, ""])) as Record<ImportColumn, string>),
    name: "Treasure Valley Tree Care",
    phone: "(208) 555-0141",
    street: "1010 W Jefferson St",
    city: "Boise",
    state: "ID",
    zip: "83702",
    services: "Tree Removal; Tree Trimming",
    hours: "Mon-Fri 7:00 AM - 6:00 PM; Sat 8:00 AM - 12:00 PM",
    ...over,
  },
});

describe("reading the CSV", () => {
  it("reads rows by column with the line each starts on (BOM, CRLF, quoted line breaks, blank lines)", () => {
    const text = `\uFEFF${HEADER}\r\n"A, ""the"" crew",1,,,,Boise,ID,83702,Tree Removal,by appointment,\r\n\r\n"B\r\nTwo",2,,,,Boise,ID,83702,Tree Removal,by appointment,\r\nC,3,,,,Boise,ID,83702,Tree Removal,by appointment,\r\n`;
    const file = readImportCsv(text);
    expect(file.ok).toBe(true);
    if (!file.ok) return;
    expect(file.rows.map((r) => [r.line, r.cells.name, r.cells.phone])).toEqual([
      [2, 'A, "the" crew', "1"],
      [4, "B\nTwo", "2"],
      [6, "C", "3"],
    ]);
    // Columns the file leaves out read as blank.
    expect(file.rows[0]!.cells.description).toBe("");
  });

  it("takes other spellings of a column in any order and case", () => {
    const file = readImportCsv(
      "ZIP Code,Business Name,E-mail,Address,State,City,Services,Hours\n83702,A,a@b.co,1 Main,ID,Boise,Tree Removal,by appointment\n",
    );
    expect(file.ok && file.rows[0]!.cells).toMatchObject({
      zip: "83702",
      name: "A",
      email: "a@b.co",
      street: "1 Main",
    });
  });

  it("skips columns without a name (a spreadsheet's trailing commas)", () => {
    const file = readImportCsv(`${HEADER},,\nA,1,,,,Boise,ID,83702,Tree Removal,by appointment,,,\n`);
    expect(file.ok && file.rows.map((r) => r.cells.name)).toEqual(["A"]);
  });

  it("refuses a whole file it cannot read, saying why", () => {
    const refused = (text: string) => {
      const file = readImportCsv(text);
      return file.ok ? null : file.error;
    };
    expect(refused("")).toMatch(/empty/);
    expect(refused(`${HEADER}\n`)).toMatch(/no businesses/);
    expect(refused(`${HEADER},phon\n`)).toMatch(/Column 12 "phon" is not one the import reads/);
    expect(refused("name,city,state,zip,services,hours,phone,Phone\n")).toMatch(/phone column twice/);
    expect(refused("name,city,state,zip,phone\n")).toMatch(/no "services", "hours" column/);
    expect(refused("name,city,state,zip,services,hours\n")).toMatch(/at least one of "phone", "email", "website"/);
    expect(refused(`${HEADER}\n"unclosed,1\n`)).toMatch(/not valid CSV \(line \d\)/);
  });

  it("refuses a row with the wrong number of fields on its own", () => {
    const file = readImportCsv(`${HEADER}\nA,1,,,,Boise,ID,83702,Tree Removal,by appointment,\nB,2,too,few\n`);
    expect(file.ok && file.problems).toEqual([{ line: 3, reasons: ["has 4 fields; the header has 11"] }]);
    expect(file.ok && file.rows.length).toBe(1);
  });
});

describe("the hours column", () => {
  it("reads day ranges, lists and several spans into the directory's own format", () => {
    const read = parseImportHours("Mon-Fri 7:00 AM - 6:00 PM; Sat 8 am - 12 pm");
    expect(read).toEqual({
      ok: true,
      byAppointment: false,
      businessHours: {
        monday: "7:00 AM - 6:00 PM",
        tuesday: "7:00 AM - 6:00 PM",
        wednesday: "7:00 AM - 6:00 PM",
        thursday: "7:00 AM - 6:00 PM",
        friday: "7:00 AM - 6:00 PM",
        saturday: "8:00 AM - 12:00 PM",
      },
    });
    // What the directory reads back: the same minutes.
    if (read.ok) expect(daySpans(read.businessHours.saturday)).toEqual([[480, 720]]);
    expect(parseImportHours("Mon, Wed & Fri 7 AM - 12 PM, 1 PM - 5 PM; Sun closed")).toMatchObject({
      ok: true,
      businessHours: {
        monday: "7:00 AM - 12:00 PM, 1:00 PM - 5:00 PM",
        wednesday: "7:00 AM - 12:00 PM, 1:00 PM - 5:00 PM",
        friday: "7:00 AM - 12:00 PM, 1:00 PM - 5:00 PM",
      },
    });
    expect(parseImportHours("Fri-Mon 24 hours")).toMatchObject({
      businessHours: {
        friday: "Open 24 hours",
        saturday: "Open 24 hours",
        sunday: "Open 24 hours",
        monday: "Open 24 hours",
      },
    });
    expect(parseImportHours("Tuesday: 6 PM - 2 AM")).toMatchObject({ businessHours: { tuesday: "6:00 PM - 2:00 AM" } });
  });

  it("reads by appointment", () => {
    expect(parseImportHours(" By Appointment ")).toEqual({ ok: true, businessHours: {}, byAppointment: true });
    expect(parseImportHours("by appointment only")).toMatchObject({ byAppointment: true });
  });

  it("refuses what it cannot read, and blank hours", () => {
    const reason = (text: string) => {
      const read = parseImportHours(text);
      return read.ok ? null : read.reason;
    };
    expect(reason("")).toMatch(/hours are missing/);
    expect(reason("weekdays 9-5")).toMatch(/hours "weekdays 9-5" cannot be read/);
    expect(reason("Mon-Fri 9 - 5")).toMatch(/cannot be read/);
    expect(reason("Mon 25:00 AM - 6 PM")).toMatch(/cannot be read/);
    expect(reason("Mon-Fri 7 AM - 6 PM; Fri 8 AM - 1 PM")).toBe("hours name Friday twice");
  });
});

describe("the services column", () => {
  it("maps names to the directory's services, any case, each once, in order", () => {
    expect(parseImportServices("tree removal;  STUMP grinding ;Tree Removal;")).toEqual({
      ok: true,
      services: ["Tree Removal", "Stump Grinding"],
    });
  });

  it("refuses unknown services by name, and none at all", () => {
    const read = parseImportServices("Tree Removal; Hedge Trimming; Mulch");
    expect(read.ok).toBe(false);
    if (!read.ok)
      expect(read.reason).toMatch(
        /^unknown services "Hedge Trimming", "Mulch" \(the directory's services: Tree Removal/,
      );
    expect(parseImportServices(" ; ")).toEqual({ ok: false, reason: "services are missing" });
  });
});

describe("one row", () => {
  it("becomes a listing placed by its ZIP, in its time zone, with a formatted phone", () => {
    const read = readRow(row({ phone: "+1 208.555.0141", website: "treasurevalley.example.com", emergency247: "Yes" }));
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.listing.fields).toMatchObject({
      name: "Treasure Valley Tree Care",
      phone: "(208) 555-0141",
      website: "https://treasurevalley.example.com/",
      city: "Boise",
      state: "ID",
      zipCode: "83702",
      location: { lat: 43.6322, lng: -116.2052 },
      timeZone: "America/Boise",
      services: ["Tree Removal", "Tree Trimming"],
      byAppointment: false,
      emergency247: true,
    });
    expect(read.listing.keys).toEqual({
      phone: "2085550141",
      website: "treasurevalley.example.com",
      nameZip: "treasure valley tree care|83702",
    });
  });

  it("keeps given coordinates", () => {
    const read = readRow(row({ lat: "43.6", lng: "-116.21" }));
    expect(read.ok && read.listing.fields.location).toEqual({ lat: 43.6, lng: -116.21 });
  });

  it("lists every reason a row is refused", () => {
    const reasons = (over: Partial<Record<ImportColumn, string>>) => {
      const read = readRow(row(over));
      return read.ok ? [] : read.reasons;
    };
    expect(reasons({ zip: "99999" })).toEqual(["ZIP 99999 does not exist"]);
    expect(reasons({ state: "WA" })).toEqual(["ZIP 83702 is in ID, not WA"]);
    expect(reasons({ zip: "8370" })).toEqual(['zip "8370" is not a 5-digit ZIP code']);
    expect(reasons({ state: "Idaho" })).toEqual(['state "Idaho" is not a two-letter code such as ID']);
    expect(reasons({ phone: "555-0141" })).toEqual(['phone "555-0141" is not a 10-digit US number']);
    expect(reasons({ phone: "" })).toEqual(["needs a phone, an email or a website"]);
    expect(reasons({ website: "not a site" })).toEqual(['website "not a site" is not a web address']);
    expect(reasons({ email: "nobody@" })).toEqual(["email: Invalid email address"]);
    expect(reasons({ lat: "43.6" })).toEqual([
      "lat and lng must both be decimal degrees (e.g. 43.6150, -116.2023), or both blank",
    ]);
    expect(reasons({ emergency247: "sometimes" })).toEqual(['emergency247 "sometimes" is not yes or no']);
    expect(reasons({ name: "", city: "", services: "Hedges", hours: "" })).toEqual([
      "name is missing",
      "city is missing",
      expect.stringMatching(/^unknown service "Hedges"/),
      expect.stringMatching(/^hours are missing/),
    ]);
    expect(reasons({ name: "x".repeat(121) })).toEqual([expect.stringMatching(/^name: /)]);
  });
});
