/** The older free text about a license and insurance, and how the pages label and retire it. */
import type { Credentials } from "../schemas/credentials.ts";

/**
 * The operator's older free text (`licenseNumber`, `insuranceDetails`): the business's own
 * words, checked by nobody. A kind the business now states in the structured form (checked or
 * not) never shows its old text: the owner replaced it, and the two must not sit side by side.
 */
export function statedText(b: { licenseNumber?: string; insuranceDetails?: string; credentials?: Credentials }): {
  licence?: string;
  insurance?: string;
} {
  return {
    ...(b.licenseNumber && !b.credentials?.licence ? { licence: b.licenseNumber } : {}),
    ...(b.insuranceDetails && !b.credentials?.insurance ? { insurance: b.insuranceDetails } : {}),
  };
}

/** The labels of the old free text, on the public page and the owner's. */
export const STATED_LABELS = {
  heading: "As stated by the business",
  licence: "License",
  insurance: "Insurance",
} as const;

/** How /owner/credentials introduces the operator's old free text. */
export const OLD_TEXT_LEAD = "As stated on your page:";
/** Why the old text is there and how it goes. */
export const oldTextNote = (kind: string) =>
  `Not checked by Treeline. Saving your ${kind} below replaces this text on your page.`;
/** The checkbox that takes the old text off the page without stating anything in its place. */
export const removeOldTextLabel = (kind: string) => `Take the old ${kind} text off my page`;
