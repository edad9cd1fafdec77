/**
 * Every form submission is stored as a lead: a typed envelope around the form's own payload.
 * Each form validates `data` with its own schema; the envelope is the same for all.
 */
import { z } from "zod";

export const LEAD_TYPES = ["quote", "audit", "assessment", "find-pros", "booking"] as const;
export const LeadType = z.enum(LEAD_TYPES);
export type LeadType = z.infer<typeof LeadType>;

// Only "new" exists today; follow-up states arrive with the admin area.
export const LeadStatus = z.enum(["new"]);
export type LeadStatus = z.infer<typeof LeadStatus>;

/** Envelope schema for a given payload schema. */
export function leadSchema<T extends z.ZodType>(data: T) {
  return z.object({
    /** Server id; sorts by creation time. */
    id: z.string().min(1),
    /** Which form produced it. */
    type: LeadType,
    /** ISO timestamp set by the server. */
    createdAt: z.iso.datetime({ offset: true }),
    /** Site path the form was submitted from, e.g. "/services/tree-removal". */
    sourcePage: z.string().max(500),
    /** Workflow state. */
    status: LeadStatus,
    /** The form payload, validated by the caller. */
    data,
  });
}

/** Envelope with an unchecked payload. */
export const Lead = leadSchema(z.unknown());
export type Lead<T = unknown> = Omit<z.infer<typeof Lead>, "data"> & { data: T };
