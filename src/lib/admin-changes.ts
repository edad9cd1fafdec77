/**
 * The operator's change history (/admin, Changes tab; GET /api/admin/changes and POST
 * /api/admin/changes/:id/rollback): what owners (and rollbacks) changed on a listing, field
 * by field, before and after. Browser-safe: the island and the functions share it.
 */
import { ADMIN_MAX_PAGE_SIZE, ADMIN_PAGE_SIZE } from "./admin.ts";
import { formatCredentialDate, formatUsd } from "./credentials/format.ts";
import { licenceLine } from "./credentials/state-rules.ts";
import { WEEKDAYS } from "./options.ts";
import { z } from "./zod.ts";

/** A change id as netlify/lib/owners/changes.ts draws it: "ch_" + time + random hex. */
const CHANGE_ID = /^ch_[0-9a-z]{1,12}[0-9a-f]{10}$/;
export const isChangeId = (v: string) => CHANGE_ID.test(v);
/** A business id ("biz-265") or slug ("oak-crew-austin"): the server tries the id first. */
const BUSINESS_REF = /^[A-Za-z0-9][A-Za-z0-9_-]{0,119}$/;

/** The Changes filter's label: the operator sees slugs and page addresses, never ids. */
export const CHANGES_BUSINESS_LABEL = "Business (id or page address)";

/**
 * The filter box's text as an id or slug: a pasted page address ("https://.../directory/oak-crew",
 * with or without a query or trailing slash) gives its slug; anything else is taken as it is.
 */
function businessRef(input: string): string {
  const text = input.trim();
  const path = /^https?:\/\//i.test(text) && URL.canParse(text) ? new URL(text).pathname : text;
  const page = /(?:^|\/)directory\/([^/?#]+)\/?$/.exec(path);
  if (page) {
    try {
      return decodeURIComponent(page[1]!);
    } catch {
      return page[1]!;
    }
  }
  return text;
}

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
  byAppointment: "By appointment",
  images: "Photos",
  website: "Website",
  phone: "Phone",
  credentials: "License & insurance",
  licenseNumber: "License (old text)",
  insuranceDetails: "Insurance (old text)",
};

const blank = (v: string | undefined) => (v === undefined || v.trim() === "" ? undefined : v.trim());

/** GET /api/admin/changes query. */
export const AdminChangesQuery = z.object({
  /** One business's changes, by its id, slug or page address; absent for every business's. */
  businessId: z
    .string()
    .optional()
    .transform((v) => blank(v === undefined ? v : businessRef(v)))
    .refine((v) => v === undefined || BUSINESS_REF.test(v), "Enter a business id, or its page address or slug"),
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

/** What an absent or empty holiday list means (Business.closedHolidays; holidays.ts). */
export const HOLIDAY_VALUE_TEXT = {
  /** Absent: the default, closed on every CLOSING_HOLIDAYS one (there are six). */
  absent: "All six public holidays (default)",
  /** []: the owner unticked them all. */
  empty: "Open on every holiday",
} as const;

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);
const str = (v: unknown) => (typeof v === "string" ? v : "");

/** "Mon 7:00 AM - 6:00 PM; Tue closed; ...": every day, in week order (an absent day is closed). */
function hoursText(hours: Record<string, unknown>): string {
  return WEEKDAYS.map((d) => {
    const text = str(hours[d]).trim();
    return `${d[0]!.toUpperCase()}${d.slice(1, 3)} ${text || "closed"}`;
  }).join("; ");
}

const checked = (c: unknown) =>
  isRecord(c) && typeof c.checkedAt === "string"
    ? ` (checked ${formatCredentialDate(c.checkedAt)})`
    : " (not checked yet)";

/** "License CA C-49 #1012345 (checked Nov 28, 2026); Insurance Acme Mutual, $1,000,000, to Jun 30, 2027 (...)". */
function credentialsText(c: Record<string, unknown>): string {
  const parts: string[] = [];
  const l = c.licence;
  if (isRecord(l))
    parts.push(
      `License ${licenceLine({ state: str(l.state), type: str(l.type), number: str(l.number) })}${checked(l.check)}`,
    );
  const i = c.insurance;
  if (isRecord(i)) {
    const cover = typeof i.coverUsd === "number" ? `, ${formatUsd(i.coverUsd)}` : "";
    const until = str(i.expiresOn) ? `, to ${formatCredentialDate(str(i.expiresOn))}` : "";
    parts.push(`Insurance ${str(i.carrier)}${cover}${until}${checked(i.check)}`);
  }
  return parts.join("; ") || "(none)";
}

/**
 * A field's value as the operator reads it: hours per day, credentials in words, what an
 * absent or empty holiday list means, lists joined; only free text and lists are cut at `max`
 * (hours and credentials are short and useless cut).
 */
export function changeValueText(field: string, value: unknown, max = 160): string {
  if (field === "byAppointment") return value === true ? "Yes" : "No";
  if (field === "closedHolidays") {
    if (value === null || value === undefined) return HOLIDAY_VALUE_TEXT.absent;
    if (Array.isArray(value) && value.length === 0) return HOLIDAY_VALUE_TEXT.empty;
  }
  if (value === null || value === undefined) return "(none)";
  if (field === "businessHours" && isRecord(value)) return hoursText(value);
  if (field === "credentials" && isRecord(value)) return credentialsText(value);
  let text: string;
  if (typeof value === "string") text = value === "" ? "(empty)" : value;
  else if (Array.isArray(value))
    text =
      value.length === 0
        ? "(none)"
        : value
            .map((v) =>
              isRecord(v) && "date" in v ? `${String(v.date)}${v.note ? ` (${String(v.note)})` : ""}` : String(v),
            )
            .join(", ");
  else if (isRecord(value))
    text =
      Object.entries(value)
        .map(([k, v]) => `${k} ${typeof v === "string" || typeof v === "number" ? v : JSON.stringify(v)}`)
        .join("; ") || "(none)";
  else text = String(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
