/**
 * Content collections for the marketing pages (issue 6): the home page and the five service
 * pages. Each collection: a loader over files in content/marketing/ and a zod schema with a
 * JSDoc line per field. Merged in src/content.config.ts; pages read them with
 * getCollection/getEntry.
 *
 * Prices that equal the quote table (src/lib/estimate.ts BASE_RANGES) are not retyped here:
 * a service's `typicalPrice.quoteTable` names the row and the page formats it, so the card,
 * the service page and the quote dialog cannot drift apart.
 */
import { defineCollection } from "astro:content";
import { file, glob } from "astro/loaders";
import { z } from "astro/zod";
import { BASE_RANGES, type ServiceType } from "../estimate.ts";
import { ICON_PATHS, type IconName } from "../icons.ts";
import { SERVICE_TYPES, optionValues } from "../options.ts";

const BASE = "./content/marketing";

/** Pages a service card or a related-service link can point to. */
export const SERVICE_SLUGS = ["tree-trimming", "tree-removal", "tree-pruning", "stump-grinding", "emergency"] as const;
export type ServiceSlug = (typeof SERVICE_SLUGS)[number];

const icon = z.enum(Object.keys(ICON_PATHS) as [IconName, ...IconName[]]);
const serviceType = z.enum(optionValues(SERVICE_TYPES));
/** "$200-400", "$1,500-4,000+", "$600+", "+$50-100": a displayed price, kept verbatim. */
const priceText = z.string().regex(/^\+?\$\d{1,3}(,\d{3})*(-\d{1,3}(,\d{3})*)?\+?$/, "price like $200-400, $600+ or +$50-100");

/** Display position: getCollection() does not return entries in file order, so lists say theirs. */
const order = z.number().int().positive();

/** A titled card with an icon (benefits, when-to-call cases, fleet, AI features). */
const iconCard = z.object({
  /** Card heading (h3). */
  title: z.string(),
  /** One or two sentences under the heading. */
  text: z.string(),
  /** Icon name from src/lib/icons.ts. */
  icon,
});

/** One step of a process (spec: step, title, description, icon, time); the step number is its position. */
const processStep = z.object({
  /** Step heading. */
  title: z.string(),
  /** What happens in this step. */
  description: z.string(),
  /** Icon name from src/lib/icons.ts. */
  icon,
  /** How long the step takes or when it happens, e.g. "Same day", "0-30 min". */
  time: z.string(),
});

/** A question and its answer (rendered by Faq.astro, which also emits FAQPage JSON-LD). */
const faqItem = z.object({
  /** The question as a visitor would ask it. */
  question: z.string(),
  /** A complete, self-contained answer (plain text). */
  answer: z.string(),
});

/** A short label and a figure, shown as a stat tile. */
const fact = z.object({
  /** What the figure measures, e.g. "Typical job time". */
  label: z.string(),
  /** The figure, verbatim, e.g. "2-4 hrs". */
  value: z.string(),
});

/** How a service card shows the service (home page cards, related-service links). */
const serviceCard = z.object({
  /** Card title, e.g. "Tree Trimming". */
  title: z.string(),
  /** One sentence on what the service is for. */
  summary: z.string(),
  /** Icon name from src/lib/icons.ts. */
  icon,
});

