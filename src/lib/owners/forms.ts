/**
 * The owners' forms: claiming a listed business, adding one that is not listed, and the SMS
 * code. Client-safe: nothing node-only.
 */
import { z } from "../zod.ts";
import { METROS, METRO_NAMES, PRO_SERVICES, optionValues } from "../options.ts";
import { cleanString } from "../schemas/text.ts";
import { email, text } from "../schemas/forms.ts";
import { CLAIM_PROOFS, OWNER_ROLES } from "./choices.ts";
import { CODE_DIGITS } from "./limits.ts";
import { OWNER_MESSAGES, stateOfCity } from "./messages.ts";

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

/** "Add your business": the business as it would be listed, and who asks. */
export const AddBusinessInput = z
  .object({
    /** Trading name. */
    businessName: text(2, OWNER_MESSAGES.businessName, 120),
    /** Street address without city and state. */
    address: text(3, OWNER_MESSAGES.address, 200),
    /** Its metro area (METROS). */
    city: z.enum(METRO_NAMES, { error: OWNER_MESSAGES.city }),
    /** Two-letter state code. */
    state: cleanString({ error: OWNER_MESSAGES.state })
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2}$/, OWNER_MESSAGES.state),
    /** 5-digit ZIP: places it on the map. */
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
    // The metro fixes the state: "Los Angeles" with "TX" is a typo the operator should not have to spot.
    const metro = METROS.find((m) => m.label === d.city);
    if (metro && metro.state !== d.state)
      ctx.addIssue({ code: "custom", path: ["state"], message: stateOfCity(d.city, metro.state) });
  });
export type AddBusinessInput = z.infer<typeof AddBusinessInput>;

/** The SMS code form. */
export const CodeInput = z.object({
  /** The digits as texted; spaces are ignored. */
  code: z
    .string({ error: OWNER_MESSAGES.code })
    .transform((v) => v.replace(/\s/g, ""))
    .pipe(z.string().regex(new RegExp(`^\\d{${CODE_DIGITS}}$`), OWNER_MESSAGES.code)),
});
