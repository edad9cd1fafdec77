/**
 * Reading an import file: CSV (RFC 4180, comma-separated, a header row first, UTF-8 with or
 * without a byte-order mark) into rows by column, each with the line it starts on (a column
 * whose header is empty is skipped). A file
 * whose header lacks a required column, names one twice or names one the import does not
 * read is refused whole; a row with the wrong number of fields is refused alone.
 */
import { parse } from "csv-parse/sync";
import {
  CONTACT_COLUMNS,
  IMPORT_COLUMNS,
  REQUIRED_COLUMNS,
  columnOf,
  type ImportColumn,
  type ImportRow,
} from "./columns.ts";

/** A row refused before its values were read (its field count). */
export interface RowProblem {
  line: number;
  reasons: string[];
}

export type ReadFile = { ok: true; rows: ImportRow[]; problems: RowProblem[] } | { ok: false; error: string };

const listed = (names: readonly string[]) => names.map((n) => `"${n}"`).join(", ");

/** Why a header cannot be read, or the column of each field. */
function readHeader(header: readonly string[]): { columns: (ImportColumn | null)[] } | { error: string } {
  const columns: (ImportColumn | null)[] = [];
  for (const [i, raw] of header.entries()) {
    // A spreadsheet's export may end its rows with empty columns: a column without a name is skipped.
    if (raw === "") {
      columns.push(null);
      continue;
    }
    const column = columnOf(raw);
    if (!column)
      return {
        error: `Column ${i + 1} "${raw}" is not one the import reads (the columns are ${listed(IMPORT_COLUMNS)}).`,
      };
    if (columns.includes(column)) return { error: `The header names the ${column} column twice.` };
    columns.push(column);
  }
  const missing = REQUIRED_COLUMNS.filter((c) => !columns.includes(c));
  if (missing.length) return { error: `The header has no ${listed(missing)} column (line 1 names the columns).` };
  if (!CONTACT_COLUMNS.some((c) => columns.includes(c)))
    return { error: `The header needs at least one of ${listed(CONTACT_COLUMNS)}.` };
  return { columns };
}

const newlines = (text: string) => text.split("\n").length - 1;

/** The file's rows, or why the whole file cannot be read. */
export function readImportCsv(text: string): ReadFile {
  // One line ending throughout, so line numbers count as an editor does.
  const source = text.replace(/\r\n?/g, "\n");
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(source, {
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (error) {
    const at = (error as { lines?: number }).lines;
    const why = error instanceof Error ? error.message.replace(/^[^:]*:\s*/, "") : "unreadable";
    return { ok: false, error: `The file is not valid CSV${at ? ` (line ${at})` : ""}: ${why}.` };
  }
  const [first, ...data] = records;
  if (!first) return { ok: false, error: "The file is empty: it needs a header row and a row per business." };
  const header = readHeader(first.record);
  if ("error" in header) return { ok: false, error: header.error };
  const rows: ImportRow[] = [];
  const problems: RowProblem[] = [];
  for (const { record, info } of data) {
    // info.lines is the line the record ends on; a quoted field may span lines.
    const line = info.lines - record.reduce((n, field) => n + newlines(field), 0);
    if (record.every((field) => field === "")) continue;
    if (record.length !== header.columns.length) {
      problems.push({
        line,
        reasons: [`has ${record.length} fields; the header has ${header.columns.length}`],
      });
      continue;
    }
    const cells = Object.fromEntries(IMPORT_COLUMNS.map((c) => [c, ""])) as Record<ImportColumn, string>;
    for (const [i, column] of header.columns.entries()) if (column) cells[column] = record[i]!;
    rows.push({ line, cells });
  }
  if (rows.length === 0 && problems.length === 0)
    return { ok: false, error: "The file has a header but no businesses." };
  return { ok: true, rows, problems };
}
