/**
 * Lead forms as plain HTML strings, for the two places that cannot run React: the static
 * no-JavaScript fallback forms (Astro `set:html`) and the functions' server-rendered error
 * pages. Browser-safe (no node imports) so both sides share one renderer; every value that
 * reaches the markup goes through escapeHtml, which is what keeps echoed input inert.
 *
 * The markup uses Tailwind utility classes; the server pages have no Tailwind, so
 * netlify/lib/pages.ts ships a tiny stylesheet covering exactly the classes used here.
 */
import { VALIDATION_ERROR, type FieldErrors } from "../schemas/forms.ts";
import type { FieldDef, FormDef } from "./fields.ts";

/** Name of the hidden trap input: people never see it, naive bots fill it in. */
export const HONEYPOT_FIELD = "company_website";
/** ms epoch at which the form was rendered or opened (submits faster than a human are dropped). */
export const STARTED_FIELD = "_started";
/** Site path the form was submitted from. */
export const SOURCE_FIELD = "_source";
/** Client-chosen key so a resubmitted form is stored once. */
export const IDEMPOTENCY_FIELD = "_idempotencyKey";

/** Flat form values as posted: one string per field, an array for checkbox groups. */
export type FormValues = Record<string, string | readonly string[]>;

export interface RenderFormOptions {
  /** Values to show (e.g. what was posted before a validation error). */
  values?: FormValues;
  /** Field -> message, as returned in a 400's `fields`. */
  errors?: FieldErrors;
  /**
   * Extra hidden inputs, typically `_source` (the page path) and `_started`. `_started`
   * defaults to the render time; pass "" to leave it empty (e.g. a page built long before
   * anyone opens it, with a script that sets it on load).
   */
  hidden?: Record<string, string>;
  /** Prefix for element ids, so two forms can share a page (default: the form name). */
  idPrefix?: string;
  /** Adds `novalidate` (skip the browser's own checks and let the server answer). */
  noValidate?: boolean;
}

