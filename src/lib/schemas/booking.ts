/**
 * The directory's booking request: what the Book Service dialog sends
 * and what POST /api/booking-request accepts. The dialog validates with it before sending and
 * the function validates again with the same object. Shared by the browser and the functions,
 * so this file imports nothing node-only.
 */
import { z } from "../zod.ts";
import { BOOKING_URGENCY, optionValues } from "../options.ts";
import { Business } from "./business.ts";
import { MESSAGES } from "./forms.ts";
import { cleanString } from "./text.ts";

/** What the visitor asks the business for; the spec's default is a consultation. */
export const REQUEST_TYPES = [
  { value: "consultation", label: "Consultation" },
  { value: "quote", label: "Quote" },
  { value: "service", label: "Service" },
] as const;

export const BOOKING_MESSAGES = {
  customerName: "Please enter your full name",
  customerEmail: MESSAGES.email,
  customerPhone: MESSAGES.phone,
  /** A service the chosen business does not list (checked by the function against the business). */
  serviceType: "Please choose one of this business's services",
  preferredDate: "Please choose a valid date",
  pastDate: "Please choose a date from today on",
  urgency: "Please select urgency level",
  requestType: "Please choose a request type",
  businessId: "Please choose a business to book",
  tooLong: MESSAGES.tooLong,
} as const;

/** Every directory city is in Texas, so "today" for a booking is Central time's date. */
export const BOOKING_TIME_ZONE = "America/Chicago";

let dateFormat: Intl.DateTimeFormat | undefined;

/** The calendar date ("YYYY-MM-DD") in Texas at `epochMs`. */
export function texasDate(epochMs: number): string {
  dateFormat ??= new Intl.DateTimeFormat("en-US", {
    timeZone: BOOKING_TIME_ZONE,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  });
  const part = (type: string) => dateFormat!.formatToParts(epochMs).find((p) => p.type === type)?.value ?? "";
  return `${part("year")}-${part("month")}-${part("day")}`;
}

/** "2026-02-28" yes; "2026-02-30", "2026-2-3" and "2026-02-28T00:00" no. */
export function isCalendarDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC rolls Feb 30 over into March; a real date survives the round trip.
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** A select or date input left empty posts "": that means "not given", so the default applies. */
const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

/** Trimmed optional text; "" counts as absent so stored leads carry no empty strings. */
const optionalText = (max: number, multiline = false) =>
  cleanString({ error: BOOKING_MESSAGES.tooLong }, { multiline })
    .trim()
    .max(max, BOOKING_MESSAGES.tooLong)
    .optional()
    .transform((v) => v || undefined);

/**
 * The schema with its own clock: whether a date is in the past depends on when the check
 * runs, so the function passes its (test-injectable) clock and the browser uses the default.
 */
export function bookingRequestSchema(now: () => number = Date.now) {
  return z.object({
    /** Visitor's full name. */
    customerName: cleanString({ error: BOOKING_MESSAGES.customerName })
      .trim()
      .min(1, BOOKING_MESSAGES.customerName)
      .max(100, BOOKING_MESSAGES.tooLong),
    /** Reply address. */
    customerEmail: cleanString({ error: BOOKING_MESSAGES.customerEmail })
      .trim()
      .max(254, BOOKING_MESSAGES.customerEmail)
      .pipe(z.email(BOOKING_MESSAGES.customerEmail)),
    /** Callback number, at least 10 characters. */
    customerPhone: cleanString({ error: BOOKING_MESSAGES.customerPhone })
      .trim()
      .min(10, BOOKING_MESSAGES.customerPhone)
      .max(40, BOOKING_MESSAGES.customerPhone),
    /** One of the business's services (any case; the function stores the business's spelling). */
    serviceType: optionalText(100),
    /** Where the work is. */
    propertyAddress: optionalText(300),
    /** "YYYY-MM-DD", a real date, today or later in Texas. */
    preferredDate: z
      .string({ error: BOOKING_MESSAGES.preferredDate })
      .trim()
      .superRefine((value, ctx) => {
        if (value === "") return;
        if (!isCalendarDate(value)) ctx.addIssue({ code: "custom", message: BOOKING_MESSAGES.preferredDate });
        // ISO dates compare as text.
        else if (value < texasDate(now())) ctx.addIssue({ code: "custom", message: BOOKING_MESSAGES.pastDate });
      })
      .optional()
      .transform((v) => v || undefined),
    /** One of BOOKING_URGENCY; normal when not chosen. */
    urgency: z.preprocess(
      blankToUndefined,
      z.enum(optionValues(BOOKING_URGENCY), { error: BOOKING_MESSAGES.urgency }).default("normal"),
    ),
    /** What needs doing. */
    description: optionalText(2000, true),
    /** One of REQUEST_TYPES; consultation when not chosen. */
    requestType: z.preprocess(
      blankToUndefined,
      z.enum(optionValues(REQUEST_TYPES), { error: BOOKING_MESSAGES.requestType }).default("consultation"),
    ),
    /** The directory business being booked (Business id format). */
    businessId: z
      .string({ error: BOOKING_MESSAGES.businessId })
      .trim()
      .refine((id) => Business.shape.id.safeParse(id).success, BOOKING_MESSAGES.businessId),
  });
}

/** Validates against the current date; the function builds its own with its clock. */
export const BookingRequest = bookingRequestSchema();
export type BookingRequest = z.output<typeof BookingRequest>;
/** What the dialog sends (defaults not yet applied). */
export type BookingRequestInput = z.input<typeof BookingRequest>;
