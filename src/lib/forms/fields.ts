/**
 * What each lead form asks, as data: the React dialogs, the no-JS fallback forms in the
 * static pages and the server-rendered error/confirmation pages all draw the same
 * fields, labels and choices from here (validation lives in ../schemas/forms.ts).
 */
import {
  BOOKING_URGENCY,
  CHALLENGES,
  CURRENT_REVENUE,
  EMPLOYEE_COUNT,
  GOALS,
  GROWTH_PHASES,
  PRO_SERVICES,
  PROPERTY_TYPES,
  SERVICE_TYPES,
  TIMELINES,
  URGENCY,
  YEARS_IN_BUSINESS,
  type Option,
} from "../options.ts";
import { PHOTO_TEXT } from "../photos.ts";
import { RESPONSE_TIMES } from "../lead-urgency.ts";
import type { Business } from "../schemas/business.ts";

export type FieldKind = "text" | "email" | "tel" | "date" | "select" | "checkboxes" | "textarea" | "file" | "hidden";

export interface FieldDef {
  /** Form field name; dotted names ("treeDetails.height") nest in the JSON payload. */
  name: string;
  /** Visible label. */
  label: string;
  kind: FieldKind;
  /** Marked required in the UI (the schema decides what is valid). */
  required?: boolean;
  /** Choices for select/checkboxes. */
  options?: readonly Option[];
  /** Select prompt shown before a choice is made. */
  placeholder?: string;
  /** HTML autocomplete token. */
  autocomplete?: string;
  /** File inputs: accepted types. */
  accept?: string;
  /** Optional fields grouped under a sub-heading (e.g. tree details). */
  group?: string;
}

export type LeadFormName = "quote" | "audit" | "assessment" | "find-pros" | "booking";

export interface FormDef {
  name: LeadFormName;
  /** POST target; the same URL answers JSON (dialogs) and form posts (no JavaScript). */
  action: `/api/${string}`;
  /** Dialog / page heading. */
  title: string;
  /** One-line explanation under the heading. */
  description: string;
  /** Submit button label, and the label while pending. */
  submit: string;
  pending: string;
  /** multipart when a file can be attached. */
  enctype?: "multipart/form-data";
  fields: readonly FieldDef[];
}

const contact = (nameLabel = "Full Name"): FieldDef[] => [
  { name: "name", label: nameLabel, kind: "text", required: true, autocomplete: "name" },
  { name: "email", label: "Email", kind: "email", required: true, autocomplete: "email" },
  { name: "phone", label: "Phone", kind: "tel", required: true, autocomplete: "tel" },
];

const businessFields: FieldDef[] = [
  ...contact(),
  { name: "companyName", label: "Company Name", kind: "text", required: true, autocomplete: "organization" },
  {
    name: "currentRevenue",
    label: "Annual Revenue",
    kind: "select",
    required: true,
    options: CURRENT_REVENUE,
    placeholder: "Select revenue range",
  },
  {
    name: "yearsInBusiness",
    label: "Years in Business",
    kind: "select",
    required: true,
    options: YEARS_IN_BUSINESS,
    placeholder: "Select years in business",
  },
  {
    name: "employeeCount",
    label: "Team Size",
    kind: "select",
    required: true,
    options: EMPLOYEE_COUNT,
    placeholder: "Select employee count",
  },
  {
    name: "currentChallenges",
    label: "Current Challenges (select all that apply)",
    kind: "checkboxes",
    required: true,
    options: CHALLENGES,
  },
  {
    name: "growthGoals",
    label: "Growth Goals (select all that apply)",
    kind: "checkboxes",
    required: true,
    options: GOALS,
  },
];

export const QUOTE_FORM: FormDef = {
  name: "quote",
  action: "/api/quote",
  title: "Get Your Free Tree Service Quote",
  description: `Tell us about the job and see an instant estimate. We'll confirm the price within ${RESPONSE_TIMES.contact}.`,
  submit: "Get My Free Quote",
  pending: "Generating Quote...",
  fields: [
    ...contact(),
    { name: "address", label: "Property Address", kind: "text", required: true, autocomplete: "street-address" },
    {
      name: "serviceType",
      label: "Service Needed",
      kind: "select",
      required: true,
      options: SERVICE_TYPES,
      placeholder: "Select a service",
    },
    {
      name: "urgency",
      label: "How Soon?",
      kind: "select",
      required: true,
      options: URGENCY,
      placeholder: "Select urgency",
    },
    { name: "treeDetails.treeType", label: "Tree Type", kind: "text", group: "Tree Details (optional)" },
    { name: "treeDetails.height", label: "Approximate Height", kind: "text", group: "Tree Details (optional)" },
    { name: "treeDetails.condition", label: "Condition", kind: "text", group: "Tree Details (optional)" },
    {
      name: "treeDetails.proximity",
      label: "Near Structures or Lines?",
      kind: "text",
      group: "Tree Details (optional)",
    },
  ],
};

