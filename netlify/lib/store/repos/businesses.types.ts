/**
 * The directory repository's shapes: the list query, its answer and the repository itself
 * (businesses.ts), shared with the radius search (business-near.ts).
 */
import type { Business, BusinessInput } from "../../../../src/lib/schemas/business.ts";
import type { Review } from "../../../../src/lib/schemas/review.ts";
import type { DirectorySort } from "../../../../src/lib/directory-url.ts";
import type { Point } from "../../../../src/lib/geo/distance.ts";
import type { OfferOutcome } from "../../../../src/lib/response-time.ts";

/** A business's response figures as every read carries them (src/lib/response-time.ts). */
export type ResponseFigure = Pick<Business, "responseMinutes" | "responseCount" | "responseRate" | "responseOffers">;

/** What recording one offer's outcome did: the business's figures before and after it. */
export interface RecordedOutcome {
  /** False when this lead's outcome was already recorded for the business (nothing changed). */
  recorded: boolean;
  before: ResponseFigure;
  after: ResponseFigure;
}

/** best: featured, rating, reviews, then distance. distance: nearest first. rating / reviews: that first, then nearest. */
export type NearSort = DirectorySort;

export interface ListQuery {
  /** Free text; every word must match a word (or word start) of name, description, services, specialties or city. */
  search?: string | null;
  /** City value or label ("san-antonio" / "San Antonio"); "all" or empty for every city. */
  city?: string | null;
  /** Only featured businesses. */
  featured?: boolean;
  /** Page size, default 12. */
  limit?: number;
  /** Items to skip, (page - 1) * limit. */
  offset?: number;
  /** Only businesses within `radius` miles of this point; each result then carries its distance. */
  near?: Point | null;
  /** Miles around `near` (default NEAR_RADIUS). */
  radius?: number;
  /** Only businesses offering this service (a service name, any case). Needs `near`. */
  service?: string | null;
  /** Only businesses open at `now` in their own time zone. Needs `near`. */
  openNow?: boolean;
  /** Only businesses answering emergency calls 24/7. Needs `near`. */
  emergency?: boolean;
  /** Only businesses rated at least this (0..5). Needs `near`. */
  minRating?: number;
  /** Order of a `near` search (default "best"). */
  sort?: NearSort;
  /** The clock for `openNow` (tests). */
  now?: number;
}

/** A result of a `near` search: the business and how far it is (miles, one decimal). */
export type ListedBusiness = Business & { distanceMiles?: number };

export interface ListResult {
  data: ListedBusiness[];
  /** Matches across all pages. */
  total: number;
}

export interface BusinessesRepository {
  /** Creates or replaces a business (matched by id) and re-indexes it. */
  upsert(input: BusinessInput): Promise<Business>;
  get(id: string): Promise<Business | null>;
  /** Several by id in one pipeline; unknown ids are left out. */
  getMany(ids: readonly string[]): Promise<Business[]>;
  getBySlug(slug: string): Promise<Business | null>;
  /**
   * A business page's data: the business and its newest shown reviews, in at most 3 round
   * trips (slug -> id; profile + review ids in one pipeline; the review bodies).
   */
  getBySlugWithReviews(
    slug: string,
    options: { reviews: number },
  ): Promise<{ business: Business; reviews: Review[] } | null>;
  list(query?: ListQuery): Promise<ListResult>;
  /** Featured businesses, best first. */
  featured(options?: { limit?: number }): Promise<Business[]>;
  /** Number of businesses (O(1)). */
  count(): Promise<number>;
  /** Ids of the businesses at positions offset .. offset + limit - 1 in directory order (the import reads them all). */
  ids(offset: number, limit: number): Promise<string[]>;
  /** Slugs of the businesses at positions offset .. offset + limit - 1 in directory order (the sitemaps). */
  slugs(offset: number, limit: number): Promise<string[]>;
  /**
   * Records how the business's offer of lead `leadId` ended (answered, with the daytime minutes
   * it took and whether it came by the deadline; or missed), once per lead and business: a
   * repeat changes nothing and says so (`recorded: false`). Returns the figures before and after
   * (src/lib/response-time.ts: over the latest RESPONSE_WINDOW outcomes, each shown from its
   * minimum sample). Null for an unknown business.
   */
  recordOutcome(businessId: string, leadId: string, outcome: OfferOutcome, at?: Date): Promise<RecordedOutcome | null>;
  /**
   * Takes a lead the business reported out of its figures for good: its kept outcome is dropped
   * and none recorded later counts (`recorded: false` for a repeat). Null for an unknown business.
   */
  excludeOutcome(businessId: string, leadId: string): Promise<RecordedOutcome | null>;
}
