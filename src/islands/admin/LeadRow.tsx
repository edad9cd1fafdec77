/**
 * One lead in a list (the inbox and its pinned emergencies): who, how to reach them, what they
 * want, its type and reference, urgency and status (which says whether a pro accepted it or
 * it needs the operator). The whole row opens the lead. Text only.
 */
import { LEAD_TYPE_SINGULAR } from "../../lib/admin.ts";
import { summarizeLead } from "../../lib/lead-summary.ts";
import type { Lead } from "../../lib/schemas/lead.ts";
import { formatWhen } from "./api.ts";
import { StatusBadge, UrgencyBadge } from "./StatusBadge.tsx";

export function LeadRow({ lead, onOpen }: { lead: Lead; onOpen(id: string, trigger: HTMLElement): void }) {
  const s = summarizeLead(lead);
  return (
    <button
      type="button"
      className="grid w-full gap-1 px-4 py-3 text-left hover:bg-forest-50 focus-visible:bg-forest-50 sm:grid-cols-[minmax(0,1.2fr)_minmax(0,1.6fr)_auto] sm:items-center sm:gap-4"
      onClick={(e) => onOpen(lead.id, e.currentTarget)}
      data-lead-id={lead.id}
    >
      <span className="min-w-0">
        <span className="block truncate font-semibold text-slate-900">{s.name}</span>
        <span className="block truncate text-sm text-slate-600">{[s.phone, s.email].filter(Boolean).join(" · ")}</span>
      </span>
      <span className="min-w-0 text-sm text-slate-700">
        <span className="block truncate">{s.what}</span>
        <span className="block truncate text-slate-500">
          {[LEAD_TYPE_SINGULAR[lead.type], lead.reference, s.estimate ?? s.company].filter(Boolean).join(" · ")}
        </span>
      </span>
      <span className="flex flex-wrap items-center gap-2 text-sm text-slate-500 sm:flex-col sm:items-end sm:gap-1">
        <span className="flex gap-1">
          <UrgencyBadge urgency={lead.urgency} />
          <StatusBadge status={lead.status} />
        </span>
        <time dateTime={lead.createdAt}>{formatWhen(lead.createdAt)}</time>
      </span>
    </button>
  );
}
