/**
 * How an owner gets a session: claiming a listed business, adding one that is not listed, and
 * signing in with a one-time link or an SMS code. Every message, label and limit of those
 * flows lives here, once: the functions (netlify/lib/owners) and /admin's Claims tab import
 * them. Client-safe: nothing node-only.
 */
import { z } from "./zod.ts";
import { METROS, METRO_NAMES, PRO_SERVICES, optionValues } from "./options.ts";
import { cleanString } from "./schemas/text.ts";
import { MESSAGES, email, text } from "./schemas/forms.ts";

// ---------------------------------------------------------------------------------------
// Limits

/** A sign-in link works once, for this long. */
export const SIGN_IN_LINK_TTL_MS = 20 * 60_000;
/**
 * The link in "your claim is approved" works once, for this long: the claimant asked days ago
 * and reads it when they read it (it goes only to the address they claimed with, and signs
 * in only while the operator has not removed them).
 */
export const APPROVED_LINK_TTL_MS = 7 * 24 * 60 * 60_000;

/** "20 minutes", "7 days": how long a link works, in its e-mail. */
export function linkLifetime(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 120) return `${minutes} minutes`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} hours`;
  return `${Math.round(hours / 24)} days`;
}
/** SMS codes: this many digits, this long, this many tries. */
export const CODE_DIGITS = 6;
export const CODE_TTL_MS = 10 * 60_000;
export const CODE_MAX_TRIES = 5;
/** Failed sign-ins (bad links, wrong codes) per client address before a lockout, as the admin's. */
export const OWNER_MAX_FAILURES = 10;
export const OWNER_LOCKOUT_SECONDS = 15 * 60;
/** Claims, codes and new businesses per client address per minute. */
export const CLAIMS_PER_MINUTE = 10;
/** Links and codes sent to one business's contact on file per minute, whoever asks (no mail bombing). */
export const SENDS_PER_BUSINESS_PER_MINUTE = 3;
export const TOO_MANY_SENDS =
  "We just sent a sign-in link or code for this business. Please check for it, or try again in a minute.";
/** Sign-in attempts (link or code posts) per client address per minute. */
export const SIGN_INS_PER_MINUTE = 20;

// ---------------------------------------------------------------------------------------
// Messages

export const OWNER_MESSAGES = {
  name: "Please enter your name",
  email: MESSAGES.email,
  phone: MESSAGES.phone,
  role: "Please choose your role",
  proof: "Please choose how to prove the business is yours",
  note: "The note can be at most 1000 characters",
  businessName: "Please enter the business's name",
  address: "Please enter the street address",
  city: "Please choose the city",
  state: "Please enter the two-letter state code",
  zipCode: "Please enter a 5-digit ZIP code",
  zipUnknown: "We couldn't find that ZIP code",
  zipElsewhere: "That ZIP code is in another state: please check it",
  website: "Please enter a full web address (https://...)",
  services: "Please choose at least one service",
  tooLong: MESSAGES.tooLong,
  code: `Please enter the ${CODE_DIGITS}-digit code`,
  /** No phone or e-mail on file for the proof chosen. */
  nothingOnFile: "This business has no e-mail or phone on file for that; choose another way.",
  linkInvalid: "This sign-in link isn't valid or was already used. Ask for a new one.",
  linkExpired: "This sign-in link has expired. Ask for a new one.",
  codeGone: "This code has expired or was tried too many times. Ask for a new one.",
  lockedOut: "Too many failed sign-ins from your connection. Please wait 15 minutes and try again.",
  signedOut: "You're signed out.",
  reasonRequired: "Please give the reason for refusing",
  claimNotFound: "Claim not found",
  claimDecided: "This claim has already been decided",
  revokeReasonRequired: "Please give the reason for removing this owner",
  notAnOwnersClaim: "Only a claim that made someone an owner (proved or approved) can be revoked",
} as const;

/** "Los Angeles is in CA: please check the state." */
export const stateOfCity = (city: string, state: string) => `${city} is in ${state}: please check the state`;

/** "Wrong code. 3 tries left." */
export const wrongCodeMessage = (left: number) =>
  `That code isn't right. ${left} ${left === 1 ? "try" : "tries"} left.`;

// ---------------------------------------------------------------------------------------
// Choices

export const OWNER_ROLES = [
  { value: "owner", label: "Owner" },
  { value: "manager", label: "Manager" },
  { value: "employee", label: "Employee" },
  { value: "other", label: "Someone else (say who in the note)" },
] as const;
export type OwnerRole = (typeof OWNER_ROLES)[number]["value"];

