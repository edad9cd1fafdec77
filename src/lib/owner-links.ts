/**
 * The public ways into the owners' area: the links on every business page and in the footer.
 * Apart from src/lib/owners/forms.ts (which carries zod) so a page that only links here loads
 * nothing.
 */

/** On every business page, near its end. */
export const CLAIM_LINK_LABEL = "Own this business? Claim it";
export const CLAIM_LINK_HINT = "to correct its details, add photos, answer leads and reply to reviews.";
export const claimPath = (slug: string) => `/owner/claim/${encodeURIComponent(slug)}`;

/** In the footer and on /directory: a business that is not listed yet. */
export const ADD_BUSINESS_LABEL = "Add your business";
export const ADD_BUSINESS_PATH = "/owner/add";
