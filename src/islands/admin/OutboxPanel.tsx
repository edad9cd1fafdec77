/**
 * Notifications that have not gone yet (a lead's, or an owner's sign-in link, code or claim
 * answer): how often they were tried, why the last attempt failed, when the next one runs,
 * and a "Retry now".
 */
import { useCallback, useEffect, useState } from "react";
import { OUTBOX_TYPE_LABELS } from "../../lib/admin.ts";
import type { OutboxItem } from "../../lib/schemas/outbox.ts";
import { adminJson, formatWhen, isAuthError, problem } from "./api.ts";
import { ErrorAlert, useAdminAction, type PanelProps } from "./ListParts.tsx";

interface OutboxState {
  data: OutboxItem[];
  total: number;
  channels: { webhook: boolean; email: boolean };
}

interface Props extends PanelProps {
  onOpen(id: string, trigger: HTMLElement): void;
  onTotal(total: number): void;
}

export function OutboxPanel({ token, refreshKey, onOpen, onAuthError, onTotal }: Props) {
  const [state, setState] = useState<OutboxState | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    setError(null);
    try {
      const body = await adminJson<OutboxState>(token, "/api/admin/outbox");
      setState(body);
      onTotal(body.total);
    } catch (e) {
      if (isAuthError(e)) onAuthError();
      else setError(problem(e));
    }
  }, [token, onAuthError, onTotal]);

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- fetching is this effect's job; it clears the last error as it starts
    void load();
  }, [load, refreshKey]);

  const { busy, run } = useAdminAction(onAuthError, setError);
  const retrying = busy === "retry";
  const retry = () =>
    run("retry", async () => {
      await adminJson(token, "/api/admin/outbox", { method: "POST", body: {} });
      await load();
    });

  const off = state && !state.channels.webhook && !state.channels.email;
  return (
    <section aria-label="Notifications">
      {off ? (
        <p className="rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          Notifications are off: no operator channel is set (NOTIFY_WEBHOOK_URL, or NOTIFY_EMAIL_TO with
          RESEND_API_KEY). Every alert is kept in the Messages tab instead.
        </p>
      ) : state ? (
        <p className="text-sm text-slate-600">
          Channels:{" "}
          {[state.channels.webhook ? "webhook" : null, state.channels.email ? "e-mail" : null]
            .filter(Boolean)
            .join(" and ")}
          . Failed deliveries are retried every 5 minutes with backoff.
        </p>
      ) : null}
      <ErrorAlert error={error} />
      {state && state.total === 0 ? (
        <p className="mt-6 text-slate-600">Every lead notification has been delivered.</p>
      ) : null}
      {state && state.total > 0 ? (
        <>
          <div className="mt-4 flex flex-wrap items-center gap-3">
            <p className="font-medium text-slate-900">
              {state.total} undelivered notification{state.total === 1 ? "" : "s"}
            </p>
            {!off ? (
              <button type="button" className="btn-outline btn-sm" onClick={() => void retry()} disabled={retrying}>
                {retrying ? "Retrying..." : "Retry now"}
              </button>
            ) : null}
          </div>
          <ul
            className="mt-3 divide-y divide-slate-200 rounded-card border border-forest-100 bg-white"
            aria-label="Undelivered notifications"
          >
            {state.data.map((item) => (
              <li
                key={item.leadId}
                className="flex flex-col gap-1 px-4 py-3 text-sm sm:flex-row sm:items-center sm:justify-between"
              >
                {item.type === "owner" || item.type === "webhook" ? (
                  // No lead to open: the message is in the Messages tab, a delivery in its owner's log.
                  <span>
                    {OUTBOX_TYPE_LABELS[item.type]}{" "}
                    <span className="text-slate-500">first tried {formatWhen(item.createdAt)}</span>
                  </span>
                ) : (
                  <span>
                    <button type="button" className="link" onClick={(e) => onOpen(item.leadId, e.currentTarget)}>
                      {OUTBOX_TYPE_LABELS[item.type]}
                    </button>{" "}
                    <span className="text-slate-500">received {formatWhen(item.createdAt)}</span>
                  </span>
                )}
                <span className="text-slate-600">
                  {item.attempts} attempt{item.attempts === 1 ? "" : "s"}
                  {item.lastError ? ` · ${item.lastError}` : ""} · next {formatWhen(item.nextAttemptAt)}
                </span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
