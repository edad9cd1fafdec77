/**
 * The forms a lead comes from. The lead's schema (schemas/lead.ts) and the rules that read
 * a lead's type (lead-urgency.ts) both start here, so neither imports the other for it.
 */

export const LEAD_TYPES = ["quote", "audit", "assessment", "find-pros", "booking"] as const;
export type LeadType = (typeof LEAD_TYPES)[number];
