/**
 * Every message the site sent or would have sent (operator alerts, visitor receipts and
 * updates, offers to businesses), newest first, a page at a time. On a default install no
 * provider is set up, so every message is kept here and the operator still sees the whole
 * loop; the line on top says which providers send.
 */
import { useEffect, useState } from "react";
import { providersLine } from "../../lib/admin-messages.ts";
import type { AdminChannels, AdminMessagesReply } from "../../lib/admin.ts";
import { adminJson } from "./api.ts";
import { ErrorAlert, LoadingNote, useLatestRead, type PanelProps } from "./ListParts.tsx";
import { MessageRow } from "./MessageRow.tsx";

export const MESSAGES_PAGE = 25;

interface Props extends PanelProps {
  /** The providers (from the outbox answer); null until known. */
  channels: AdminChannels | null;
  onOpen(leadId: string, trigger: HTMLElement): void;
}

export function MessagesPanel({ token, refreshKey, channels, onOpen, onAuthError }: Props) {
  const [offset, setOffset] = useState(0);
  const [page, setPage] = useState<AdminMessagesReply | null>(null);
  const { loading, error, run } = useLatestRead(onAuthError, false);

  useEffect(() => {
    void run(
      () => adminJson<AdminMessagesReply>(token, `/api/admin/messages?offset=${offset}&limit=${MESSAGES_PAGE}`),
      setPage,
    );
  }, [run, token, offset, refreshKey]);

  const total = page?.total ?? 0;
  const shown = page?.data.length ?? 0;
  return (
    <section aria-label="Messages" aria-busy={loading || undefined}>
      {channels ? (
        <p className="rounded-lg border border-sky-200 bg-sky-50 p-3 text-sm text-sky-950" data-testid="providers">
          {providersLine(channels)}
        </p>
      ) : null}
      <ErrorAlert error={error} />
      {page && total === 0 ? (
        <p className="mt-6 text-slate-600">
          No messages yet. Every message about a lead (the operator&apos;s alert, the visitor&apos;s receipt, offers to
          businesses) appears here, sent or not.
        </p>
      ) : null}
      {page && shown > 0 ? (
        <>
          <p className="mt-4 text-sm text-slate-600">
            Messages {offset + 1}–{offset + shown} of {total}, newest first
          </p>
          <ul
            className="mt-2 divide-y divide-slate-200 rounded-card border border-forest-100 bg-white"
            aria-label="Messages, newest first"
          >
            {page.data.map((m) => (
              <MessageRow key={m.id} message={m} onOpenLead={onOpen} />
            ))}
          </ul>
        </>
      ) : null}
      <div className="mt-4 flex items-center gap-3">
        {offset > 0 ? (
          <button
            type="button"
            className="btn-outline btn-sm"
            disabled={loading}
            onClick={() => setOffset(Math.max(0, offset - MESSAGES_PAGE))}
          >
            Newer
          </button>
        ) : null}
        {offset + shown < total ? (
          <button
            type="button"
            className="btn-outline btn-sm"
            disabled={loading}
            onClick={() => setOffset(offset + MESSAGES_PAGE)}
          >
            Older
          </button>
        ) : null}
        {loading ? <LoadingNote /> : null}
      </div>
    </section>
  );
}
