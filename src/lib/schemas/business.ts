/**
 * Directory entities (spec section 3). Shared by the browser and the functions, so this file
 * imports nothing node-only.
 */
import { z } from "../zod.ts";
import { METRO_NAMES } from "../options.ts";
import { cleanString } from "./text.ts";
import { Credentials } from "./credentials.ts";
import { REPLY_MAX_LENGTH } from "./reply.ts";

/** Opening hours as display text per day; an empty or missing day means Closed. */
export const BusinessHours = z.object({
  /** e.g. "7:00 AM - 6:00 PM". */
  monday: z.string().optional(),
  /** Same format as monday. */
  tuesday: z.string().optional(),
  /** Same format as monday. */
  wednesday: z.string().optional(),
  /** Same format as monday. */
  thursday: z.string().optional(),
  /** Same format as monday. */
  friday: z.string().optional(),
  /** Same format as monday. */
  saturday: z.string().optional(),
  /** Same format as monday. */
  sunday: z.string().optional(),
});
export type BusinessHours = z.infer<typeof BusinessHours>;

/** A WGS84 position in decimal degrees. */
export const GeoPoint = z.object({
  /** Latitude, -85..85 (the range Redis GEO indexes). */
  lat: z.number().min(-85).max(85),
  /** Longitude, -180..180. */
  lng: z.number().min(-180).max(180),
});

function knownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const text = z.string().trim();

export const Business = z.object({
  /** Stable id, e.g. "biz-001". */
  id: z.string().regex(ID),
  /** Trading name. */
  name: text.min(1).max(120),
  /** URL segment for /directory/{slug}; unique across the directory. */
  slug: z.string().regex(SLUG).max(120),
  /** About text. */
  description: text.max(4000),
  /**
   * Its metro area: one of METROS (src/lib/options.ts), the four filter cities or another
   * served city (e.g. "Miami"); `locality` names the suburb when it is not the metro's city.
   */
  city: z.enum(METRO_NAMES),
  /** Two-letter state code. */
  state: z.string().regex(/^[A-Z]{2}$/),
  /** ZIP code as text (keeps leading zeros). */
  zipCode: z.string().regex(/^\d{5}(?:-\d{4})?$/),
  /** Street address without city/state. */
  address: text.max(200),
  /** Display phone, e.g. "(512) 555-0142". */
  phone: text.max(40).optional(),
  /** Contact e-mail. */
  email: z.email().optional(),
  /** Website (opens in a new tab). */
  website: z.url().optional(),
  /** Average review rating with one decimal, "0.0" when there are no reviews. */
  rating: z.string().regex(/^[0-5]\.\d$/),
  /** Number of reviews. */
  reviewCount: z.number().int().min(0),
  /** Shown in the Featured section and ranked first. */
  isFeatured: z.boolean(),
  /** Services offered, e.g. "Tree Removal". */
  services: z.array(text.min(1).max(80)).max(40),
  /** Specialties shown as tags. */
  specialties: z.array(text.min(1).max(80)).max(40),
  /** Neighbourhoods or towns served. */
  serviceAreas: z.array(text.min(1).max(80)).max(60),
  /** Image URLs or site paths. */
  images: z.array(z.string().min(1).max(500)).max(30),
  /** Opening hours keyed monday..sunday. */
  businessHours: BusinessHours,
  /** Years trading. */
  yearsInBusiness: z.number().int().min(0).max(200),
  /** Licence or certification reference. */
  licenseNumber: text.max(120).optional(),
  /** Insurance summary. */
  insuranceDetails: text.max(300).optional(),
  /** Town or suburb the business is in, e.g. "Round Rock" (`city` is its metro area); absent = the city itself. */
  locality: text.min(1).max(80).optional(),
  /** Where the business is: its ZIP's centroid, geocoded at seed time (scripts/generate-directory.ts); absent = not in "near" searches. */
  location: GeoPoint.optional(),
  /** IANA time zone its hours are in; absent = DEFAULT_TIME_ZONE (America/Chicago). */
  timeZone: z
    .string()
    .regex(/^[A-Za-z]+(?:\/[A-Za-z0-9_+-]+){1,2}$/)
    .refine(knownTimeZone, "Unknown time zone")
    .optional(),
  /** Answers emergency calls around the clock (the "24/7 emergency" filter). */
  emergency247: z.boolean().optional(),
  /**
   * The public holidays it closes on, by name (CLOSING_HOLIDAYS in src/lib/holidays.ts); absent =
   * all of them, an empty list = open on every one. Set by the owner.
   */
  closedHolidays: z.array(text.min(1).max(60)).max(20).optional(),
  /** Other days it is closed ("YYYY-MM-DD" with an optional note, e.g. "Staff training"). Set by the owner. */
  closedDates: z
    .array(z.object({ date: z.iso.date(), note: text.max(80).optional() }))
    .max(60)
    .optional(),
  /** Licence and insurance with the operator's checks (schemas/credentials.ts). */
  credentials: Credentials.optional(),
  /**
   * Median minutes from a lead's offer to the business's first answer, night hours left out
   * (src/lib/response-time.ts); derived by the store, present once MIN_RESPONSE_SAMPLES answers are in.
   */
  responseMinutes: z.number().min(0).optional(),
  /** Offers the business has answered; derived by the store, absent = none yet. */
  responseCount: z.number().int().min(0).optional(),
});
export type Business = z.infer<typeof Business>;

