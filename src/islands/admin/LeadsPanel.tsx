/**
 * One lead type's inbox: newest first, a page at a time ("Load more" follows the cursor),
 * searchable by name, e-mail or phone, with the CSV export of the type. Rows open the
 * detail dialog. Every value is rendered as text.
 */
import { useCallback, useEffect, useId, useState, type FormEvent } from "react";
import { LEAD_TYPE_LABELS, MAX_ADMIN_SEARCH } from "../../lib/admin.ts";
import { summarizeLead } from "../../lib/lead-summary.ts";
import type { Lead, LeadType } from "../../lib/schemas/lead.ts";
import { inputClass, labelClass } from "../../views/leads/LeadForm.tsx";
import { adminFetch, adminJson, formatWhen, isAuthError, problem } from "./api.ts";
import { ErrorAlert, Pager, useCursorList } from "./ListParts.tsx";
import { StatusBadge } from "./StatusBadge.tsx";

export interface LeadsPage {
  data: Lead[];
  nextCursor: string | null;
  scanned?: number;
  counts: Record<LeadType | "all", number>;
}

interface Props {
  token: string;
  type: LeadType;
  /** Changes when the list should be read again (focus regained, a lead was edited). */
  refreshKey: number;
  /** A lead changed in the dialog: show the new version without a reload. */
  updated: Lead | null;
  onOpen(id: string, trigger: HTMLElement): void;
  onAuthError(): void;
  onCounts(counts: LeadsPage["counts"]): void;
}

export function LeadsPanel({ token, type, refreshKey, updated, onOpen, onAuthError, onCounts }: Props) {
  const searchId = useId();
  const [draft, setDraft] = useState("");
  const [query, setQuery] = useState("");
  const [scanned, setScanned] = useState<number | undefined>(undefined);
  const [exporting, setExporting] = useState(false);

  const fetchPage = useCallback(
    (from: string | null) => {
      const params = new URLSearchParams({ type, limit: "25" });
      if (query) params.set("q", query);
      if (from) params.set("cursor", from);
      return adminJson<LeadsPage>(token, `/api/admin/leads?${params}`);
    },
    [token, type, query],
  );
  const onPage = useCallback(
    (page: LeadsPage) => {
      setScanned(page.scanned);
      onCounts(page.counts);
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
    if (updated) setItems((current) => current.map((l) => (l.id === updated.id ? updated : l)));
  }, [updated, setItems]);

  const search = (event: FormEvent) => {
    event.preventDefault();
    setQuery(draft.trim());
  };

  async function exportCsv() {
    setExporting(true);
    setError(null);
    try {
      const res = await adminFetch(token, `/api/admin/leads.csv?type=${encodeURIComponent(type)}`, {
        accept: "text/csv",
      });
      const name =
        /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? `treeline-leads-${type}.csv`;
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

  const label = LEAD_TYPE_LABELS[type];
  return (
    <section aria-label={label} aria-busy={loading || undefined}>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <form role="search" onSubmit={search} className="flex w-full max-w-xl items-end gap-2">
          <div className="flex-1">
            <label htmlFor={searchId} className={labelClass}>
              Search {label.toLowerCase()} by name, e-mail or phone
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
          {query
            ? cursor
              ? `No matches among the ${scanned ?? ""} newest leads yet.`
              : "No leads match."
            : `No ${label.toLowerCase()} yet.`}
        </p>
      ) : (
        <ul
          className="mt-4 divide-y divide-slate-200 overflow-hidden rounded-card border border-forest-100 bg-white"
          aria-label={`${label}, newest first`}
        >
          {items.map((lead) => {
            const s = summarizeLead(lead);
            return (
              <li key={lead.id}>
                <button
                  type="button"
                  className="grid w-full gap-1 px-4 py-3 text-left hover:bg-forest-50 focus-visible:bg-forest-50 sm:grid-cols-[minmax(0,1.2fr)_minmax(0,1.6fr)_auto] sm:items-center sm:gap-4"
                  onClick={(e) => onOpen(lead.id, e.currentTarget)}
                  data-lead-id={lead.id}
                >
                  <span className="min-w-0">
                    <span className="block truncate font-semibold text-slate-900">{s.name}</span>
                    <span className="block truncate text-sm text-slate-600">
                      {[s.phone, s.email].filter(Boolean).join(" · ")}
                    </span>
                  </span>
                  <span className="min-w-0 text-sm text-slate-700">
                    <span className="block truncate">{s.what}</span>
                    {s.estimate || s.company ? (
                      <span className="block truncate text-slate-500">{s.estimate ?? s.company}</span>
                    ) : null}
                  </span>
                  <span className="flex items-center gap-3 text-sm text-slate-500 sm:flex-col sm:items-end sm:gap-1">
                    <StatusBadge status={lead.status} />
                    <time dateTime={lead.createdAt}>{formatWhen(lead.createdAt)}</time>
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <Pager cursor={cursor} loading={loading} onMore={more}>
        {query ? "Search older leads" : "Load more"}
      </Pager>
    </section>
  );
}
