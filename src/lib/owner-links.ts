/**
 * The owners' area's links: the public ways in (on every business page and in the footer) and
 * the signed-in owner's section menu. Apart from src/lib/owners/forms.ts (which carries zod) so a
 * page that only links here loads nothing.
 */

/** On every business page, near its end. */
export const CLAIM_LINK_LABEL = "Own this business? Claim it";
export const CLAIM_LINK_HINT = "to correct its details, add photos, answer leads and reply to reviews.";
export const claimPath = (slug: string) => `/owner/claim/${encodeURIComponent(slug)}`;

/** In the footer and on /directory: a business that is not listed yet. */
export const ADD_BUSINESS_LABEL = "Add your business";
export const ADD_BUSINESS_PATH = "/owner/add";

/** The signed-in owner's sections, in the order of their menu. */
export const OWNER_SECTIONS = [
  { path: "/owner", label: "Overview" },
  { path: "/owner/profile", label: "Profile & hours" },
  { path: "/owner/availability", label: "Availability" },
  { path: "/owner/photos", label: "Photos" },
  { path: "/owner/credentials", label: "License & insurance" },
  { path: "/owner/reviews", label: "Reviews" },
  { path: "/owner/webhooks", label: "Webhooks & Zapier" },
] as const;
export type OwnerSectionPath = (typeof OWNER_SECTIONS)[number]["path"];