/** Shared class lists, exported so the server stylesheet and tests can refer to them. */
export const FORM_CLASSES = {
  form: "lead-form space-y-4",
  field: "space-y-1",
  label: "block text-sm font-medium text-slate-700 mb-1",
  input: "w-full rounded-lg border border-slate-300 px-3 py-2.5",
  error: "text-sm text-red-700 mt-1",
  fieldset: "space-y-2",
  legend: "block text-sm font-medium text-slate-700 mb-1",
  group: "rounded-lg border border-slate-300 p-4 space-y-4",
  groupLegend: "px-1 text-sm font-semibold text-slate-700",
  checkboxList: "grid gap-2 sm:grid-cols-2",
  checkboxLabel: "flex items-start gap-2 text-sm text-slate-700",
  checkbox: "mt-0.5 h-4 w-4 shrink-0",
  summary: "rounded-lg border border-red-300 bg-red-50 p-4 text-sm text-red-800",
  summaryList: "mt-2 list-disc space-y-1 pl-5",
  required: "text-red-700",
  honeypot: "sr-only",
  submit: "btn-primary w-full",
} as const;

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes text for element content and double- or single-quoted attributes. */
export function escapeHtml(value: unknown): string {
  return String(value ?? "").replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** "treeDetails.height" -> "quote-treeDetails-height" (valid, unique id per form). */
export function fieldId(form: FormDef, name: string, idPrefix: string = form.name): string {
  return `${idPrefix}-${name.replace(/[^A-Za-z0-9_-]/g, "-")}`;
}

/**
 * Posted entries -> FormValues for the form's own fields (files and unknown keys dropped),
 * so a re-rendered form keeps what the visitor typed and ticked.
 */
export function entriesToFormValues(form: FormDef, entries: Iterable<[string, unknown]>): FormValues {
  const known = new Map(form.fields.filter((f) => f.kind !== "file").map((f) => [f.name, f]));
  const values: Record<string, string | string[]> = {};
  for (const [key, value] of entries) {
    const field = known.get(key);
    if (!field || typeof value !== "string") continue;
    if (field.kind === "checkboxes") ((values[key] ??= []) as string[]).push(value);
    else values[key] = value;
  }
  return values;
}

/** The message for a field, including item errors of a list ("currentChallenges.0"). */
function errorFor(errors: FieldErrors, name: string): string | undefined {
  if (Object.hasOwn(errors, name)) return errors[name];
  const nested = Object.keys(errors).find((k) => k.startsWith(`${name}.`));
  return nested === undefined ? undefined : errors[nested];
}

const one = (v: string | readonly string[] | undefined): string => (typeof v === "string" ? v : (v?.[0] ?? ""));
const many = (v: string | readonly string[] | undefined): readonly string[] => (typeof v === "string" ? [v] : (v ?? []));

function attrs(list: Record<string, string | boolean | undefined>): string {
  let out = "";
  for (const [name, value] of Object.entries(list)) {
    if (value === undefined || value === false) continue;
    out += value === true ? ` ${name}` : ` ${name}="${escapeHtml(value)}"`;
  }
  return out;
}

function renderField(form: FormDef, field: FieldDef, opts: Required<Pick<RenderFormOptions, "values" | "errors">> & { idPrefix: string }): string {
  const id = fieldId(form, field.name, opts.idPrefix);
  const error = errorFor(opts.errors, field.name);
  const errorId = `${id}-error`;
  const errorHtml = error ? `<p id="${errorId}" class="${FORM_CLASSES.error}">${escapeHtml(error)}</p>` : "";
  const star = field.required ? ` <span class="${FORM_CLASSES.required}" aria-hidden="true">*</span>` : "";
  const value = opts.values[field.name];
  const common = {
    id,
    name: field.name,
    class: FORM_CLASSES.input,
    // Native `required` would stop a no-JS visitor before the server could explain; the
    // server answers with the spec's messages instead, so only announce it.
    "aria-required": field.required ? "true" : undefined,
    "aria-invalid": error ? "true" : undefined,
    "aria-describedby": error ? errorId : undefined,
    // "street-address" is multi-line and only valid on a textarea; a one-line input takes
    // the first line (browsers fill it the same way).
    autocomplete: field.autocomplete === "street-address" && field.kind !== "textarea" ? "address-line1" : field.autocomplete,
  };

  if (field.kind === "checkboxes") {
    const checked = new Set(many(value));
    const boxes = (field.options ?? [])
      .map((option, i) => {
        const boxId = `${id}-${i}`;
        return (
          `<label class="${FORM_CLASSES.checkboxLabel}">` +
          `<input${attrs({ type: "checkbox", id: boxId, name: field.name, value: option.value, class: FORM_CLASSES.checkbox, checked: checked.has(option.value), "aria-invalid": error ? "true" : undefined })}>` +
          `<span>${escapeHtml(option.label)}</span></label>`
        );
      })
      .join("");
    return (
      `<fieldset${attrs({ class: FORM_CLASSES.fieldset, id, "aria-describedby": error ? errorId : undefined })}>` +
      `<legend class="${FORM_CLASSES.legend}">${escapeHtml(field.label)}${star}</legend>` +
      // A checkbox group is one field with one name; html-validate's form-dup-name would
      // otherwise want "name[]", which is PHP's convention, not ours.
      `<div class="${FORM_CLASSES.checkboxList}"><!-- [html-validate-disable-block form-dup-name] -->${boxes}</div>${errorHtml}</fieldset>`
    );
  }

  const label = `<label class="${FORM_CLASSES.label}" for="${id}">${escapeHtml(field.label)}${star}</label>`;
  let control: string;
  switch (field.kind) {
    case "select": {
      const current = one(value);
      const options = (field.options ?? [])
        .map((o) => `<option${attrs({ value: o.value, selected: o.value === current })}>${escapeHtml(o.label)}</option>`)
        .join("");
      const prompt = `<option value=""${current === "" ? " selected" : ""}>${escapeHtml(field.placeholder ?? "Select...")}</option>`;
      control = `<select${attrs(common)}>${prompt}${options}</select>`;
      break;
    }
    case "textarea":
      control = `<textarea${attrs({ ...common, rows: "4" })}>${escapeHtml(one(value))}</textarea>`;
      break;
    case "file":
      // A browser never re-fills a file input, so no value here.
      control = `<input${attrs({ ...common, type: "file", accept: field.accept, autocomplete: undefined })}>`;
      break;
    case "hidden":
      return `<input${attrs({ type: "hidden", name: field.name, value: one(value) })}>`;
    default:
      control = `<input${attrs({ ...common, type: field.kind, value: one(value), inputmode: field.kind === "tel" ? "tel" : undefined })}>`;
  }
  return `<div class="${FORM_CLASSES.field}">${label}${control}${errorHtml}</div>`;
}

/**
 * A complete `<form method="post">` for a lead form: labelled fields (grouped ones in a
 * fieldset), inline error messages wired with aria-describedby/aria-invalid, an error
 * summary, the honeypot and the `_started`/`_source` hidden inputs, and the submit button.
 */
export function renderLeadFormHtml(form: FormDef, options: RenderFormOptions = {}): string {
  const values = options.values ?? {};
  const errors = options.errors ?? {};
  const idPrefix: string = options.idPrefix ?? form.name;
  const ctx = { values, errors, idPrefix };

  const parts: string[] = [];
  // The summary reads in form order, whatever order the validator reported in.
  const order = new Map(form.fields.map((f, i) => [f.name, i]));
  const rank = (key: string) => order.get(key) ?? order.get(key.replace(/\.\d+$/, "")) ?? order.size;
  const errorKeys = Object.keys(errors).sort((a, b) => rank(a) - rank(b));
  if (errorKeys.length > 0) {
    const known = new Set(order.keys());
    const items = errorKeys
      .map((key) => {
        const name = known.has(key) ? key : key.replace(/\.\d+$/, "");
        const text = escapeHtml(errors[key]);
        return known.has(name) ? `<li><a href="#${fieldId(form, name, idPrefix)}">${text}</a></li>` : `<li>${text}</li>`;
      })
      .join("");
    parts.push(
      `<div class="${FORM_CLASSES.summary}" role="alert" id="${idPrefix}-errors" tabindex="-1">` +
        `<p><strong>${VALIDATION_ERROR}</strong></p><ul class="${FORM_CLASSES.summaryList}">${items}</ul></div>`,
    );
  }

  let openGroup: string | undefined;
  for (const field of form.fields) {
    if (field.group !== openGroup) {
      if (openGroup !== undefined) parts.push("</fieldset>");
      if (field.group !== undefined) parts.push(`<fieldset class="${FORM_CLASSES.group}"><legend class="${FORM_CLASSES.groupLegend}">${escapeHtml(field.group)}</legend>`);
      openGroup = field.group;
    }
    parts.push(renderField(form, field, ctx));
  }
  if (openGroup !== undefined) parts.push("</fieldset>");

  // Off-screen and hidden from assistive tech; tabindex keeps keyboard users out of it.
  const trapId = `${idPrefix}-${HONEYPOT_FIELD}`;
  parts.push(
    `<div class="${FORM_CLASSES.honeypot}" aria-hidden="true"><label for="${trapId}">Leave this field empty</label>` +
      `<input type="text" id="${trapId}" name="${HONEYPOT_FIELD}" value="" tabindex="-1" autocomplete="off"></div>`,
  );

  const hidden: Record<string, string> = { [STARTED_FIELD]: String(Date.now()), [SOURCE_FIELD]: "", ...options.hidden };
  for (const [name, value] of Object.entries(hidden)) {
    if (name === HONEYPOT_FIELD) continue;
    parts.push(`<input${attrs({ type: "hidden", name, value })}>`);
  }

  parts.push(`<button type="submit" class="${FORM_CLASSES.submit}">${escapeHtml(form.submit)}</button>`);

  const formAttrs = attrs({
    method: "post",
    action: form.action,
    enctype: form.enctype,
    class: FORM_CLASSES.form,
    id: `${idPrefix}-form`,
    novalidate: options.noValidate === true,
    "aria-describedby": errorKeys.length > 0 ? `${idPrefix}-errors` : undefined,
  });
  return `<form${formAttrs}>${parts.join("")}</form>`;
}
