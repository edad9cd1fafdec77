/**
 * The lead repository's shapes: what creating, listing, filtering and editing take and give
 * (leads.ts), shared with the admin's filters (lead-facets.ts).
 */
import type { UrgencyLevel } from "../../../../src/lib/lead-urgency.ts";
import type { Lead, LeadStatus, LeadType } from "../../../../src/lib/schemas/lead.ts";
import type { LeadCounts } from "./lead-counts.ts";

/** What the admin list narrows by; every field optional. */
export interface LeadFilter {
  type?: LeadType;
  status?: LeadStatus;
  /** "routine" includes leads stored before urgencies existed. */
  urgency?: UrgencyLevel;
  /** Name, e-mail or phone (search-text.ts). */
  q?: string;
}

export interface CreateLeadOptions {
  /** Site path the form was on, e.g. "/services/tree-removal". */
  sourcePage: string;
  /** Client-chosen key (e.g. the Idempotency-Key header); repeats within 24h are not stored again. */
  idempotencyKey?: string;
  /**
   * What the key was used for (see requestFingerprint): a repeat with another fingerprint is
   * a different request reusing the key and throws IdempotencyConflictError. Without one the
   * lead data is fingerprinted.
   */
  fingerprint?: string;
  /** How urgent the lead is (lead-urgency.ts). */
  urgency?: Lead["urgency"];
  /** The businesses it goes to; a waiting delivery puts the lead on the response clock. */
  routing?: Lead["routing"];
  /** The job's IANA time zone (from its place, or its business's). */
  timeZone?: Lead["timeZone"];
  /** Where the job is, as matched (quotes, find-pros requests). */
  place?: Lead["place"];
  /** The storm event an emergency arrived inside (indexed for the storm board in the same write). */
  storm?: Lead["storm"];
}

/** A routing change: the lead as it should be next, or null for "nothing to change". */
export type LeadMutation = (lead: Lead) => Lead | null;

export interface CreateLeadResult<T> {
  lead: Lead<T>;
  /** True when the idempotency key had been seen and `lead` is the first one stored. */
  duplicate: boolean;
}

export interface LeadPage {
  /** Newest first. */
  items: Lead[];
  /** Pass back as `cursor` for the next (older) page; null on the last page. */
  nextCursor: string | null;
  /** Scans only (search, several filters): index entries read for this page (at most SEARCH_SCAN_LIMIT). */
  scanned?: number;
}

/**
 * An operator's edit of a lead. The status follows the lead's offers; the operator only
 * closes it (it stays closed whatever its offers do) or reopens it (back to what they say).
 */
export interface LeadUpdate {
  /** true closes the lead, false reopens a closed one. */
  closed?: boolean;
  /** Replaces the note; "" clears it. */
  note?: string;
}

/** The admin's headline numbers (leads.overview). */
export interface LeadOverview {
  /** Leads in each status. */
  statusCounts: Record<LeadStatus, number>;
  /** Leads waiting for the operator: new (nobody has it) and escalated (it came back). */
  needsYou: number;
  /** The newest open emergencies (no business accepted, not closed), newest first. */
  emergencies: Lead[];
}

export interface LeadsRepository {
  create<T>(type: LeadType, data: T, options: CreateLeadOptions): Promise<CreateLeadResult<T>>;
  get(id: string): Promise<Lead | null>;
  /** Newest first; omit type for every type. */
  list(type?: LeadType, options?: { cursor?: string | null; limit?: number }): Promise<LeadPage>;
  /**
   * Leads whose name or e-mail contains `query`, or whose phone contains its digits; newest
   * first. A page may come back short (or empty) with a cursor when the scan budget ran out.
   */
  search(query: string, type?: LeadType, options?: { cursor?: string | null; limit?: number }): Promise<LeadPage>;
  /**
   * Leads matching every given filter (type, status, urgency, search text), newest first; like
   * `search`, a page may come back short with a cursor when several filters need a scan.
   */
  find(filter: LeadFilter, options?: { cursor?: string | null; limit?: number }): Promise<LeadPage>;
  /** Leads per status, how many need the operator, and the newest open emergencies. */
  overview(limit?: number): Promise<LeadOverview>;
  /** Leads of each type and in all (O(1) each). */
  counts(): Promise<LeadCounts>;
  /** Applies an operator edit (recorded in `history`, status sets moved); null for an unknown lead. */
  update(id: string, change: LeadUpdate, now?: Date): Promise<Lead | null>;
  /**
   * Applies a routing change atomically (compare-and-set, retried on a concurrent change):
   * sets the lead's clock entry, queues its messages and stores the status its offers give it
   * (statusOf, with its status sets). Returns the lead as stored and whether it changed; null
   * for an unknown lead.
   */
  mutate(id: string, change: LeadMutation, now?: number): Promise<{ lead: Lead; changed: boolean } | null>;
  /** Lead ids whose next deadline is at or before `now`, soonest first. */
  clockDue(now: number, limit: number): Promise<string[]>;
  /** How many leads clockDue would name without a limit. */
  clockDueCount(now: number): Promise<number>;
  /** The lead a reference names, in any spelling normalizeReference accepts upstream. */
  byReference(reference: string): Promise<Lead | null>;
}