export const AUDIT_FORM: FormDef = {
  name: "audit",
  action: "/api/audit",
  title: "Free Growth & Valuation Audit",
  description:
    "A 30-minute call with a growth advisor: where your business stands, what it's worth and how to grow it.",
  submit: "Request My Free Audit",
  pending: "Submitting...",
  fields: businessFields,
};

export const ASSESSMENT_FORM: FormDef = {
  name: "assessment",
  action: "/api/assessment",
  title: "Free Growth Assessment",
  description: "Tell us where your business is today and we'll map out this phase for you.",
  submit: "Request My Assessment",
  pending: "Submitting...",
  fields: [
    {
      name: "phase",
      label: "Growth Phase",
      kind: "select",
      required: true,
      options: GROWTH_PHASES,
      placeholder: "Select a phase",
    },
    ...businessFields,
  ],
};

export const FIND_PROS_FORM: FormDef = {
  name: "find-pros",
  action: "/api/find-pros",
  title: "Get Multiple Quotes Fast",
  description: "Describe the job once and we'll match you with up to 3 licensed, insured local pros.",
  submit: "Get My Quotes",
  pending: "Submitting...",
  enctype: "multipart/form-data",
  fields: [
    { name: "location", label: "Location (city or ZIP)", kind: "text", required: true, autocomplete: "address-level2" },
    {
      name: "serviceType",
      label: "Service Type",
      kind: "select",
      required: true,
      options: PRO_SERVICES,
      placeholder: "Select a service",
    },
    {
      name: "propertyType",
      label: "Property Type",
      kind: "select",
      required: true,
      options: PROPERTY_TYPES,
      placeholder: "Select property type",
    },
    { name: "description", label: "Describe the Job", kind: "textarea" },
    {
      name: "timeline",
      label: "Timeline",
      kind: "select",
      required: true,
      options: TIMELINES,
      placeholder: "Select a timeline",
    },
    { name: "photo", label: PHOTO_TEXT.label, kind: "file", accept: "image/*" },
    ...contact(),
  ],
};

/**
 * Booking a directory business (Book Service on /directory/{slug}). The service choices are
 * the business's own, so pages use bookingForm(business); this generic form has none.
 */
export const BOOKING_FORM: FormDef = {
  name: "booking",
  action: "/api/booking-request",
  title: "Book Service",
  description: `Tell us what you need and we'll contact you within ${RESPONSE_TIMES.contact} to schedule your service.`,
  submit: "Submit Booking Request",
  pending: "Submitting...",
  fields: [
    { name: "businessId", label: "Business", kind: "hidden" },
    { name: "customerName", label: "Full Name", kind: "text", required: true, autocomplete: "name" },
    { name: "customerEmail", label: "Email", kind: "email", required: true, autocomplete: "email" },
    { name: "customerPhone", label: "Phone", kind: "tel", required: true, autocomplete: "tel" },
    { name: "serviceType", label: "Service Type", kind: "select", options: [], placeholder: "Select a service" },
    { name: "propertyAddress", label: "Property Address", kind: "text", autocomplete: "street-address" },
    { name: "preferredDate", label: "Preferred Date", kind: "date" },
    { name: "urgency", label: "Urgency", kind: "select", options: BOOKING_URGENCY, placeholder: "Select urgency" },
    { name: "description", label: "Describe the Job", kind: "textarea" },
  ],
};

/** The booking form for one business: its services as the choices, its name in the heading. */
export function bookingForm(business: Pick<Business, "name" | "services">): FormDef {
  const options = business.services.map((s) => ({ value: s, label: s }));
  return {
    ...BOOKING_FORM,
    title: `Book Service with ${business.name}`,
    fields: BOOKING_FORM.fields.map((f) => (f.name === "serviceType" ? { ...f, options } : f)),
  };
}

/** The site-wide forms (dialogs and their no-JS fallbacks); booking belongs to a business page. */
export const LEAD_FORMS: Record<Exclude<LeadFormName, "booking">, FormDef> = {
  quote: QUOTE_FORM,
  audit: AUDIT_FORM,
  assessment: ASSESSMENT_FORM,
  "find-pros": FIND_PROS_FORM,
};

/**
 * Builds the JSON payload from flat form entries: dotted names nest, checkbox groups become
 * arrays, empty optional nested fields are dropped. Only the form's own field names are
 * read, so stray keys (including "__proto__") never reach the payload.
 */
export function formValuesToPayload(form: FormDef, entries: Iterable<[string, string]>): Record<string, unknown> {
  const known = new Map(form.fields.filter((f) => f.kind !== "file").map((f) => [f.name, f]));
  const payload: Record<string, unknown> = {};
  for (const field of known.values()) if (field.kind === "checkboxes") payload[field.name] = [];
  for (const [key, value] of entries) {
    const field = known.get(key);
    if (!field) continue;
    if (field.kind === "checkboxes") {
      (payload[key] as string[]).push(value);
    } else if (key.includes(".")) {
      if (value.trim() === "") continue;
      const [parent, child] = key.split(".", 2);
      const nested = (payload[parent] ??= {}) as Record<string, string>;
      nested[child] = value;
    } else {
      payload[key] = value;
    }
  }
  return payload;
}
