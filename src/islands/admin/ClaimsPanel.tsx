/**
 * The operator's claims queue: claims of listed businesses that no contact on file proved, and
 * businesses to add. Approve makes the claimant an owner (an added business is listed first)
 * and e-mails them a sign-in link; Refuse needs a reason, which is kept and e-mailed. The note
 * after a decision says what became of that e-mail (sent, only kept in Messages as no e-mail
 * service is set up, or waiting for a retry), never "e-mailed" unless it was sent. "All"
 * also shows the claims proved by the e-mail or phone on file, and every decision made; a claim
 * that made someone an owner can be revoked there (Remove owner, with a reason), which ends
 * their sessions.
 */
import { useCallback, useState, type FormEvent } from "react";
import { changeValueText } from "../../lib/admin-changes.ts";
import { optionLabel, PRO_SERVICES } from "../../lib/options.ts";
import { CLAIM_KIND_LABELS, CLAIM_PROOFS, CLAIM_STATUS_LABELS, OWNER_ROLES } from "../../lib/owners/choices.ts";
import type { AdminClaimReply, AdminClaimsReply, Claim, ClaimMail } from "../../lib/owners/claims.ts";
import { OWNER_MESSAGES } from "../../lib/owners/messages.ts";
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
import { inputClass } from "../../views/leads/LeadForm.tsx";

const PAGE = 25;

/** The view switch: the pressed one looks pressed, not only says so. */
const toggleClass = (pressed: boolean) =>
  `btn-outline btn-sm ${pressed ? "border-forest-700 bg-forest-50 text-forest-900" : ""}`;

type View = "pending" | "all";
type Decision = "approve" | "refuse" | "revoke";

/** The wording of the two reason forms: refusing a claim, and removing an owner. */
const REASON_FORMS = {
  refuse: {
    label: "Reason for refusing",
    placeholder: "Reason (the claimant reads it)",
    button: "Refuse",
    required: OWNER_MESSAGES.reasonRequired,
  },
  revoke: {
    label: "Reason for removing this owner",
    placeholder: "Why they should no longer manage it (kept)",
    button: "Remove owner",
    required: OWNER_MESSAGES.revokeReasonRequired,
  },
} as const;

/** A reason field and its button: refusing a claim, or removing an owner. */
function ReasonForm({
  id,
  label,
  placeholder,
  button,
  required,
  busy,
  onSubmit,
}: {
  id: string;
  label: string;
  placeholder: string;
  button: string;
  /** The message when the reason is left empty. */
  required: string;
  busy: boolean;
  onSubmit(reason: string): Promise<boolean>;
}) {
  const [reason, setReason] = useState("");
  const [reasonError, setReasonError] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!reason.trim()) {
      setReasonError(required);
      return;
    }
    setReasonError(null);
    if (await onSubmit(reason.trim())) setReason("");
  }

  return (
    <form className="flex flex-wrap items-start gap-2" onSubmit={(e) => void submit(e)} noValidate>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        className={`${inputClass} py-1 text-sm sm:w-96`}
        placeholder={placeholder}
        maxLength={500}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        aria-invalid={reasonError ? true : undefined}
        aria-describedby={reasonError ? `${id}-error` : undefined}
      />
      <button type="submit" className="btn-outline btn-sm" disabled={busy}>
        {button}
      </button>
      {reasonError ? (
        <p id={`${id}-error`} className="w-full text-sm font-semibold text-red-700">
          {reasonError}
        </p>
      ) : null}
    </form>
  );
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-x-3 sm:grid-cols-[9rem_1fr]">
      <dt className="text-slate-500">{label}</dt>
      <dd className="break-words text-slate-800">{children}</dd>
    </div>
  );
}

