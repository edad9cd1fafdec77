/**
 * The content shapes every collection is built from (figures, cards, steps, tables, quotes,
 * questions) and the helpers every area uses: `list` to declare an ordered list collection,
 * `inOrder` to read one, `fillTokens` to fill `{name}` tokens. The collection modules next to
 * this file (growth, resources, legal, services, home, blog) only combine them.
 */
import { defineCollection } from "astro:content";
import { file } from "astro/loaders";
import { z } from "astro/zod";
import { FACT_TOKENS } from "../facts.ts";
import { ICON_PATHS, type IconName } from "../icons.ts";

/**
 * Display position of an entry in a list collection. Astro's data store returns entries
 * sorted by id, so list order is explicit; read lists with `inOrder`.
 */
export const order = z.number().int().min(1);

/** The entries' data in display order (by their `order` field), each with its id. */
export function inOrder<T extends { id: string; data: { order: number } }>(
  entries: readonly T[],
): (T["data"] & { id: string })[] {
  return [...entries].sort((a, b) => a.data.order - b.data.order).map((e) => ({ id: e.id, ...e.data }));
}

/**
 * A content schema whose `{token}` placeholders are filled from the marketing facts
 * (src/lib/facts.ts FACT_TOKENS) before validation: YAML names a fact, never types it.
 * Unknown tokens (a service page's `{price}`) are left for the page to fill.
 */
export function withFacts<S extends z.ZodType>(schema: S) {
  return z.preprocess((data) => fillTokens(data, FACT_TOKENS), schema);
}

/** A collection of the entries of one YAML file under content/ (path relative to it), each with an `id`. */
export function entries<S extends z.ZodType>(path: string, schema: S) {
  return defineCollection({ loader: file(`./content/${path}`), schema: withFacts(schema) });
}

/** A list collection: the entries of one YAML file, each with its display `order` besides the fields of `schema`. */
export function list<S extends z.ZodObject>(path: string, schema: S) {
  return entries(path, schema.extend({ /** Display position in the list (1 = first). */ order }));
}

/** Name of an icon in src/lib/icons.ts. */
export const iconName = z.enum(Object.keys(ICON_PATHS) as [IconName, ...IconName[]]);

/** Anchor id: lower-case letters, digits and hyphens. */
export const anchorId = z.string().regex(/^[a-z0-9-]+$/);

/** One headline figure: the value people scan for and what it measures. */
export const Figure = z.object({
  /** The figure as displayed, verbatim from the specification ("25-35%", "$3.5M", "2-4 hrs"). */
  value: z.string().min(1),
  /** What the figure measures. */
  label: z.string().min(1),
  /** Optional one-line context under the label. */
  detail: z.string().optional(),
});
export type Figure = z.infer<typeof Figure>;

/** A card in a grid: a component, a service, a benefit, a feature. */
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

/** A card that must show an icon (benefits, when-to-call cases, fleet, AI features). */
export const IconCard = Card.required({ icon: true });

/** One step of a process (spec: step, title, description, icon, time); the step number is its position. */
export const ProcessStep = z.object({
  /** Step heading. */
  title: z.string().min(1),
  /** What happens in this step. */
  description: z.string().min(1),
  /** Icon from src/lib/icons.ts. */
  icon: iconName,
  /** How long the step takes or when it happens, e.g. "Same day", "0-30 min". */
  time: z.string().min(1),
});

/**
 * One timeline step. Exactly one of week, month or quarter names the period (phase 4 entries
 * have a month, phase 5 entries a quarter).
 */
export const timelineFields = {
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
/** The refinement every timeline entry schema applies. */
export const onePeriod = [
  (e: { week?: string; month?: string; quarter?: string }) => [e.week, e.month, e.quarter].filter(Boolean).length === 1,
  { message: "A timeline entry needs exactly one of week, month or quarter" },
] as const;
export const TimelineEntry = z.object(timelineFields).refine(...onePeriod);
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

/** A question and its answer (rendered by Faq.astro, which also emits FAQPage JSON-LD). */
export const FaqItem = z.object({
  /** The question as a visitor would ask it. */
  question: z.string().min(1),
  /** A complete, self-contained answer (plain text). */
  answer: z.string().min(1),
});

/** A page's closing call to action. */
export const Cta = z.object({
  /** Heading (h2). */
  title: z.string().min(1),
  /** One line under the heading. */
  text: z.string().min(1),
});

/**
 * Replaces `{name}` tokens in every string of a content value (deep), so prose can quote a
 * figure that lives once in code (a price, the phone number) instead of retyping it.
 */
export function fillTokens<T>(value: T, tokens: Readonly<Record<string, string>>): T {
  if (typeof value === "string")
    return value.replace(/\{(\w+)\}/g, (whole, name: string) => tokens[name] ?? whole) as T;
  if (Array.isArray(value)) return value.map((v) => fillTokens(v, tokens)) as T;
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillTokens(v, tokens)])) as T;
  }
  return value;
}
