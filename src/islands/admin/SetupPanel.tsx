/**
 * The launch checklist (/admin > Setup): one line per thing a live site needs, each with its
 * state (Ready, Warning, Not ready: in words, not color alone), one sentence of what to do,
 * and its facts (the sender, the last send, a schedule's last run...). The lines come from
 * GET /api/admin/setup (netlify/lib/admin/setup.ts), the same ones the server logs at start.
 */
import { useCallback, useEffect, useState } from "react";
import { SETUP_STATE_LABELS, type AdminSetupReply, type SetupLine, type SetupState } from "../../lib/admin-setup.ts";
import { adminJson, formatWhen } from "./api.ts";
import { ErrorAlert, LoadingNote, useLatestRead, type PanelProps } from "./ListParts.tsx";

const COLORS: Record<SetupState, string> = {
  ready: "bg-forest-100 text-forest-800",
  warning: "bg-amber-100 text-amber-900",
  "not-ready": "bg-red-700 text-white",
};

function SetupRow({ line }: { line: SetupLine }) {
  return (
    <li className="px-4 py-4" aria-labelledby={`setup-${line.id}`}>
      <div className="flex flex-wrap items-center gap-2">
        <h2 id={`setup-${line.id}`} className="font-semibold text-forest-950">
          {line.label}
        </h2>
        <span className={`badge ${COLORS[line.state]}`}>{SETUP_STATE_LABELS[line.state]}</span>
      </div>
      <p className="mt-1 text-sm text-slate-700">{line.text}</p>
      {line.facts.length > 0 ? (
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          {line.facts.map((fact) => (
            <div key={fact.label} className="contents">
              <dt className="text-slate-500">{fact.label}</dt>
              <dd className="min-w-0 break-words text-slate-800">
                {fact.at ? <time dateTime={fact.at}>{formatWhen(fact.at)}</time> : fact.value}
              </dd>
            </div>
          ))}
        </dl>
      ) : null}
    </li>
  );
}

export function SetupPanel({ token, refreshKey, onAuthError }: PanelProps) {
  const [reply, setReply] = useState<AdminSetupReply | null>(null);
  const { loading, error, run } = useLatestRead(onAuthError, true);

  const load = useCallback(
    () => run(() => adminJson<AdminSetupReply>(token, "/api/admin/setup"), setReply),
    [run, token],
  );
  useEffect(() => {
    void load();
  }, [load, refreshKey]);

  const notReady = reply?.lines.filter((l) => l.state === "not-ready").length ?? 0;
  const warnings = reply?.lines.filter((l) => l.state === "warning").length ?? 0;
  return (
    <section aria-label="Launch checklist">
      <p className="text-sm text-slate-600">
        What a live site needs, checked now. The server logs the same lines when it starts.
      </p>
      <ErrorAlert error={error} />
      {loading ? (
        <p className="mt-3">
          <LoadingNote />
        </p>
      ) : null}
      {reply ? (
        <>
          <p className="mt-4 font-medium text-slate-900" role="status">
            {notReady === 0 && warnings === 0
              ? "Everything is ready."
              : [
                  notReady > 0 ? `${notReady} not ready` : null,
                  warnings > 0 ? `${warnings} warning${warnings === 1 ? "" : "s"}` : null,
                ]
                  .filter(Boolean)
                  .join(", ") + `, checked ${formatWhen(reply.checkedAt)}.`}
          </p>
          <ul
            className="mt-3 divide-y divide-slate-200 rounded-card border border-forest-100 bg-white"
            aria-label="Checklist"
          >
            {reply.lines.map((line) => (
              <SetupRow key={line.id} line={line} />
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
