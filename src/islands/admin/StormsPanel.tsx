/**
 * /admin > Storms: the storms the operator declared (active, scheduled, ended), a form to
 * declare one (an area of states, ZIPs or miles around a ZIP or city; start, optional end; the
 * declaration with its reference), editing and ending each, and the National Weather
 * Service's suggestions from the scheduled check: each declared in one step (its state, its
 * start, the reference the operator types) or dismissed. A suggestion never shows to
 * visitors; a declared storm shows its notice on the pages of places inside it.
 */
import { useCallback, useEffect, useId, useState, type FormEvent } from "react";
import { ApiError } from "../../lib/api.ts";
import {
  DECLARATION_LEVELS,
  areaLine,
  stormActive,
  type AdminStormsReply,
  type StormEvent,
  type StormInputSchema,
  type StormSuggestion,
} from "../../lib/storm.ts";
import { adminJson, formatWhen } from "./api.ts";
import { ErrorAlert, LoadingNote, StatusNote, useAdminAction, useLatestRead, type PanelProps } from "./ListParts.tsx";
import { inputClass, labelClass } from "../../views/leads/LeadForm.tsx";

type Fields = Record<string, string>;

/** "2026-10-09T08:00" in this browser's zone, for a datetime-local field. */
function localInput(iso: string | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
const isoOf = (local: string) => (local ? new Date(local).toISOString() : "");
const listOf = (text: string) =>
  text
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter(Boolean);

/** The field messages of a refused call, or null when it failed otherwise (rethrown). */
function fieldsOf(error: unknown): Fields | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  // "area.zips.3" (one bad ZIP) is shown on the ZIPs field.
  const out: Fields = {};
  for (const [key, message] of Object.entries(error.json<{ fields?: Fields }>()?.fields ?? {}))
    out[key.replace(/\.\d+$/, "")] ??= message;
  return out;
}

function statusOf(storm: StormEvent, now: number): { label: string; className: string } {
  if (stormActive(storm, now)) return { label: "Active", className: "bg-red-100 text-red-900" };
  if (Date.parse(storm.startsAt) > now) return { label: "Scheduled", className: "bg-amber-100 text-amber-900" };
  return { label: "Ended", className: "bg-slate-100 text-slate-700" };
}

