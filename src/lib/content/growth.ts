/**
 * Content collections for the growth pages (issue 6): the growth overview, the six phase pages,
 * market intelligence, AI automation, consumer resources, the software stack and the legal pages.
 * Each collection: a loader over files in content/growth or content/legal and a zod schema with a
 * JSDoc line per field. Merged in src/content.config.ts.
 */
import { defineCollection } from "astro:content";
import { file, glob } from "astro/loaders";
import { z } from "astro/zod";
import { BASE_RANGES, formatRange } from "../estimate.ts";
import { GROWTH_PHASES, SERVICE_TYPES, optionValues } from "../options.ts";
import { SITE } from "../site.ts";

// ---------------------------------------------------------------------------------------
// Shared shapes

/**
 * Display position of an entry in a list collection. Astro's data store returns entries
 * sorted by id, so list order is explicit; read lists with `inOrder`.
 */
const order = z.number().int().min(1);

/** The entries' data in display order (by their `order` field). */
export function inOrder<T extends { id: string; data: { order: number } }>(entries: readonly T[]): (T["data"] & { id: string })[] {
  return [...entries].sort((a, b) => a.data.order - b.data.order).map((e) => ({ id: e.id, ...e.data }));
}

/** Names of the icons in src/lib/icons.ts that content may ask for. */
const iconName = z.enum([
  "phone", "clock", "chat", "tree", "shield", "star", "bolt", "chart", "search", "mapPin", "check",
  "globe", "calendar", "image", "award", "mail", "arrowRight",
]);

/** One headline figure: the value people scan for and what it measures. */
export const Figure = z.object({
  /** The figure as displayed, verbatim from the specification ("25-35%", "$3.5M"). */
  value: z.string().min(1),
  /** What the figure measures. */
  label: z.string().min(1),
  /** Optional one-line context under the label. */
  detail: z.string().optional(),
});
export type Figure = z.infer<typeof Figure>;

/** A card in a grid: a component, a service, a channel, a feature. */
export const Card = z.object({
  /** Card heading (h3). */
  title: z.string().min(1),
  /** One or two sentences. */
  description: z.string().min(1),
  /** Optional icon from src/lib/icons.ts. */
  icon: iconName.optional(),
  /** Optional highlighted figure on the card ("$500-$800"). */
  figure: z.string().optional(),
  /** Caption of the figure. */
  figureLabel: z.string().optional(),
  /** Optional bullet points. */
  bullets: z.array(z.string()).optional(),
});
export type Card = z.infer<typeof Card>;

/**
 * One timeline step. Exactly one of week, month or quarter names the period (spec section 3:
 * phase 4 entries have a month, phase 5 entries a quarter).
 */
const timelineFields = {
    /** Period label for week-based timelines ("Weeks 1-2"). */
    week: z.string().optional(),
    /** Period label for month-based timelines ("Month 1-2"). */
    month: z.string().optional(),
    /** Period label for quarter-based timelines ("Q3-Q4", "Year 2"). */
    quarter: z.string().optional(),
    /** What this step achieves. */
    title: z.string().min(1),
    /** What happens in this step. */
    description: z.string().min(1),
    /** How far through the phase the business is when the step is done, 0-100. */
    progress: z.number().int().min(0).max(100),
};
const onePeriod = {
  check: (e: { week?: string; month?: string; quarter?: string }) => [e.week, e.month, e.quarter].filter(Boolean).length === 1,
  message: "A timeline entry needs exactly one of week, month or quarter",
};
export const TimelineEntry = z.object(timelineFields).refine(onePeriod.check, { message: onePeriod.message });
export type TimelineEntry = z.infer<typeof TimelineEntry>;

/** The visible period label of a timeline entry. */
export function timelineLabel(entry: TimelineEntry): string {
  return entry.week ?? entry.month ?? entry.quarter ?? "";
}

/** A table of strings: the first cell of each row is its header cell. */
export const Table = z.object({
  /** The table's caption (also names its scroll region on phones). */
  caption: z.string().min(1),
  /** Column headings, first one included. */
  columns: z.array(z.string()).min(2),
  /** Rows; each has as many cells as there are columns. */
  rows: z.array(z.array(z.string())).min(1),
  /** Optional note printed under the table (sources, "sample data"). */
  note: z.string().optional(),
});
export type Table = z.infer<typeof Table>;

/** A customer's words. */
export const Quote = z.object({
  /** The quotation, without quote marks. */
  quote: z.string().min(1),
  /** Who said it. */
  name: z.string().min(1),
  /** Their role and company. */
  role: z.string().min(1),
  /** Optional result line under the name ("$65K to $2M in 3 years"). */
  result: z.string().optional(),
});
export type Quote = z.infer<typeof Quote>;

