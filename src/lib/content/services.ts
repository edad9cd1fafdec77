/**
 * Content collections for the service pages: /services/{slug} for the four priced
 * services and /services/emergency. Each collection: a loader over files in content/marketing/
 * and a zod schema built from the shared shapes in ./shapes.ts. Merged in src/content.config.ts.
 *
 * Every typical price shown for a service (its page, its card, the consumer price guide) comes
 * from TYPICAL_RANGES, which reads the quote table (src/lib/estimate.ts BASE_RANGES); service
 * prose quotes it with the `{price}` token, so the page, the card and the quote dialog cannot
 * drift apart.
 */
import { defineCollection } from "astro:content";
import { glob } from "astro/loaders";
import { z } from "astro/zod";
import { BASE_RANGES, formatRange } from "../estimate.ts";
import { PRUNING } from "../facts.ts";
import { SERVICE_TYPES, optionValues } from "../options.ts";
import { Cta, FaqItem, Figure, IconCard, ProcessStep, fillTokens, iconName as icon, withFacts } from "./shapes.ts";

const BASE = "./content/marketing";

/** Pages a service card or a related-service link can point to. */
export const SERVICE_SLUGS = ["tree-trimming", "tree-removal", "tree-pruning", "stump-grinding", "emergency"] as const;
export type ServiceSlug = (typeof SERVICE_SLUGS)[number];

/** Path of a service page. */
export const servicePath = (slug: ServiceSlug) => `/services/${slug}`;

/**
 * Typical price of each service page in dollars. The quote form's four services are its base
 * ranges; pruning, which the quote form does not price, has its one figure here.
 */
export const TYPICAL_RANGES: Record<ServiceSlug, readonly [min: number, max: number]> = {
  "tree-trimming": BASE_RANGES["tree-trimming"],
  "tree-removal": BASE_RANGES["tree-removal"],
  "tree-pruning": PRUNING.perTree,
  "stump-grinding": BASE_RANGES["stump-grinding"],
  emergency: BASE_RANGES.emergency,
};

/** A service's typical price as shown: compact on service pages and cards ("$200-800"). */
export function typicalPrice(slug: ServiceSlug, style: "spaced" | "compact" = "compact"): string {
  return formatRange(...TYPICAL_RANGES[slug], style);
}

/** A service entry's text with its `{price}` tokens filled in. */
export function withPrice<T>(slug: ServiceSlug, data: T): T {
  return fillTokens(data, { price: typicalPrice(slug) });
}

const serviceType = z.enum(optionValues(SERVICE_TYPES));
/** "$200-400", "$1,500-4,000+", "$600+", "+$50-100": a displayed price, kept verbatim. */
const priceText = z
  .string()
  .regex(/^\+?\$\d{1,3}(,\d{3})*(-\d{1,3}(,\d{3})*)?\+?$/, "price like $200-400, $600+ or +$50-100");

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
export const ServicePageSchema = z.object({
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
  /**
   * How the instant estimate prices this service, shown by its estimate buttons. Required when
   * the page's service is not a quote-form service (pruning is quoted as trimming), so the
   * dialog's range never reads as a contradiction of the page's own price.
   */
  estimateNote: z.string().optional(),
  /** Card shown on the home page and in other pages' related services. */
  card: serviceCard,
  /** Unit the typical price is quoted in, e.g. "per tree"; omitted for "per job". */
  priceUnit: z.string().optional(),
  /** Key figures shown in the hero and the pricing section. */
  facts: z.array(Figure).min(2).max(4),
  /** Benefits section heading. */
  benefitsTitle: z.string(),
  /** Why this service is worth doing (3-6 cards). */
  benefits: z.array(IconCard).min(3).max(6),
  /** How a job runs, in order. */
  process: z.array(ProcessStep).min(3).max(6),
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
  faqs: z.array(FaqItem).min(4),
  /** Closing call to action. */
  cta: Cta,
  /** Related service pages, in display order. */
  related: z.array(z.enum(SERVICE_SLUGS)).min(2).max(4),
});

const services = defineCollection({
  loader: glob({ pattern: "*.yaml", base: `${BASE}/services` }),
  schema: withFacts(ServicePageSchema),
});

/** The emergency page's content: one entry (id "emergency"). */
const emergency = defineCollection({
  loader: glob({ pattern: "emergency.yaml", base: BASE }),
  schema: withFacts(
    z.object({
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
      facts: z.array(Figure).min(3).max(4),
      /** The six 'When to Call' situations. */
      whenToCall: z.array(IconCard).length(6),
      /** The response process: four steps, each with its time band. */
      response: z.array(ProcessStep).length(4),
      /** Equipment fleet (mobile units, lighting, crane). */
      fleet: z.array(IconCard).min(3),
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
      hotline: Cta,
      /** Six FAQ entries. */
      faqs: z.array(FaqItem).length(6),
      /** Links to the other services (removal, trimming, stump grinding). */
      related: z.array(z.enum(SERVICE_SLUGS)).min(3),
    }),
  ),
});

export const serviceCollections = { services, emergency };
