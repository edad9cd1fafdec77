/**
 * One lead in full (every field the visitor sent, as text, choices by their labels), its
 * reference and urgency, where it went and what the businesses answered, every message about
 * it, the visitor's status page, its notification state, offering it to nearby businesses by
 * hand, its status (which follows its offers; the operator closes and reopens it) and the
 * operator's note. Every time is said in
 * the job's own zone, labeled. Opened from a list row or from `/admin#lead=ld_...` (the link
 * in a notification). Uses the site's dialog frame: Radix focus trap, Escape, labels.
 */
import { useEffect, useId, useState, type FormEvent } from "react";
import { LEAD_STATUS_HINTS, LEAD_STATUS_LABELS, LEAD_TYPE_SINGULAR, type AdminLeadReply } from "../../lib/admin.ts";
import { DEFAULT_TIME_ZONE } from "../../lib/hours.ts";
import { summarizeLead } from "../../lib/lead-summary.ts";
import type { Message } from "../../lib/schemas/message.ts";
import type { OutboxItem } from "../../lib/schemas/outbox.ts";
import { MAX_NOTE_LENGTH, type Lead } from "../../lib/schemas/lead.ts";
import { telHref } from "../../lib/site.ts";
import { businessPath } from "../../lib/directory.ts";
import { formatMiles } from "../../lib/geo/distance.ts";
import { DialogHeader, DialogShell } from "./DialogShell.tsx";
import { inputClass, labelClass } from "../../views/leads/LeadForm.tsx";
import { adminJson, formatWhen, isAuthError, problem } from "./api.ts";
import { leadFields } from "./leadFields.ts";
import { LeadOffers } from "./LeadOffers.tsx";
import { LeadRouting } from "./LeadRouting.tsx";
import { useAdminAction } from "./ListParts.tsx";
import { MessageRow } from "./MessageRow.tsx";
import { StatusBadge, UrgencyBadge } from "./StatusBadge.tsx";

/** Where a find-pros lead records the businesses it was passed to (netlify/lib/find-pros.ts). */
const MATCHED = "matchedBusinesses";
type Matched = {
  id?: string;
  name: string;
  slug: string;
  phone?: string | null;
  rating?: string;
  distanceMiles?: number;
};

function matchedBusinesses(lead: Lead): Matched[] {
  const list = (lead.data as Record<string, unknown> | null)?.[MATCHED];
  return Array.isArray(list)
    ? list.filter(
        (m): m is Matched => !!m && typeof m === "object" && typeof m.name === "string" && typeof m.slug === "string",
      )
    : [];
}

interface Props {
  token: string;
  leadId: string;
  onClose(): void;
  returnFocus(): HTMLElement | null;
  /** The lead as saved, and as it was before (the inbox's "N new" follows). */
  onSaved(lead: Lead, before: Lead): void;
  onAuthError(): void;
}

