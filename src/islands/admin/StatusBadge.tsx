/** A lead's workflow state as a coloured pill (text, not colour alone, carries the meaning). */
import { LEAD_STATUS_LABELS } from "../../lib/admin.ts";
import type { LeadStatus } from "../../lib/schemas/lead.ts";

const COLOURS: Record<LeadStatus, string> = {
  new: "bg-amber-100 text-amber-900",
  contacted: "bg-sky-100 text-sky-900",
  won: "bg-forest-100 text-forest-800",
  lost: "bg-slate-200 text-slate-700",
};

export function StatusBadge({ status }: { status: LeadStatus }) {
  return <span className={`badge ${COLOURS[status] ?? COLOURS.new}`}>{LEAD_STATUS_LABELS[status] ?? status}</span>;
}
