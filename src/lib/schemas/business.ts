/**
 * A directory business as stored and as an upsert takes it (its reviews: review.ts; the seed
 * file: seed.ts). Shared by the browser and the functions, so this file imports nothing
 * node-only.
 */
import { z } from "../zod.ts";
import { Credentials } from "./credentials.ts";

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
   * Its city, any US city (e.g. "Boise"); when it names one of METROS (src/lib/options.ts) in
   * the same state it is listed in that metro, and `locality` names the suburb it is in.
   */
  city: text.min(1).max(80),
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
  /** Works by appointment rather than set hours: shown as "By appointment", never as open now or closed. */
  byAppointment: z.boolean().optional(),
  /** Years trading, as the business gave it; absent = not known, and not shown anywhere. */
  yearsInBusiness: z.number().int().min(0).max(200).optional(),
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
   * A generated demo business (scripts/generate-directory.ts), not a real company: every page and
   * card showing it says SAMPLE_LISTING (src/lib/sample.ts). Absent on real businesses.
   */
  isSample: z.boolean().optional(),
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
   * Median minutes from a lead's offer to the business's first answer, night hours left out, over
   * its latest offers (src/lib/response-time.ts); derived by the store, present once the window
   * holds MIN_RESPONSE_OFFERS offers and MIN_RESPONSE_SAMPLES answers.
   */
  responseMinutes: z.number().min(0).optional(),
  /** Offers the business has answered, ever; derived by the store, absent = none yet. */
  responseCount: z.number().int().min(0).optional(),
  /**
   * Percent of its latest offers (responseOffers of them) answered by the offer's deadline;
   * expired offers count against it. Derived by the store, present from MIN_RESPONSE_OFFERS offers.
   */
  responseRate: z.number().int().min(0).max(100).optional(),
  /** Offers with a known outcome that the response figures cover (at most RESPONSE_WINDOW). */
  responseOffers: z.number().int().min(0).optional(),
});
export type Business = z.infer<typeof Business>;

/** What the store derives from recorded offers: never written by an upsert or a seed. */
export const RESPONSE_FIELDS = {
  responseMinutes: true,
  responseCount: true,
  responseRate: true,
  responseOffers: true,
} as const;

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
