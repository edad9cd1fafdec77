/**
 * What a lead form's no-JS post left to show once the lead is stored: read by the server's
 * page data and drawn by the confirmation view, so both sides share the shape, not a copy.
 */
import type { StormNotice } from "./storm-notice.ts";
import type { NoMatchReason } from "./lead-routing.ts";

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
  /** A sample business (a demo, src/lib/sample.ts): the confirmation marks it "Sample listing". */
  isSample?: true;
  /** Inside a storm: it said it is taking storm jobs (offered first; the confirmation says so). */
  takingStormJobs?: true;
}

/**
 * What happened to a request once stored (quote, find-pros), for its confirmation: the JSON
 * reply's `offers` and the no-JS page both carry it, so the words can say what is happening
 * now ("offered to 3 crews near 33131; each has 10 minutes to answer") and nothing more.
 */
export interface OfferSummary {
  /** Businesses the request is offered to (offers no channel could deliver not counted). */
  offered: number;
  /** Where the job is: its ZIP, else "City, ST"; null when the text named no place we know. */
  near: string | null;
  /**
   * An emergency: offered only to businesses answering emergencies 24/7 or open now, and
   * their answer clock runs night and day.
   */
  aroundTheClock: boolean;
  /** Minutes each business has to answer (when offered to any). */
  answerMinutes?: number;
  /** The earliest deadline of an offer still waiting (ISO). */
  answerBy?: string;
  /** The job's IANA time zone: times shown about it are in this zone. */
  timeZone: string;
  /**
   * Why Treeline's team has it instead (nobody was offered it): no-place, the address named no
   * ZIP or city we know; no-pros, no listed pro near it offers that service (or, for an
   * emergency, works now). Absent otherwise, also for a request held for the team to check.
   */
  toOperator?: NoMatchReason;
  /**
   * Held for Treeline's team to check (sent faster than a person types): it went to no business
   * and nothing is e-mailed, until the team offers it by hand.
   */
  held?: boolean;
  /**
   * No e-mail or text provider is set up here, so the offers are only kept for Treeline's team
   * (in /admin): no business has the request yet, and nothing may say it does.
   */
  kept?: boolean;
}

/** A match as the confirmation lists it (the id stays on the server). */
export type ReceivedMatch = Omit<ProMatch, "id">;

/** What was received, by form. */
export type ReceivedLead =
  | {
      kind: "quote";
      estimate: string;
      matches: readonly ReceivedMatch[];
      offers?: OfferSummary;
      /** The storm line (price rule, no surcharge) when the job is inside a declared storm. */
      storm?: string;
    }
  | { kind: "audit" | "assessment" }
  | { kind: "booking"; businessName: string; slug?: string; offers?: OfferSummary }
  | {
      kind: "find-pros";
      matches: readonly ReceivedMatch[];
      offers?: OfferSummary;
      /** The storm notice when the job's place was inside a declared storm. */
      storm?: StormNotice;
    };
