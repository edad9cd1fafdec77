/**
 * The instant estimate. The quote dialog shows it, the quote function
 * recomputes and stores its own figure, and the chat assistant quotes it: one table.
 */
import type { SERVICE_TYPES, URGENCY } from "./options.ts";

export type ServiceType = (typeof SERVICE_TYPES)[number]["value"];
export type Urgency = (typeof URGENCY)[number]["value"];

/** Base price range in dollars by service. */
export const BASE_RANGES: Record<ServiceType, readonly [min: number, max: number]> = {
  "tree-trimming": [200, 800],
  "tree-removal": [500, 2500],
  "stump-grinding": [150, 500],
  emergency: [300, 1200],
};

/** Range used when the service is not one of the four priced services. */
export const UNKNOWN_SERVICE_RANGE = [200, 1500] as const;

/** Multiplier applied to both bounds by urgency (unknown urgency: 1). */
export const URGENCY_MULTIPLIERS: Record<Urgency, number> = {
  "not-urgent": 1,
  "within-week": 1.1,
  "within-days": 1.3,
  emergency: 1.8,
};

export interface Estimate {
  /** Lower bound in whole dollars. */
  min: number;
  /** Upper bound in whole dollars. */
  max: number;
  /** Display form, e.g. "$900 - $4,500". */
  text: string;
}

const dollars = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 0 });

/** Whole dollars as the site writes them, e.g. "$1,000,000". */
export const formatDollars = (n: number): string => dollars.format(n);

/**
 * The site's one price-range format. "spaced" ("$900 - $4,500") is the estimate's form: the
 * quote dialog, stored leads, notifications, the assistant and the consumer price guide.
 * "compact" ("$200-800", "$1,500-4,000") is how the marketing pages write their figures.
 */
export function formatRange(min: number, max: number, style: "spaced" | "compact" = "spaced"): string {
  if (style === "compact") return `${dollars.format(min)}-${dollars.format(max).slice(1)}`;
  return `${dollars.format(min)} - ${dollars.format(max)}`;
}

function own<T extends object>(table: T, key: string): key is Extract<keyof T, string> {
  return Object.prototype.hasOwnProperty.call(table, key);
}

/** Estimated price range for a service and urgency; each bound is multiplied, then rounded. */
export function estimate(serviceType: string, urgency: string): Estimate {
  if (!own(BASE_RANGES, serviceType)) {
    const [min, max] = UNKNOWN_SERVICE_RANGE;
    return { min, max, text: formatRange(min, max) };
  }
  const [baseMin, baseMax] = BASE_RANGES[serviceType];
  const factor = own(URGENCY_MULTIPLIERS, urgency) ? URGENCY_MULTIPLIERS[urgency] : 1;
  const min = Math.round(baseMin * factor);
  const max = Math.round(baseMax * factor);
  return { min, max, text: formatRange(min, max) };
}
