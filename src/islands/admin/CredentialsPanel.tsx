/**
 * The operator's credentials queue: businesses whose owner stated a license or insurance that
 * nobody has checked yet, longest waiting first. Each shows what the owner stated, a link to
 * the state's public register, and Check / Reject per credential (with an optional note kept
 * in the change history). Checking puts the badge on the public page at once; rejecting
 * removes the credential from the listing. A business leaves the list when nothing is left
 * to check.
 */
import { useCallback, useState } from "react";
import { formatCredentialDate, formatUsd, todayIn } from "../../lib/credentials/format.ts";
import {
  CREDENTIAL_PART_WORDS,
  credentialFingerprint,
  type AdminCredentialItem,
  type AdminCredentialsReply,
  type CredentialDecision,
  type CredentialsPatch,
} from "../../lib/credentials/queue.ts";
import { licenceLine, licenceName, licensingState, lookupUrlOf } from "../../lib/credentials/state-rules.ts";
import { credentialStatus } from "../../lib/credentials/status.ts";
import { adminJson, formatWhen } from "./api.ts";
import {
  ErrorAlert,
  Pager,
  StatusNote,
  useAdminAction,
  useCursorList,
  type CursorPage,
  type PanelProps,
} from "./ListParts.tsx";
import { inputClass, labelClass } from "../../views/leads/LeadForm.tsx";

export function CredentialsPanel({ token, refreshKey, onAuthError }: PanelProps) {
  const [notes, setNotes] = useState<Record<string, string>>({});
  // The moment the panel opened: which insurance has expired is read against it.
  const [openedAt] = useState(() => Date.now());

  // The queue comes whole: one page, no cursor.
  const fetchPage = useCallback(async (): Promise<CursorPage<AdminCredentialItem>> => {
    const body = await adminJson<AdminCredentialsReply>(token, "/api/admin/credentials");
    return { data: body.data, nextCursor: null };
  }, [token]);
  const { items, setItems, cursor, loading, error, setError, more } = useCursorList<AdminCredentialItem>(
    fetchPage,
    refreshKey,
    onAuthError,
  );
  const { busy, notice, setNotice, run } = useAdminAction(onAuthError, setError);

  const decide = useCallback(
    (item: AdminCredentialItem, part: "licence" | "insurance", decision: CredentialDecision) => {
      const note = notes[item.businessId]?.trim();
      const stated = item.credentials[part];
      const body: CredentialsPatch = {
        [part]: decision,
        ...(note ? { note } : {}),
        // What the operator looked at: a credential changed since is refused, not decided.
        ...(stated ? { seen: { [part]: credentialFingerprint(stated) } } : {}),
      };
      return run(item.businessId, async () => {
        const answer = await adminJson<{ data: AdminCredentialItem }>(
          token,
          `/api/admin/credentials/${encodeURIComponent(item.businessId)}`,
          { method: "PATCH", body },
        );
        const next = answer.data;
        setItems((current) =>
          next.waitingSince === null
            ? current.filter((i) => i.businessId !== next.businessId)
            : current.map((i) => (i.businessId === next.businessId ? next : i)),
        );
        setNotice(`${item.name}: ${CREDENTIAL_PART_WORDS[part]} ${decision}.`);
      });
    },
    [notes, token, run, setItems, setNotice],
  );

  return (
    <section aria-label="Credentials" aria-busy={loading || undefined}>
      <p className="text-sm text-slate-600">
        Check each number on the state's register (or the insurance certificate) before you check it: the public page
        then says "checked by Treeline". Rejecting removes it from the listing; the change history keeps it.
      </p>
      <ErrorAlert error={error} />
      <StatusNote notice={notice} />
      {items.length === 0 && !loading && !error ? (
        <p className="mt-6 text-slate-600">Nothing waits for a check.</p>
      ) : null}
      <ul className="mt-4 space-y-3" aria-label="Waiting for a check, longest first">
        {items.map((item) => (
          <CredentialRow
            key={item.businessId}
            item={item}
            busy={busy === item.businessId}
            note={notes[item.businessId] ?? ""}
            now={openedAt}
            onNote={(text) => setNotes((n) => ({ ...n, [item.businessId]: text }))}
            onDecide={(part, decision) => void decide(item, part, decision)}
          />
        ))}
      </ul>
      <Pager cursor={cursor} loading={loading} onMore={more} />
    </section>
  );
}

