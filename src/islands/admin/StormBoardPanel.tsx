/**
 * The storm board: per declared storm, newest first, the requests that arrived
 * inside it (per hour, and where they stand: waiting, accepted, escalated) and the businesses
 * in its area taking storm jobs or fully booked. Read from GET /api/admin/storm-board; read
 * again on Refresh and when the tab regains focus, like every panel.
 */
import { useCallback, useEffect, useState } from "react";
import { STORM_BOARD_LABELS as L, STORM_OFFER_PROS, type StormBoardReply } from "../../lib/storm-routing.ts";
import { dayLabel } from "../../lib/capacity.ts";
import { adminJson, formatWhen } from "./api.ts";
import { ErrorAlert, LoadingNote, useLatestRead, type PanelProps } from "./ListParts.tsx";

export function StormBoardPanel({ token, refreshKey, onAuthError }: PanelProps) {
  const [state, setState] = useState<StormBoardReply | null>(null);
  // The shared read: only the latest answer is kept, a lost session signs out.
  const { error, run: read } = useLatestRead(onAuthError, true);

  const load = useCallback(
    () => read(() => adminJson<StormBoardReply>(token, "/api/admin/storm-board"), setState),
    [read, token],
  );

  useEffect(() => {
    void load();
  }, [load, refreshKey]);

  return (
    <section aria-label="Storm board">
      <p className="text-sm text-slate-600">
        An emergency inside an active storm goes to the {STORM_OFFER_PROS} nearest pros that can take it at once; the
        clock keeps its schedule (one more pro at minute 10, the team at minute 20).
      </p>
      <ErrorAlert error={error} />
      {!state && !error ? <LoadingNote /> : null}
      {state && state.storms.length === 0 ? <p className="mt-6 text-slate-600">No storm is declared.</p> : null}
      {state?.storms.map((s) => (
        <article key={s.id} className="card mt-6" aria-labelledby={`storm-${s.id}`}>
          <h2 id={`storm-${s.id}`} className="text-xl font-semibold text-forest-950">
            {s.name}{" "}
            <span className="text-sm font-normal text-slate-600">{s.active ? "(active)" : "(not active)"}</span>
          </h2>
          <p className="text-sm text-slate-600">
            {s.area} · from {formatWhen(s.startsAt)}
            {s.endsAt ? ` to ${formatWhen(s.endsAt)}` : ""}
          </p>
          <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-5">
            {(
              [
                [L.requests, s.requests],
                [L.waiting, s.waiting],
                [L.accepted, s.accepted],
                [L.escalated, s.escalated],
                [L.closed, s.closed],
              ] as const
            ).map(([label, value]) => (
              <div key={label}>
                <dt className="text-xs text-slate-600">{label}</dt>
                <dd className="text-2xl font-bold text-slate-900">{value}</dd>
              </div>
            ))}
          </dl>
          <h3 className="mt-4 font-semibold text-slate-900">
            {L.taking}: {s.taking.length}
          </h3>
          {s.taking.length > 0 ? <p className="text-sm">{s.taking.map((b) => b.name).join(", ")}</p> : null}
          <h3 className="mt-3 font-semibold text-slate-900">
            {L.booked}: {s.booked.length}
          </h3>
          {s.booked.length > 0 ? (
            <p className="text-sm">{s.booked.map((b) => `${b.name} (until ${dayLabel(b.until)})`).join(", ")}</p>
          ) : null}
          {s.perHour.length > 0 ? (
            <table className="mt-4 w-full max-w-sm text-sm">
              <caption className="text-left font-semibold text-slate-900">{L.perHour}</caption>
              <thead>
                <tr>
                  <th scope="col" className="text-left">
                    Hour from
                  </th>
                  <th scope="col" className="text-right">
                    Requests
                  </th>
                </tr>
              </thead>
              <tbody>
                {s.perHour.map((h) => (
                  <tr key={h.hourStart}>
                    <td>{formatWhen(h.hourStart)}</td>
                    <td className="text-right">{h.count}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </article>
      ))}
    </section>
  );
}