function ClaimCard({
  claim,
  busy,
  onDecide,
}: {
  claim: Claim;
  busy: boolean;
  onDecide(claim: Claim, decision: Decision, reason?: string): Promise<boolean>;
}) {
  const p = claim.proposal;
  const name = claim.businessName ?? p?.businessName ?? claim.businessId ?? "";

  return (
    <li className="card p-4 sm:p-5" data-claim-id={claim.id}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className="badge bg-slate-100 text-slate-700">{CLAIM_KIND_LABELS[claim.kind]}</span>
        <h3 className="font-semibold text-slate-900">
          {claim.businessSlug ? (
            <a className="link" href={`/directory/${encodeURIComponent(claim.businessSlug)}`}>
              {name}
            </a>
          ) : (
            name
          )}
        </h3>
        <span className="text-sm text-slate-600">{CLAIM_STATUS_LABELS[claim.status]}</span>
      </div>
      <dl className="mt-2 grid gap-1 text-sm">
        <Row label="Asked">
          <time dateTime={claim.createdAt}>{formatWhen(claim.createdAt)}</time>
        </Row>
        <Row label="By">
          {claim.claimant.name} ({optionLabel(OWNER_ROLES, claim.claimant.role)}) · {claim.claimant.email}
          {claim.claimant.phone ? ` · ${claim.claimant.phone}` : ""}
        </Row>
        {claim.kind === "claim" ? <Row label="Proof">{optionLabel(CLAIM_PROOFS, claim.proof)}</Row> : null}
        {claim.claimant.note ? (
          <Row label="Note">
            <span className="whitespace-pre-line">{claim.claimant.note}</span>
          </Row>
        ) : null}
        {p ? (
          <>
            <Row label="Address">
              {p.address}, {p.city}, {p.state} {p.zipCode}
            </Row>
            <Row label="Contact">
              {p.phone} · {p.businessEmail}
              {p.website ? ` · ${p.website}` : ""}
            </Row>
            <Row label="Services">{p.services.map((s) => optionLabel(PRO_SERVICES, s)).join(", ")}</Row>
            {p.businessHours ? (
              <Row label="Hours">
                {p.byAppointment ? "By appointment" : changeValueText("businessHours", p.businessHours, 400)}
              </Row>
            ) : null}
            {p.closedHolidays ? (
              <Row label="Holidays">{changeValueText("closedHolidays", p.closedHolidays, 400)}</Row>
            ) : null}
            {p.yearsInBusiness !== undefined ? <Row label="Years in business">{p.yearsInBusiness}</Row> : null}
          </>
        ) : null}
        {claim.reason ? <Row label="Reason">{claim.reason}</Row> : null}
        {claim.decidedAt ? (
          <Row label="Decided">
            <time dateTime={claim.decidedAt}>{formatWhen(claim.decidedAt)}</time>
          </Row>
        ) : null}
      </dl>
      {claim.status === "pending" ? (
        <div className="mt-3 flex flex-wrap items-start gap-3">
          <button
            type="button"
            className="btn-primary btn-sm"
            disabled={busy}
            onClick={() => void onDecide(claim, "approve")}
          >
            Approve
          </button>
          <ReasonForm
            {...REASON_FORMS.refuse}
            id={`refuse-${claim.id}`}
            busy={busy}
            onSubmit={(reason) => onDecide(claim, "refuse", reason)}
          />
        </div>
      ) : claim.status === "proved" || claim.status === "approved" ? (
        <div className="mt-3">
          <ReasonForm
            {...REASON_FORMS.revoke}
            id={`revoke-${claim.id}`}
            busy={busy}
            onSubmit={(reason) => onDecide(claim, "revoke", reason)}
          />
        </div>
      ) : null}
    </li>
  );
}

/** A page of claims in the list's terms, with the count of claims waiting (for the switch). */
type ClaimsPage = CursorPage<Claim> & { pending: number };

/**
 * The note after a decision. "e-mailed" only when a provider took the e-mail; kept (no e-mail
 * service), retrying and failed ones say where the message is and what the operator does.
 */
