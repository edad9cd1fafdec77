/**
 * One message the site sent or kept (the Messages tab and a lead's dialog): when, to whom,
 * how, what about, and its state with the reason. The row opens the message in place.
 */
import { useId, useState } from "react";
import {
  MESSAGE_AUDIENCE_LABELS,
  MESSAGE_CHANNEL_LABELS,
  MESSAGE_KIND_LABELS,
  MESSAGE_STATE_LABELS,
} from "../../lib/admin-messages.ts";
import type { Message, MessageState } from "../../lib/schemas/message.ts";
import { isClaimId } from "../../lib/owners/choices.ts";
import { formatWhen } from "./api.ts";
import { MessageBody } from "./MessageBody.tsx";

const STATE_COLORS: Record<MessageState, string> = {
  sent: "bg-forest-100 text-forest-800",
  kept: "bg-slate-200 text-slate-800",
  retrying: "bg-amber-100 text-amber-900",
  failed: "bg-red-100 text-red-800",
  queued: "bg-sky-100 text-sky-900",
};

export function MessageStateBadge({ state }: { state: MessageState }) {
  return <span className={`badge ${STATE_COLORS[state] ?? STATE_COLORS.queued}`}>{MESSAGE_STATE_LABELS[state]}</span>;
}

/** "Business: Cedar Crew <crew@example.com>": who it is for and where it went. */
export function recipientOf(m: Message): string {
  const where = m.channel === "admin" || m.channel === "webhook" ? "" : m.to;
  const who = [m.toName, where && (m.toName ? `<${where}>` : where)].filter(Boolean).join(" ");
  return `${MESSAGE_AUDIENCE_LABELS[m.audience]}${who ? `: ${who}` : ""}`;
}

interface Props {
  message: Message;
  /** The Messages tab offers the lead; a lead's own dialog does not. */
  onOpenLead?(leadId: string, trigger: HTMLElement): void;
  /** A lead's dialog says its times in the job's zone, labeled; the Messages tab in the operator's. */
  timeZone?: string;
}

export function MessageRow({ message: m, onOpenLead: openLead, timeZone }: Props) {
  // A claim's messages (sign-in links, codes, decisions) have no lead to open.
  const onOpenLead = isClaimId(m.leadId) ? undefined : openLead;
  const panelId = useId();
  const [open, setOpen] = useState(false);
  return (
    <li className="px-4 py-3" data-message-id={m.id}>
      <button
        type="button"
        className="grid w-full gap-1 text-left sm:grid-cols-[9rem_minmax(0,1.3fr)_minmax(0,1.7fr)_auto] sm:items-center sm:gap-4"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
      >
        <time dateTime={m.createdAt} className="text-sm text-slate-500">
          {formatWhen(m.createdAt, timeZone)}
        </time>
        <span className="min-w-0 text-sm">
          <span className="block truncate font-medium text-slate-900">{recipientOf(m)}</span>
          <span className="block text-slate-500">
            {MESSAGE_CHANNEL_LABELS[m.channel]} · {MESSAGE_KIND_LABELS[m.kind] ?? m.kind}
          </span>
        </span>
        <span className="min-w-0 truncate text-sm text-slate-800">{m.subject}</span>
        <MessageStateBadge state={m.state} />
      </button>
      {m.note || onOpenLead ? (
        <p className="mt-1 flex flex-wrap items-center gap-x-3 text-xs text-slate-600">
          {m.note ? <span>{m.note}</span> : null}
          {onOpenLead ? (
            <button type="button" className="link" onClick={(e) => onOpenLead(m.leadId, e.currentTarget)}>
              Open lead {m.reference ?? ""}
            </button>
          ) : null}
        </p>
      ) : null}
      <div id={panelId} hidden={!open}>
        {open ? <MessageBody message={m} timeZone={timeZone} /> : null}
      </div>
    </li>
  );
}
