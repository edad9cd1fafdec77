/**
 * Choice lists shared by forms, functions and schemas. Values are what goes over the wire and
 * into storage; labels are what people read. Order is display order.
 */

/** One selectable choice. */
export interface Option<V extends string = string> {
  /** Stable machine value sent to the API. */
  readonly value: V;
  /** Human label shown in the UI. */
  readonly label: string;
}

/** The values of an option list as a tuple, so zod can build an enum from it. */
export function optionValues<const T extends readonly Option[]>(
  options: T,
): { -readonly [K in keyof T]: T[K]["value"] } {
  return options.map((o) => o.value) as { -readonly [K in keyof T]: T[K]["value"] };
}

/** Label for a value, or the value itself when it is not in the list (old data stays readable). */
export function optionLabel(options: readonly Option[], value: string): string {
  return options.find((o) => o.value === value)?.label ?? value;
}

/**
 * A business's opening-hours days, Monday first. Here and not beside the schema: the
 * islands and page scripts that read hours must not pull zod in with it.
 */
export const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** Cities the directory covers. The label is also the stored Business.city. */
export const CITIES = [
  { value: "austin", label: "Austin", state: "TX" },
  { value: "houston", label: "Houston", state: "TX" },
  { value: "dallas", label: "Dallas", state: "TX" },
  { value: "san-antonio", label: "San Antonio", state: "TX" },
] as const;

export type City = (typeof CITIES)[number];
export type CityName = City["label"];

/** The directory's filter cities' names (the /directory city filter). */
export const CITY_NAMES = CITIES.map((c) => c.label) as unknown as readonly [CityName, ...CityName[]];

/**
 * Metro areas a stored business may be in (Business.city): the filter cities first, in the
 * same order (their index is the store's city band, so Texas keeps its ranks), then the other
 * cities the home page serves (content/marketing/states.yaml). Only CITIES are offered as a
 * filter; a business elsewhere is found with "near" and "All Cities".
 */
export const METROS = [
  ...CITIES.map((c) => ({ label: c.label, state: c.state, timeZone: "America/Chicago" })),
  { label: "Miami", state: "FL", timeZone: "America/New_York" },
  { label: "Orlando", state: "FL", timeZone: "America/New_York" },
  { label: "Tampa", state: "FL", timeZone: "America/New_York" },
  { label: "Jacksonville", state: "FL", timeZone: "America/New_York" },
  { label: "Los Angeles", state: "CA", timeZone: "America/Los_Angeles" },
  { label: "San Diego", state: "CA", timeZone: "America/Los_Angeles" },
  { label: "Sacramento", state: "CA", timeZone: "America/Los_Angeles" },
  { label: "San Jose", state: "CA", timeZone: "America/Los_Angeles" },
  { label: "New York City", state: "NY", timeZone: "America/New_York" },
  { label: "Buffalo", state: "NY", timeZone: "America/New_York" },
  { label: "Rochester", state: "NY", timeZone: "America/New_York" },
  { label: "Albany", state: "NY", timeZone: "America/New_York" },
  { label: "Chicago", state: "IL", timeZone: "America/Chicago" },
  { label: "Naperville", state: "IL", timeZone: "America/Chicago" },
  { label: "Springfield", state: "IL", timeZone: "America/Chicago" },
  { label: "Peoria", state: "IL", timeZone: "America/Chicago" },
] as const;

export type Metro = (typeof METROS)[number];
export type MetroName = CityName | Exclude<Metro["label"], CityName>;

/** The states the metros are in, by code, in the order the home page names them. */
export const STATE_NAMES: Readonly<Record<Metro["state"], string>> = {
  TX: "Texas",
  FL: "Florida",
  CA: "California",
  NY: "New York",
  IL: "Illinois",
};

