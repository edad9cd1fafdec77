/**
 * The listing change history: every change an owner (or a rollback) made to a listing, newest
 * first, with who, when, the summary and each field before -> after, and a "Roll back" that
 * asks once more before it puts the fields back (the rollback is a new change, shown on top).
 * Optionally narrowed to one business by its id, slug or pasted page address (the server
 * resolves it). Values are rendered as text.
 */
import { useCallback, useId, useState, type FormEvent } from "react";
import {
  CHANGES_BUSINESS_LABEL,
  CHANGE_FIELD_LABELS,
  changeValueText,
  type AdminChange,
  type AdminChangesReply,
} from "../../lib/admin-changes.ts";
import { inputClass, labelClass } from "../../views/leads/LeadForm.tsx";
import { adminJson, formatWhen } from "./api.ts";
import { ErrorAlert, Pager, StatusNote, useAdminAction, useCursorList, type PanelProps } from "./ListParts.tsx";

const who = (c: AdminChange) => (c.actor.kind === "owner" ? `Owner ${c.actor.email}` : "Operator");

export function ChangesPanel({ token, refreshKey, onAuthError }: PanelProps) {
  const filterId = useId();
  const [businessId, setBusinessId] = useState("");
  const [confirming, setConfirming] = useState<string | null>(null);
  const fetchPage = useCallback(
    (from: string | null) =>
      adminJson<AdminChangesReply>(
        token,
        `/api/admin/changes?limit=25${businessId ? `&businessId=${encodeURIComponent(businessId)}` : ""}${from ? `&cursor=${encodeURIComponent(from)}` : ""}`,
      ),
    [token, businessId],
  );
  const { items, cursor, loading, error, setError, more, reload } = useCursorList<AdminChange, AdminChangesReply>(
    fetchPage,
    refreshKey,
    onAuthError,
  );
  const { busy, notice, setNotice, run } = useAdminAction(onAuthError, setError);

  function filter(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusinessId(String(new FormData(event.currentTarget).get("businessId") ?? "").trim());
  }

  const rollBack = (change: AdminChange) =>
    run(change.id, async () => {
      await adminJson<{ data: AdminChange }>(token, `/api/admin/changes/${encodeURIComponent(change.id)}/rollback`, {
        method: "POST",
        body: {},
      });
      setNotice(`Rolled back "${change.summary}" on ${change.businessName ?? change.businessId}.`);
      setConfirming(null);
      // The rollback is a change of its own: read the list again to show it on top.
      reload();
    });

  return (
    <section aria-label="Listing changes" aria-busy={loading || undefined}>
      <p className="text-sm text-slate-600">
        What owners changed on their listings. Roll back puts the changed fields back as they were; the public page
        shows it on the next request.
      </p>
      <form onSubmit={filter} className="mt-3 flex flex-wrap items-end gap-2">
        <div>
          <label htmlFor={filterId} className={labelClass}>
            {CHANGES_BUSINESS_LABEL}
          </label>
          <input
            id={filterId}
            name="businessId"
            defaultValue={businessId}
            placeholder="oak-crew or https://.../directory/oak-crew"
            className={inputClass}
          />
        </div>
        <button type="submit" className="btn-outline btn-sm">
          Show
        </button>
      </form>
      <StatusNote notice={notice} />
      <ErrorAlert error={error} />
      {items.length === 0 && !loading ? <p className="mt-6 text-slate-600">No changes yet.</p> : null}
      <ul className="mt-4 space-y-3" aria-label="Changes, newest first">
        {items.map((change) => (
          <li key={change.id} className="card p-4 sm:p-5" data-change-id={change.id}>
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <span className="font-semibold text-slate-900">{change.summary}</span>
              {change.revertOf ? <span className="badge bg-slate-100 text-slate-700">Rollback</span> : null}
            </div>
            <p className="mt-1 text-sm text-slate-600">
              {change.businessSlug ? (
                <a className="link" href={`/directory/${encodeURIComponent(change.businessSlug)}`}>
                  {change.businessName ?? change.businessId}
                </a>
              ) : (
                change.businessId
              )}
              {" · "}
              <span className="break-all">{who(change)}</span>
              {" · "}
              <time dateTime={change.at}>{formatWhen(change.at)}</time>
            </p>
            <dl className="mt-2 grid gap-1 text-sm">
              {Object.keys(change.after).map((field) => (
                <div key={field} className="grid gap-x-2 sm:grid-cols-[10rem_1fr]">
                  <dt className="font-medium text-slate-700">{CHANGE_FIELD_LABELS[field] ?? field}</dt>
                  <dd className="break-words text-slate-700">
                    <del className="text-slate-500">{changeValueText(field, change.before[field])}</del>
                    {" -> "}
                    <ins className="no-underline">{changeValueText(field, change.after[field])}</ins>
                  </dd>
                </div>
              ))}
            </dl>
            <div className="mt-3 flex flex-wrap gap-2">
              {confirming === change.id ? (
                <>
                  <button
                    type="button"
                    className="btn-primary btn-sm"
                    disabled={busy === change.id}
                    onClick={() => void rollBack(change)}
                  >
                    {busy === change.id ? "Rolling back..." : "Yes, roll back"}
                  </button>
                  <button type="button" className="btn-outline btn-sm" onClick={() => setConfirming(null)}>
                    Cancel
                  </button>
                </>
              ) : (
                <button type="button" className="btn-outline btn-sm" onClick={() => setConfirming(change.id)}>
                  Roll back
                </button>
              )}
            </div>
          </li>
        ))}
      </ul>
      <Pager cursor={cursor} loading={loading} onMore={more} />
    </section>
  );
}