export function LeadDetail({ token, leadId, onClose, returnFocus, onSaved, onAuthError }: Props) {
  const uid = useId();
  const [lead, setLead] = useState<Lead | null>(null);
  const [outbox, setOutbox] = useState<OutboxItem | null>(null);
  const [messages, setMessages] = useState<Message[]>([]);
  const [statusUrl, setStatusUrl] = useState<string | undefined>(undefined);
  const [copied, setCopied] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [closed, setClosed] = useState(false);
  const [note, setNote] = useState("");
  const { busy, notice: saved, setNotice, run } = useAdminAction(onAuthError, setError);
  const saving = busy === "save";

  // Read again after an offer by hand, for the messages it sent; the form keeps what is typed.
  const [reads, setReads] = useState(0);
  useEffect(() => {
    let live = true;
    adminJson<AdminLeadReply>(token, `/api/admin/leads/${encodeURIComponent(leadId)}`)
      .then((body) => {
        if (!live) return;
        setLead(body.data);
        setOutbox(body.outbox);
        setMessages(body.messages ?? []);
        setStatusUrl(body.statusUrl);
        if (reads > 0) return;
        setClosed(body.data.status === "closed");
        setNote(body.data.note ?? "");
      })
      .catch((e) => {
        if (!live) return;
        if (isAuthError(e)) onAuthError();
        else setError(problem(e));
      });
    return () => {
      live = false;
    };
  }, [token, leadId, onAuthError, reads]);

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!lead) return;
    await run("save", async () => {
      const body = await adminJson<{ data: Lead }>(token, `/api/admin/leads/${encodeURIComponent(lead.id)}`, {
        method: "PATCH",
        body: { closed, note },
      });
      setLead(body.data);
      setClosed(body.data.status === "closed");
      setNotice("Saved");
      onSaved(body.data, lead);
    });
  }

  async function copyStatusLink() {
    if (!statusUrl) return;
    try {
      await navigator.clipboard.writeText(new URL(statusUrl, location.origin).href);
      setCopied(true);
    } catch {
      // No clipboard (permissions, an old browser): the link itself is still there to copy.
    }
  }

  const s = lead ? summarizeLead(lead) : null;
  const matched = lead ? matchedBusinesses(lead) : [];
  const timeZone = lead?.timeZone ?? DEFAULT_TIME_ZONE;
  const when = (iso: string) => formatWhen(iso, timeZone);
  return (
    <DialogShell open onClose={onClose} returnFocus={returnFocus} wide>
      {!lead || !s ? (
        <>
          <DialogHeader title="Lead" description={error ?? "Loading..."} />
          {error ? null : (
            <p className="text-slate-600" role="status">
              Loading...
            </p>
          )}
        </>
      ) : (
        <>
          <DialogHeader
            title={s.name}
            description={`${LEAD_TYPE_SINGULAR[lead.type]}${lead.reference ? ` ${lead.reference}` : ""} received ${when(lead.createdAt)}`}
          />
          <div className="flex flex-wrap items-center gap-3 text-sm">
            <UrgencyBadge urgency={lead.urgency} always />
            <StatusBadge status={lead.status} />
            {s.phone ? (
              <a className="link" href={telHref(s.phone)}>
                {s.phone}
              </a>
            ) : null}
            {s.email ? (
              <a className="link break-all" href={`mailto:${s.email}`}>
                {s.email}
              </a>
            ) : null}
          </div>
          {statusUrl ? (
            <p className="mt-3 flex flex-wrap items-center gap-3 text-sm">
              <a className="link" href={statusUrl} target="_blank" rel="noreferrer">
                The visitor&apos;s status page
              </a>
              <button type="button" className="btn-outline btn-sm" onClick={() => void copyStatusLink()}>
                {copied ? "Link copied" : "Copy link"}
              </button>
            </p>
          ) : null}
          {outbox ? (
            <p
              className="mt-4 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
              data-testid="lead-outbox"
            >
              Notification not delivered yet ({outbox.attempts} attempt{outbox.attempts === 1 ? "" : "s"}
              {outbox.lastError ? `, last error: ${outbox.lastError}` : ""}); next attempt {when(outbox.nextAttemptAt)}.
            </p>
          ) : null}

          <h3 className="mt-6 text-sm font-semibold tracking-wide text-forest-700 uppercase">Request</h3>
          <dl className="mt-2 grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[12rem_minmax(0,1fr)]">
            {leadFields(lead)
              .filter((f) => f.path !== MATCHED)
              .map(({ path, label, value }) => (
                <div key={path} className="contents">
                  <dt className="font-medium text-slate-600">{label}</dt>
                  <dd className="break-words whitespace-pre-line text-slate-900">{value}</dd>
                </div>
              ))}
            {matched.length > 0 && (
              <>
                <dt className="font-medium text-slate-600">Matched businesses</dt>
                <dd className="text-slate-900">
                  <ol className="list-decimal space-y-1 pl-5" data-testid="matched-businesses">
                    {matched.map((m) => (
                      <li key={m.id ?? m.slug}>
                        <a className="link" href={businessPath(m.slug)} target="_blank" rel="noreferrer">
                          {m.name}
                        </a>{" "}
                        <span className="text-slate-600">
                          {typeof m.distanceMiles === "number" ? `${formatMiles(m.distanceMiles)}, ` : ""}
                          {m.rating} stars{m.phone ? `, ${m.phone}` : ""}
                        </span>
                      </li>
                    ))}
                  </ol>
                </dd>
              </>
            )}
            {lead.reference ? (
              <>
                <dt className="font-medium text-slate-600">Reference</dt>
                <dd className="font-mono text-slate-900">{lead.reference}</dd>
              </>
            ) : null}
            <dt className="font-medium text-slate-600">Source page</dt>
            <dd className="break-all text-slate-900">{lead.sourcePage}</dd>
            <dt className="font-medium text-slate-600">Lead ID</dt>
            <dd className="font-mono text-xs break-all text-slate-900">{lead.id}</dd>
          </dl>

          {lead.routing ? <LeadRouting routing={lead.routing} timeZone={timeZone} /> : null}
          <LeadOffers
            token={token}
            lead={lead}
            onAuthError={onAuthError}
            onOffered={(next) => {
              setLead(next);
              onSaved(next, lead);
              setReads((n) => n + 1);
            }}
          />

          <form onSubmit={save} className="mt-6 grid gap-4 rounded-lg border border-forest-100 bg-forest-50/50 p-4">
            <div>
              <p className="flex flex-wrap items-center gap-2 text-sm" data-testid="lead-status">
                <span className="font-semibold text-slate-700">Status</span>
                <StatusBadge status={lead.status} />
                <span className="text-slate-600">{LEAD_STATUS_HINTS[lead.status]}</span>
              </p>
              <div className="mt-2 flex items-start gap-2">
                <input
                  id={`${uid}-closed`}
                  type="checkbox"
                  className="mt-1 size-5 shrink-0 accent-forest-700"
                  checked={closed}
                  onChange={(e) => setClosed(e.target.checked)}
                  aria-describedby={`${uid}-closed-hint`}
                />
                <div>
                  <label htmlFor={`${uid}-closed`} className="font-medium text-slate-900">
                    Closed
                  </label>
                  <p id={`${uid}-closed-hint`} className="text-sm text-slate-600">
                    Nothing more to do on it. Clear the box to reopen it: its status goes back to what its offers say.
                  </p>
                </div>
              </div>
            </div>
            <div>
              <label htmlFor={`${uid}-note`} className={labelClass}>
                Note
              </label>
              <textarea
                id={`${uid}-note`}
                className={inputClass}
                rows={3}
                maxLength={MAX_NOTE_LENGTH}
                value={note}
                onChange={(e) => setNote(e.target.value)}
              />
            </div>
            <div className="flex items-center gap-3">
              <button type="submit" className="btn-secondary btn-sm" disabled={saving}>
                {saving ? "Saving..." : "Save"}
              </button>
              {saved ? (
                <span className="text-sm text-forest-700" role="status">
                  {saved}
                </span>
              ) : null}
            </div>
            {error ? (
              <p role="alert" className="text-sm text-red-700">
                {error}
              </p>
            ) : null}
          </form>

          {lead.history && lead.history.length > 0 ? (
            <>
              <h3 className="mt-6 text-sm font-semibold tracking-wide text-forest-700 uppercase">History</h3>
              <ol className="mt-2 space-y-2 text-sm text-slate-700">
                {[...lead.history].reverse().map((change, i) => (
                  <li key={`${change.at}-${i}`}>
                    <time dateTime={change.at} className="text-slate-500">
                      {when(change.at)}
                    </time>{" "}
                    {change.from === change.to
                      ? "Note changed"
                      : `${LEAD_STATUS_LABELS[change.from]} → ${LEAD_STATUS_LABELS[change.to]}`}
                    {change.note ? (
                      <span className="block whitespace-pre-line text-slate-600">“{change.note}”</span>
                    ) : null}
                  </li>
                ))}
              </ol>
            </>
          ) : null}

          <h3 className="mt-6 text-sm font-semibold tracking-wide text-forest-700 uppercase">
            Messages ({messages.length})
          </h3>
          {messages.length === 0 ? (
            <p className="mt-2 text-sm text-slate-600">No messages about this lead yet.</p>
          ) : (
            <ul
              className="mt-2 divide-y divide-slate-200 rounded-card border border-forest-100 bg-white"
              aria-label="Messages about this lead, oldest first"
            >
              {messages.map((m) => (
                <MessageRow key={m.id} message={m} timeZone={timeZone} />
              ))}
            </ul>
          )}
        </>
      )}
    </DialogShell>
  );
}