/** Fields every page section has. */
const sectionBase = {
  /** Id of the section heading, unique on the page (anchor and aria-labelledby). */
  id: z.string().regex(/^[a-z0-9-]+$/),
  /** Section heading (h2). */
  title: z.string().min(1),
  /** Small label above the heading. */
  eyebrow: z.string().optional(),
  /** Paragraph under the heading. */
  lead: z.string().optional(),
};

/** One section of a phase page, in page order; `kind` picks the component that draws it. */
export const PhaseSection = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("cards"), ...sectionBase, /** Grid columns on wide screens. */ columns: z.union([z.literal(2), z.literal(3), z.literal(4)]).default(3), /** The cards. */ items: z.array(Card).min(1) }),
  z.object({ kind: z.literal("steps"), ...sectionBase, /** Numbered steps of a framework. */ items: z.array(Card).min(2) }),
  z.object({ kind: z.literal("timeline"), ...sectionBase, /** Timeline steps in order. */ items: z.array(TimelineEntry).min(2) }),
  z.object({ kind: z.literal("metrics"), ...sectionBase, /** Figures shown as tiles. */ items: z.array(Figure).min(1) }),
  z.object({ kind: z.literal("table"), ...sectionBase, /** The table. */ table: Table }),
  z.object({ kind: z.literal("outcomes"), ...sectionBase, /** What the owner has at the end of the phase. */ items: z.array(z.string()).min(1) }),
  z.object({
    kind: z.literal("split"),
    ...sectionBase,
    /** How the owner's week divides; shares add up to 100. */
    items: z.array(z.object({ /** Percent of the week. */ share: z.number().int().min(1).max(100), /** The activity. */ label: z.string(), /** What it covers. */ description: z.string() })).min(2),
  }).refine((s) => s.items.reduce((sum, i) => sum + i.share, 0) === 100, { message: "Time split shares must add up to 100" }),
  z.object({ kind: z.literal("quote"), ...sectionBase, /** The testimonial. */ quote: Quote }),
]);
export type PhaseSection = z.infer<typeof PhaseSection>;

/** A button of a phase page's hero or closing band: every one opens the assessment dialog. */
const PhaseAction = z.object({
  /** Button text. */
  label: z.string().min(1),
  /** Primary (amber) or secondary look. */
  style: z.enum(["primary", "secondary"]).default("primary"),
});

// ---------------------------------------------------------------------------------------
// Growth programme

/** The six growth phases: one YAML file per phase in content/growth/phases/ (id = file name). */
const growthPhases = defineCollection({
  loader: glob({ pattern: "phase-[1-6].yaml", base: "./content/growth/phases" }),
  schema: z.object({
    /** Position in the programme, 1-6 (matches the id phase-N). */
    number: z.number().int().min(1).max(6),
    /** Phase name without the number, as in GROWTH_PHASES ("Part-Time to Full-Time"). */
    name: z.string().min(1),
    /** Typical duration ("3-6 months"). */
    duration: z.string().min(1),
    /** One-sentence summary for the overview card and the meta description. */
    summary: z.string().min(40).max(170),
    /** The overview card's headline figure. */
    cardFigure: Figure,
    /** Hero: small label above the h1. */
    eyebrow: z.string().min(1),
    /** Hero: lead paragraph. */
    lead: z.string().min(1),
    /** Hero: key figures shown under the lead. */
    heroFigures: z.array(Figure).min(1).max(4),
    /** Hero buttons (assessment dialog). */
    heroActions: z.array(PhaseAction).min(1),
    /** Optional success story next to the hero figures (phase 6). */
    story: z.object({ /** Story heading. */ title: z.string(), /** Story text. */ text: z.string() }).optional(),
    /** The page's sections in order. */
    sections: z.array(PhaseSection).min(3),
    /** Closing call to action. */
    cta: z.object({
      /** Heading (h2). */
      title: z.string().min(1),
      /** One line under the heading. */
      text: z.string().min(1),
      /** Buttons (assessment dialog). */
      actions: z.array(PhaseAction).min(1),
    }),
  }),
});

/** Testimonials on the growth overview (content/growth/testimonials.yaml); phase pages keep theirs in the phase file. */
const growthTestimonials = defineCollection({
  loader: file("./content/growth/testimonials.yaml"),
  schema: Quote.extend({ /** Display position in the list. */ order }),
});

/** The growth overview's results section (content/growth/results.yaml). */
const growthResults = defineCollection({
  loader: file("./content/growth/results.yaml"),
  schema: Figure.extend({ /** Display position in the list. */ order }),
});

/** Supporting services linked from the growth overview (content/growth/supporting-services.yaml). */
const growthSupport = defineCollection({
  loader: file("./content/growth/supporting-services.yaml"),
  schema: Card.extend({
    /** Display position in the list. */
    order,
    /** Internal page the card links to. */
    href: z.string().startsWith("/"),
    /** Link text. */
    linkLabel: z.string().min(1),
  }),
});