/** A service page: /services/{id}. The id is the file name (tree-trimming.yaml). */
const services = defineCollection({
  loader: glob({ pattern: "*.yaml", base: `${BASE}/services` }),
  schema: z.object({
    /** The page's h1 and breadcrumb name, e.g. "Tree Trimming". */
    title: z.string(),
    /** Document title (the brand is appended by the layout). */
    metaTitle: z.string(),
    /** Meta description, 120-160 characters. */
    metaDescription: z.string().min(80).max(170),
    /** Small label above the h1. */
    eyebrow: z.string(),
    /** Hero paragraph. */
    lead: z.string(),
    /** Quote-form service preselected by this page's estimate buttons (the quote form only knows four). */
    quoteServiceType: serviceType,
    /** Card shown on the home page and in other pages' related services. */
    card: serviceCard,
    /** The typical price: a row of the quote table, or an explicit range for services it does not price. */
    typicalPrice: z.union([
      z.object({
        /** Quote-table row whose base range is this service's typical price. */
        quoteTable: serviceType,
      }),
      z.object({
        /** Lower bound in dollars. */
        min: z.number().int().positive(),
        /** Upper bound in dollars. */
        max: z.number().int().positive(),
      }),
    ]),
    /** Unit the typical price is quoted in, e.g. "per tree"; omitted for "per job". */
    priceUnit: z.string().optional(),
    /** Key figures shown in the hero and the pricing section. */
    facts: z.array(fact).min(2).max(4),
    /** Benefits section heading. */
    benefitsTitle: z.string(),
    /** Why this service is worth doing (3-6 cards). */
    benefits: z.array(iconCard).min(3).max(6),
    /** How a job runs, in order. */
    process: z.array(processStep).min(3).max(6),
    /** Pricing section. */
    pricing: z.object({
      /** Intro paragraph above the table. */
      intro: z.string(),
      /** Header of the first column, e.g. "Tree height". */
      sizeLabel: z.string(),
      /** Price rows by size. */
      rows: z
        .array(
          z.object({
            /** Size band, e.g. "Under 20 ft". */
            size: z.string(),
            /** Price for the band, verbatim. */
            price: priceText,
            /** What is typical for this band. */
            note: z.string(),
          }),
        )
        .min(2),
      /** Optional extras priced separately (stump grinding). */
      addOns: z
        .array(
          z.object({
            /** What the extra is. */
            label: z.string(),
            /** Its price, e.g. "+$50-100". */
            price: priceText,
          }),
        )
        .optional(),
      /** What moves the price, and what every quote includes. */
      notes: z.array(z.string()).min(1),
    }),
    /** FAQ entries (FAQPage JSON-LD is built from them). */
    faqs: z.array(faqItem).min(4),
    /** Closing call to action. */
    cta: z.object({
      /** CTA heading (h2). */
      title: z.string(),
      /** One line under it. */
      text: z.string(),
    }),
    /** Related service pages, in display order. */
    related: z.array(z.enum(SERVICE_SLUGS)).min(2).max(4),
  }),
});

/** The emergency page's content: one entry (id "emergency"). */
const emergency = defineCollection({
  loader: glob({ pattern: "emergency.yaml", base: BASE }),
  schema: z.object({
    /** Document title. */
    metaTitle: z.string(),
    /** Meta description, 120-160 characters. */
    metaDescription: z.string().min(80).max(170),
    /** The h1. */
    title: z.string(),
    /** Hero paragraph. */
    lead: z.string(),
    /** Card shown on the home page and in related services. */
    card: serviceCard,
    /** Trust badges under the hero buttons (24/7 response, insurance, licensed crews). */
    trustBadges: z.array(z.object({ /** Badge text. */ label: z.string(), /** Icon name. */ icon })).length(3),
    /** Service-level figures (dispatch, on site, days a year, insurance). */
    facts: z.array(fact).min(3).max(4),
    /** The six 'When to Call' situations. */
    whenToCall: z.array(iconCard).length(6),
    /** The response process: four steps, each with its time band. */
    response: z.array(processStep).length(4),
    /** Equipment fleet (mobile units, lighting, crane). */
    fleet: z.array(iconCard).min(3),
    /** Storm preparedness in three stages. */
    storm: z
      .array(
        z.object({
          /** Stage name: Pre-Storm, During the Storm, Post-Storm. */
          stage: z.string(),
          /** One-line intro. */
          intro: z.string(),
          /** Checklist items. */
          items: z.array(z.string()).min(3),
        }),
      )
      .length(3),
    /** Hotline banner. */
    hotline: z.object({
      /** Banner heading (h2). */
      title: z.string(),
      /** One line under it. */
      text: z.string(),
    }),
    /** Six FAQ entries. */
    faqs: z.array(faqItem).length(6),
    /** Links to the other services (removal, trimming, stump grinding). */
    related: z.array(z.enum(SERVICE_SLUGS)).min(3),
  }),
});

/** The three audience cards in the home hero. */
const homeAudiences = defineCollection({
  loader: file(`${BASE}/audiences.yaml`),
  schema: z.object({
    /** Display position (1 = first). */
    order,
    /** Card title (h2 of the hero's card list). */
    title: z.string(),
    /** One sentence for that audience. */
    text: z.string(),
    /** Internal path the card links to. */
    href: z.string().startsWith("/"),
    /** Icon name. */
    icon,
  }),
});

/** The home page's 4-step process (request quote, schedule service, expert service, complete cleanup). */
const homeProcess = defineCollection({
  loader: file(`${BASE}/home-process.yaml`),
  schema: processStep.extend({
    /** Step number (display position). */
    order,
  }),
});

/**
 * A summary of the six growth phases for the home page (the phase pages hold the detail).
 * The id is the phase ("phase-1"), which is also the page path and the key of the phase's
 * name in src/lib/options.ts GROWTH_PHASES.
 */
