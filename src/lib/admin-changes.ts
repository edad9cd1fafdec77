/**
 * The operator's change history (/admin, Changes tab; GET /api/admin/changes and POST
 * /api/admin/changes/:id/rollback): what owners (and rollbacks) changed on a listing, field
 * by field, before and after. Browser-safe: the island and the functions share it.
 */
import { ADMIN_MAX_PAGE_SIZE, ADMIN_PAGE_SIZE } from "./admin.ts";
import { z } from "./zod.ts";

/** A change id as netlify/lib/owners/changes.ts draws it: "ch_" + time + random hex. */
export const CHANGE_ID = /^ch_[0-9a-z]{1,12}[0-9a-f]{10}$/;
export const isChangeId = (v: string) => CHANGE_ID.test(v);
const BUSINESS_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export const CHANGE_NOT_FOUND = "Change not found";
/** A rollback that would change nothing (the fields already hold their old values). */
export const NOTHING_TO_ROLL_BACK = "Nothing to roll back: the listing already shows what it had before this change.";

/** The names the history shows for the fields an owner may change. */
export const CHANGE_FIELD_LABELS: Readonly<Record<string, string>> = {
  description: "Description",
  services: "Services",
  serviceAreas: "Service areas",
  businessHours: "Hours",
  closedHolidays: "Holiday closures",
  closedDates: "Closed days",
  images: "Photos",
  website: "Website",
  phone: "Phone",
  credentials: "Licence & insurance",
  licenseNumber: "Licence (old text)",
  insuranceDetails: "Insurance (old text)",
};

const blank = (v: string | undefined) => (v === undefined || v.trim() === "" ? undefined : v.trim());

/** GET /api/admin/changes query. */
export const AdminChangesQuery = z.object({
  /** One business's changes; absent for every business's. */
  businessId: z
    .string()
    .optional()
    .transform(blank)
    .refine((v) => v === undefined || BUSINESS_ID.test(v), "Invalid business id"),
  /** `nextCursor` of the previous page (an offset); absent for the newest page. */
  cursor: z
    .string()
    .optional()
    .transform(blank)
    .refine((v) => v === undefined || /^\d{1,6}$/.test(v), "Invalid cursor")
    .transform((v) => (v === undefined ? 0 : Number(v))),
  /** Page size, 1..ADMIN_MAX_PAGE_SIZE, default ADMIN_PAGE_SIZE. */
  limit: z
    .string()
    .optional()
    .transform(blank)
    .refine(
      (v) => v === undefined || (/^\d{1,3}$/.test(v) && Number(v) >= 1 && Number(v) <= ADMIN_MAX_PAGE_SIZE),
      `Limit must be a whole number from 1 to ${ADMIN_MAX_PAGE_SIZE}`,
    )
    .transform((v) => (v === undefined ? ADMIN_PAGE_SIZE : Number(v))),
});
export type AdminChangesQuery = z.output<typeof AdminChangesQuery>;

/** Who made a change. */
export type AdminChangeActor = { kind: "owner"; email: string } | { kind: "operator" };

/** One change as /admin shows it (the stored change plus the business's name and slug). */
export interface AdminChange {
  id: string;
  businessId: string;
  businessName?: string;
  businessSlug?: string;
  /** ISO. */
  at: string;
  actor: AdminChangeActor;
  summary: string;
  /** The changed fields as they were (null = absent). */
  before: Record<string, unknown>;
  /** The changed fields after the change (null = absent). */
  after: Record<string, unknown>;
  /** The change this one rolled back. */
  revertOf?: string;
}

export interface AdminChangesReply {
  data: AdminChange[];
  nextCursor: string | null;
  total: number;
}

/** A field's value in one short line: lists joined, hours per day, long text cut. */
export function changeValueText(value: unknown, max = 160): string {
  if (value === null || value === undefined) return "(none)";
  let text: string;
  if (typeof value === "string") text = value === "" ? "(empty)" : value;
  else if (Array.isArray(value))
    text =
      value.length === 0
        ? "(none)"
        : value
            .map((v) =>
              v && typeof v === "object" && "date" in v
                ? `${String((v as { date: unknown }).date)}${(v as { note?: string }).note ? ` (${(v as { note?: string }).note})` : ""}`
                : String(v),
            )
            .join(", ");
  else if (typeof value === "object")
    text =
      Object.entries(value as Record<string, unknown>)
        .map(([k, v]) => `${k.slice(0, 3)} ${typeof v === "string" || typeof v === "number" ? v : JSON.stringify(v)}`)
        .join("; ") || "(none)";
  else text = String(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
