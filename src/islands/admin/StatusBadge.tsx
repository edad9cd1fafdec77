/**
 * A lead's status (which follows its offers: accepted, escalated...) and urgency as colored
 * pills (text, not color alone, carries the meaning). Routine urgency gets no pill in lists:
 * only what needs attention stands out.
 */
import { LEAD_STATUS_LABELS } from "../../lib/admin.ts";
import { URGENCY_LABELS, type UrgencyLevel } from "../../lib/lead-urgency.ts";
import type { LeadStatus } from "../../lib/schemas/lead.ts";

const COLORS: Record<LeadStatus, string> = {
  new: "bg-amber-100 text-amber-900",
  offered: "bg-sky-100 text-sky-900",
  accepted: "bg-forest-100 text-forest-800",
  escalated: "bg-red-700 text-white",
  closed: "bg-slate-200 text-slate-700",
};

export function StatusBadge({ status }: { status: LeadStatus }) {
  return <span className={`badge ${COLORS[status] ?? COLORS.new}`}>{LEAD_STATUS_LABELS[status] ?? status}</span>;
}

const URGENCY_COLORS: Record<UrgencyLevel, string> = {
  emergency: "bg-red-700 text-white",
  urgent: "bg-orange-100 text-orange-900",
  routine: "bg-slate-100 text-slate-700",
};

/** A lead without an urgency (stored before urgencies existed) is routine. */
export function UrgencyBadge({ urgency, always }: { urgency: UrgencyLevel | undefined; always?: boolean }) {
  const level = urgency ?? "routine";
  if (level === "routine" && !always) return null;
  return <span className={`badge ${URGENCY_COLORS[level]}`}>{URGENCY_LABELS[level]}</span>;
}