const growthPhasesSummary = defineCollection({
  loader: file(`${BASE}/growth-phases.yaml`),
  schema: z.object({
    /** One sentence on what the phase achieves. */
    summary: z.string(),
    /** Typical duration, e.g. "3-6 months". */
    duration: z.string(),
    /** The phase's headline target, e.g. "$50K-100K revenue target". */
    target: z.string(),
  }),
});

/** Programme results shown with the growth phases on the home page (500+ scaled, ...). */
const homeGrowthHighlights = defineCollection({
  loader: file(`${BASE}/growth-highlights.yaml`),
  schema: fact.extend({
    /** Display position (1 = first). */
    order,
  }),
});

/** The owner story told on the home page (and in short on phase 6). */
const successStories = defineCollection({
  loader: file(`${BASE}/success-stories.yaml`),
  schema: z.object({
    /** Block heading. */
    title: z.string(),
    /** Who the story is about. */
    owner: z.string(),
    /** The story in two or three sentences. */
    story: z.string(),
    /** The milestones, in order (start, year two, exit). */
    milestones: z.array(fact).min(3),
    /** Figures that explain the valuation (gross margin, EBITDA multiple). */
    drivers: z.array(fact).min(2),
    /** A line from the owner. */
    quote: z.string(),
  }),
});

/** Served states, four cities each. */
const servedStates = defineCollection({
  loader: file(`${BASE}/states.yaml`),
  schema: z.object({
    /** Display position (1 = first). */
    order,
    /** State name. */
    name: z.string(),
    /** USPS abbreviation. */
    abbreviation: z.string().length(2),
    /** The four cities served. */
    cities: z.array(z.string()).length(4),
  }),
});

/** Customer and owner testimonials. */
const homeTestimonials = defineCollection({
  loader: file(`${BASE}/testimonials.yaml`),
  schema: z.object({
    /** Display position (1 = first). */
    order,
    /** What they said. */
    quote: z.string(),
    /** Their name. */
    name: z.string(),
    /** City and state, or company. */
    detail: z.string(),
    /** Service or programme they used. */
    service: z.string(),
    /** Stars, 1-5. */
    rating: z.number().int().min(1).max(5),
  }),
});

/** The AI features on the home page (the /ai-automation page has its own aiFeatures collection). */
const homeAiFeatures = defineCollection({
  loader: file(`${BASE}/ai-features.yaml`),
  schema: iconCard.extend({
    /** Display position (1 = first). */
    order,
  }),
});

/** Demo figures for the home page's sample dashboard mock-up (illustrative, not live data). */
const dashboardSample = defineCollection({
  loader: file(`${BASE}/dashboard-sample.yaml`),
  schema: z.object({
    /** KPI tiles. */
    kpis: z.array(z.object({ /** Label. */ label: z.string(), /** Figure. */ value: z.string(), /** Change vs last month. */ change: z.string() })).length(4),
    /** Revenue by month for the bar chart. */
    revenue: z.array(z.object({ /** Month abbreviation. */ month: z.string(), /** Revenue in $K. */ value: z.number().nonnegative() })).min(4),
    /** Today's schedule rows. */
    schedule: z.array(z.object({ /** Time slot. */ time: z.string(), /** Job. */ job: z.string(), /** Status. */ status: z.enum(["Done", "En route", "Booked", "Quoted"]) })).min(3),
  }),
});

/**
 * Names are prefixed (home*, servedStates) where a generic name could collide with another
 * area's collection: content.config.ts merges the areas with object spread, so a clash would
 * silently replace one collection with the other.
 */
export const marketingCollections = {
  services,
  emergency,
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

/** Entries in their declared display order. */
export function ordered<T extends { data: { order: number } }>(entries: readonly T[]): T[] {
  return [...entries].sort((a, b) => a.data.order - b.data.order);
}

/** "$200-800", "$1,500-4,000": the site's compact range style. */
export function compactRange(min: number, max: number): string {
  const n = (v: number) => v.toLocaleString("en-US");
  return `$${n(min)}-${n(max)}`;
}

/** A service's typical price range, read from the quote table when the entry points there. */
export function typicalPrice(price: { quoteTable: ServiceType } | { min: number; max: number }): string {
  if ("quoteTable" in price) {
    const [min, max] = BASE_RANGES[price.quoteTable];
    return compactRange(min, max);
  }
  return compactRange(price.min, price.max);
}

/** Path of a service page. */
export const servicePath = (slug: ServiceSlug) => `/services/${slug}`;
