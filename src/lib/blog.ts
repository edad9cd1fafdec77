/**
 * Blog domain helpers shared by the pages, components and tests: the fixed stage and
 * category lists, the stage badge colors, the display date and the listing order. No Astro
 * imports, so unit tests can load it.
 */

/** Business stages an article is written for. */
export const BLOG_STAGES = ["Startup", "Growth Stage", "Established", "Mature Business"] as const;
export type BlogStage = (typeof BLOG_STAGES)[number];

/** Article categories. */
export const BLOG_CATEGORIES = [
  "Business Growth",
  "Startup Guide",
  "Pricing & Profit",
  "Marketing & Sales",
  "Legal & Insurance",
  "Financial Management",
  "Team Building",
  "Technology",
  "Exit Planning",
  "Service Expansion",
] as const;
export type BlogCategory = (typeof BLOG_CATEGORIES)[number];

/**
 * Stage badge colors. Full static class strings (never assembled from parts) so Tailwind's
 * scanner finds them; each pair is AA contrast (the 800 shade on the 100 tint is above 7:1).
 */
export const STAGE_BADGE_CLASSES: Readonly<Record<BlogStage, string>> = {
  Startup: "bg-blue-100 text-blue-800",
  "Growth Stage": "bg-green-100 text-green-800",
  Established: "bg-purple-100 text-purple-800",
  "Mature Business": "bg-orange-100 text-orange-800",
};

/** Any stage outside the list (a typo, a future stage) falls back to neutral gray. */
export const UNKNOWN_STAGE_BADGE_CLASS = "bg-gray-100 text-gray-800";

/** Category badges share one neutral brand color: the stage is the color-coded signal. */
export const CATEGORY_BADGE_CLASS = "bg-forest-100 text-forest-800";

export function stageBadgeClass(stage: string): string {
  return Object.hasOwn(STAGE_BADGE_CLASSES, stage)
    ? STAGE_BADGE_CLASSES[stage as BlogStage]
    : UNKNOWN_STAGE_BADGE_CLASS;
}

const DISPLAY_DATE = new Intl.DateTimeFormat("en-US", {
  year: "numeric",
  month: "long",
  day: "numeric",
  timeZone: "UTC",
});

/**
 * "2024-12-12" -> "December 12, 2024". The ISO date is read as a calendar day (UTC), so the
 * shown day never shifts with the build machine's time zone.
 */
export function formatArticleDate(isoDate: string): string {
  const date = new Date(`${isoDate.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) throw new RangeError(`Not an ISO date: ${isoDate}`);
  return DISPLAY_DATE.format(date);
}

/** The fields the listing order needs. */
export interface Sortable {
  id: string;
  data: { featured: boolean; date: string };
}

/** Listing order: the featured article first, then newest first; ties by id for a stable build. */
export function sortArticles<T extends Sortable>(entries: readonly T[]): T[] {
  return [...entries].sort(
    (a, b) =>
      Number(b.data.featured) - Number(a.data.featured) ||
      b.data.date.localeCompare(a.data.date) ||
      a.id.localeCompare(b.id),
  );
}

/** Site path of an article. */
export function articlePath(id: string): string {
  return `/blog/${id}`;
}
