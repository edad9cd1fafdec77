/**
 * The owner's profile form (/owner/profile): what an owner may say about their business
 * (description, services, areas, website, phone, weekly hours, holiday closures and other
 * closed days), and the reading of the posted form. Client-safe: the function validates with
 * this schema.
 */
import { CLOSING_HOLIDAYS } from "../holidays.ts";
import { OPEN_24_HOURS } from "../hours.ts";
import { WEEKDAYS, type Weekday } from "../options.ts";
import type { BusinessHours } from "../schemas/business.ts";
import { cleanString } from "../schemas/text.ts";
import { z } from "../zod.ts";
import { DAY_MODES, to12h } from "./hours.ts";
import { PROFILE_LIMITS, PROFILE_MESSAGES } from "./messages.ts";
import { dedupeServices } from "./services.ts";

const text = (message: string) => cleanString({ error: message }).trim();

/** One day of the week as the forms post it (mode, open, close) -> its stored text ("" = closed). */
export const DayHours = z
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

const Day = DayHours;
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
  /** Towns or neighborhoods served, one per line; blank lines are dropped. */
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
  /** Also (or only, with no hours) by appointment: the page says "By appointment". */
  byAppointment: z.boolean().default(false),
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
    byAppointment: form.get("byAppointment") === "1",
    closedHolidays: form.getAll("closedHolidays"),
    closedDates,
  };
}

/** The validated form as business fields (null = remove). */
export function profilePatch(p: ProfileOutput): {
  description: string;
  services: string[];
  serviceAreas: string[];
  website: string | null;
  phone: string | null;
  businessHours: BusinessHours;
  byAppointment: true | null;
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
    byAppointment: p.byAppointment ? true : null,
    closedHolidays: p.closedHolidays,
    closedDates: p.closedDates,
  };
}