export function decisionNotice(decision: Decision, email: string, name: string, mail?: ClaimMail): string {
  if (decision === "revoke") return `Owner removed: ${email} no longer manages ${name}; their sessions have ended.`;
  if (decision === "approve") {
    const done = `Approved: ${email} now manages ${name}`;
    switch (mail) {
      case "sent":
        return `${done} and was e-mailed a sign-in link.`;
      case "kept":
        return `${done}. No e-mail service is set up, so the sign-in link is kept in Messages: send it to them yourself.`;
      case "retrying":
        return `${done}. The e-mail with their sign-in link could not be sent yet; it will be tried again (see Messages).`;
      case "failed":
        return `${done}. The e-mail with their sign-in link could not be sent: it is in Messages, send it to them yourself.`;
      default:
        return `${done}. Their sign-in link is in Messages.`;
    }
  }
  switch (mail) {
    case "sent":
      return `Refused: ${email} was e-mailed the reason.`;
    case "kept":
      return `Refused. No e-mail service is set up, so the message with the reason is kept in Messages: tell ${email} yourself.`;
    case "retrying":
      return `Refused. The e-mail with the reason to ${email} could not be sent yet; it will be tried again (see Messages).`;
    case "failed":
      return `Refused. The e-mail with the reason to ${email} could not be sent: it is in Messages, tell them yourself.`;
    default:
      return `Refused. The message with the reason to ${email} is in Messages.`;
  }
}

export function ClaimsPanel({ token, refreshKey, onAuthError }: PanelProps) {
  const [view, setView] = useState<View>("pending");
  const [pending, setPending] = useState<number | null>(null);

  const fetchPage = useCallback(
    async (from: string | null): Promise<ClaimsPage> => {
      const offset = Number(from ?? 0);
      const body = await adminJson<AdminClaimsReply>(
        token,
        `/api/admin/claims?status=${view}&offset=${offset}&limit=${PAGE}`,
      );
      const next = offset + body.data.length;
      return {
        data: body.data,
        nextCursor: next < body.total && body.data.length > 0 ? String(next) : null,
        pending: body.pending,
      };
    },
    [token, view],
  );
  // Only a page the list keeps updates the count: a stale answer is dropped with it.
  const onPage = useCallback((page: ClaimsPage) => setPending(page.pending), []);
  const { items, setItems, cursor, loading, error, setError, more } = useCursorList<Claim, ClaimsPage>(
    fetchPage,
    refreshKey,
    onAuthError,
    onPage,
  );
  const { busy, notice, setNotice, run } = useAdminAction(onAuthError, setError);

  function decide(claim: Claim, decision: Decision, reason?: string): Promise<boolean> {
    return run(claim.id, async () => {
      const body = await adminJson<AdminClaimReply>(token, `/api/admin/claims/${encodeURIComponent(claim.id)}`, {
        method: "PATCH",
        body: { decision, ...(reason ? { reason } : {}) },
      });
      setItems((current) =>
        view === "pending"
          ? current.filter((c) => c.id !== claim.id)
          : current.map((c) => (c.id === claim.id ? body.data : c)),
      );
      if (decision !== "revoke") setPending((n) => (n === null ? n : Math.max(0, n - 1)));
      const name = body.business?.name ?? claim.businessName ?? "the business";
      setNotice(decisionNotice(decision, claim.claimant.email, name, body.mail));
    });
  }

  return (
    <section aria-label="Claims" aria-busy={loading || undefined}>
      <p className="text-sm text-slate-600">
        Claims proved by the business&apos;s own e-mail or phone on file need nothing from you. These came from other
        addresses, or are businesses to add: approve, or refuse with a reason the claimant reads.
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-2" role="group" aria-label="Show">
        <button
          type="button"
          className={toggleClass(view === "pending")}
          aria-pressed={view === "pending"}
          onClick={() => setView("pending")}
        >
          Waiting{pending !== null ? ` (${pending})` : ""}
        </button>
        <button
          type="button"
          className={toggleClass(view === "all")}
          aria-pressed={view === "all"}
          onClick={() => setView("all")}
        >
          All claims
        </button>
      </div>
      <StatusNote notice={notice} />
      <ErrorAlert error={error} />
      {items.length === 0 && !loading ? (
        <p className="mt-6 text-slate-600">{view === "pending" ? "No claims are waiting." : "No claims yet."}</p>
      ) : null}
      <ul
        className="mt-4 space-y-3"
        aria-label={view === "pending" ? "Claims waiting, newest first" : "Claims, newest first"}
      >
        {items.map((claim) => (
          <ClaimCard key={claim.id} claim={claim} busy={busy === claim.id} onDecide={decide} />
        ))}
      </ul>
      <Pager cursor={cursor} loading={loading} onMore={more} />
    </section>
  );
}
