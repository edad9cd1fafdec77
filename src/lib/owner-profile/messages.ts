/**
 * The owner's profile form's limits and words (/owner/profile): its field messages, its
 * notices and its notes. Client-safe: the function shows these next to the fields.
 */

export const PROFILE_LIMITS = {
  description: 4000,
  services: 40,
  service: 80,
  serviceAreas: 60,
  serviceArea: 80,
  phone: 40,
  closedDates: 60,
  closedNote: 80,
} as const;

/** Empty rows for new closed days under the ones already listed. */
export const CLOSED_DATE_ROWS = 3;

export const PROFILE_MESSAGES = {
  description: `The description can be at most ${PROFILE_LIMITS.description} characters`,
  services: `Choose at most ${PROFILE_LIMITS.services} services, each at most ${PROFILE_LIMITS.service} characters`,
  serviceAreas: `List at most ${PROFILE_LIMITS.serviceAreas} areas, one per line, each at most ${PROFILE_LIMITS.serviceArea} characters`,
  website: "Enter a web address such as www.example.com or https://example.com (or leave it empty)",
  phone: "Enter a phone number with at least 10 digits (or leave it empty)",
  time: "Enter an opening and a closing time",
  sameTime: "The closing time must differ from the opening time",
  holidays: "Choose from the listed holidays",
  closedDate: "Enter a date as YYYY-MM-DD",
  closedNote: `A note can be at most ${PROFILE_LIMITS.closedNote} characters`,
  closedDates: `List at most ${PROFILE_LIMITS.closedDates} closed days`,
} as const;

/**
 * Beside the holiday ticks when holidays cannot close the listing (hours.ts: a business open
 * 24/7 or answering emergencies 24/7 shows open on every holiday), so an unticked box that
 * changes nothing on the page is not a mystery. The ticks are still stored for when that ends.
 */
export const HOLIDAYS_IGNORED = {
  emergency247:
    "Your listing answers emergencies around the clock, so your public page shows you open on every public holiday whatever you tick here. Your ticks are kept, and count only if your listing stops answering emergencies around the clock.",
  open247:
    "Your hours are 24 hours every day, so your public page shows you open on every public holiday whatever you tick here. Your ticks are kept, and count once you set other hours.",
} as const;

/** The profile was saved: the 303's notice. */
export const PROFILE_SAVED = "Saved. Your public page shows it now.";

/** A stored day with a break in it, as the form notes it (the form itself shows its first opening). */
export const splitDayNote = (text: string) =>
  `Stored with a break: ${text}. Leave the times as they are to keep it; changing them replaces it with one opening.`;
