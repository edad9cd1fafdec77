/**
 * The owners' forms: claiming a listed business, adding one that is not listed, and the SMS
 * code. Client-safe: nothing node-only.
 */
import { z } from "../zod.ts";
import { CLOSING_HOLIDAYS } from "../holidays.ts";
import { PRO_SERVICES, WEEKDAYS, optionValues, type Weekday } from "../options.ts";
import { DayHours } from "../owner-profile/form.ts";
import type { BusinessHours } from "../schemas/business.ts";
import { cleanString } from "../schemas/text.ts";
import { email, text } from "../schemas/forms.ts";
import { CLAIM_PROOFS, OWNER_ROLES } from "./choices.ts";
import { CODE_DIGITS } from "./limits.ts";
import { OWNER_MESSAGES } from "./messages.ts";

const phone = cleanString({ error: OWNER_MESSAGES.phone })
  .trim()
  .max(30, OWNER_MESSAGES.phone)
  .refine((v) => v.replace(/\D/g, "").length >= 10, OWNER_MESSAGES.phone);
/** A blank optional field counts as absent. */
const blankIsAbsent = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankIsAbsent, schema.optional());
const role = z.enum(optionValues(OWNER_ROLES), { error: OWNER_MESSAGES.role });
const note = optional(cleanString(undefined, { multiline: true }).trim().max(1000, OWNER_MESSAGES.note));

/** "Claim {business}": who is asking and how they prove it. */
export const ClaimInput = z.object({
  /** The claimant's name. */
  name: text(2, OWNER_MESSAGES.name, 100),
  /** The claimant's e-mail: their identity as an owner, and where a sign-in link goes. */
  email,
  /** The claimant's phone, for the operator's check (optional). */
  phone: optional(phone),
  /** Their role at the business. */
  role,
  /** How they prove it: the e-mail on file, a code to the phone on file, or the operator's check. */
  proof: z.enum(optionValues(CLAIM_PROOFS), { error: OWNER_MESSAGES.proof }),
  /** Anything the operator should know (optional). */
  note,
});
export type ClaimInput = z.infer<typeof ClaimInput>;

const SERVICE_VALUES = optionValues(PRO_SERVICES);

/** How a new listing gives its hours: per day, or "by appointment" (no set hours). */
export const SCHEDULES = [
  { value: "hours", label: "Set hours (per day below)" },
  { value: "appointment", label: "By appointment only" },
] as const;

const dayShape = Object.fromEntries(WEEKDAYS.map((d) => [d, DayHours])) as Record<Weekday, typeof DayHours>;

/**
 * "Add your business": the business as it would be listed, and who asks. Its city, state, time
 * zone and map position come from the ZIP (the function looks it up: `placeOfZip`), so the form
 * asks for none of them. Takes the form as `addFormInput` reads it (hours nested per day).
 */
export const AddBusinessInput = z
  .object({
    /** Trading name. */
    businessName: text(2, OWNER_MESSAGES.businessName, 120),
    /** Street address without city and state. */
    address: text(3, OWNER_MESSAGES.address, 200),
    /** 5-digit US ZIP: gives the city, state, time zone and place on the map. */
    zipCode: cleanString({ error: OWNER_MESSAGES.zipCode })
      .trim()
      .regex(/^\d{5}$/, OWNER_MESSAGES.zipCode),
    /** The business's phone, as listed. */
    phone,
    /** The business's e-mail, as listed. */
    businessEmail: email,
    /** Website (optional). */
    website: optional(
      cleanString({ error: OWNER_MESSAGES.website })
        .trim()
        .max(300, OWNER_MESSAGES.website)
        .pipe(z.url({ protocol: /^https?$/, error: OWNER_MESSAGES.website })),
    ),
    /** At least one service offered (PRO_SERVICES). */
    services: z.preprocess(
      (v) => (typeof v === "string" ? [v] : v),
      // Checked as a whole, so the message belongs to the fieldset, not to one checkbox.
      z
        .array(z.string(), { error: OWNER_MESSAGES.services })
        .min(1, OWNER_MESSAGES.services)
        .max(SERVICE_VALUES.length, OWNER_MESSAGES.services)
        .refine(
          (list) => list.every((v) => (SERVICE_VALUES as readonly string[]).includes(v)),
          OWNER_MESSAGES.services,
        ),
    ),
    /** Set hours per day, or by appointment only. */
    schedule: z.enum(optionValues(SCHEDULES), { error: OWNER_MESSAGES.schedule }),
    /** Monday..Sunday: open with times, closed, or 24 hours (ignored by appointment). */
    hours: z.object(dayShape),
    /** The public holidays it closes on (CLOSING_HOLIDAYS); none ticked = open on every one. */
    closedHolidays: z
      .array(z.string().refine((h) => (CLOSING_HOLIDAYS as readonly string[]).includes(h), OWNER_MESSAGES.holidays))
      .transform((list) => CLOSING_HOLIDAYS.filter((h) => list.includes(h))),
    /** Years in business (optional: left blank, the listing says nothing about it). */
    yearsInBusiness: optional(
      z.coerce
        .number({ error: OWNER_MESSAGES.yearsInBusiness })
        .int(OWNER_MESSAGES.yearsInBusiness)
        .min(0, OWNER_MESSAGES.yearsInBusiness)
        .max(200, OWNER_MESSAGES.yearsInBusiness),
    ),
    /** The submitter's name. */
    name: text(2, OWNER_MESSAGES.name, 100),
    /** The submitter's e-mail: they become the owner once approved. */
    email,
    /** The submitter's role at the business. */
    role,
    /** Anything the operator should know (optional). */
    note,
  })
  .superRefine((d, ctx) => {
    // "Set hours" with every day closed would list it as closed all week: say so instead.
    if (d.schedule === "hours" && WEEKDAYS.every((day) => !d.hours[day]))
      ctx.addIssue({ code: "custom", path: ["hours"], message: OWNER_MESSAGES.hoursMissing });
  });