/** The declare/edit form. `onSubmit` answers the field messages of a refusal, or null when done. */
function StormForm({
  initial,
  submitLabel,
  busy,
  onSubmit,
  onCancel,
}: {
  initial?: StormEvent;
  submitLabel: string;
  busy: boolean;
  onSubmit(input: StormInputSchema): Promise<Fields | null>;
  onCancel?(): void;
}) {
  const id = useId();
  const area = initial?.area;
  const [kind, setKind] = useState<"states" | "zips" | "radius">(area?.kind ?? "zips");
  const [fields, setFields] = useState<Fields>({});
  // A new storm starts now unless the operator says otherwise.
  const [startDefault] = useState(() => localInput(initial?.startsAt ?? new Date().toISOString()));

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const f = new FormData(form);
    const get = (name: string) => String(f.get(name) ?? "").trim();
    const input = {
      name: get("name"),
      area:
        kind === "states"
          ? { kind, states: listOf(get("states").toUpperCase()) }
          : kind === "zips"
            ? { kind, zips: listOf(get("zips")) }
            : { kind, place: get("place"), miles: Number(get("miles")) },
      startsAt: isoOf(get("startsAt")),
      ...(get("endsAt") ? { endsAt: isoOf(get("endsAt")) } : {}),
      declaration: {
        level: get("level"),
        reference: get("reference"),
        ...(get("url") ? { url: get("url") } : {}),
      },
    } as StormInputSchema;
    const refused = await onSubmit(input);
    setFields(refused ?? {});
    if (!refused && !initial) {
      form.reset();
      setKind("zips");
    }
  }

  const field = (name: string, label: string, input: React.ReactNode, hint?: string) => {
    const error = fields[name];
    return (
      <div>
        <label htmlFor={`${id}-${name}`} className={labelClass}>
          {label}
        </label>
        {input}
        {hint ? <p className="mt-1 text-xs text-slate-500">{hint}</p> : null}
        {error ? (
          <p id={`${id}-${name}-error`} className="mt-1 text-sm font-semibold text-red-700">
            {error}
          </p>
        ) : null}
      </div>
    );
  };
  const attrs = (name: string) => ({
    id: `${id}-${name}`,
    "aria-invalid": fields[name] ? true : undefined,
    "aria-describedby": fields[name] ? `${id}-${name}-error` : undefined,
  });

  return (
    <form className="card grid gap-4 p-4 sm:grid-cols-2 sm:p-5" onSubmit={(e) => void submit(e)} noValidate>
      {field(
        "name",
        "Storm name",
        <input {...attrs("name")} name="name" className={inputClass} defaultValue={initial?.name} maxLength={120} />,
      )}
      <fieldset className="sm:col-span-2">
        <legend className={labelClass}>Area</legend>
        <div className="flex flex-wrap gap-4">
          {(
            [
              ["zips", "ZIP codes"],
              ["states", "Whole states"],
              ["radius", "Miles around a place"],
            ] as const
          ).map(([value, label]) => (
            <label key={value} className="inline-flex min-h-11 items-center gap-2">
              <input type="radio" name="kind" value={value} checked={kind === value} onChange={() => setKind(value)} />
              {label}
            </label>
          ))}
        </div>
        <div className="mt-2 grid gap-4 sm:grid-cols-2">
          {kind === "zips" ? (
            field(
              "area.zips",
              "ZIPs in the area",
              <textarea
                {...attrs("area.zips")}
                name="zips"
                rows={3}
                className={inputClass}
                defaultValue={area?.kind === "zips" ? area.zips.join(", ") : ""}
              />,
              "Separated by commas or spaces, e.g. 33101, 33125",
            )
          ) : kind === "states" ? (
            field(
              "area.states",
              "States in the area",
              <input
                {...attrs("area.states")}
                name="states"
                className={inputClass}
                defaultValue={area?.kind === "states" ? area.states.join(", ") : ""}
              />,
              "Two-letter codes, e.g. FL, GA",
            )
          ) : (
            <>
              {field(
                "area.place",
                "Center (ZIP or City, ST)",
                <input
                  {...attrs("area.place")}
                  name="place"
                  className={inputClass}
                  defaultValue={area?.kind === "radius" ? area.label : ""}
                />,
              )}
              {field(
                "area.miles",
                "Radius in miles",
                <input
                  {...attrs("area.miles")}
                  name="miles"
                  type="number"
                  min={1}
                  max={300}
                  className={inputClass}
                  defaultValue={area?.kind === "radius" ? area.miles : 25}
                />,
              )}
            </>
          )}
        </div>
      </fieldset>
      {field(
        "startsAt",
        "Starts",
        <input
          {...attrs("startsAt")}
          name="startsAt"
          type="datetime-local"
          className={inputClass}
          defaultValue={startDefault}
        />,
      )}
      {field(
        "endsAt",
        "Ends (optional)",
        <input
          {...attrs("endsAt")}
          name="endsAt"
          type="datetime-local"
          className={inputClass}
          defaultValue={localInput(initial?.endsAt)}
        />,
        "Leave empty while it lasts; End now ends it.",
      )}
      {field(
        "declaration.level",
        "Declared by",
        <select
          {...attrs("declaration.level")}
          name="level"
          className={inputClass}
          defaultValue={initial?.declaration.level ?? "governor"}
        >
          {DECLARATION_LEVELS.map((l) => (
            <option key={l.value} value={l.value}>
              {l.label}
            </option>
          ))}
        </select>,
      )}
      {field(
        "declaration.reference",
        "Declaration reference",
        <input
          {...attrs("declaration.reference")}
          name="reference"
          className={inputClass}
          defaultValue={initial?.declaration.reference}
          maxLength={200}
        />,
        "E.g. Executive Order 26-101, FEMA-4834-DR",
      )}
      {field(
        "declaration.url",
        "Declaration link (optional)",
        <input
          {...attrs("declaration.url")}
          name="url"
          type="url"
          className={inputClass}
          defaultValue={initial?.declaration.url}
        />,
      )}
      <div className="flex flex-wrap items-end gap-2 sm:col-span-2">
        <button type="submit" className="btn-primary btn-sm" disabled={busy}>
          {submitLabel}
        </button>
        {onCancel ? (
          <button type="button" className="btn-outline btn-sm" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}

/** One NWS suggestion: what NWS said, a one-step declare form and Dismiss. */
function SuggestionCard({
  suggestion,
  busy,
  onDeclare,
  onDismiss,
}: {
  suggestion: StormSuggestion;
  busy: boolean;
  onDeclare(s: StormSuggestion, name: string, level: string, reference: string): Promise<Fields | null>;
  onDismiss(s: StormSuggestion): void;
}) {
  const id = useId();
  const [fields, setFields] = useState<Fields>({});
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const f = new FormData(event.currentTarget);
    const get = (n: string) => String(f.get(n) ?? "").trim();
    setFields((await onDeclare(suggestion, get("name"), get("level"), get("reference"))) ?? {});
  }
  return (
    <li className="card p-4 sm:p-5" data-suggestion-id={suggestion.id}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className="badge bg-amber-100 text-amber-900">{suggestion.severity}</span>
        <h4 className="font-semibold text-slate-900">
          {suggestion.event}, {suggestion.states.join(", ")}
        </h4>
        <span className="text-sm text-slate-600">
          {suggestion.status === "new" ? "Suggested" : suggestion.status === "declared" ? "Declared" : "Dismissed"}
        </span>
      </div>
      {suggestion.headline ? <p className="mt-1 text-sm text-slate-700">{suggestion.headline}</p> : null}
      <p className="mt-1 text-sm text-slate-600">{suggestion.areaDesc}</p>
      <p className="mt-1 text-sm text-slate-600">
        From <time dateTime={suggestion.startsAt}>{formatWhen(suggestion.startsAt)}</time>
        {suggestion.endsAt ? (
          <>
            {" "}
            to <time dateTime={suggestion.endsAt}>{formatWhen(suggestion.endsAt)}</time>
          </>
        ) : null}
      </p>
      {suggestion.status === "new" ? (
        <form
          className="mt-3 grid gap-3 sm:grid-cols-[1fr_auto_1fr_auto] sm:items-end"
          onSubmit={(e) => void submit(e)}
          noValidate
        >
          <div>
            <label htmlFor={`${id}-name`} className={labelClass}>
              Storm name
            </label>
            <input
              id={`${id}-name`}
              name="name"
              className={inputClass}
              defaultValue={`${suggestion.event}, ${suggestion.states.join(", ")}`}
            />
            {fields.name ? <p className="mt-1 text-sm font-semibold text-red-700">{fields.name}</p> : null}
          </div>
          <div>
            <label htmlFor={`${id}-level`} className={labelClass}>
              Declared by
            </label>
            <select id={`${id}-level`} name="level" className={inputClass} defaultValue="governor">
              {DECLARATION_LEVELS.map((l) => (
                <option key={l.value} value={l.value}>
                  {l.label}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor={`${id}-reference`} className={labelClass}>
              Declaration reference
            </label>
            <input
              id={`${id}-reference`}
              name="reference"
              className={inputClass}
              aria-invalid={fields["declaration.reference"] ? true : undefined}
              aria-describedby={fields["declaration.reference"] ? `${id}-reference-error` : undefined}
            />
            {fields["declaration.reference"] ? (
              <p id={`${id}-reference-error`} className="mt-1 text-sm font-semibold text-red-700">
                {fields["declaration.reference"]}
              </p>
            ) : null}
          </div>
          <div className="flex gap-2">
            <button type="submit" className="btn-primary btn-sm" disabled={busy}>
              Declare storm
            </button>
            <button type="button" className="btn-outline btn-sm" disabled={busy} onClick={() => onDismiss(suggestion)}>
              Dismiss
            </button>
          </div>
        </form>
      ) : null}
    </li>
  );
}

export function StormsPanel({ token, refreshKey, onAuthError }: PanelProps) {
  const [data, setData] = useState<AdminStormsReply | null>(null);
  // When the list was read: the statuses (active, scheduled, ended) are drawn for that moment.
  const [now, setNow] = useState(0);
  const [editing, setEditing] = useState<string | null>(null);
  const { loading, error, setError, run: read } = useLatestRead(onAuthError, true);
  const { busy, notice, setNotice, run } = useAdminAction(onAuthError, setError);

  const load = useCallback(
    () =>
      read(
        () => adminJson<AdminStormsReply>(token, "/api/admin/storms"),
        (reply) => {
          setData(reply);
          setNow(Date.now());
        },
      ),
    [read, token],
  );
  useEffect(() => {
    void load();
  }, [load, refreshKey]);

  /** A write that may be refused with field messages: those are returned, anything else is the panel's error. */
  const write = async (key: string, call: () => Promise<unknown>, done: string): Promise<Fields | null> => {
    let refused: Fields | null = null;
    await run(key, async () => {
      try {
        await call();
      } catch (e) {
        refused = fieldsOf(e);
        if (refused) return;
        throw e;
      }
      setNotice(done);
      await load();
    });
    return refused;
  };

  const declare = (input: StormInputSchema) =>
    write(
      "declare",
      () => adminJson(token, "/api/admin/storms", { method: "POST", body: input }),
      `Declared: ${input.name}. Pages in its area show the storm notice now.`,
    );

  const suggestions = data?.suggestions.filter((s) => s.status === "new") ?? [];

  return (
    <div className="space-y-8">
      <ErrorAlert error={error} />
      <StatusNote notice={notice} />

      <section aria-labelledby="storms-suggested">
        <h3 id="storms-suggested" className="text-xl font-semibold text-forest-950">
          Suggested by the National Weather Service
        </h3>
        <p className="mt-1 text-sm text-slate-600">
          {data?.lastCheck
            ? `Last check: ${formatWhen(data.lastCheck.at)}${lastCheckNote(data.lastCheck)}.`
            : "No check has run yet (every 15 minutes on the published site)."}{" "}
          Nothing shows to visitors until you declare a storm.
        </p>
        {suggestions.length === 0 ? (
          <p className="mt-3 text-slate-600">
            {loading && !data ? (
              <LoadingNote />
            ) : data?.lastCheck?.outcome === "failed" ? (
              "No storm alerts to show from the last check, which could not read them all: look again after the next one."
            ) : (
              "No storm alerts waiting."
            )}
          </p>
        ) : (
          <ul className="mt-3 space-y-3">
            {suggestions.map((s) => (
              <SuggestionCard
                key={s.id}
                suggestion={s}
                busy={busy !== null}
                onDeclare={(sg, name, level, reference) =>
                  declare({
                    name,
                    area: { kind: "states", states: sg.states },
                    startsAt: sg.startsAt,
                    declaration: { level, reference } as StormInputSchema["declaration"],
                    fromSuggestion: sg.id,
                  })
                }
                onDismiss={(sg) =>
                  void write(
                    `dismiss-${sg.id}`,
                    () =>
                      adminJson(token, `/api/admin/storm-suggestions/${encodeURIComponent(sg.id)}`, {
                        method: "PATCH",
                        body: { action: "dismiss" },
                      }),
                    `Dismissed: ${sg.event}, ${sg.states.join(", ")}.`,
                  )
                }
              />
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="storms-declared">
        <h3 id="storms-declared" className="text-xl font-semibold text-forest-950">
          Declared storms
        </h3>
        {data && data.storms.length === 0 ? <p className="mt-3 text-slate-600">No storm declared.</p> : null}
        <ul className="mt-3 space-y-3">
          {data?.storms.map((storm) => {
            const status = statusOf(storm, now);
            return (
              <li key={storm.id} className="card p-4 sm:p-5" data-storm-id={storm.id}>
                <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                  <span className={`badge ${status.className}`}>{status.label}</span>
                  <h4 className="font-semibold text-slate-900">{storm.name}</h4>
                </div>
                <dl className="mt-2 grid gap-1 text-sm sm:grid-cols-[9rem_1fr]">
                  <dt className="text-slate-500">Area</dt>
                  <dd>{areaLine(storm.area)}</dd>
                  <dt className="text-slate-500">From</dt>
                  <dd>
                    <time dateTime={storm.startsAt}>{formatWhen(storm.startsAt)}</time>
                    {storm.endsAt ? (
                      <>
                        {" "}
                        to <time dateTime={storm.endsAt}>{formatWhen(storm.endsAt)}</time>
                      </>
                    ) : (
                      " (open-ended)"
                    )}
                  </dd>
                  <dt className="text-slate-500">Declaration</dt>
                  <dd>
                    {DECLARATION_LEVELS.find((l) => l.value === storm.declaration.level)?.label}:{" "}
                    {storm.declaration.reference}
                  </dd>
                </dl>
                {editing === storm.id ? (
                  <div className="mt-3">
                    <StormForm
                      initial={storm}
                      submitLabel="Save changes"
                      busy={busy !== null}
                      onCancel={() => setEditing(null)}
                      onSubmit={async (input) => {
                        const refused = await write(
                          `edit-${storm.id}`,
                          () => adminJson(token, `/api/admin/storms/${storm.id}`, { method: "PATCH", body: input }),
                          `Saved: ${input.name}.`,
                        );
                        if (!refused) setEditing(null);
                        return refused;
                      }}
                    />
                  </div>
                ) : (
                  <div className="mt-3 flex flex-wrap gap-2">
                    <button type="button" className="btn-outline btn-sm" onClick={() => setEditing(storm.id)}>
                      Edit
                    </button>
                    {status.label !== "Ended" ? (
                      <button
                        type="button"
                        className="btn-outline btn-sm"
                        disabled={busy !== null}
                        onClick={() =>
                          void write(
                            `end-${storm.id}`,
                            () =>
                              adminJson(token, `/api/admin/storms/${storm.id}`, {
                                method: "PATCH",
                                body: { end: true },
                              }),
                            `Ended: ${storm.name}. Its notice is off visitors' pages.`,
                          )
                        }
                      >
                        End now
                      </button>
                    ) : null}
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      </section>

      <section aria-labelledby="storms-declare">
        <h3 id="storms-declare" className="text-xl font-semibold text-forest-950">
          Declare a storm
        </h3>
        <p className="mt-1 mb-3 text-sm text-slate-600">
          Visitors whose ZIP, search or business is inside the area see the storm notice: safety, the 24/7 line,
          storm-chaser checks and their state's price-gouging rule.
        </p>
        <StormForm submitLabel="Declare storm" busy={busy !== null} onSubmit={declare} />
      </section>
    </div>
  );
}

/** What the last check's outcome adds after its time: nothing when it read every state. */
function lastCheckNote(check: { outcome: string; error?: string }): string {
  if (check.outcome === "ok") return "";
  if (check.outcome === "partial") return " (out of time: some states are left for the next check)";
  return `: failed, ${check.error ?? "see the function's log"}`;
}