// ---------------------------------------------------------------------------------------
// Market intelligence (/industry-analysis)

/** Headline market figures (content/growth/market/stats.yaml). */
const marketStats = defineCollection({
  loader: file("./content/growth/market/stats.yaml"),
  schema: Figure.extend({ /** Display position in the list. */ order }),
});

/** Regional market rows, sample data (content/growth/market/regions.yaml). */
const marketRegions = defineCollection({
  loader: file("./content/growth/market/regions.yaml"),
  schema: z.object({
    /** Display position in the list. */
    order,
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
});

/** Recent transactions, anonymised (content/growth/market/transactions.yaml). */
const marketTransactions = defineCollection({
  loader: file("./content/growth/market/transactions.yaml"),
  schema: z.object({
    /** Display position in the list. */
    order,
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
});

/** Market report offers (content/growth/market/reports.yaml); prices are quoted on request. */
const reportOffers = defineCollection({
  loader: file("./content/growth/market/reports.yaml"),
  schema: z.object({
    /** Display position in the list. */
    order,
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
});

// ---------------------------------------------------------------------------------------
// AI automation (/ai-automation)

/** Feature cards (content/growth/ai/features.yaml). */
const aiFeatures = defineCollection({
  loader: file("./content/growth/ai/features.yaml"),
  schema: Card.extend({ /** Display position in the list. */ order }),
});

/** Systems the automation connects to (content/growth/ai/integrations.yaml). */
const aiIntegrations = defineCollection({
  loader: file("./content/growth/ai/integrations.yaml"),
  schema: z.object({
    /** Display position in the list. */
    order,
    /** Product or system name. */
    name: z.string().min(1),
    /** What kind of system it is. */
    category: z.string().min(1),
    /** What the connection does. */
    description: z.string().min(1),
  }),
});

/** Case studies (content/growth/ai/case-studies.yaml). */
const aiCaseStudies = defineCollection({
  loader: file("./content/growth/ai/case-studies.yaml"),
  schema: z.object({
    /** Display position in the list. */
    order,
    /** Anonymised company description. */
    company: z.string().min(1),
    /** Where it operates. */
    location: z.string().min(1),
    /** The problem before automation. */
    challenge: z.string().min(1),
    /** What was automated. */
    solution: z.string().min(1),
    /** Results as figures. */
    results: z.array(Figure).min(1),
  }),
});

/** AI automation plans (content/growth/ai/pricing.yaml); prices are quoted on request. */
const aiPricingTiers = defineCollection({
  loader: file("./content/growth/ai/pricing.yaml"),
  schema: z.object({
    /** Display position in the list. */
    order,
    /** Plan name. */
    name: z.string().min(1),
    /** How the plan is billed ("Per month", "Custom"). */
    billing: z.string().min(1),
    /** What is shown instead of a price. */
    priceLabel: z.string().min(1),
    /** Call allowance ("Up to 100 calls per month"). */
    allowance: z.string().min(1),
    /** Who the plan suits. */
    audience: z.string().min(1),
    /** Included features. */
    features: z.array(z.string()).min(2),
    /** The highlighted plan. */
    featured: z.boolean().default(false),
  }),
});

// ---------------------------------------------------------------------------------------
// Consumer resources (/consumer-resources)

/** Homeowner guides (content/growth/consumer/guides.yaml). */
const consumerGuides = defineCollection({
  loader: file("./content/growth/consumer/guides.yaml"),
  schema: Card.extend({ /** Display position in the list. */ order }),
});

/** What drives a tree-service price (content/growth/consumer/cost-factors.yaml). */
const costFactors = defineCollection({
  loader: file("./content/growth/consumer/cost-factors.yaml"),
  schema: z.object({
    /** Display position in the list. */
    order,
    /** The factor. */
    factor: z.string().min(1),
    /** Typical effect on the price. */
    impact: z.string().min(1),
    /** Why it matters. */
    explanation: z.string().min(1),
  }),
});

/** Warning signs when hiring (content/growth/consumer/red-flags.yaml). */
const redFlags = defineCollection({
  loader: file("./content/growth/consumer/red-flags.yaml"),
  schema: z.object({
    /** Display position in the list. */
    order,
    /** The warning sign. */
    title: z.string().min(1),
    /** Why it is a problem. */
    why: z.string().min(1),
    /** What to do instead. */
    instead: z.string().min(1),
  }),
});

/**
 * Quick reference costs (content/growth/consumer/quick-costs.yaml). A row names either the
 * estimate table's service (its range comes from BASE_RANGES, never retyped) or its own range.
 */
const quickCosts = defineCollection({
  loader: file("./content/growth/consumer/quick-costs.yaml"),
  schema: z
    .object({
      /** Display position in the list. */
      order,
      /** Service name as shown. */
      service: z.string().min(1),
      /** A quote-form service whose estimate range (src/lib/estimate.ts) is shown. */
      serviceType: z.enum(optionValues(SERVICE_TYPES)).optional(),
      /** Range for services the estimate does not cover ("$150-$600"). */
      range: z.string().optional(),
      /** What the price is per ("per tree", "per stump"). */
      unit: z.string().min(1),
      /** Context for the figure. */
      note: z.string().min(1),
    })
    .refine((c) => Boolean(c.serviceType) !== Boolean(c.range), { message: "Give exactly one of serviceType or range" }),
});

/** The displayed range of a quick-reference row. */
export function quickCostRange(row: { serviceType?: keyof typeof BASE_RANGES; range?: string }): string {
  if (row.serviceType) {
    const [min, max] = BASE_RANGES[row.serviceType];
    return formatRange(min, max);
  }
  return row.range ?? "";
}

// ---------------------------------------------------------------------------------------
// Software stack (/software-stack)

/** Tools compared by category (content/growth/software/tools.yaml). */
const softwareTools = defineCollection({
  loader: file("./content/growth/software/tools.yaml"),
  schema: z.object({
    /** Display position in the list. */
    order,
    /** Category the tool is compared in. */
    category: z.enum(["Field service management", "Accounting", "Marketing and reviews", "Communication", "Operations"]),
    /** Product name. */
    name: z.string().min(1),
    /** Who it suits best. */
    bestFor: z.string().min(1),
    /** What it does well. */
    strengths: z.string().min(1),
    /** What to check before buying. */
    watchOut: z.string().min(1),
  }),
});

/** Recommended stack by business stage (content/growth/software/stages.yaml). */
const softwareStages = defineCollection({
  loader: file("./content/growth/software/stages.yaml"),
  schema: z.object({
    /** Display position in the list. */
    order,
    /** Stage name (the blog's stages). */
    stage: z.enum(["Startup", "Growth Stage", "Established", "Mature Business"]),
    /** Revenue band the stage roughly matches. */
    revenue: z.string().min(1),
    /** Growth phase page for this stage. */
    phase: z.enum(optionValues(GROWTH_PHASES)),
    /** Why this stack at this stage. */
    summary: z.string().min(1),
    /** Tools, by role. */
    tools: z.array(z.object({ /** What the tool does in the stack. */ role: z.string(), /** Which tool. */ tool: z.string() })).min(2),
  }),
});

/** Adoption roadmap (content/growth/software/roadmap.yaml). */
const softwareRoadmap = defineCollection({
  loader: file("./content/growth/software/roadmap.yaml"),
  schema: z.object({ ...timelineFields, /** Display position in the list. */ order }).refine(onePeriod.check, { message: onePeriod.message }),
});

// ---------------------------------------------------------------------------------------
// Legal pages (/privacy, /terms)

/**
 * Legal documents, one YAML file each in content/legal/ (id = file name). `{phone}` and
 * `{email}` in any text are replaced with the operator's details from src/lib/site.ts.
 */
const legalDocuments = defineCollection({
  loader: glob({ pattern: "*.yaml", base: "./content/legal" }),
  schema: z.object({
    /** The page's h1. */
    title: z.string().min(1),
    /** Date shown as "Last updated: ...". */
    updated: z.string().min(1),
    /** Meta description. */
    description: z.string().min(40).max(170),
    /** Opening paragraph. */
    intro: z.string().min(1),
    /** Numbered sections. */
    sections: z
      .array(
        z.object({
          /** Anchor id. */
          id: z.string().regex(/^[a-z0-9-]+$/),
          /** Section heading (h2). */
          heading: z.string().min(1),
          /** Paragraphs. */
          paragraphs: z.array(z.string()).default([]),
          /** Optional bullet list after the paragraphs. */
          list: z.array(z.string()).optional(),
          /** Optional paragraph after the list. */
          after: z.string().optional(),
        }),
      )
      .min(3),
  }),
});

/** Fills the contact tokens of legal text from the one site config. */
export function fillContact(text: string): string {
  return text.replaceAll("{phone}", SITE.phone).replaceAll("{email}", SITE.email).replaceAll("{name}", SITE.name);
}

export const growthCollections = {
  growthPhases,
  growthTestimonials,
  growthResults,
  growthSupport,
  marketStats,
  marketRegions,
  marketTransactions,
  reportOffers,
  aiFeatures,
  aiIntegrations,
  aiCaseStudies,
  aiPricingTiers,
  consumerGuides,
  costFactors,
  redFlags,
  quickCosts,
  softwareTools,
  softwareStages,
  softwareRoadmap,
  legalDocuments,
};
