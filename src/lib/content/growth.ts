/**
 * Content collections for the growth program: the growth overview, the six phase
 * pages and AI automation. Each collection: a loader over files in content/growth and a zod
 * schema built from the shared shapes in ./shapes.ts. Merged in src/content.config.ts.
 */
import { defineCollection } from "astro:content";
import { glob } from "astro/loaders";
import { z } from "astro/zod";
import { Card, Figure, Quote, Table, TimelineEntry, anchorId, list, withFacts } from "./shapes.ts";

/** Fields every page section has. */
const sectionBase = {
  /** Id of the section heading, unique on the page (anchor and aria-labelledby). */
  id: anchorId,
  /** Section heading (h2). */
  title: z.string().min(1),
  /** Small label above the heading. */
  eyebrow: z.string().optional(),
  /** Paragraph under the heading. */
  lead: z.string().optional(),
};

/** One section of a phase page, in page order; `kind` picks the component that draws it. */
export const PhaseSection = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("cards"),
    ...sectionBase,
    /** Grid columns on wide screens. */ columns: z.union([z.literal(2), z.literal(3), z.literal(4)]).default(3),
    /** The cards. */ items: z.array(Card).min(1),
  }),
  z.object({
    kind: z.literal("steps"),
    ...sectionBase,
    /** Numbered steps of a framework. */ items: z.array(Card).min(2),
  }),
  z.object({
    kind: z.literal("timeline"),
    ...sectionBase,
    /** Timeline steps in order. */ items: z.array(TimelineEntry).min(2),
  }),
  z.object({
    kind: z.literal("metrics"),
    ...sectionBase,
    /** Figures shown as tiles. */ items: z.array(Figure).min(1),
  }),
  z.object({ kind: z.literal("table"), ...sectionBase, /** The table. */ table: Table }),
  z.object({
    kind: z.literal("outcomes"),
    ...sectionBase,
    /** What the owner has at the end of the phase. */ items: z.array(z.string()).min(1),
  }),
  z
    .object({
      kind: z.literal("split"),
      ...sectionBase,
      /** How the owner's week divides; shares add up to 100. */
      items: z
        .array(
          z.object({
            /** Percent of the week. */ share: z.number().int().min(1).max(100),
            /** The activity. */ label: z.string(),
            /** What it covers. */ description: z.string(),
          }),
        )
        .min(2),
    })
    .refine((s) => s.items.reduce((sum, i) => sum + i.share, 0) === 100, {
      message: "Time split shares must add up to 100",
    }),
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
// Growth program

/** The six growth phases: one YAML file per phase in content/growth/phases/ (id = file name). */
const growthPhases = defineCollection({
  loader: glob({ pattern: "phase-[1-6].yaml", base: "./content/growth/phases" }),
  schema: withFacts(
    z.object({
      /** Position in the program, 1-6 (matches the id phase-N). */
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
  ),
});

/** Testimonials on the growth overview (content/growth/testimonials.yaml); phase pages keep theirs in the phase file. */
const growthTestimonials = list("growth/testimonials.yaml", Quote);

/** The growth overview's results section (content/growth/results.yaml). */
const growthResults = list("growth/results.yaml", Figure);

/** Supporting services linked from the growth overview (content/growth/supporting-services.yaml). */
const growthSupport = list(
  "growth/supporting-services.yaml",
  Card.extend({
    /** Internal page the card links to. */
    href: z.string().startsWith("/"),
    /** Link text. */
    linkLabel: z.string().min(1),
  }),
);

// ---------------------------------------------------------------------------------------
// AI automation (/ai-automation)

/** Feature cards (content/growth/ai/features.yaml). */
const aiFeatures = list("growth/ai/features.yaml", Card);

/** Systems the automation connects to (content/growth/ai/integrations.yaml). */
const aiIntegrations = list(
  "growth/ai/integrations.yaml",
  z.object({
    /** Product or system name. */
    name: z.string().min(1),
    /** What kind of system it is. */
    category: z.string().min(1),
    /** What the connection does. */
    description: z.string().min(1),
  }),
);

/** Case studies (content/growth/ai/case-studies.yaml). */
const aiCaseStudies = list(
  "growth/ai/case-studies.yaml",
  z.object({
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
);

/** AI automation plans (content/growth/ai/pricing.yaml); prices are quoted on request. */
const aiPricingTiers = list(
  "growth/ai/pricing.yaml",
  z.object({
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
);

export const growthCollections = {
  growthPhases,
  growthTestimonials,
  growthResults,
  growthSupport,
  aiFeatures,
  aiIntegrations,
  aiCaseStudies,
  aiPricingTiers,
};
