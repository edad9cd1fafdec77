/**
 * The lead forms' schemas with their field messages. The
 * dialogs validate with them before sending and the functions validate again with the
 * very same objects, so a message changes in one place.
 */
import { z } from "../zod.ts";
import {
  CHALLENGES,
  CURRENT_REVENUE,
  EMPLOYEE_COUNT,
  GOALS,
  GROWTH_PHASES,
  PRO_SERVICES,
  PROPERTY_TYPES,
  TIMELINES,
  YEARS_IN_BUSINESS,
  optionValues,
} from "../options.ts";
import { PHOTO_TEXT } from "../photos.ts";
import { cleanString } from "./text.ts";

/** Above a form's field errors: the 400 answer's `error` and the no-JS page's summary. */
export const VALIDATION_ERROR = "Please correct the highlighted fields.";

export const MESSAGES = {
  name: "Name must be at least 2 characters",
  email: "Please enter a valid email",
  phone: "Please enter a valid phone number",
  address: "Please enter your full address",
  serviceType: "Please select a service type",
  urgency: "Please select urgency level",
  companyName: "Company name is required",
  currentRevenue: "Please select revenue range",
  yearsInBusiness: "Please select years in business",
  employeeCount: "Please select employee count",
  currentChallenges: "Please select at least one challenge",
  growthGoals: "Please select at least one goal",
  location: "Please enter your city or ZIP code",
  propertyType: "Please select a property type",
  timeline: "Please select a timeline",
  tooLong: "This is too long",
  /** Not an image (the size has its own, photoTooLarge; both from src/lib/photos.ts). */
  photo: PHOTO_TEXT.notImage,
  photoTooLarge: PHOTO_TEXT.tooLarge,
} as const;

/** Trimmed one-line text with a length window; the upper bound only stops abuse. */
export const text = (min: number, message: string, max = 200) =>
  cleanString({ error: message }).trim().min(min, message).max(max, MESSAGES.tooLong);
const optionalText = (max = 200, multiline = false) =>
  cleanString(undefined, { multiline }).trim().max(max, MESSAGES.tooLong).optional();
const choice = <const T extends readonly [string, ...string[]]>(values: T, message: string) =>
  z.enum(values, { error: message });

const name = text(2, MESSAGES.name, 100);
/** A trimmed e-mail address (every form's one rule). */
export const email = cleanString({ error: MESSAGES.email })
  .trim()
  .max(254, MESSAGES.email)
  .pipe(z.email(MESSAGES.email));
const phone = text(10, MESSAGES.phone, 30);

/** Optional facts about the tree; every field free text. */
export const TreeDetails = z.object({
  /** Species or description, e.g. "Live oak". */
  treeType: optionalText(),
  /** Approximate height, e.g. "40 ft". */
  height: optionalText(),
  /** Health, e.g. "Dead limbs". */
  condition: optionalText(),
  /** What it is close to, e.g. "Over the garage". */
  proximity: optionalText(),
});

export const QuoteRequest = z.object({
  /** Customer's name. */
  name,
  /** Reply address. */
  email,
  /** Callback number. */
  phone,
  /** Street address of the job. */
  address: text(5, MESSAGES.address, 300),
  /** One of SERVICE_TYPES; other text is priced with the unknown-service range. */
  serviceType: text(1, MESSAGES.serviceType, 60),
  /** One of URGENCY; other text is priced at x1. */
  urgency: text(1, MESSAGES.urgency, 60),
  /** Optional details about the tree. */
  treeDetails: TreeDetails.optional(),
  /** The range the visitor saw; the server stores its own figure. */
  estimatedCost: optionalText(60),
});
export type QuoteRequest = z.infer<typeof QuoteRequest>;

export const AuditRequest = z.object({
  /** Owner's name. */
  name,
  /** Reply address. */
  email,
  /** Callback number. */
  phone,
  /** Trading name of the tree-service business. */
  companyName: text(2, MESSAGES.companyName, 150),
  /** Annual revenue band. */
  currentRevenue: choice(optionValues(CURRENT_REVENUE), MESSAGES.currentRevenue),
  /** Years trading. */
  yearsInBusiness: choice(optionValues(YEARS_IN_BUSINESS), MESSAGES.yearsInBusiness),
  /** Team size. */
  employeeCount: choice(optionValues(EMPLOYEE_COUNT), MESSAGES.employeeCount),
  /** At least one of the challenge choices. */
  currentChallenges: z
    .array(choice(optionValues(CHALLENGES), MESSAGES.currentChallenges), { error: MESSAGES.currentChallenges })
    .min(1, MESSAGES.currentChallenges)
    .max(CHALLENGES.length, MESSAGES.currentChallenges),
  /** At least one of the goal choices. */
  growthGoals: z
    .array(choice(optionValues(GOALS), MESSAGES.growthGoals), { error: MESSAGES.growthGoals })
    .min(1, MESSAGES.growthGoals)
    .max(GOALS.length, MESSAGES.growthGoals),
});
export type AuditRequest = z.infer<typeof AuditRequest>;

/** A phase page's assessment: the audit plus the phase it was opened from. */
export const AssessmentRequest = AuditRequest.extend({
  /** The growth phase page the visitor was reading. */
  phase: choice(optionValues(GROWTH_PHASES), "Please select a phase"),
});
export type AssessmentRequest = z.infer<typeof AssessmentRequest>;

/** "Get Multiple Quotes Fast" on /find-a-tree-service (the photo travels separately). */
export const FindProsRequest = z.object({
  /** City or ZIP code. */
  location: text(2, MESSAGES.location, 100),
  /** One of PRO_SERVICES. */
  serviceType: choice(optionValues(PRO_SERVICES), MESSAGES.serviceType),
  /** One of PROPERTY_TYPES. */
  propertyType: choice(optionValues(PROPERTY_TYPES), MESSAGES.propertyType),
  /** What needs doing (optional). */
  description: optionalText(2000, true),
  /** One of TIMELINES. */
  timeline: choice(optionValues(TIMELINES), MESSAGES.timeline),
  /** Customer's name. */
  name,
  /** Callback number. */
  phone,
  /** Reply address. */
  email,
});
export type FindProsRequest = z.infer<typeof FindProsRequest>;

/** Field -> first message, the shape both the dialogs and the 400 responses use. */
export type FieldErrors = Record<string, string>;

/** Flattens a zod error into { field: message } ("treeDetails.height" for nested fields). */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join(".") || "_form";
    out[key] ??= issue.message;
  }
  return out;
}
