/**
 * What a lead form's no-JS post left to show once the lead is stored: read by the server's
 * page data and drawn by the confirmation view, so both sides share the shape, not a copy.
 */

/** A directory business a find-pros request went to (also the JSON `matches` item). */
export interface ProMatch {
  /** Business id (the stored lead records which businesses it went to). */
  id: string;
  name: string;
  slug: string;
  phone: string | null;
  /** "4.9" */
  rating: string;
  reviewCount: number;
  /** Miles from the job's location. */
  distanceMiles: number;
}

/** A match as the confirmation lists it (the id stays on the server). */
export type ReceivedMatch = Omit<ProMatch, "id">;

/** Where a routed request stands the moment it is stored (the JSON reply and the no-JS page). */
export interface OfferSummary {
  offered: number;
  near: string | null;
  aroundTheClock: boolean;
  answerMinutes?: number;
  answerBy?: string /* ISO, earliest deadline */;
  timeZone: string;
  toOperator?: "no-place" | "no-pros";
}

/** What was received, by form. */
export type ReceivedLead =
  | { kind: "quote"; estimate: string; matches: readonly ReceivedMatch[]; offers?: OfferSummary }
  | { kind: "audit" | "assessment" }
  | { kind: "booking"; businessName: string; slug?: string }
  | { kind: "find-pros"; matches: readonly ReceivedMatch[]; offers?: OfferSummary };
