/**
 * Presentation rules for directory businesses shared by the list cards, the detail page,
 * its JSON-LD and the server-rendered fallbacks.
 */
import { WEEKDAYS, type Weekday } from "./options.ts";
import type { Business } from "./schemas/business.ts";

/** Filled stars are the floor of the rating (spec: "filled stars = floor of rating"). */
export function filledStars(rating: string | number): number {
  const n = Math.floor(Number(rating));
  return Number.isFinite(n) ? Math.min(5, Math.max(0, n)) : 0;
}

export const STAR_COUNT = 5;

export function ratingLabel(rating: string | number): string {
  return `Rated ${Number(rating).toFixed(1)} out of 5`;
}

/** What a business with no reviews shows instead of a "0.0" and five empty stars. */
export const NO_REVIEWS_YET = "No reviews yet";

export function reviewCountText(count: number): string {
  return `${count} ${count === 1 ? "review" : "reviews"}`;
}

export function dayLabel(day: Weekday): string {
  return day[0]!.toUpperCase() + day.slice(1);
}

/** Monday..Sunday with 'Closed' for a day without hours. */
export function hoursRows(hours: Business["businessHours"]): { day: Weekday; label: string; hours: string }[] {
  return WEEKDAYS.map((day) => ({ day, label: dayLabel(day), hours: hours[day]?.trim() || "Closed" }));
}

/**
 * Google Maps directions to a business (opens the app on phones): its street address with
 * town, state and ZIP when it has one, else its point, else its town.
 */
export function directionsUrl(
  b: Pick<Business, "address" | "city" | "state" | "zipCode" | "location" | "locality">,
): string {
  const town = `${b.locality ?? b.city}, ${b.state} ${b.zipCode}`.trim();
  const destination = b.address?.trim()
    ? `${b.address.trim()}, ${town}`
    : b.location
      ? `${b.location.lat},${b.location.lng}`
      : town;
  return `https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent(destination)}`;
}

/** "https://www.example.com/path" -> "www.example.com/path" for display. */
export function displayUrl(url: string): string {
  return url.replace(/^https?:\/\//i, "").replace(/\/$/, "");
}

/** Review dates in the visitor's locale, fixed to US English at build time for stable HTML. */
export function formatReviewDate(iso: string, locale = "en-US"): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? ""
    : date.toLocaleDateString(locale, { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });
}

/**
 * A business page; from a near-me search it carries the place (`?near=78664`), and the page
 * says how far the business is from it.
 */
export const businessPath = (slug: string, near?: string) =>
  `/directory/${slug}${near?.trim() ? `?${new URLSearchParams({ near: near.trim() })}` : ""}`;

/** The API's 404 for a booking or review of a business id the directory does not have. */
export const BUSINESS_NOT_FOUND = "Business not found";

/** The profile of a business the directory does not have. */
export const NOT_FOUND = {
  title: "Business Not Found",
  text: "The business you're looking for doesn't exist or has been removed.",
  link: "Browse Directory",
} as const;
