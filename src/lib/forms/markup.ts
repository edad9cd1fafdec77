/**
 * What every lead form carries besides its fields (the hidden inputs the pipeline reads),
 * the shared class lists, and the escaping used by the few HTML strings left (the
 * function pages' chrome, notification e-mails). Forms themselves are React components
 * (src/views/leads/LeadForm.tsx), rendered on the server and hydrated in the browser.
 */
import type { FormDef } from "./fields.ts";

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
