/**
 * One form control drawn from its FieldDef: label, control and inline error wired together
 * with ids so screen readers announce the message with the field (aria-describedby).
 * Controls are uncontrolled: the browser keeps what was typed (and the chosen photo)
 * across failed submissions, and FormData reads it all at once.
 */
import type { ChangeEvent } from "react";
import type { FieldDef, FormDef } from "../../lib/forms/fields.ts";
import { FORM_CLASSES, fieldId } from "../../lib/forms/markup.ts";

// The lead forms' shared classes (FORM_CLASSES, as LeadForm draws them) plus the states
// this form shows: hover, focus and the error border.
const control = `${FORM_CLASSES.input} block bg-white text-slate-900 transition-colors focus:outline-2 focus:outline-offset-0 focus:outline-forest-500`;

interface Props {
  field: FieldDef;
  /** The form the field belongs to (its ids come from fieldId, like every lead form's). */
  form: FormDef;
  /** Value to start with (carried over from the static form). */
  defaultValue?: string;
  error?: string;
  disabled?: boolean;
  onChange?: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) => void;
}

export function Field({ field, form, defaultValue, error, disabled, onChange }: Props) {
  const id = fieldId(form, field.name);
  const errorId = `${id}-error`;
  const common = {
    id,
    name: field.name,
    disabled,
    onChange,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? errorId : undefined,
    // Announced as required; the schema, not the browser, decides what is valid (noValidate).
    "aria-required": field.required || undefined,
    autoComplete: field.autocomplete,
    className: `${control} ${error ? "border-red-600!" : "hover:border-forest-400"}`,
  };

  let input;
  switch (field.kind) {
    case "select":
      input = (
        <select {...common} defaultValue={defaultValue ?? ""}>
          <option value="">{field.placeholder ?? "Select"}</option>
          {field.options?.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      );
      break;
    case "textarea":
      input = <textarea {...common} rows={4} defaultValue={defaultValue} />;
      break;
    case "file":
      input = (
        <input
          {...common}
          type="file"
          accept={field.accept}
          className={`${common.className} file:mr-3 file:rounded-md file:border-0 file:bg-forest-100 file:px-3 file:py-1.5 file:font-semibold file:text-forest-800 hover:file:bg-forest-200`}
        />
      );
      break;
    default:
      input = (
        <input
          {...common}
          type={field.kind}
          defaultValue={defaultValue}
          inputMode={field.kind === "tel" ? "tel" : undefined}
        />
      );
  }

  return (
    <div>
      <label htmlFor={id} className={FORM_CLASSES.label}>
        {field.label}
        {field.required && (
          <span className={FORM_CLASSES.required} aria-hidden="true">
            {" "}
            *
          </span>
        )}
      </label>
      {input}
      {error && (
        <p id={errorId} className={FORM_CLASSES.error}>
          {error}
        </p>
      )}
    </div>
  );
}
