/**
 * THE lead form, drawn from its FormDef (src/lib/forms/fields.ts): labels, native selects,
 * checkbox groups and grouped optional fields. One component for every rendering: the
 * prebuilt dialogs carry its server-rendered HTML (a real `<form method="post">` with the
 * honeypot and the hidden inputs the pipeline reads, so it works before and without
 * JavaScript), the dialogs island hydrates that same markup, and the functions' no-JS
 * error pages render it with renderToStaticMarkup (values, messages and a summary).
 *
 * With `onValid` (hydrated), a submit is validated with the same zod schema the function
 * uses; errors show inline (aria-invalid + aria-describedby) and the first invalid field
 * takes focus. Inputs stay uncontrolled: the values survive a failed submit as is.
 */
import { useRef, useState, type FormEvent, type ReactNode } from "react";
import type { z } from "zod";
import { formValuesToPayload, type FieldDef, type FormDef } from "../../lib/forms/fields.ts";
import {
  FORM_CLASSES,
  HONEYPOT_FIELD,
  IDEMPOTENCY_FIELD,
  SOURCE_FIELD,
  STARTED_FIELD,
  fieldId,
  type FormValues,
} from "../../lib/forms/markup.ts";
import { VALIDATION_ERROR, fieldErrors, type FieldErrors } from "../../lib/schemas/forms.ts";
import { Icon } from "../Icon.tsx";

export interface LeadFormProps<S extends z.ZodType> {
  form: FormDef;
  /** Validates the payload before anything is sent (with `onValid`). */
  schema?: S;
  /** Initial values by field name (preselection, or what the visitor typed). */
  defaults?: Partial<FormValues>;
  /** Messages to show from the start (a no-JS post the server refused), with a summary. */
  initialErrors?: FieldErrors;
  /** Values of the pipeline's hidden inputs (`_source`, `_started`, `_idempotencyKey`). */
  hidden?: Partial<Record<typeof SOURCE_FIELD | typeof STARTED_FIELD | typeof IDEMPOTENCY_FIELD, string>>;
  /**
   * Sends valid data. Resolve with field messages (e.g. a 400's `fields`) to show them
   * inline; resolve with nothing when done (success or an error reported elsewhere).
   * Without it the form is a plain post (server rendering).
   */
  onValid?: (data: z.infer<S>) => Promise<FieldErrors | void>;
  /** Extra content above the submit button (e.g. the live estimate). */
  beforeSubmit?: ReactNode;
}

/** The form controls' looks (src/styles/global.css): one short name each, since a page carries dozens. */
export const inputClass = "field";
export const labelClass = "field-label";
export const errorClass = "mt-1 text-sm text-red-700";

/** Contact and short fields sit two per row from the sm breakpoint; these take the full row. */
const WIDE_KINDS = new Set(["checkboxes", "textarea"]);
const WIDE_NAMES = new Set(["name", "address", "companyName", "phase"]);

/** Message for a field, including list item errors ("currentChallenges.0"). */
function errorFor(errors: FieldErrors, name: string): string | undefined {
  if (Object.hasOwn(errors, name)) return errors[name];
  const nested = Object.keys(errors).find((k) => k.startsWith(`${name}.`));
  return nested === undefined ? undefined : errors[nested];
}

const one = (v: string | readonly string[] | undefined): string => (typeof v === "string" ? v : (v?.[0] ?? ""));
const many = (v: string | readonly string[] | undefined): readonly string[] =>
  typeof v === "string" ? [v] : (v ?? []);

/** "street-address" is multi-line, valid on a textarea only; a one-line input takes line 1. */
const autocompleteFor = (field: FieldDef) =>
  field.autocomplete === "street-address" && field.kind !== "textarea" ? "address-line1" : field.autocomplete;

