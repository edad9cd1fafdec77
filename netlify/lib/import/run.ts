/**
 * One import, as `npm run import` and the /admin upload both run it: read the file, plan it
 * against the directory, and with `apply` write the plan. A file that cannot be read at all
 * is an error; rows that cannot be used are in the plan's rejects, and the rest still go in.
 */
import type { Store } from "../store/index.ts";
import { applyPlan, type Applied, type ApplyOptions } from "./apply.ts";
import { readImportCsv } from "./csv.ts";
import { readDirectory } from "./directory.ts";
import { planImport, type ImportPlan } from "./plan.ts";
import { summarize, type ImportSummary } from "./report.ts";

export type ImportResult =
  { ok: false; error: string } | { ok: true; plan: ImportPlan; summary: ImportSummary; applied?: Applied };

export async function runImport(
  store: Store,
  csv: string,
  options: { apply: false } | ({ apply: true } & ApplyOptions),
): Promise<ImportResult> {
  const file = readImportCsv(csv);
  if (!file.ok) return file;
  const known = await readDirectory(store);
  const plan = await planImport(file.rows, file.problems, known, store.owners);
  if (!options.apply) return { ok: true, plan, summary: summarize(plan) };
  const applied = await applyPlan(store, plan, options);
  return { ok: true, plan, summary: summarize(plan, applied), applied };
}
