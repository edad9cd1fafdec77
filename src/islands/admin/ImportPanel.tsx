/**
 * Import real businesses from a CSV file (docs/import.md; the same code as `npm run import`):
 * choose a file and Check it (a dry run: every rejected row with its line and reasons, the rows
 * merged as one business, and what would change), then Apply, which writes the checked file
 * and refreshes the directory's cached pages. A file too large for an upload is refused before
 * it is sent. Values are rendered as text.
 */
import { useId, useState, type FormEvent } from "react";
import {
  ADMIN_IMPORT_PATH,
  IMPORT_NO_FILE,
  IMPORT_TOO_LARGE,
  IMPORT_UPLOAD_LIMIT,
  type AdminImportReply,
  type ImportChange,
} from "../../lib/admin-import.ts";
import { labelClass } from "../../views/leads/LeadForm.tsx";
import { adminUpload } from "./api.ts";
import { ErrorAlert, StatusNote, useAdminAction, type PanelProps } from "./ListParts.tsx";

const KIND_LABELS: Record<ImportChange["kind"], string> = {
  new: "New",
  updated: "Updated",
  unchanged: "Unchanged",
  kept: "Kept (claimed)",
};

const lineText = (lines: readonly number[]) => (lines.length === 1 ? `line ${lines[0]}` : `lines ${lines.join(", ")}`);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function summaryText(r: AdminImportReply): string {
  const s = r.summary;
  return (
    `${plural(s.rows, "row")}: ${s.rejected} rejected, ${s.merged} merged; ` +
    `${s.new} new, ${s.updated} updated, ${s.unchanged} unchanged, ${s.kept} kept (claimed).`
  );
}

function Report({ report }: { report: AdminImportReply }) {
  return (
    <div className="mt-5 space-y-5">
      <p className="font-semibold text-slate-900">{summaryText(report)}</p>
      {report.rejected.length ? (
        <section aria-label="Rejected rows">
          <h2 className="text-lg font-semibold text-forest-950">Rejected rows ({report.rejected.length})</h2>
          <ul className="mt-2 space-y-2 text-sm">
            {report.rejected.map((r) => (
              <li key={r.line} className="rounded-lg border border-red-200 bg-red-50 p-3 text-red-900">
                <span className="font-semibold">Line {r.line}</span>
                {r.name ? <> &ldquo;{r.name}&rdquo;</> : null}: {r.reasons.join("; ")}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {report.merged.length ? (
        <section aria-label="Merged rows">
          <h2 className="text-lg font-semibold text-forest-950">Merged rows ({report.merged.length})</h2>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-700">
            {report.merged.map((m) => (
              <li key={m.line}>
                Line {m.line} is the same business as line {m.into} (same {m.why.join(", ")})
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {report.changes.length ? (
        <section aria-label="Businesses">
          <h2 className="text-lg font-semibold text-forest-950">Businesses ({report.changes.length})</h2>
          <ul className="mt-2 space-y-2 text-sm">
            {report.changes.map((c) => (
              <li key={c.id} className="card p-3" data-import-kind={c.kind}>
                <span className="badge mr-2 bg-slate-100 text-slate-700">{KIND_LABELS[c.kind]}</span>
                <a className="link font-semibold" href={`/directory/${encodeURIComponent(c.slug)}`}>
                  {c.name}
                </a>
                <span className="text-slate-600">
                  {" "}
                  {c.city}, {c.state} · {lineText(c.lines)}
                </span>
                {c.fields?.length ? <p className="mt-1 text-slate-700">Changes: {c.fields.join(", ")}</p> : null}
                {c.reason ? <p className="mt-1 text-slate-700">{c.reason}</p> : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {report.failed?.length ? (
        <ErrorAlert
          error={`Not written: ${report.failed.map((f) => `"${f.name}" (${lineText(f.lines)}): ${f.reason}`).join("; ")}`}
        />
      ) : null}
    </div>
  );
}

export function ImportPanel({ token, onAuthError }: PanelProps) {
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<AdminImportReply | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { busy, notice, setNotice, run } = useAdminAction(onAuthError, setError);

  const send = (apply: boolean) =>
    run(apply ? "apply" : "check", async () => {
      if (!file) return;
      const form = new FormData();
      form.set("file", file);
      if (apply) form.set("apply", "1");
      const answer = await adminUpload<AdminImportReply>(token, ADMIN_IMPORT_PATH, form);
      setReport(answer);
      if (!apply) return;
      const left = answer.remaining ?? 0;
      setNotice(
        `Applied: ${plural(answer.summary.changes, "change")} written` +
          (left
            ? `; ${left} not reached in time: apply again to write them.`
            : ". The directory's pages are refreshed."),
      );
    });

  function check(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setReport(null);
    setNotice(null);
    if (!file) return setError(IMPORT_NO_FILE);
    if (file.size > IMPORT_UPLOAD_LIMIT) return setError(IMPORT_TOO_LARGE);
    void send(false);
  }

  const pending = report && !report.applied ? report.summary.new + report.summary.updated : 0;
  const canApply = report !== null && (report.applied ? (report.remaining ?? 0) > 0 : pending > 0);

  return (
    <section aria-label="Import businesses">
      <p className="text-sm text-slate-600">
        Load real businesses from a CSV file: one row per business with the columns name, phone, email, website, street,
        city, state, zip, services, hours and license (docs/import.md in the repository). Check shows every rejected row
        and what would change; nothing is written until you apply. Imported businesses are unclaimed, with no reviews or
        badges.
      </p>
      <form onSubmit={check} className="mt-4 flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor={id} className={labelClass}>
            CSV file
          </label>
          <input
            id={id}
            name="file"
            type="file"
            accept=".csv,text/csv"
            required
            className="mt-1 block w-full max-w-xs text-sm"
            onChange={(event) => {
              setFile(event.currentTarget.files?.[0] ?? null);
              setReport(null);
              setError(null);
              setNotice(null);
            }}
          />
        </div>
        <button type="submit" className="btn-outline btn-sm" disabled={busy !== null}>
          {busy === "check" ? "Checking..." : "Check file"}
        </button>
        {canApply ? (
          <button type="button" className="btn-primary btn-sm" disabled={busy !== null} onClick={() => void send(true)}>
            {busy === "apply"
              ? "Applying..."
              : report?.applied
                ? "Apply the rest"
                : `Apply ${plural(pending, "change")}`}
          </button>
        ) : null}
      </form>
      <StatusNote notice={notice} />
      <ErrorAlert error={error} />
      {report && !report.applied && pending === 0 ? (
        <p className="mt-3 text-sm text-slate-600">Nothing to change: the directory already has this file.</p>
      ) : null}
      {report ? <Report report={report} /> : null}
    </section>
  );
}