/** What the store derives from recorded answers: never written by an upsert or a seed. */
const RESPONSE_FIELDS = { responseMinutes: true, responseCount: true } as const;

/**
 * What `businesses.upsert` accepts. rating/reviewCount are derived from reviews; when given
 * they only seed the aggregate of a business that does not exist yet. The response-time
 * fields are not accepted (dropped if given), so a re-seed keeps a business's figure.
 */
export const BusinessInput = Business.omit(RESPONSE_FIELDS).extend({
  /** Initial rating for a new business (ignored once it exists). */
  rating: Business.shape.rating.optional(),
  /** Initial review count for a new business (ignored once it exists). */
  reviewCount: Business.shape.reviewCount.optional(),
  /** Defaults to no images. */
  images: Business.shape.images.default([]),
  /** Defaults to Texas, where the four filter cities are; a business in another metro says its state. */
  state: Business.shape.state.default("TX"),
});
export type BusinessInput = z.input<typeof BusinessInput>;

const isoDateTime = z.iso.datetime({ offset: true });

/**
 * Why the operator hid a review: a fixed list, shown publicly in the review's place. Never the
 * rating (FTC 16 CFR 465: a review may not be suppressed for being negative).
 */
export const HIDE_REASONS = {
  "not-about-this-business": "not about this business",
  "personal-information": "personal information",
  "abusive-language": "abusive language",
  "spam-or-advertising": "spam or advertising",
  duplicate: "duplicate",
} as const;
export type HideReason = keyof typeof HIDE_REASONS;
export const HideReason = z.enum(Object.keys(HIDE_REASONS) as [HideReason, ...HideReason[]]);

/** The public placeholder line of a hidden review, e.g. "Hidden: not about this business". */
export function hiddenLine(reason: HideReason | undefined): string {
  return `Hidden: ${reason ? HIDE_REASONS[reason] : "removed by moderation"}`;
}

/** A business owner's public reply to a review: one per review, editable. */
export const OwnerReply = z.object({
  /** The reply as shown. */
  text: text.min(1).max(REPLY_MAX_LENGTH),
  /** First posted (ISO). */
  createdAt: isoDateTime,
  /** Last edited (ISO); absent = never edited. */
  editedAt: isoDateTime.optional(),
});
export type OwnerReply = z.infer<typeof OwnerReply>;

export const Review = z.object({
  /** Server-assigned id. */
  id: z.string().min(1).max(100),
  /** Reviewer's name as shown. */
  customerName: text.min(1).max(100),
  /** Reviewer's e-mail (never shown publicly). */
  customerEmail: z.email().optional(),
  /** Stars, 1 to 5. */
  rating: z.number().int().min(1).max(5).default(5),
  /** Headline, may be empty. */
  title: text.max(200),
  /** Body, may be empty. */
  reviewText: text.max(5000),
  /** Service the review is about, may be empty. */
  serviceType: text.max(100),
  /** Set by the server only: true for a review made through the invitation after an accepted job (review-invite.ts) and for curated seed reviews; nobody can switch it later. */
  isVerified: z.boolean(),
  /** ISO timestamp set by the server. */
  createdAt: isoDateTime,
  /** Hidden by the operator: out of every public list and of the rating (admin only; absent = shown). */
  hidden: z.boolean().optional(),
  /** Why it is hidden (set with hidden; reviews hidden before reasons existed have none). */
  hiddenReason: HideReason.optional(),
  /** The business owner's one public reply (edited in place; `editedAt` shows it was). */
  reply: OwnerReply.optional(),
});
export type Review = z.infer<typeof Review>;

