/**
 * The owner's profile form (/owner/profile): what an owner may say about their business
 * (description, services, areas, website, phone, weekly hours, holiday closures and other
 * closed days), its messages, and the reading of the posted form. Client-safe: the function
 * validates with this schema and shows its messages next to the fields.
 */
import { CLOSING_HOLIDAYS } from "./holidays.ts";
import { clockMinutes, OPEN_24_HOURS } from "./hours.ts";
import { PRO_SERVICES, WEEKDAYS, type Weekday } from "./options.ts";
import type { Business, BusinessHours } from "./schemas/business.ts";
import { cleanString } from "./schemas/text.ts";
import { z } from "./zod.ts";

export const PROFILE_LIMITS = {
  description: 4000,
  services: 40,
  service: 80,
  serviceAreas: 60,
  serviceArea: 80,
  phone: 40,
  closedDates: 60,
  closedNote: 80,
} as const;

/** Empty rows for new closed days under the ones already listed. */
export const CLOSED_DATE_ROWS = 3;

export const PROFILE_MESSAGES = {
  description: `The description can be at most ${PROFILE_LIMITS.description} characters`,
  services: `Choose at most ${PROFILE_LIMITS.services} services, each at most ${PROFILE_LIMITS.service} characters`,
  serviceAreas: `List at most ${PROFILE_LIMITS.serviceAreas} areas, one per line, each at most ${PROFILE_LIMITS.serviceArea} characters`,
  website: "Enter a web address such as www.example.com or https://example.com (or leave it empty)",
  phone: "Enter a phone number with at least 10 digits (or leave it empty)",
  time: "Enter an opening and a closing time",
  sameTime: "The closing time must differ from the opening time",
  holidays: "Choose from the listed holidays",
  closedDate: "Enter a date as YYYY-MM-DD",
  closedNote: `A note can be at most ${PROFILE_LIMITS.closedNote} characters`,
  closedDates: `List at most ${PROFILE_LIMITS.closedDates} closed days`,
} as const;

/**
 * Beside the holiday ticks when holidays cannot close the listing (hours.ts: a business open
 * 24/7 or answering emergencies 24/7 shows open on every holiday), so an unticked box that
 * changes nothing on the page is not a mystery. The ticks are still stored for when that ends.
 */
export const HOLIDAYS_IGNORED = {
  emergency247:
    "Your listing answers emergencies around the clock, so your public page shows you open on every public holiday whatever you tick here. Your ticks are kept, and count only if your listing stops answering emergencies around the clock.",
  open247:
    "Your hours are 24 hours every day, so your public page shows you open on every public holiday whatever you tick here. Your ticks are kept, and count once you set other hours.",
} as const;

/**
 * The owner overview's "Finish your listing" checklist: a newly approved business has no
 * description, hours or photos, and its public page then reads as closed every day. Each item
 * links to the field or page that fixes it.
 */
export const FINISH_LISTING = {
  heading: "Finish your listing",
  intro: "Your public page is missing these. Until you add them it can look empty or closed every day.",
  description: { text: "Add a description of your business", href: "/owner/profile#description" },
  hours: { text: "Set your opening hours", href: "/owner/profile#hours" },
  photos: { text: "Add photos of your work", href: "/owner/photos" },
} as const;

/** What the listing still lacks, in the checklist's order (empty = nothing to finish). */
export function unfinishedListing(
  b: Pick<Business, "description" | "businessHours" | "images">,
): { text: string; href: string }[] {
  const items: { text: string; href: string }[] = [];
  if (!b.description.trim()) items.push(FINISH_LISTING.description);
  if (WEEKDAYS.every((d) => !(b.businessHours[d] ?? "").trim())) items.push(FINISH_LISTING.hours);
  if (b.images.length === 0) items.push(FINISH_LISTING.photos);
  return items;
}

/** The profile was saved: the 303's notice. */
export const PROFILE_SAVED = "Saved. Your public page shows it now.";

/** How a day is set: its hours, closed all day, or open around the clock. */
export const DAY_MODES = ["open", "closed", "24h"] as const;
export type DayMode = (typeof DAY_MODES)[number];

/** "07:00" (an <input type=time> value) -> "7:00 AM"; null when it is not HH:MM. */
export function to12h(value: string): string | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)(?::\d{2})?$/.exec(value.trim());
  if (!m) return null;
  const h = Number(m[1]);
  return `${h % 12 === 0 ? 12 : h % 12}:${m[2]} ${h < 12 ? "AM" : "PM"}`;
}