/** How a claimant proves the business is theirs. */
export const CLAIM_PROOFS = [
  { value: "email", label: "Send a sign-in link to the business's e-mail on file" },
  { value: "sms", label: "Text a code to the business's phone on file" },
  { value: "operator", label: "Another address: send my claim to Treeline to check" },
] as const;

export const CLAIM_STATUSES = ["pending", "sent", "proved", "approved", "refused", "revoked"] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];
/** For /admin: what each status means. */
export const CLAIM_STATUS_LABELS: Record<ClaimStatus, string> = {
  pending: "Waiting for you",
  sent: "Link or code sent to the contact on file",
  proved: "Proved by the contact on file",
  approved: "Approved",
  refused: "Refused",
  revoked: "Owner removed",
};

export const CLAIM_KIND_LABELS = { claim: "Claim", add: "New business" } as const;
export type ClaimKind = keyof typeof CLAIM_KIND_LABELS;

/** Claim ids: "cl_" and 20 base32 characters; also a Message's leadId (schemas/message.ts). */
export const CLAIM_ID = /^cl_[a-z0-9]{20}$/;
export const isClaimId = (id: string) => CLAIM_ID.test(id);

// ---------------------------------------------------------------------------------------
// Masks: what a visitor may see of a business's contact on file

/** "jane@example.com" -> "j•••@example.com". */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 1) return "•••";
  return `${email[0]}•••${email.slice(at)}`;
}

/** "(512) 555-0142" -> "(•••) •••-0142". */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, "");
  return digits.length >= 4 ? `(•••) •••-${digits.slice(-4)}` : "•••";
}

// ---------------------------------------------------------------------------------------
// Schemas

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

// ---------------------------------------------------------------------------------------
// Claims as stored (netlify/lib/owners/claims.ts) and listed in /admin

/** The business an "add" claim proposes (AddBusinessInput without the submitter's fields). */
export type BusinessProposal = Pick<
  AddBusinessInput,
  "businessName" | "address" | "city" | "state" | "zipCode" | "phone" | "businessEmail" | "website" | "services"
>;

/** A claim of a listed business, or a business to add. */
export interface Claim {
  /** "cl_" + 20 characters. */
  id: string;
  kind: ClaimKind;
  /** The listed business claimed; for "add", set once approved (the new business). */
  businessId?: string;
  /** The business's name (claimed, or proposed by an "add"), so the admin list needs no second read. */
  businessName?: string;
  /** Its page's slug, once it is listed. */
  businessSlug?: string;
  /** For "add": the business to list. */
  proposal?: BusinessProposal;
  claimant: {
    name: string;
    /** Lower-cased. */
    email: string;
    phone?: string;
    role: OwnerRole;
    note?: string;
  };
  /** How it is proved: the e-mail or phone on file, or the operator's check. */
  proof: "email" | "sms" | "operator";
  status: ClaimStatus;
  /** Why it was refused (required then), or the operator's note on an approval. */
  reason?: string;
  /** ISO. */
  createdAt: string;
  /** ISO: when the operator decided, or the link or code was used. */
  decidedAt?: string;
}

/** GET /api/admin/claims: the operator's queue, or every claim. */
export const AdminClaimsQuery = z.object({
  /** "pending" (default): the queue; "all": every claim, newest first. */
  status: z.enum(["pending", "all"]).default("pending"),
  /** Claims to skip. */
  offset: z.coerce.number().int().min(0).max(100_000).default(0),
  /** Claims per page. */
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** PATCH /api/admin/claims/:id: the operator's decision. */
export const ClaimDecision = z
  .object({
    /**
     * Approve (the claimant becomes an owner; an added business is listed), refuse, or revoke
     * a claim that made someone an owner (they stop being one; their sessions end at once).
     */
    decision: z.enum(["approve", "refuse", "revoke"], { error: "Choose approve, refuse or revoke" }),
    /** Why: required to refuse (the claimant reads it) and to revoke (kept), optional to approve. */
    reason: cleanString().trim().max(500, OWNER_MESSAGES.tooLong).optional(),
  })
  .superRefine((d, ctx) => {
    if (d.decision === "approve" || (d.reason ?? "").length > 0) return;
    const message = d.decision === "refuse" ? OWNER_MESSAGES.reasonRequired : OWNER_MESSAGES.revokeReasonRequired;
    ctx.addIssue({ code: "custom", message, path: ["reason"] });
  });
export type ClaimDecision = z.infer<typeof ClaimDecision>;

export interface AdminClaimsReply {
  data: Claim[];
  total: number;
  /** The queue's length, for the tab's badge. */
  pending: number;
}

export interface AdminClaimReply {
  data: Claim;
  /** The business it is about (an approved "add": the one just listed). */
  business?: { id: string; slug: string; name: string };
}
