/**
 * The inbox's filters: type and status (each with its count) and urgency, as selects. Each
 * change reads the list again from its newest lead; blank means "any".
 */
import { useId } from "react";
import { LEAD_STATUS_LABELS, LEAD_TYPE_LABELS } from "../../lib/admin.ts";
import { URGENCY_LABELS, URGENCY_LEVELS, type UrgencyLevel } from "../../lib/lead-urgency.ts";
import { LEAD_TYPES } from "../../lib/lead-types.ts";
import { LEAD_STATUSES, type LeadStatus, type LeadType } from "../../lib/schemas/lead.ts";
import { inputClass, labelClass } from "../../views/leads/LeadForm.tsx";

export interface LeadFilterValues {
  type: LeadType | "";
  status: LeadStatus | "";
  urgency: UrgencyLevel | "";
}

export const NO_FILTERS: LeadFilterValues = { type: "", status: "", urgency: "" };

interface Props {
  value: LeadFilterValues;
  counts: Record<LeadType | "all", number> | null;
  statusCounts: Record<LeadStatus, number> | null;
  onChange(next: LeadFilterValues): void;
}

export function LeadFilters({ value, counts, statusCounts, onChange }: Props) {
  const id = useId();
  const count = (n: number | undefined) => (n === undefined ? "" : ` (${n})`);
  const select = <K extends keyof LeadFilterValues>(key: K, label: string, options: [string, string][]) => (
    <div>
      <label htmlFor={`${id}-${key}`} className={labelClass}>
        {label}
      </label>
      <select
        id={`${id}-${key}`}
        className={inputClass}
        value={value[key]}
        onChange={(e) => onChange({ ...value, [key]: e.target.value })}
      >
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <fieldset className="grid gap-3 sm:grid-cols-3">
      <legend className="sr-only">Filter leads</legend>
      {select("type", "Type", [
        ["", `All types${count(counts?.all)}`],
        ...LEAD_TYPES.map((t): [string, string] => [t, `${LEAD_TYPE_LABELS[t]}${count(counts?.[t])}`]),
      ])}
      {select("status", "Status", [
        ["", "Any status"],
        ...LEAD_STATUSES.map((s): [string, string] => [s, `${LEAD_STATUS_LABELS[s]}${count(statusCounts?.[s])}`]),
      ])}
      {select("urgency", "Urgency", [
        ["", "Any urgency"],
        ...URGENCY_LEVELS.map((u): [string, string] => [u, URGENCY_LABELS[u]]),
      ])}
    </fieldset>
  );
}
