/**
 * Leads as CSV for a spreadsheet. Quoting is csv-stringify's (commas, quotes, newlines), and
 * so is formula escaping: a cell a visitor typed as "=HYPERLINK(...)" or "+1 512..." must not
 * run in Excel or Sheets, so cells starting with = + - @ tab or CR get a leading single quote.
 */
import { stringify } from "csv-stringify/sync";
import { LEAD_STATUS_LABELS, LEAD_TYPE_SINGULAR } from "../../../src/lib/admin.ts";
import { summarizeLead } from "../../../src/lib/lead-summary.ts";
import type { Lead } from "../../../src/lib/schemas/lead.ts";

/** Column key and header, in file order. */
export const CSV_COLUMNS = [
  { key: "id", header: "Lead ID" },
  { key: "createdAt", header: "Received (UTC)" },
  { key: "type", header: "Type" },
  { key: "status", header: "Status" },
  { key: "name", header: "Name" },
  { key: "email", header: "Email" },
  { key: "phone", header: "Phone" },
  { key: "company", header: "Company / Business" },
  { key: "place", header: "Address / Location" },
  { key: "what", header: "Request" },
  { key: "estimate", header: "Estimate" },
  { key: "note", header: "Note" },
  { key: "sourcePage", header: "Source page" },
  { key: "details", header: "All fields" },
] as const;

type Row = Record<(typeof CSV_COLUMNS)[number]["key"], string>;

/** Every payload field as "name: value" lines (lists joined), so nothing is lost in the export. */
function details(data: unknown): string {
  if (!data || typeof data !== "object") return "";
  const lines: string[] = [];
  const walk = (value: unknown, path: string) => {
    if (value === null || value === undefined || value === "") return;
    // A list of records (a find-pros lead's matched businesses) keeps its fields.
    if (Array.isArray(value))
      lines.push(
        `${path}: ${value.map((v) => (v && typeof v === "object" ? JSON.stringify(v) : String(v))).join(", ")}`,
      );
    else if (typeof value === "object") for (const [k, v] of Object.entries(value)) walk(v, path ? `${path}.${k}` : k);
    else lines.push(`${path}: ${String(value)}`);
  };
  walk(data, "");
  return lines.join("\n");
}

export function csvRow(lead: Lead): Row {
  const s = summarizeLead(lead);
  return {
    id: lead.id,
    createdAt: lead.createdAt,
    type: LEAD_TYPE_SINGULAR[lead.type],
    status: LEAD_STATUS_LABELS[lead.status] ?? lead.status,
    name: s.name,
    email: s.email ?? "",
    phone: s.phone ?? "",
    company: s.company ?? "",
    place: s.place ?? "",
    what: s.what,
    estimate: s.estimate ?? "",
    note: lead.note ?? "",
    sourcePage: lead.sourcePage,
    details: details(lead.data),
  };
}

const OPTIONS = {
  columns: CSV_COLUMNS.map((c) => ({ key: c.key, header: c.header })),
  escape_formulas: true,
  record_delimiter: "\r\n",
} as const;

/** The header line (with a UTF-8 byte order mark, which Excel needs to read UTF-8). */
export const csvHeader = () => `\uFEFF${stringify([], { ...OPTIONS, header: true })}`;

/** Rows without the header, for streaming page by page. */
export const csvRows = (leads: readonly Lead[]) =>
  leads.length ? stringify(leads.map(csvRow), { ...OPTIONS, header: false }) : "";