export type AddBusinessInput = z.output<typeof AddBusinessInput>;

/** The posted "Add your business" form as the schema's input: each day's three fields nested. */
export function addFormInput(values: Readonly<Record<string, string | readonly string[]>>): Record<string, unknown> {
  const one = (name: string) => {
    const v = values[name];
    return typeof v === "string" ? v : (v?.[0] ?? undefined);
  };
  const all = (name: string) => {
    const v = values[name];
    return v === undefined ? [] : typeof v === "string" ? [v] : [...v];
  };
  const { closedHolidays: _h, ...rest } = values;
  const flat = Object.fromEntries(
    Object.entries(rest).filter(([k]) => !WEEKDAYS.some((d) => k.startsWith(`${d}.`)) && k !== "services"),
  );
  return {
    ...Object.fromEntries(Object.entries(flat).map(([k]) => [k, one(k)])),
    services: all("services"),
    schedule: one("schedule") ?? "hours",
    hours: Object.fromEntries(
      WEEKDAYS.map((d) => [
        d,
        { mode: one(`${d}.mode`) ?? "closed", open: one(`${d}.open`) ?? "", close: one(`${d}.close`) ?? "" },
      ]),
    ),
    closedHolidays: all("closedHolidays"),
  };
}

/** The week as stored from the form: only the days it is open (by appointment: none). */
export function addedHours(input: AddBusinessInput): BusinessHours {
  const week: BusinessHours = {};
  if (input.schedule === "appointment") return week;
  for (const d of WEEKDAYS) if (input.hours[d]) week[d] = input.hours[d];
  return week;
}

/**
 * A returning owner's sign-in (/owner): the e-mail they run a listing with, or the business's
 * phone on file. Read as one or the other by its shape.
 */
export const SignInRequestInput = z.object({
  /** An e-mail (with "@"), else a US phone number (10 digits, or 11 starting with 1). */
  address: cleanString({ error: OWNER_MESSAGES.signInAddress })
    .trim()
    .max(254, OWNER_MESSAGES.signInAddress)
    .transform((v, ctx) => {
      if (v.includes("@")) {
        const parsed = z.email().safeParse(v);
        if (parsed.success) return { kind: "email" as const, value: v.toLowerCase() };
      } else {
        const digits = v.replace(/\D/g, "");
        const national = digits.length === 11 && digits.startsWith("1") ? digits.slice(1) : digits;
        if (/^[0-9()+.\-\s]+$/.test(v) && national.length === 10) return { kind: "phone" as const, value: national };
      }
      ctx.addIssue({ code: "custom", message: OWNER_MESSAGES.signInAddress });
      return z.NEVER;
    }),
});
export type SignInRequestInput = z.output<typeof SignInRequestInput>;

/** The SMS code form. */
export const CodeInput = z.object({
  /** The digits as texted; spaces are ignored. */
  code: z
    .string({ error: OWNER_MESSAGES.code })
    .transform((v) => v.replace(/\s/g, ""))
    .pipe(z.string().regex(new RegExp(`^\\d{${CODE_DIGITS}}$`), OWNER_MESSAGES.code)),
});
