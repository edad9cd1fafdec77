/**
 * The text a lead is found by in the operator's search (written with the lead into
 * `<prefix>leads:text`) and how a query matches it: case and accents ignored, phone numbers
 * compared by their digits.
 */
import { summarizeLead } from "../../../src/lib/lead-summary.ts";
import type { Lead } from "../../../src/lib/schemas/lead.ts";

/** Lower case, accents dropped: "José" and "jose" are the same name. */
export const foldText = (text: string) =>
  text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();

/** Digits of a phone number without a leading US country code. */
export function phoneDigits(text: string): string {
  const digits = text.replace(/\D/g, "");
  return digits.length === 11 && digits.startsWith("1") ? digits.slice(1) : digits;
}

/** Separates the parts of a search text, so a match cannot span two fields. */
const SEP = "\u001f";

/** The text a lead is found by: folded name and e-mail, and the phone's digits. */
export function leadSearchText(lead: Pick<Lead, "type" | "data">): string {
  const s = summarizeLead(lead);
  return [foldText(s.name), foldText(s.email ?? ""), phoneDigits(s.phone ?? "")].join(SEP);
}

/** Whether a search text (leadSearchText) matches the operator's query. */
export function matchesSearch(text: string, query: string): boolean {
  const q = foldText(query.trim());
  if (!q) return true;
  const [name = "", email = "", phone = ""] = text.split(SEP);
  // "(512) 555-0199", "+1 512 555 0199", "5550199": compare digits when the query is a number.
  if (/^[\d\s()+.-]+$/.test(q)) {
    const digits = phoneDigits(q);
    return digits.length >= 3 && phone.includes(digits);
  }
  return name.includes(q) || email.includes(q);
}
