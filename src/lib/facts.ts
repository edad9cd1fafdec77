/**
 * The site's marketing facts: every price, multiplier, response time, story figure and
 * contact that a page, the chat assistant or an e-mail states. One module, so two pages
 * cannot disagree.
 *
 * - Job prices come from the estimate table (./estimate.ts): never typed here or in content.
 * - Response times stay in ./lead-urgency.ts (RESPONSE_TIMES, worded for "within ...", and the
 *   figures behind them) and are re-exported here; the forms import them from there, so a
 *   dialog's bundle does not carry the estimate table.
 * - Contact details stay in ./site.ts (SITE) and are re-exported here.
 * - YAML cannot import: it writes `{token}` placeholders from FACT_TOKENS, which every content
 *   collection fills when it loads (src/lib/content/shapes.ts `withFacts`).
 *
 * Client-safe: no zod, no node.
 */
import { BASE_RANGES, URGENCY_MULTIPLIERS, estimate, formatRange } from "./estimate.ts";
import { RESPONSE_TIMES } from "./lead-urgency.ts";
import { SITE } from "./site.ts";

export { BASE_RANGES, URGENCY_MULTIPLIERS, estimate, formatRange } from "./estimate.ts";
export { CONTACT_PROMISE_HOURS, EMERGENCY_RESPONSE, RESPONSE_TIMES } from "./lead-urgency.ts";
export { SITE } from "./site.ts";

/** Liability insurance every crew carries (service and emergency pages, the assistant). */
export const LIABILITY_INSURANCE = "$2M";

/**
 * Pruning's per-tree price. The quote form has no pruning service: the
 * instant estimate quotes pruning as tree trimming (QUOTED_AS), and the arborist confirms
 * the per-tree pruning price on site.
 */
export const PRUNING = {
  /** Typical price per tree in dollars. */
  perTree: [150, 600] as const,
  /** The quote-form service that prices a pruning job. */
  quotedAs: "tree-trimming",
} as const;

/**
 * Emergency pricing. The spec prints two figures and both are kept, each for its own thing:
 * - `premiumPercent` (consumer page, "+50%"): the typical after-hours / storm premium over
 *   routine work that homeowners should expect when comparing contractors' quotes;
 * - the estimate table's urgency multiplier for "emergency" (1.8x), which our instant
 *   estimate applies to the emergency call-out base (BASE_RANGES.emergency).
 */
export const EMERGENCY_PRICING = {
  /** Industry-typical emergency premium over routine work, in percent. */
  premiumPercent: 50,
} as const;

/**
 * The owner story ($65K start, $2M year two, $3.5M exit, 50% gross margin,
 * 3-5x EBITDA; growth overview "$65K to $2M in 3 years": the three years run to the sale).
 * Home page, growth overview, phase 6 and the market page tell this one story.
 */
export const OWNER_STORY = {
  owner: "Daniel Ortiz",
  company: "Hill Country Tree Co.",
  place: "Austin, TX",
  /** First-year revenue. */
  startRevenue: "$65K",
  /** Revenue reached by year two. */
  revenue: "$2M",
  /** The year the revenue figure was reached, as words. */
  revenueYear: "year two",
  /** Sale price to a private-equity platform. */
  exit: "$3.5M",
  /** How long from the start to the sale. */
  exitAfter: "3 years",
  /** Revenue multiple of the sale ($3.5M / $2M). */
  revenueMultiple: "1.75x",
  /** Gross margin at the sale. */
  grossMargin: "50%",
  /** EBITDA valuation multiple. */
  ebitdaMultiple: "3-5x",
} as const;

const times = (n: number) => `${n}x`;

/** Emergency figures computed from the estimate table, for text that explains them. */
export function emergencyFigures() {
  const base = BASE_RANGES.emergency;
  const quoted = estimate("emergency", "emergency");
  const removal = estimate("tree-removal", "emergency");
  return {
    /** The emergency call-out base range ("$300 - $1,200"). */
    base: formatRange(...base),
    /** The urgency multiplier for an emergency ("1.8x"). */
    multiplier: times(URGENCY_MULTIPLIERS.emergency),
    /** Emergency service booked as an emergency ("$540 - $2,160"). */
    quoted: quoted.text,
    /** A tree removal booked as an emergency ("$900 - $4,500"). */
    removal: removal.text,
    /** The consumer page's premium ("+50%"). */
    premium: `+${EMERGENCY_PRICING.premiumPercent}%`,
  };
}

/**
 * `{token}` values YAML content may use (filled by every content collection on load). A
 * figure written out in YAML instead of its token is caught by tests/unit/facts.test.ts.
 */
export function factTokens(): Record<string, string> {
  const e = emergencyFigures();
  return {
    phone: SITE.phone,
    email: SITE.email,
    emergencyBase: e.base,
    emergencyMultiplier: e.multiplier,
    emergencyQuote: e.quoted,
    emergencyRemoval: e.removal,
    emergencyPremium: e.premium,
    emergencyPremiumPercent: `${EMERGENCY_PRICING.premiumPercent}%`,
    dispatchMinutes: RESPONSE_TIMES.dispatch,
    onSiteHours: RESPONSE_TIMES.onSite,
    contactHours: RESPONSE_TIMES.contact,
    privacyRequestDays: RESPONSE_TIMES.privacyRequest,
    insurance: LIABILITY_INSURANCE,
    trimmingQuote: formatRange(...BASE_RANGES["tree-trimming"]),
    removalQuote: formatRange(...BASE_RANGES["tree-removal"]),
    stumpQuote: formatRange(...BASE_RANGES["stump-grinding"]),
    pruningPrice: formatRange(...PRUNING.perTree, "compact"),
    pruningQuote: formatRange(...BASE_RANGES[PRUNING.quotedAs]),
    storyOwner: OWNER_STORY.owner,
    storyCompany: OWNER_STORY.company,
    storyPlace: OWNER_STORY.place,
    storyStart: OWNER_STORY.startRevenue,
    storyRevenue: OWNER_STORY.revenue,
    storyRevenueYear: OWNER_STORY.revenueYear,
    storyExit: OWNER_STORY.exit,
    storyExitAfter: OWNER_STORY.exitAfter,
    storyRevenueMultiple: OWNER_STORY.revenueMultiple,
    storyMargin: OWNER_STORY.grossMargin,
    storyEbitda: OWNER_STORY.ebitdaMultiple,
  };
}

export const FACT_TOKENS: Readonly<Record<string, string>> = factTokens();