function Decide({
  what,
  busy,
  onDecide,
}: {
  what: "licence" | "insurance";
  busy: boolean;
  onDecide(decision: CredentialDecision): void;
}) {
  return (
    <div className="flex flex-wrap gap-2">
      <button type="button" className="btn-primary btn-sm" disabled={busy} onClick={() => onDecide("checked")}>
        Check {CREDENTIAL_PART_WORDS[what]}
      </button>
      <button type="button" className="btn-outline btn-sm" disabled={busy} onClick={() => onDecide("rejected")}>
        Reject {CREDENTIAL_PART_WORDS[what]}
      </button>
    </div>
  );
}

function CredentialRow({
  item,
  busy,
  note,
  now,
  onNote,
  onDecide,
}: {
  item: AdminCredentialItem;
  busy: boolean;
  note: string;
  now: number;
  onNote(text: string): void;
  onDecide(part: "licence" | "insurance", decision: CredentialDecision): void;
}) {
  const { licence, insurance } = item.credentials;
  const today = todayIn(now, item.timeZone);
  const lookup = licence ? lookupUrlOf(licence.state) : undefined;
  const noteId = `note-${item.businessId}`;
  const open = (!!licence && !licence.check) || (!!insurance && !insurance.check);
  return (
    <li className="card p-4 sm:p-5" data-business-id={item.businessId}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="font-semibold text-slate-900">
          <a className="link" href={`/directory/${encodeURIComponent(item.slug)}`}>
            {item.name}
          </a>{" "}
          <span className="text-sm font-normal text-slate-600">({item.state})</span>
        </h3>
        {item.waitingSince !== null ? (
          <span className="text-sm text-slate-600">
            Waiting since{" "}
            <time dateTime={new Date(item.waitingSince).toISOString()}>
              {formatWhen(new Date(item.waitingSince).toISOString())}
            </time>
          </span>
        ) : null}
      </div>
      <div className="mt-3 grid gap-4 sm:grid-cols-2">
        <div data-part="licence">
          <h4 className="text-sm font-semibold text-slate-800">License</h4>
          {licence ? (
            <>
              <p className="text-sm text-slate-700">
                {licenceLine(licence)}: {licenceName(licence)}
              </p>
              <p className="text-sm text-slate-600">
                {credentialStatus(licence, today, item.timeZone, "operator").text}
              </p>
              {lookup ? (
                <a className="link text-sm" href={lookup} target="_blank" rel="noopener noreferrer">
                  {licensingState(licence.state)?.authority} register
                  <span className="sr-only"> (opens in a new tab)</span>
                </a>
              ) : (
                <p className="text-sm text-slate-600">No state register for tree work: ask for a copy.</p>
              )}
            </>
          ) : (
            <p className="text-sm text-slate-600">None stated</p>
          )}
        </div>
        <div data-part="insurance">
          <h4 className="text-sm font-semibold text-slate-800">Insurance</h4>
          {insurance ? (
            <>
              <p className="text-sm text-slate-700">
                {formatUsd(insurance.coverUsd)} general liability, {insurance.carrier}, last day{" "}
                {formatCredentialDate(insurance.expiresOn)}
              </p>
              <p className="text-sm text-slate-600">
                {credentialStatus(insurance, today, item.timeZone, "operator").text}
              </p>
            </>
          ) : (
            <p className="text-sm text-slate-600">None stated</p>
          )}
        </div>
      </div>
      {/* The note goes with the decision, so it comes before the buttons that send it. */}
      {open ? (
        <>
          <label className={`mt-4 ${labelClass}`} htmlFor={noteId}>
            Note (what you looked at, or why you reject it)
          </label>
          <input
            id={noteId}
            className={inputClass}
            maxLength={200}
            value={note}
            onChange={(e) => onNote(e.target.value)}
          />
          <div className="mt-3 flex flex-wrap gap-x-4 gap-y-2">
            {licence && !licence.check ? (
              <Decide what="licence" busy={busy} onDecide={(d) => onDecide("licence", d)} />
            ) : null}
            {insurance && !insurance.check ? (
              <Decide what="insurance" busy={busy} onDecide={(d) => onDecide("insurance", d)} />
            ) : null}
          </div>
        </>
      ) : null}
    </li>
  );
}
