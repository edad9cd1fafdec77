/**
 * Every form submission is stored as a lead: a typed envelope around the form's own payload.
 * Each form validates `data` with its own schema; the envelope is the same for all.
 */
import { z } from "../zod.ts";

export const LEAD_TYPES = ["quote", "audit", "assessment", "find-pros", "booking"] as const;
export const LeadType = z.enum(LEAD_TYPES);
export type LeadType = z.infer<typeof LeadType>;

/**
 * The operator's workflow: new -> contacted -> won or lost. Any state may be set from any
 * other (people correct mistakes); every change is kept in `history`, so nothing is lost.
 */
export const LEAD_STATUSES = ["new", "contacted", "won", "lost"] as const;
export const LeadStatus = z.enum(LEAD_STATUSES);
export type LeadStatus = z.infer<typeof LeadStatus>;

/** Longest operator note; a note is a reminder, not a document. */
export const MAX_NOTE_LENGTH = 2000;

/** One operator change, oldest first in `history`. */
export const LeadChange = z.object({
  /** ISO timestamp of the change. */
  at: z.iso.datetime({ offset: true }),
  /** Status before the change. */
  from: LeadStatus,
  /** Status after the change (equal to `from` when only the note changed). */
  to: LeadStatus,
  /** The note as it was saved with this change, if the change touched it. */
  note: z.string().max(MAX_NOTE_LENGTH).optional(),
});
export type LeadChange = z.infer<typeof LeadChange>;

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
    /** Workflow state; "new" on arrival. */
    status: LeadStatus,
    /** The operator's current note (absent until one is written). */
    note: z.string().max(MAX_NOTE_LENGTH).optional(),
    /** ISO timestamp of the last operator change (absent until the first). */
    updatedAt: z.iso.datetime({ offset: true }).optional(),
    /** Operator changes, oldest first (absent until the first). */
    history: z.array(LeadChange).optional(),
    /** The form payload, validated by the caller. */
    data,
  });
}

/** Envelope with an unchecked payload. */
export const Lead = leadSchema(z.unknown());
export type Lead<T = unknown> = Omit<z.infer<typeof Lead>, "data"> & { data: T };
