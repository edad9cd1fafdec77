/**
 * A lead's payload as the detail dialog lists it: every field, nested objects flattened, lists
 * joined, and a choice shown by its label ("Within a week", not "within-week"). Which list a
 * field's choices come from is the form that sent it (forms/fields.ts): the same value can
 * read differently on two forms ("within-week" is "Within 1 week" on find-pros).
 */
import { BOOKING_FORM, LEAD_FORMS, type FormDef } from "../../lib/forms/fields.ts";
import { optionLabel, type Option } from "../../lib/options.ts";
import type { Lead, LeadType } from "../../lib/schemas/lead.ts";

export interface LeadField {
  /** Payload path, e.g. "treeDetails.height" (unique within a lead). */
  path: string;
  label: string;
  value: string;
}

const FORMS: Record<LeadType, FormDef> = { ...LEAD_FORMS, booking: BOOKING_FORM };

/** A form's choice lists by field path. Booking's services are the business's own words (an empty list here): nothing to map. */
const choicesOf = (form: FormDef) =>
  new Map(form.fields.filter((f) => f.options?.length).map((f): [string, readonly Option[]] => [f.name, f.options!]));
const CHOICES = new Map(Object.entries(FORMS).map(([type, form]) => [type, choicesOf(form)]));

/** "treeDetails.height" -> "Tree details / height"; "customerPhone" -> "Customer phone". */
export function fieldLabel(path: string): string {
  return path
    .split(".")
    .map((part) => part.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase())
    .join(" / ")
    .replace(/^./, (c) => c.toUpperCase());
}

/** Every payload field, in payload order; values outside the form's choices (old data) stay as sent. */
export function leadFields(lead: Pick<Lead, "type" | "data">): LeadField[] {
  const choices = CHOICES.get(lead.type);
  const text = (path: string, value: unknown) => {
    const options = choices?.get(path);
    return options ? optionLabel(options, String(value)) : String(value);
  };
  const walk = (data: unknown, prefix: string): LeadField[] => {
    if (!data || typeof data !== "object") return [];
    return Object.entries(data as Record<string, unknown>).flatMap(([key, value]): LeadField[] => {
      const path = prefix ? `${prefix}.${key}` : key;
      if (value === null || value === undefined || value === "") return [];
      if (Array.isArray(value))
        return [{ path, label: fieldLabel(path), value: value.map((v) => text(path, v)).join(", ") }];
      if (typeof value === "object") return walk(value, path);
      return [{ path, label: fieldLabel(path), value: text(path, value) }];
    });
  };
  return walk(lead.data, "");
}
