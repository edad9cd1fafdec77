/**
 * A lead form drawn from its FormDef (src/lib/forms/fields.ts): labels, native selects,
 * checkbox groups and grouped optional fields, validated with the same zod schema the
 * function uses. Errors show inline under each field (aria-invalid + aria-describedby)
 * and the first invalid field takes focus, so keyboard and screen-reader users land on
 * what needs fixing. Inputs stay uncontrolled: the values survive a failed submit as is.
 */
import { useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import type { z } from "zod";
import { formValuesToPayload, type FieldDef, type FormDef } from "../../lib/forms/fields.ts";
import { fieldErrors, type FieldErrors } from "../../lib/schemas/forms.ts";

export interface LeadFormProps<S extends z.ZodType> {
  form: FormDef;
  /** Validates the payload before anything is sent. */
  schema: S;
  /** Initial values by field name (the trigger's preselection). */
  defaults?: Record<string, string | undefined>;
  /**
   * Sends valid data. Resolve with field messages (e.g. a 400's `fields`) to show them
   * inline; resolve with nothing when done (success or an error reported elsewhere).
   */
  onValid: (data: z.infer<S>) => Promise<FieldErrors | void>;
  /** Extra content above the submit button (e.g. the live estimate). */
  beforeSubmit?: ReactNode;
}

export const inputClass =
  "block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-base text-slate-900 shadow-xs " +
  "placeholder:text-slate-400 focus:border-forest-500 focus:outline-2 focus:outline-offset-0 focus:outline-forest-500/40 " +
  "aria-invalid:border-red-600 aria-invalid:focus:outline-red-600/30";
export const labelClass = "mb-1 block text-sm font-medium text-slate-800";
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

export function LeadForm<S extends z.ZodType>({ form, schema, defaults = {}, onValid, beforeSubmit }: LeadFormProps<S>) {
  const uid = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState(false);
  const idFor = (name: string) => `${uid}-${form.name}-${name.replace(/[^A-Za-z0-9_-]/g, "-")}`;

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
    event.preventDefault();
    if (pending) return;
    const entries = [...new FormData(event.currentTarget)].filter((e): e is [string, string] => typeof e[1] === "string");
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
    setErrors((current) => Object.fromEntries(Object.entries(current).filter(([k]) => k !== name && !k.startsWith(`${name}.`))));
  };

  const renderField = (field: FieldDef) => {
    const id = idFor(field.name);
    const error = errorFor(errors, field.name);
    const errorId = `${id}-error`;
    const described = error ? errorId : undefined;
    const star = field.required ? <span className="text-red-700" aria-hidden="true"> *</span> : null;
    const wide = WIDE_KINDS.has(field.kind) || WIDE_NAMES.has(field.name);
    const errorText = error ? (
      <p id={errorId} className={errorClass}>
        {error}
      </p>
    ) : null;
    const onChange = () => clearError(field.name);

    if (field.kind === "hidden") return <input key={field.name} type="hidden" name={field.name} defaultValue={defaults[field.name] ?? ""} />;

    if (field.kind === "checkboxes") {
      return (
        <fieldset key={field.name} id={id} className="sm:col-span-2" aria-describedby={described}>
          <legend className={labelClass}>
            {field.label}
            {star}
          </legend>
          <div className="mt-1 grid gap-x-4 gap-y-2 sm:grid-cols-2">
            {(field.options ?? []).map((option, i) => (
              <label key={option.value} htmlFor={`${id}-${i}`} className="flex cursor-pointer items-start gap-2.5 rounded-md py-1 text-sm text-slate-700">
                <input
                  id={`${id}-${i}`}
                  type="checkbox"
                  name={field.name}
                  value={option.value}
                  aria-invalid={error ? true : undefined}
                  onChange={onChange}
                  className="mt-0.5 size-4 shrink-0 rounded border-slate-400 accent-forest-600"
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
      autoComplete: field.autocomplete,
      defaultValue: defaults[field.name] ?? "",
      onChange,
    } as const;
    let control: ReactNode;
    if (field.kind === "select") {
      control = (
        <select {...common}>
          <option value="">{field.placeholder ?? "Select..."}</option>
          {(field.options ?? []).map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      );
    } else if (field.kind === "textarea") {
      control = <textarea {...common} rows={4} />;
    } else {
      control = <input {...common} type={field.kind} inputMode={field.kind === "tel" ? "tel" : undefined} />;
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
  for (let i = 0; i < form.fields.length; ) {
    const field = form.fields[i]!;
    if (field.kind === "file") {
      i++;
      continue;
    }
    if (!field.group) {
      blocks.push(renderField(field));
      i++;
      continue;
    }
    const members: FieldDef[] = [];
    while (i < form.fields.length && form.fields[i]!.group === field.group) members.push(form.fields[i++]!);
    blocks.push(
      <fieldset key={`group-${field.group}`} className="rounded-lg border border-forest-100 bg-forest-50/50 p-4 sm:col-span-2">
        <legend className="px-1 text-sm font-semibold text-forest-900">{field.group}</legend>
        <div className="grid gap-4 sm:grid-cols-2">{members.map(renderField)}</div>
      </fieldset>,
    );
  }

  return (
    <form ref={formRef} noValidate onSubmit={handleSubmit} className="grid gap-4 sm:grid-cols-2" aria-busy={pending || undefined}>
      {blocks}
      {beforeSubmit ? <div className="sm:col-span-2">{beforeSubmit}</div> : null}
      <div className="sm:col-span-2">
        <button type="submit" disabled={pending} className="btn-primary w-full disabled:cursor-not-allowed disabled:opacity-70">
          {pending ? form.pending : form.submit}
        </button>
      </div>
    </form>
  );
}