/** "20 cities across Texas, Florida, California, New York and Illinois": what the directory covers. */
export function directoryCoverage(): string {
  const names = Object.values(STATE_NAMES);
  return `${METROS.length} cities across ${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/** Stored metro names (Business.city), e.g. for z.enum. */
export const METRO_NAMES = METROS.map((m) => m.label) as unknown as readonly [MetroName, ...MetroName[]];

/** Accepts a city value ("san-antonio") or label ("San Antonio"), any case. */
export function findCity(input: string | null | undefined): City | undefined {
  const needle = (input ?? "").trim().toLowerCase();
  if (!needle) return undefined;
  return CITIES.find((c) => c.value === needle || c.label.toLowerCase() === needle);
}

/** Quote form service (drives the estimate). */
export const SERVICE_TYPES = [
  { value: "tree-trimming", label: "Tree Trimming" },
  { value: "tree-removal", label: "Tree Removal" },
  { value: "stump-grinding", label: "Stump Grinding" },
  { value: "emergency", label: "Emergency Service" },
] as const;

/** Quote form urgency. */
export const URGENCY = [
  { value: "not-urgent", label: "Not urgent" },
  { value: "within-week", label: "Within a week" },
  { value: "within-days", label: "Within a few days" },
  { value: "emergency", label: "Emergency (ASAP)" },
] as const;

/** Audit form: annual revenue. */
export const CURRENT_REVENUE = [
  { value: "under-50k", label: "Under $50K" },
  { value: "50k-100k", label: "$50K - $100K" },
  { value: "100k-250k", label: "$100K - $250K" },
  { value: "250k-500k", label: "$250K - $500K" },
  { value: "500k-1m", label: "$500K - $1M" },
  { value: "over-1m", label: "Over $1M" },
] as const;

/** Audit form: years in business. */
export const YEARS_IN_BUSINESS = [
  { value: "less-than-1", label: "Less than 1 year" },
  { value: "1-3", label: "1-3 years" },
  { value: "3-5", label: "3-5 years" },
  { value: "5-10", label: "5-10 years" },
  { value: "over-10", label: "Over 10 years" },
] as const;

/** Audit form: team size. */
export const EMPLOYEE_COUNT = [
  { value: "just-me", label: "Just me" },
  { value: "2-5", label: "2-5 employees" },
  { value: "6-10", label: "6-10 employees" },
  { value: "11-25", label: "11-25 employees" },
  { value: "over-25", label: "Over 25 employees" },
] as const;

// The spec sends challenges and goals as "list of text", so value and label are the same text.
const textOptions = <const T extends readonly string[]>(texts: T) =>
  texts.map((t) => ({ value: t, label: t })) as unknown as { readonly [K in keyof T]: Option<T[K]> };

/** Audit form: current challenges (pick at least one). */
export const CHALLENGES = textOptions([
  "Finding qualified leads",
  "Pricing jobs profitably",
  "Managing admin/paperwork",
  "Scheduling and routing",
  "Customer communication",
  "Collecting payments",
  "Tracking finances",
  "Hiring/managing crew",
  "Equipment management",
  "Seasonal cash flow",
]);

/** Audit form: growth goals (pick at least one). */
export const GOALS = textOptions([
  "Double revenue in 12 months",
  "Reduce admin time by 80%",
  "Automate customer communication",
  "Improve profit margins",
  "Scale to multiple crews",
  "Open second location",
  "Prepare for business sale",
  "Better work-life balance",
  "Professional financials/books",
  "Exit strategy planning",
]);

/** Booking dialog urgency (default normal). */
export const BOOKING_URGENCY = [
  { value: "normal", label: "Normal" },
  { value: "urgent", label: "Urgent" },
  { value: "emergency", label: "Emergency" },
] as const;

/** Find-a-tree-service: the services homeowners can ask pros for (also the directory's service names). */
export const PRO_SERVICES = textOptions([
  "Tree Removal",
  "Tree Trimming",
  "Stump Grinding",
  "Emergency Service",
  "Tree Pruning",
  "Lot Clearing",
  "Storm Cleanup",
  "Tree Health Assessment",
]);

/** A directory service's name (PRO_SERVICES). */
export type ProService = (typeof PRO_SERVICES)[number]["value"];

/** The directory service a quote's service asks for: a quote is offered to nearby businesses offering it. */
export const QUOTE_PRO_SERVICES: Readonly<Record<(typeof SERVICE_TYPES)[number]["value"], ProService>> = {
  "tree-trimming": "Tree Trimming",
  "tree-removal": "Tree Removal",
  "stump-grinding": "Stump Grinding",
  emergency: "Emergency Service",
};

/** The directory service for a quote's service value; undefined for text outside SERVICE_TYPES. */
export function quoteProService(serviceType: string): ProService | undefined {
  return Object.hasOwn(QUOTE_PRO_SERVICES, serviceType)
    ? QUOTE_PRO_SERVICES[serviceType as keyof typeof QUOTE_PRO_SERVICES]
    : undefined;
}

/** Find-a-tree-service: property types. */
export const PROPERTY_TYPES = [
  { value: "residential", label: "Residential Home" },
  { value: "commercial", label: "Commercial Property" },
  { value: "apartment-condo", label: "Apartment/Condo" },
  { value: "vacant-land", label: "Vacant Land" },
] as const;

/** Find-a-tree-service: how soon the work is needed. */
export const TIMELINES = [
  { value: "emergency", label: "Emergency (ASAP)" },
  { value: "within-week", label: "Within 1 week" },
  { value: "within-month", label: "Within 1 month" },
  { value: "flexible", label: "Flexible timing" },
] as const;

/** Growth phases an assessment can be requested from. */
export const GROWTH_PHASES = [
  { value: "phase-1", label: "Phase 1: Part-Time to Full-Time" },
  { value: "phase-2", label: "Phase 2: Lead Generation and Pricing" },
  { value: "phase-3", label: "Phase 3: Scaling With Automation" },
  { value: "phase-4", label: "Phase 4: Profitability and Valuation Prep" },
  { value: "phase-5", label: "Phase 5: Multi-Location Expansion" },
  { value: "phase-6", label: "Phase 6: Private-Equity Exit" },
] as const;

/** A phase's name without its number: "phase-1" -> "Part-Time to Full-Time". */
export function phaseName(phase: string): string {
  return optionLabel(GROWTH_PHASES, phase).replace(/^Phase \d+:\s*/, "");
}