/** "7:00 AM" -> "07:00" for an <input type=time>; "" when it is not a clock time. */
export function to24hValue(text: string): string {
  const minutes = clockMinutes(text);
  if (minutes === null) return "";
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

/** A stored day's text as the form's fields; a free-text day that does not parse shows as open with no times. */
export function dayFields(text: string | undefined): { mode: DayMode; open: string; close: string } {
  const t = (text ?? "").trim();
  if (!t || /^closed$/i.test(t)) return { mode: "closed", open: "", close: "" };
  if (/^(open )?24 hours$|^24\/7$/i.test(t)) return { mode: "24h", open: "", close: "" };
  const [a = "", b = ""] = t.split(/\s*,\s*/)[0]!.split(/\s*[-–]\s*/);
  return { mode: "open", open: to24hValue(a), close: to24hValue(b) };
}

/**
 * The week to store: a day the owner left as the form showed it keeps its stored text. The form
 * has one opening a day, so a day with a break ("7:00 AM - 12:00 PM, 1:00 PM - 5:00 PM") must not
 * lose its afternoon to a save that did not touch it.
 */
export function keepUntouchedDays(
  stored: BusinessHours,
  posted: Readonly<Record<string, { mode?: unknown; open?: unknown; close?: unknown } | undefined>>,
  next: BusinessHours,
): BusinessHours {
  const week: BusinessHours = { ...next };
  for (const d of WEEKDAYS) {
    const shown = dayFields(stored[d]);
    const sent = posted[d];
    const hhmm = (v: unknown) => (typeof v === "string" ? v.slice(0, 5) : "");
    const untouched =
      sent?.mode === shown.mode &&
      (shown.mode !== "open" || (hhmm(sent.open) === shown.open && hhmm(sent.close) === shown.close));
    if (!untouched) continue;
    if (stored[d]) week[d] = stored[d];
    else delete week[d];
  }
  return week;
}

/** A stored day with a break in it, as the form notes it (the form itself shows its first opening). */
export const splitDayNote = (text: string) =>
  `Stored with a break: ${text}. Leave the times as they are to keep it; changing them replaces it with one opening.`;

const text = (message: string) => cleanString({ error: message }).trim();

const Day = z
  .object({
    /** open (with times), closed, or 24h. */
    mode: z.enum(DAY_MODES, { error: PROFILE_MESSAGES.time }),
    /** "HH:MM", 24-hour (the time input's value); required when open. */
    open: z.string().default(""),
    /** "HH:MM"; before `open` means after midnight. */
    close: z.string().default(""),
  })
  .superRefine((d, ctx) => {
    if (d.mode !== "open") return;
    const open = to12h(d.open);
    const close = to12h(d.close);
    if (!open || !close) ctx.addIssue({ code: "custom", message: PROFILE_MESSAGES.time });
    else if (d.open.slice(0, 5) === d.close.slice(0, 5))
      ctx.addIssue({ code: "custom", message: PROFILE_MESSAGES.sameTime });
  })
  .transform((d): string =>
    d.mode === "closed" ? "" : d.mode === "24h" ? OPEN_24_HOURS : `${to12h(d.open)} - ${to12h(d.close)}`,
  );

const dayShape = Object.fromEntries(WEEKDAYS.map((d) => [d, Day])) as Record<Weekday, typeof Day>;

export const ProfileInput = z.object({
  /** About the business, shown on its page. */
  description: cleanString({ error: PROFILE_MESSAGES.description }, { multiline: true })
    .trim()
    .max(PROFILE_LIMITS.description, PROFILE_MESSAGES.description),
  /** Services offered: the site's service names plus any the listing already had. */
  services: z
    .array(
      text(PROFILE_MESSAGES.services)
        .min(1, PROFILE_MESSAGES.services)
        .max(PROFILE_LIMITS.service, PROFILE_MESSAGES.services),
    )
    .max(PROFILE_LIMITS.services, PROFILE_MESSAGES.services)
    .transform((list) => dedupeServices(list)),
  /** Towns or neighbourhoods served, one per line; blank lines are dropped. */
  serviceAreas: cleanString({ error: PROFILE_MESSAGES.serviceAreas }, { multiline: true })
    .transform((v) => [
      ...new Set(
        v
          .split("\n")
          .map((l) => l.trim())
          .filter(Boolean),
      ),
    ])
    .pipe(
      z
        .array(z.string().max(PROFILE_LIMITS.serviceArea, PROFILE_MESSAGES.serviceAreas))
        .max(PROFILE_LIMITS.serviceAreas, PROFILE_MESSAGES.serviceAreas),
    ),
  /** Website; empty removes it. Only http(s) addresses: the page links to it. */
  website: text(PROFILE_MESSAGES.website)
    .max(500, PROFILE_MESSAGES.website)
    // Owners type "www.example.com" as often as a full address: one without a scheme gets
    // https:// (a port's "host:8080" is not a scheme); javascript:, mailto: and the like stay refused.
    .transform((v) => (v === "" || /^[a-z][a-z0-9+.-]*:(?!\d)/i.test(v) ? v : `https://${v}`))
    .refine((v) => v === "" || /^https?:\/\/[^\s/]+\.[^\s]+$/i.test(v), PROFILE_MESSAGES.website)
    .refine((v) => v === "" || URL.canParse(v), PROFILE_MESSAGES.website)
    .transform((v) => v || null),
  /** Display phone; empty removes it. */
  phone: text(PROFILE_MESSAGES.phone)
    .max(PROFILE_LIMITS.phone, PROFILE_MESSAGES.phone)
    .refine(
      (v) => v === "" || (/^[0-9()+.\-\s x]+$/i.test(v) && v.replace(/\D/g, "").length >= 10),
      PROFILE_MESSAGES.phone,
    )
    .transform((v) => v || null),
  /** Monday..Sunday: open with times, closed, or 24 hours. */
  hours: z.object(dayShape),
  /** The public holidays it closes on (CLOSING_HOLIDAYS names); none = open on all of them. */
  closedHolidays: z
    .array(z.string().refine((h) => (CLOSING_HOLIDAYS as readonly string[]).includes(h), PROFILE_MESSAGES.holidays))
    .transform((list) => CLOSING_HOLIDAYS.filter((h) => list.includes(h))),
  /** Other closed days; rows with neither a date nor a note are dropped. */
  closedDates: z
    .array(
      z.object({
        /** "YYYY-MM-DD". */
        date: z.iso.date(PROFILE_MESSAGES.closedDate),
        /** Why, shown with the date (optional). */
        note: text(PROFILE_MESSAGES.closedNote).max(PROFILE_LIMITS.closedNote, PROFILE_MESSAGES.closedNote).optional(),
      }),
    )
    .max(PROFILE_LIMITS.closedDates, PROFILE_MESSAGES.closedDates)
    .transform((list) => {
      const byDate = new Map(list.map((d) => [d.date, d.note ? { date: d.date, note: d.note } : { date: d.date }]));
      return [...byDate.values()].sort((a, b) => a.date.localeCompare(b.date));
    }),
});
export type ProfileInput = z.input<typeof ProfileInput>;
export type ProfileOutput = z.output<typeof ProfileInput>;

/** The posted form as the schema's input: repeated fields as lists, closed-day rows paired by order. */
export function profileFormInput(form: URLSearchParams): Record<string, unknown> {
  const hours = Object.fromEntries(
    WEEKDAYS.map((d) => [
      d,
      {
        mode: form.get(`${d}.mode`) ?? "closed",
        open: form.get(`${d}.open`) ?? "",
        close: form.get(`${d}.close`) ?? "",
      },
    ]),
  );
  const dates = form.getAll("closedDate");
  const notes = form.getAll("closedNote");
  const closedDates = dates
    .map((date, i) => ({ date: date.trim(), note: (notes[i] ?? "").trim() }))
    .filter((row) => row.date !== "" || row.note !== "")
    .map((row) => (row.note ? row : { date: row.date }));
  return {
    description: form.get("description") ?? "",
    services: form.getAll("services"),
    serviceAreas: form.get("serviceAreas") ?? "",
    website: form.get("website") ?? "",
    phone: form.get("phone") ?? "",
    hours,
    closedHolidays: form.getAll("closedHolidays"),
    closedDates,
  };
}

/** How two service names are compared: "tree planting " and "Tree Planting" are one service. */
export const serviceKey = (name: string) => name.trim().replace(/\s+/g, " ").toLowerCase();

/** Each service once (first spelling kept, trimmed), by serviceKey. */
function dedupeServices(names: readonly string[]): string[] {
  const seen = new Map<string, string>();
  for (const name of names) {
    const key = serviceKey(name);
    if (key && !seen.has(key)) seen.set(key, name.trim().replace(/\s+/g, " "));
  }
  return [...seen.values()];
}

/** The same services, whatever their order or spelling (then the stored list is kept as it is). */
export function sameServices(a: readonly string[], b: readonly string[]): boolean {
  const keys = (l: readonly string[]) => [...new Set(l.map(serviceKey))].sort().join("\n");
  return keys(a) === keys(b);
}

/** The service names the form offers: the site's own, then any others the listing has, each once. */
export function serviceChoices(current: readonly string[]): string[] {
  return dedupeServices([...PRO_SERVICES.map((s) => s.label as string), ...current]);
}

/** The validated form as business fields (null = remove). */
export function profilePatch(p: ProfileOutput): {
  description: string;
  services: string[];
  serviceAreas: string[];
  website: string | null;
  phone: string | null;
  businessHours: BusinessHours;
  closedHolidays: string[];
  closedDates: { date: string; note?: string }[];
} {
  const businessHours: BusinessHours = {};
  for (const d of WEEKDAYS) if (p.hours[d]) businessHours[d] = p.hours[d];
  return {
    description: p.description,
    services: p.services,
    serviceAreas: p.serviceAreas,
    website: p.website,
    phone: p.phone,
    businessHours,
    closedHolidays: p.closedHolidays,
    closedDates: p.closedDates,
  };
}
