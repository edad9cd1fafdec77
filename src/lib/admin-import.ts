/**
 * The /admin Import tab and POST /api/admin/import (netlify/lib/admin/import.ts): the upload's
 * limit and the report both sides read. Browser-safe: types and constants only. The file's
 * format is docs/import.md.
 */

export const ADMIN_IMPORT_PATH = "/api/admin/import";
/** The largest upload the endpoint takes (a function receives at most 6 MB). */
export const IMPORT_UPLOAD_LIMIT = 4 * 1024 * 1024;
export const IMPORT_TOO_LARGE = "The file is too large for an upload (limit 4 MB): split it, or use npm run import.";
export const IMPORT_NO_FILE = "Choose a CSV file to import.";

/** A row the import cannot use, and every reason. */
export interface ImportRejectedRow {
  line: number;
  /** The row's name, when it has one. */
  name?: string;
  reasons: string[];
}

/** A row folded into another (the same business), and what they share. */
export interface ImportMergedRow {
  line: number;
  /** The line of the first row of its business. */
  into: number;
  why: string[];
}

/** One business of the file, and what the import does (or did) with it. */
export interface ImportChange {
  kind: "new" | "updated" | "unchanged" | "kept";
  /** The rows it comes from, first row first. */
  lines: number[];
  id: string;
  slug: string;
  name: string;
  city: string;
  state: string;
  /** Updated: the columns whose values change. */
  fields?: string[];
  /** Kept: why the listing is left as it is. */
  reason?: string;
}

export interface ImportSummary {
  rows: number;
  rejected: number;
  merged: number;
  new: number;
  updated: number;
  unchanged: number;
  kept: number;
  /** New plus updated: what an apply writes (or, applied, wrote). */
  changes: number;
}

/** POST /api/admin/import's answer: the dry run's report, or what an apply did. */
export interface AdminImportReply {
  applied: boolean;
  summary: ImportSummary;
  rejected: ImportRejectedRow[];
  merged: ImportMergedRow[];
  changes: ImportChange[];
  /** Applied: writes not reached in the time a request has (apply again for them). */
  remaining?: number;
  /** Applied: writes the store refused (a slug taken meanwhile), with why. */
  failed?: { name: string; lines: number[]; reason: string }[];
}
