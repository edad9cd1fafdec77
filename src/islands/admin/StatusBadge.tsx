/**
 * A lead's workflow state and urgency as coloured pills (text, not colour alone, carries the
 * meaning). Routine urgency gets no pill in lists: only what needs attention stands out.
 */
import type { Lead } from "../../lib/schemas/lead.ts";
import { LEAD_STATUS_LABELS } from "../../lib/admin.ts";
import { URGENCY_LABELS, type UrgencyLevel } from "../../lib/lead-urgency.ts";
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

const URGENCY_COLOURS: Record<UrgencyLevel, string> = {
  emergency: "bg-red-700 text-white",
  urgent: "bg-orange-100 text-orange-900",
  routine: "bg-slate-100 text-slate-700",
};

/** A lead without an urgency (stored before urgencies existed) is routine. */
export function UrgencyBadge({ urgency, always }: { urgency: UrgencyLevel | undefined; always?: boolean }) {
  const level = urgency ?? "routine";
  if (level === "routine" && !always) return null;
  return <span className={`badge ${URGENCY_COLOURS[level]}`}>{URGENCY_LABELS[level]}</span>;
}

/**
 * Where a routed lead stands, beside its status: a pro accepted, or it needs a person (the
 * clock or every decline passed it on, or it was held). Nothing for a lead still with pros.
 */
export function RoutingBadge({ routing }: { routing: Lead["routing"] }) {
  if (!routing) return null;
  if (routing.deliveries.some((d) => d.state === "accepted"))
    return <span className="badge bg-forest-100 text-forest-800">Pro accepted</span>;
  if (routing.escalatedAt) return <span className="badge bg-red-700 text-white">Needs you</span>;
  return null;
}
