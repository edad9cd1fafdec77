/**
 * Businesses' reports of bad leads (from their answer pages): how many by reason and by the form
 * the leads came from, so the operator can fix what sends bad leads, and the newest reports,
 * each opening its lead.
 */
import { useCallback, useEffect, useState } from "react";
import { LEAD_TYPE_LABELS } from "../../lib/admin.ts";
import { REPORT_REASONS, reportReasonLabel } from "../../lib/lead-routing.ts";
import { LEAD_TYPES } from "../../lib/lead-types.ts";
import type { LeadReportSummary } from "../../lib/schemas/lead-report.ts";
import { adminJson, formatWhen } from "./api.ts";
import { ErrorAlert, useLatestRead, type PanelProps } from "./ListParts.tsx";

interface Props extends PanelProps {
  onOpen(id: string, trigger: HTMLElement): void;
}

function Counts({ label, rows }: { label: string; rows: [string, number][] }) {
  return (
    <table className="w-full text-sm">
      <caption className="mb-1 text-left font-semibold text-slate-900">{label}</caption>
      <tbody className="divide-y divide-slate-200">
        {rows.map(([name, n]) => (
          <tr key={name}>
            <th scope="row" className="py-1.5 pr-3 text-left font-normal text-slate-700">
              {name}
            </th>
            <td className="py-1.5 text-right font-medium text-slate-900 tabular-nums">{n}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function ReportsPanel({ token, refreshKey, onOpen, onAuthError }: Props) {
  const [state, setState] = useState<LeadReportSummary | null>(null);
  // The shared read: only the latest answer is kept, a lost session signs out.
  const { error, run: read } = useLatestRead(onAuthError, true);

  const load = useCallback(
    () => read(() => adminJson<LeadReportSummary>(token, "/api/admin/reports"), setState),
    [read, token],
  );

  useEffect(() => {
    void load();
  }, [load, refreshKey]);

  return (
    <section aria-label="Bad-lead reports">
      <ErrorAlert error={error} />
      {state && state.total === 0 ? <p className="text-slate-600">No business has reported a lead.</p> : null}
      {state && state.total > 0 ? (
        <>
          <p className="font-medium text-slate-900">
            {state.total} lead{state.total === 1 ? "" : "s"} reported. Reported leads do not count in the businesses'
            response figures.
          </p>
          <div className="mt-4 grid max-w-3xl gap-6 sm:grid-cols-2">
            <Counts
              label="By reason"
              rows={REPORT_REASONS.map((r) => [r.label, state.byReason[r.value] ?? 0] as [string, number])}
            />
            <Counts
              label="By form"
              rows={LEAD_TYPES.filter((t) => (state.byForm[t] ?? 0) > 0).map(
                (t) => [LEAD_TYPE_LABELS[t], state.byForm[t] ?? 0] as [string, number],
              )}
            />
          </div>
          <h2 className="mt-6 font-semibold text-slate-900">Newest reports</h2>
          <ul
            className="mt-2 divide-y divide-slate-200 rounded-card border border-forest-100 bg-white"
            aria-label="Newest reports"
          >
            {state.recent.map((r) => (
              <li
                key={`${r.leadId}|${r.businessId}`}
                className="flex flex-col gap-1 px-4 py-3 text-sm sm:flex-row sm:items-center sm:justify-between"
              >
                <span>
                  <button type="button" className="link" onClick={(e) => onOpen(r.leadId, e.currentTarget)}>
                    {r.reference || r.leadId}
                  </button>{" "}
                  {reportReasonLabel(r.reason)} · {r.businessName}
                </span>
                <span className="text-slate-600">
                  {LEAD_TYPE_LABELS[r.form]} from {r.sourcePage} · {formatWhen(r.at)}
                </span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
