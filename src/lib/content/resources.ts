/**
 * Content collections for the reference pages: market intelligence, consumer
 * resources and the software stack. Each collection: a loader over files in content/growth and
 * a zod schema built from the shared shapes in ./shapes.ts. Merged in src/content.config.ts.
 */
import { z } from "astro/zod";
import { GROWTH_PHASES, optionValues } from "../options.ts";
import { SERVICE_SLUGS } from "./services.ts";
import { Card, Figure, entries, list, onePeriod, order, timelineFields } from "./shapes.ts";

// ---------------------------------------------------------------------------------------
// Market intelligence (/industry-analysis)

/** Headline market figures (content/growth/market/stats.yaml). */
const marketStats = list("growth/market/stats.yaml", Figure);

/** Regional market rows, sample data (content/growth/market/regions.yaml). */
const marketRegions = list(
  "growth/market/regions.yaml",
  z.object({
    /** State name. */
    state: z.string().min(1),
    /** Approximate number of tree-care businesses operating in the state. */
    businesses: z.string().min(1),
    /** Typical annual revenue of an established company there. */
    avgRevenue: z.string().min(1),
    /** Expected yearly demand growth. */
    growth: z.string().min(1),
    /** Typical EBITDA multiple paid for a well-run company. */
    multiple: z.string().min(1),
    /** What drives demand there. */
    drivers: z.string().min(1),
  }),
);

/** Recent transactions, anonymised (content/growth/market/transactions.yaml). */
const marketTransactions = list(
  "growth/market/transactions.yaml",
  z.object({
    /** When the deal closed ("Q3 2024"). */
    closed: z.string().min(1),
    /** Anonymised description of the business sold. */
    business: z.string().min(1),
    /** Where it operates. */
    region: z.string().min(1),
    /** Trailing-twelve-month revenue at sale. */
    revenue: z.string().min(1),
    /** Price as a multiple. */
    multiple: z.string().min(1),
    /** Kind of buyer. */
    buyer: z.string().min(1),
  }),
);

/** Market report offers (content/growth/market/reports.yaml); prices are quoted on request. */
const reportOffers = list(
  "growth/market/reports.yaml",
  z.object({
    /** Offer name. */
    name: z.string().min(1),
    /** Who it is for. */
    audience: z.string().min(1),
    /** What it is. */
    description: z.string().min(1),
    /** What is included. */
    includes: z.array(z.string()).min(2),
    /** How pricing works (no invented prices). */
    priceNote: z.string().min(1),
    /** Delivery time or format. */
    delivery: z.string().min(1),
  }),
);

// ---------------------------------------------------------------------------------------
// Consumer resources (/consumer-resources)

/** Homeowner guides (content/growth/consumer/guides.yaml). */
const consumerGuides = list("growth/consumer/guides.yaml", Card);

/** What drives a tree-service price (content/growth/consumer/cost-factors.yaml). */
const costFactors = list(
  "growth/consumer/cost-factors.yaml",
  z.object({
    /** The factor. */
    factor: z.string().min(1),
    /** Typical effect on the price. */
    impact: z.string().min(1),
    /** Why it matters. */
    explanation: z.string().min(1),
  }),
);

/** Warning signs when hiring (content/growth/consumer/red-flags.yaml). */
const redFlags = list(
  "growth/consumer/red-flags.yaml",
  z.object({
    /** The warning sign. */
    title: z.string().min(1),
    /** Why it is a problem. */
    why: z.string().min(1),
    /** What to do instead. */
    instead: z.string().min(1),
  }),
);

/** Quick reference costs (content/growth/consumer/quick-costs.yaml): each row is a service page's typical price. */
export const QuickCost = z.object({
  /** Service name as shown. */
  service: z.string().min(1),
  /** The service page whose typical price (src/lib/content/services.ts TYPICAL_RANGES) is shown. */
  page: z.enum(SERVICE_SLUGS),
  /** What the price is per ("per tree", "per stump"). */
  unit: z.string().min(1),
  /** Context for the figure. */
  note: z.string().min(1),
});
const quickCosts = list("growth/consumer/quick-costs.yaml", QuickCost);

// ---------------------------------------------------------------------------------------
// Software stack (/software-stack)

/** Tools compared by category (content/growth/software/tools.yaml). */
const softwareTools = list(
  "growth/software/tools.yaml",
  z.object({
    /** Category the tool is compared in. */
    category: z.enum([
      "Field service management",
      "Accounting",
      "Marketing and reviews",
      "Communication",
      "Operations",
    ]),
    /** Product name. */
    name: z.string().min(1),
    /** Who it suits best. */
    bestFor: z.string().min(1),
    /** What it does well. */
    strengths: z.string().min(1),
    /** What to check before buying. */
    watchOut: z.string().min(1),
  }),
);

/** Recommended stack by business stage (content/growth/software/stages.yaml). */
const softwareStages = list(
  "growth/software/stages.yaml",
  z.object({
    /** Stage name (the blog's stages). */
    stage: z.enum(["Startup", "Growth Stage", "Established", "Mature Business"]),
    /** Revenue band the stage roughly matches. */
    revenue: z.string().min(1),
    /** Growth phase page for this stage. */
    phase: z.enum(optionValues(GROWTH_PHASES)),
    /** Why this stack at this stage. */
    summary: z.string().min(1),
    /** Tools, by role. */
    tools: z
      .array(
        z.object({ /** What the tool does in the stack. */ role: z.string(), /** Which tool. */ tool: z.string() }),
      )
      .min(2),
  }),
);

/** Adoption roadmap (content/growth/software/roadmap.yaml). */
const softwareRoadmap = entries(
  "growth/software/roadmap.yaml",
  z.object({ ...timelineFields, /** Display position in the list. */ order }).refine(...onePeriod),
);

export const resourceCollections = {
  marketStats,
  marketRegions,
  marketTransactions,
  reportOffers,
  consumerGuides,
  costFactors,
  redFlags,
  quickCosts,
  softwareTools,
  softwareStages,
  softwareRoadmap,
};
