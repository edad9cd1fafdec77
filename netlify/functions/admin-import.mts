/**
 * POST /api/admin/import (multipart: file, apply): real businesses from a CSV file, a dry run
 * unless apply is set (docs/import.md). Bearer ADMIN_TOKEN; the handler lives in
 * ../lib/admin/import.ts.
 */
import type { Config } from "@netlify/functions";
import { adminImportHandler } from "../lib/admin/import.ts";

export default adminImportHandler();

// No method filter here: other methods must reach the handler to get a 405 with Allow.
export const config: Config = { path: "/api/admin/import" };
