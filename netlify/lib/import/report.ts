/**
 * An import's report: the counts (the admin shows them, the CLI prints them) and the text the
 * CLI prints, a line per rejected row, merged row and business.
 */
import type { ImportSummary } from "../../../src/lib/admin-import.ts";
import type { Applied } from "./apply.ts";
import type { ImportPlan, PlannedChange } from "./plan.ts";

export type { ImportSummary };

export function summarize(plan: ImportPlan, applied?: Applied): ImportSummary {
  const count = (kind: PlannedChange["kind"]) => plan.changes.filter((c) => c.kind === kind).length;
  const planned = count("new") + count("updated");
  return {
    rows: plan.rows,
    rejected: plan.rejected.length,
    merged: plan.merged.length,
    new: count("new"),
    updated: count("updated"),
    unchanged: count("unchanged"),
    kept: count("kept"),
    changes: applied ? applied.written : planned,
  };
}

const lines = (ls: readonly number[]) => (ls.length === 1 ? `line ${ls[0]}` : `lines ${ls.join(", ")}`);
const where = (c: PlannedChange) => `"${c.name}", ${c.city}, ${c.state} (/directory/${c.slug})`;

function changeLine(c: PlannedChange): string {
  switch (c.kind) {
    case "new":
      return `  new        ${where(c)} from ${lines(c.lines)}`;
    case "updated":
      return `  updated    ${where(c)} from ${lines(c.lines)}: ${c.fields.join(", ")}`;
    case "unchanged":
      return `  unchanged  ${where(c)} from ${lines(c.lines)}`;
    case "kept":
      return `  kept       ${where(c)} from ${lines(c.lines)}: ${c.reason}`;
  }
}

/** The report as text lines. */
export function formatReport(plan: ImportPlan, summary: ImportSummary, applied?: Applied): string[] {
  const out: string[] = [];
  if (plan.rejected.length) {
    out.push(`Rejected rows (${plan.rejected.length}):`);
    for (const r of plan.rejected) out.push(`  line ${r.line}${r.name ? ` "${r.name}"` : ""}: ${r.reasons.join("; ")}`);
  }
  if (plan.merged.length) {
    out.push(`Merged rows (${plan.merged.length}):`);
    for (const m of plan.merged) out.push(`  line ${m.line} merged into line ${m.into} (same ${m.why.join(", ")})`);
  }
  if (plan.changes.length) {
    out.push(`Businesses (${plan.changes.length}):`);
    for (const c of plan.changes) out.push(changeLine(c));
  }
  const tally =
    `${summary.rows} rows: ${summary.rejected} rejected, ${summary.merged} merged; ` +
    `${summary.new} new, ${summary.updated} updated, ${summary.unchanged} unchanged, ${summary.kept} kept (claimed)`;
  out.push(tally);
  if (!applied) {
    const planned = summary.new + summary.updated;
    out.push(
      planned === 0
        ? "Dry run: nothing to change."
        : `Dry run: nothing was written. Run again with --apply to write ${planned} change${planned === 1 ? "" : "s"}.`,
    );
  } else {
    out.push(`Applied: ${applied.written} change${applied.written === 1 ? "" : "s"} written.`);
    for (const f of applied.failed) out.push(`  not written: "${f.name}" (${lines(f.lines)}): ${f.reason}`);
    if (applied.remaining > 0)
      out.push(`${applied.remaining} not reached in time: run the import again to write them.`);
  }
  return out;
}