export function LeadForm<S extends z.ZodType>({
  form,
  schema,
  defaults = {},
  initialErrors = {},
  hidden = {},
  onValid,
  beforeSubmit,
}: LeadFormProps<S>) {
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<FieldErrors>(initialErrors);
  const [pending, setPending] = useState(false);
  // Fixed ids (each form appears once per page): the server, the hydrated island and the
  // no-JS pages agree on them, and labels and summaries can point at them.
  const idFor = (name: string) => fieldId(form, name);

  /** Focus goes to the first field (in form order) that has a message. */
  const focusFirstInvalid = (found: FieldErrors) => {
    const first = form.fields.find((f) => errorFor(found, f.name) !== undefined);
    if (!first) return;
    const el = formRef.current?.querySelector<HTMLElement>(
      first.kind === "checkboxes" ? `[name="${first.name}"]` : `#${CSS.escape(idFor(first.name))}`,
    );
    el?.focus();
  };

  const show = (found: FieldErrors) => {
    setErrors(found);
    // After React has rendered aria-invalid, so screen readers announce the field as invalid.
    requestAnimationFrame(() => focusFirstInvalid(found));
  };

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    if (!onValid || !schema) return;
    event.preventDefault();
    if (pending) return;
    const entries = [...new FormData(event.currentTarget)].filter(
      (e): e is [string, string] => typeof e[1] === "string",
    );
    const result = schema.safeParse(formValuesToPayload(form, entries));
    if (!result.success) {
      show(fieldErrors(result.error));
      return;
    }
    setErrors({});
    setPending(true);
    try {
      const serverErrors = await onValid(result.data);
      if (serverErrors && Object.keys(serverErrors).length > 0) show(serverErrors);
    } finally {
      // The confirmation view may already have replaced this form; React ignores the update then.
      setPending(false);
    }
  }

  // A changed field's old message is stale; drop it rather than nag while the visitor fixes it.
  const clearError = (name: string) => {
    if (errorFor(errors, name) === undefined) return;
    setErrors((current) =>
      Object.fromEntries(Object.entries(current).filter(([k]) => k !== name && !k.startsWith(`${name}.`))),
    );
  };

  const renderField = (field: FieldDef) => {
    const id = idFor(field.name);
    const error = errorFor(errors, field.name);
    const errorId = `${id}-error`;
    const described = error ? errorId : undefined;
    const star = field.required ? (
      <span className="text-red-700" aria-hidden="true">
        {" "}
        *
      </span>
    ) : null;
    const wide = WIDE_KINDS.has(field.kind) || WIDE_NAMES.has(field.name);
    const errorText = error ? (
      <p id={errorId} className={errorClass}>
        {error}
      </p>
    ) : null;
    const onChange = () => clearError(field.name);

    if (field.kind === "hidden")
      return <input key={field.name} type="hidden" name={field.name} defaultValue={one(defaults[field.name])} />;

    if (field.kind === "checkboxes") {
      return (
        <fieldset key={field.name} id={id} className="sm:col-span-2" aria-describedby={described}>
          <legend className={labelClass}>
            {field.label}
            {star}
          </legend>
          <div className="mt-1 grid gap-x-4 gap-y-2 sm:grid-cols-2">
            {(field.options ?? []).map((option, i) => (
              <label key={option.value} className="choice">
                <input
                  id={`${id}-${i}`}
                  type="checkbox"
                  name={field.name}
                  value={option.value}
                  defaultChecked={many(defaults[field.name]).includes(option.value)}
                  aria-invalid={error ? true : undefined}
                  onChange={onChange}
                  className="choice-box"
                />
                <span>{option.label}</span>
              </label>
            ))}
          </div>
          {errorText}
        </fieldset>
      );
    }

    const common = {
      id,
      name: field.name,
      className: inputClass,
      "aria-required": field.required || undefined,
      "aria-invalid": error ? true : undefined,
      "aria-describedby": described,
      autoComplete: autocompleteFor(field),
      onChange,
    } as const;
    const defaultValue = one(defaults[field.name]);
    let control: ReactNode;
    if (field.kind === "select") {
      control = (
        <select {...common} defaultValue={defaultValue}>
          <option value="">{field.placeholder ?? "Select..."}</option>
          {(field.options ?? []).map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      );
    } else if (field.kind === "textarea") {
      control = <textarea {...common} rows={4} defaultValue={defaultValue} />;
    } else if (field.kind === "file") {
      // A browser never re-fills a file input, so no value here.
      control = <input {...common} type="file" accept={field.accept} autoComplete={undefined} />;
    } else if (field.kind === "date") {
      // Chrome draws its calendar glyph from an SVG image it builds the first time a date field
      // renders: about 15 ms of the (4x CPU) tap that opens the booking dialog. Where that glyph
      // exists, it is blanked and the site's inline icon sits under the still-tappable button.
      control = (
        <div className="relative">
          <input
            {...common}
            className={`${inputClass} [&::-webkit-calendar-picker-indicator]:bg-none`}
            type="date"
            defaultValue={defaultValue}
          />
          <Icon
            name="calendar"
            className="pointer-events-none absolute top-1/2 right-3 hidden size-4 -translate-y-1/2 text-slate-900 supports-[selector(::-webkit-calendar-picker-indicator)]:block"
          />
        </div>
      );
    } else {
      control = (
        <input
          {...common}
          type={field.kind}
          defaultValue={defaultValue}
          inputMode={field.kind === "tel" ? "tel" : undefined}
        />
      );
    }
    return (
      <div key={field.name} className={wide ? "sm:col-span-2" : undefined}>
        <label htmlFor={id} className={labelClass}>
          {field.label}
          {star}
        </label>
        {control}
        {errorText}
      </div>
    );
  };

  // Consecutive fields with the same `group` share a fieldset (e.g. the optional tree details).
  const blocks: ReactNode[] = [];
  for (let i = 0; i < form.fields.length;) {
    const field = form.fields[i]!;
    if (!field.group) {
      blocks.push(renderField(field));
      i++;
      continue;
    }
    const members: FieldDef[] = [];
    while (i < form.fields.length && form.fields[i]!.group === field.group) members.push(form.fields[i++]!);
    blocks.push(
      <fieldset
        key={`group-${field.group}`}
        className="rounded-lg border border-forest-100 bg-forest-50/50 p-4 sm:col-span-2"
      >
        <legend className="px-1 text-sm font-semibold text-forest-900">{field.group}</legend>
        <div className="grid gap-4 sm:grid-cols-2">{members.map(renderField)}</div>
      </fieldset>,
    );
  }

  // The summary (no-JS error pages) reads in form order, whatever order the validator reported in.
  const summary =
    Object.keys(initialErrors).length > 0 && errors === initialErrors
      ? form.fields.filter((f) => errorFor(errors, f.name) !== undefined)
      : [];

  return (
    <form
      ref={formRef}
      id={`${form.name}-form`}
      method="post"
      action={form.action}
      encType={form.enctype}
      noValidate
      onSubmit={handleSubmit}
      className="lead-form grid gap-4 sm:grid-cols-2"
      aria-busy={pending || undefined}
      aria-describedby={summary.length > 0 ? `${form.name}-errors` : undefined}
    >
      {summary.length > 0 ? (
        <div id={`${form.name}-errors`} role="alert" tabIndex={-1} className={`${FORM_CLASSES.summary} sm:col-span-2`}>
          <p>
            <strong>{VALIDATION_ERROR}</strong>
          </p>
          <ul className={FORM_CLASSES.summaryList}>
            {summary.map((f) => (
              <li key={f.name}>
                <a href={`#${idFor(f.name)}`}>{errorFor(errors, f.name)}</a>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {blocks}
      {/* Off-screen and hidden from assistive tech; tabindex keeps keyboard users out of it. */}
      <div className={FORM_CLASSES.honeypot} aria-hidden="true">
        <label htmlFor={idFor(HONEYPOT_FIELD)}>Leave this field empty</label>
        <input
          type="text"
          id={idFor(HONEYPOT_FIELD)}
          name={HONEYPOT_FIELD}
          defaultValue=""
          tabIndex={-1}
          autoComplete="off"
        />
      </div>
      {/* Filled in when the dialog opens (src/scripts/dialogs.ts) or by the server page. */}
      <input type="hidden" name={STARTED_FIELD} defaultValue={hidden[STARTED_FIELD] ?? ""} />
      <input type="hidden" name={SOURCE_FIELD} defaultValue={hidden[SOURCE_FIELD] ?? ""} />
      <input type="hidden" name={IDEMPOTENCY_FIELD} defaultValue={hidden[IDEMPOTENCY_FIELD] ?? ""} />
      {beforeSubmit ? <div className="sm:col-span-2">{beforeSubmit}</div> : null}
      <div className="sm:col-span-2">
        <button
          type="submit"
          disabled={pending}
          className="btn-primary w-full disabled:cursor-not-allowed disabled:opacity-70"
        >
          {pending ? form.pending : form.submit}
        </button>
      </div>
    </form>
  );
}
