/**
 * Storm mode's words and price rules, without schemas or datasets: the notice's view
 * (src/views/storm/StormNotice.tsx) and the islands that show it import this alone, so their
 * bundles stay small. src/lib/storm.ts re-exports everything here; other code imports that.
 */
import { DANGER_FIRST, HOTLINE } from "./safety.ts";

/** A state's price-gouging rule during a declared emergency. */
export interface PriceRule {
  /** The state ("FL"), or "" for the general line. */
  state: string;
  /** The law, as cited, e.g. "California Penal Code 396". */
  citation: string;
  /** What it allows, in a sentence a homeowner reads. */
  rule: string;
  /**
   * The most a price may rise over the pre-storm price, in percent, where the law names a
   * figure (California 10); null where it is judged case by case ("gross disparity").
   */
  maxIncreasePercent: number | null;
}

/** The rules the notice and the estimate state, by state; others get GENERAL_PRICE_RULE. */
export const PRICE_RULES: Readonly<Record<string, PriceRule>> = {
  CA: {
    state: "CA",
    citation: "California Penal Code 396",
    rule: "For 30 days after an emergency is declared, no price may be more than 10% above what was charged before it; for contractors' repair and clean-up work, for 180 days.",
    maxIncreasePercent: 10,
  },
  FL: {
    state: "FL",
    citation: "Florida Statutes 501.160",
    rule: "During a declared state of emergency, a price that is a gross disparity from the average price of the 30 days before the declaration is unlawful.",
    maxIncreasePercent: null,
  },
  TX: {
    state: "TX",
    citation: "Texas Business and Commerce Code 17.46(b)(27) and 17.4625",
    rule: "During a declared disaster and for 30 days after it, charging exorbitant or excessive prices for necessities is unlawful.",
    maxIncreasePercent: null,
  },
  GA: {
    state: "GA",
    citation: "O.C.G.A. 10-1-393.4",
    rule: "During a declared state of emergency, no price may rise above what was charged just before it unless the increase reflects the seller's added costs; the Attorney General lists tree removal among the most common complaints.",
    maxIncreasePercent: 0,
  },
  NC: {
    state: "NC",
    citation: "North Carolina G.S. 75-38",
    rule: "During a declared state of disaster or emergency, an unreasonably excessive price is unlawful, judged against the seller's own average price in the 60 days before.",
    maxIncreasePercent: null,
  },
  LA: {
    state: "LA",
    citation: "Louisiana R.S. 29:732",
    rule: "During a declared emergency, no price may exceed what was ordinarily charged in the area just before the declaration, unless the seller's own costs rose.",
    maxIncreasePercent: 0,
  },
};

/** The line for a state without an entry above. */
export const GENERAL_PRICE_RULE: PriceRule = {
  state: "",
  citation: "your state's price-gouging law",
  rule: "Most states forbid raising prices sharply once an emergency is declared; a price far above what a business charged before the storm can be reported to the state Attorney General.",
  maxIncreasePercent: null,
};

/** The rule that applies in a state (the general line when the state has no entry, or none is known). */
export function priceRuleFor(state: string | undefined): PriceRule {
  return (state && PRICE_RULES[state.toUpperCase()]) || GENERAL_PRICE_RULE;
}

/** The price rule as one sentence with its citation, e.g. "Florida Statutes 501.160: ...". */
export const priceRuleLine = (rule: PriceRule): string => (rule.state ? `${rule.citation}: ${rule.rule}` : rule.rule);

/** What the storm notice says, in order: safety, the hotline, storm chasers, the price rule. */
export const STORM_NOTICE = {
  /** The heading, before the storm's name. */
  heading: "Storm emergency in this area",
  /** Safety before anything else. */
  safety: [
    DANGER_FIRST.hurt,
    `${DANGER_FIRST.lines} Treat every downed line as live: stay at least 35 feet away, and keep children and pets back.`,
  ],
  /** The hotline's label and text. */
  hotline: HOTLINE,
  /** The storm-chaser heading and checks. */
  chasersHeading: "How to spot a storm chaser",
  chasers: [
    "Check the license: the name and license number on the truck, card or contract must match the business's listing here.",
    "Never pay in full up front: a fair deposit at most, the rest when the work is done.",
    "Get a written estimate before any work starts, with the price, the work and the clean-up.",
    "Be wary of crews knocking on doors or pressing you to sign today.",
  ],
  /** The price rule's heading. */
  priceHeading: "Price-gouging rule",
  /** The "check a ZIP" form's label and button. */
  checkLabel: "Storm in your area? Enter your ZIP",
  checkButton: "Check my ZIP",
  /** What the check answers for a ZIP outside every active storm. */
  clear: "No storm emergency is declared for this ZIP right now.",
} as const;

/** What a page needs to draw the storm notice for one place (serializable: islands get it as props). */
export interface StormNotice {
  /** The event's id. */
  id: string;
  /** The storm's name, e.g. "Hurricane Milton". */
  name: string;
  /** "Emergency declared by the governor: EO 24-208." */
  declaration: string;
  /** Where the declaration is published, when known. */
  declarationUrl?: string;
  /** The price rule that applies at the place (the general line when its state has none). */
  rule: PriceRule;
}