/** Messages a reviewer reads next to the Write Review fields (the API's 400 `fields`). */
export const REVIEW_MESSAGES = {
  customerName: "Please enter your name",
  customerNameLength: "Your name can be at most 100 characters",
  customerEmail: "Please enter a valid email",
  rating: "Rating must be a whole number from 1 to 5",
  title: "The title can be at most 200 characters",
  reviewText: "The review can be at most 5000 characters",
  serviceType: "The service name can be at most 100 characters",
} as const;

/** What a visitor submits (spec section 5: only the name is required). */
export const ReviewInput = z.object({
  /** Reviewer's name. */
  customerName: cleanString({ error: REVIEW_MESSAGES.customerName })
    .trim()
    .min(1, REVIEW_MESSAGES.customerName)
    .max(100, REVIEW_MESSAGES.customerNameLength),
  /**
   * Optional e-mail, trimmed; an empty string counts as absent. One review per e-mail per
   * business (compared case-insensitively); a review without one is limited by the IP and
   * business rates only.
   */
  customerEmail: z
    .preprocess(
      (v) => (typeof v === "string" ? v.trim() : v),
      z.union([z.email(REVIEW_MESSAGES.customerEmail), z.literal("", { error: REVIEW_MESSAGES.customerEmail })], {
        error: REVIEW_MESSAGES.customerEmail,
      }),
    )
    .optional()
    .transform((v) => v || undefined),
  /** Stars, 1 to 5, default 5; "4.5" is refused rather than rounded. */
  rating: z
    .preprocess(
      // Form posts send text; only a plain number in text is read as one (z.coerce would take `true` as 1).
      (v) => (typeof v === "string" && /^\s*-?\d+(?:\.\d+)?\s*$/.test(v) ? Number(v) : v),
      z
        .number({ error: REVIEW_MESSAGES.rating })
        .int(REVIEW_MESSAGES.rating)
        .min(1, REVIEW_MESSAGES.rating)
        .max(5, REVIEW_MESSAGES.rating),
    )
    .default(5),
  /** Optional headline. */
  title: cleanString({ error: REVIEW_MESSAGES.title }).trim().max(200, REVIEW_MESSAGES.title).default(""),
  /** Optional body. */
  reviewText: cleanString({ error: REVIEW_MESSAGES.reviewText }, { multiline: true })
    .trim()
    .max(5000, REVIEW_MESSAGES.reviewText)
    .default(""),
  /** Optional service name. */
  serviceType: cleanString({ error: REVIEW_MESSAGES.serviceType })
    .trim()
    .max(100, REVIEW_MESSAGES.serviceType)
    .default(""),
});
export type ReviewInput = z.input<typeof ReviewInput>;

/** A review as written in the seed file: the visitor fields plus what the server normally sets. */
export const SeedReview = ReviewInput.extend({
  /** Verified badge as curated in the seed. */
  isVerified: z.boolean().default(false),
  /** When the review was written. */
  createdAt: isoDateTime,
});

/** One entry of content/directory/businesses.json (rating and count are derived from reviews). */
export const SeedBusiness = BusinessInput.omit({ rating: true, reviewCount: true }).extend({
  /** Reviews to import with deterministic ids. */
  reviews: z.array(SeedReview).default([]),
});
export type SeedBusiness = z.output<typeof SeedBusiness>;

/** The whole seed file. */
export const SeedFile = z.array(SeedBusiness);

/**
 * A review as the public sees it: the reviewer's e-mail never leaves the server. A hidden
 * review keeps its place as a placeholder: its id, date and public reason only (no name, no
 * text, rating 0); it is in no rating and no JSON-LD.
 */
export type PublicReview = Omit<Review, "customerEmail">;

export function toPublicReview({ customerEmail: _private, hidden, hiddenReason, ...rest }: Review): PublicReview {
  if (!hidden) return rest;
  return {
    hidden: true,
    ...(hiddenReason ? { hiddenReason } : {}),
    id: rest.id,
    createdAt: rest.createdAt,
    customerName: "",
    rating: 0,
    title: "",
    reviewText: "",
    serviceType: "",
    isVerified: false,
  };
}
