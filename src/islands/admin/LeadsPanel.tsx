/**
 * The leads inbox: every type, newest first, a page at a time ("Load more" follows the cursor),
 * filtered by type, status and urgency, searchable by reference (the lead it names comes
 * first), name, e-mail or phone, with the CSV export of what the filters select. Open
 * emergencies (whatever the filters) are pinned above the list. Rows open the detail dialog.
 * Every value is rendered as text.
 */
import { useCallback, useEffect, useId, useState, type FormEvent } from "react";
import { MAX_ADMIN_SEARCH, type AdminLeadsReply } from "../../lib/admin.ts";
import { isOpenEmergency } from "../../lib/lead-status.ts";
import type { Lead } from "../../lib/schemas/lead.ts";
import { inputClass, labelClass } from "../../views/leads/LeadForm.tsx";
import { adminFetch, adminJson, isAuthError, problem } from "./api.ts";
import { LeadFilters, type LeadFilterValues } from "./LeadFilters.tsx";
import { LeadRow } from "./LeadRow.tsx";
import { ErrorAlert, Pager, useCursorList, type PanelProps } from "./ListParts.tsx";

export type LeadsPage = AdminLeadsReply;

interface Props extends PanelProps {
  /** A lead changed in the dialog: show the new version without a reload. */
  updated: Lead | null;
  /** The filters, kept by the app so they survive a visit to another tab. */
  filters: LeadFilterValues;
  onFilters(next: LeadFilterValues): void;
  onOpen(id: string, trigger: HTMLElement): void;
  /** Every page's count of leads that need the operator, for the tab. */
  onCounts(needsYou: number): void;
}

const listClass = "divide-y divide-slate-200 overflow-hidden rounded-card border bg-white";

export function LeadsPanel({ token, refreshKey, updated, filters, onFilters, onOpen, onAuthError, onCounts }: Props) {
  const searchId = useId();
  const emergencyId = useId();
  const [draft, setDraft] = useState("");
  const [query, setQuery] = useState("");
  const [counts, setCounts] = useState<LeadsPage["counts"] | null>(null);
  const [statusCounts, setStatusCounts] = useState<LeadsPage["statusCounts"] | null>(null);
  const [emergencies, setEmergencies] = useState<Lead[]>([]);
  const [scanned, setScanned] = useState<number | undefined>(undefined);
  const [exporting, setExporting] = useState(false);

  const filterParams = useCallback(() => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
    return params;
  }, [filters]);

  const fetchPage = useCallback(
    (from: string | null) => {
      const params = filterParams();
      params.set("limit", "25");
      if (query) params.set("q", query);
      if (from) params.set("cursor", from);
      return adminJson<LeadsPage>(token, `/api/admin/leads?${params}`);
    },
    [token, query, filterParams],
  );
  const onPage = useCallback(
    (page: LeadsPage) => {
      setScanned(page.scanned);
      setCounts(page.counts);
      setStatusCounts(page.statusCounts ?? null);
      setEmergencies(page.emergencies ?? []);
      onCounts(page.needsYou ?? 0);
    },
    [onCounts],
  );
  const { items, setItems, cursor, loading, error, setError, more } = useCursorList<Lead, LeadsPage>(
    fetchPage,
    refreshKey,
    onAuthError,
    onPage,
  );

  useEffect(() => {
    if (!updated) return;
    setItems((current) => current.map((l) => (l.id === updated.id ? updated : l)));
    // A pinned emergency leaves the block once someone has it (accepted or closed).
    // eslint-disable-next-line react-hooks/set-state-in-effect -- mirrors a change made in the dialog
    setEmergencies((current) =>
      current.flatMap((l) => (l.id !== updated.id ? [l] : isOpenEmergency(updated) ? [updated] : [])),
    );
  }, [updated, setItems]);

  const search = (event: FormEvent) => {
    event.preventDefault();
    setQuery(draft.trim());
  };

  async function exportCsv() {
    setExporting(true);
    setError(null);
    try {
      const res = await adminFetch(token, `/api/admin/leads.csv?${filterParams()}`, { accept: "text/csv" });
      const name = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? "treeline-leads.csv";
      const url = URL.createObjectURL(await res.blob());
      const a = document.createElement("a");
      a.href = url;
      a.download = name;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (e) {
      if (isAuthError(e)) onAuthError();
      else setError(problem(e));
    } finally {
      setExporting(false);
    }
  }

  const filtered = Object.values(filters).some(Boolean);
  return (
    <section aria-label="Leads" aria-busy={loading || undefined}>
      {emergencies.length > 0 ? (
        <section aria-labelledby={emergencyId} className="mb-6" data-testid="open-emergencies">
          <h2 id={emergencyId} className="text-lg font-semibold text-red-800">
            Open emergencies ({emergencies.length})
          </h2>
          <p className="text-sm text-slate-600">
            Emergency requests no business has accepted and nobody closed, whatever the filters below.
          </p>
          <ul className={`mt-2 border-red-300 ${listClass}`} aria-label="Open emergencies, newest first">
            {emergencies.map((lead) => (
              <li key={lead.id}>
                <LeadRow lead={lead} onOpen={onOpen} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <LeadFilters value={filters} counts={counts} statusCounts={statusCounts} onChange={onFilters} />
      <div className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <form role="search" onSubmit={search} className="flex w-full max-w-xl items-end gap-2">
          <div className="flex-1">
            <label htmlFor={searchId} className={labelClass}>
              Search leads by reference, name, e-mail or phone
            </label>
            <input
              id={searchId}
              type="search"
              className={inputClass}
              value={draft}
              maxLength={MAX_ADMIN_SEARCH}
              onChange={(e) => setDraft(e.target.value)}
            />
          </div>
          <button type="submit" className="btn-secondary btn-sm">
            Search
          </button>
        </form>
        <button
          type="button"
          className="btn-outline btn-sm shrink-0"
          onClick={() => void exportCsv()}
          disabled={exporting}
        >
          {exporting ? "Exporting..." : "Export CSV"}
        </button>
      </div>

      {query ? (
        <p className="mt-3 text-sm text-slate-600">
          Results for <q className="font-medium text-slate-900">{query}</q>{" "}
          <button
            type="button"
            className="link"
            onClick={() => {
              setDraft("");
              setQuery("");
            }}
          >
            Clear search
          </button>
        </p>
      ) : null}
      <ErrorAlert error={error} />

      {items.length === 0 && !loading && !error ? (
        <p className="mt-6 text-slate-600">
          {cursor
            ? `No matches among the ${scanned ?? ""} newest leads yet.`
            : query || filtered
              ? "No leads match."
              : "No leads yet."}
        </p>
      ) : (
        <ul className={`mt-4 border-forest-100 ${listClass}`} aria-label="Leads, newest first">
          {items.map((lead) => (
            <li key={lead.id}>
              <LeadRow lead={lead} onOpen={onOpen} />
            </li>
          ))}
        </ul>
      )}
      <Pager cursor={cursor} loading={loading} onMore={more}>
        {query || scanned !== undefined ? "Search older leads" : "Load more"}
      </Pager>
    </section>
  );
}
