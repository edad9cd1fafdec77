/**
 * Content collections for the home page: audiences, process, growth summary, owner
 * story, served states, testimonials, AI features and the sample dashboard. Each collection: a
 * loader over files in content/marketing/ and a zod schema built from the shared shapes in
 * ./shapes.ts. Merged in src/content.config.ts.
 */
import { z } from "astro/zod";
import { Figure, IconCard, ProcessStep, entries, list } from "./shapes.ts";

/** The three audience cards in the home hero. */
const homeAudiences = list(
  "marketing/audiences.yaml",
  IconCard.extend({
    /** Internal path the card links to. */
    href: z.string().startsWith("/"),
  }),
);

/** The home page's 4-step process (request quote, schedule service, expert service, complete cleanup). */
const homeProcess = list("marketing/home-process.yaml", ProcessStep);

/**
 * A summary of the six growth phases for the home page (the phase pages hold the detail).
 * The id is the phase ("phase-1"), which is also the page path and the key of the phase's
 * name in src/lib/options.ts GROWTH_PHASES.
 */
const growthPhasesSummary = entries(
  "marketing/growth-phases.yaml",
  z.object({
    /** One sentence on what the phase achieves. */
    summary: z.string(),
    /** Typical duration, e.g. "3-6 months". */
    duration: z.string(),
    /** The phase's headline target, e.g. "$50K-100K revenue target". */
    target: z.string(),
  }),
);

/** Program results shown with the growth phases on the home page (500+ scaled, ...). */
const homeGrowthHighlights = list("marketing/growth-highlights.yaml", Figure);

/** The owner story told on the home page (and in short on phase 6). */
const successStories = entries(
  "marketing/success-stories.yaml",
  z.object({
    /** Block heading. */
    title: z.string(),
    /** Who the story is about. */
    owner: z.string(),
    /** The story in two or three sentences. */
    story: z.string(),
    /** The milestones, in order (start, year two, exit). */
    milestones: z.array(Figure).min(3),
    /** Figures that explain the valuation (gross margin, EBITDA multiple). */
    drivers: z.array(Figure).min(2),
    /** A line from the owner. */
    quote: z.string(),
  }),
);

/** Served states, four cities each. */
const servedStates = list(
  "marketing/states.yaml",
  z.object({
    /** State name. */
    name: z.string(),
    /** USPS abbreviation. */
    abbreviation: z.string().length(2),
    /** The four cities served. */
    cities: z.array(z.string()).length(4),
  }),
);

/** Customer and owner testimonials. */
const homeTestimonials = list(
  "marketing/testimonials.yaml",
  z.object({
    /** What they said. */
    quote: z.string(),
    /** Their name. */
    name: z.string(),
    /** City and state, or company. */
    detail: z.string(),
    /** Service or program they used. */
    service: z.string(),
    /** Stars, 1-5. */
    rating: z.number().int().min(1).max(5),
  }),
);

/** The AI features on the home page (the /ai-automation page has its own aiFeatures collection). */
const homeAiFeatures = list("marketing/ai-features.yaml", IconCard);

/** Demo figures for the home page's sample dashboard mock-up (illustrative, not live data). */
const dashboardSample = entries(
  "marketing/dashboard-sample.yaml",
  z.object({
    /** KPI tiles. */
    kpis: z
      .array(
        z.object({
          /** Label. */ label: z.string(),
          /** Figure. */ value: z.string(),
          /** Change vs last month. */ change: z.string(),
        }),
      )
      .length(4),
    /** Revenue by month for the bar chart. */
    revenue: z
      .array(
        z.object({
          /** Month abbreviation. */ month: z.string(),
          /** Revenue in $K. */ value: z.number().nonnegative(),
        }),
      )
      .min(4),
    /** Today's schedule rows. */
    schedule: z
      .array(
        z.object({
          /** Time slot. */ time: z.string(),
          /** Job. */ job: z.string(),
          /** Status. */ status: z.enum(["Done", "En route", "Booked", "Quoted"]),
        }),
      )
      .min(3),
  }),
);

/**
 * Names are prefixed (home*, servedStates) where a generic name could collide with another
 * area's collection: content.config.ts merges the areas with object spread, so a clash would
 * silently replace one collection with the other.
 */
export const homeCollections = {
  homeAudiences,
  homeProcess,
  growthPhasesSummary,
  homeGrowthHighlights,
  successStories,
  servedStates,
  homeTestimonials,
  homeAiFeatures,
  dashboardSample,
};
