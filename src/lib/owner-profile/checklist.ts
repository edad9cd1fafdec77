/** The owner overview's "Finish your listing": what a new listing still lacks. */
import { WEEKDAYS } from "../options.ts";
import type { Business } from "../schemas/business.ts";

/**
 * The owner overview's "Finish your listing" checklist: a newly approved business has no
 * description, hours or photos, and its public page then reads as closed every day. Each item
 * links to the field or page that fixes it.
 */
export const FINISH_LISTING = {
  heading: "Finish your listing",
  intro: "Your public page is missing these. Until you add them it can look empty or closed every day.",
  description: { text: "Add a description of your business", href: "/owner/profile#description" },
  hours: { text: "Set your opening hours", href: "/owner/profile#hours" },
  photos: { text: "Add photos of your work", href: "/owner/photos" },
} as const;

/** What the listing still lacks, in the checklist's order (empty = nothing to finish). */
export function unfinishedListing(
  b: Pick<Business, "description" | "businessHours" | "images" | "byAppointment">,
): { text: string; href: string }[] {
  const items: { text: string; href: string }[] = [];
  if (!b.description.trim()) items.push(FINISH_LISTING.description);
  // By appointment, no hours is what the owner said: nothing to finish.
  if (!b.byAppointment && WEEKDAYS.every((d) => !(b.businessHours[d] ?? "").trim())) items.push(FINISH_LISTING.hours);
  if (b.images.length === 0) items.push(FINISH_LISTING.photos);
  return items;
}
