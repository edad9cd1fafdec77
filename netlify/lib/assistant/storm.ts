/**
 * The assistant's storm context: when the visitor has named a ZIP inside an active storm, the
 * estimate it gives (the built-in assistant's and Claude's estimate_quote tool alike) carries
 * the same storm line the quote form shows: the pre-storm range, no storm surcharge, the
 * state's price rule (src/lib/storm.ts stormPricing). Read once per chat request.
 */
import type { ChatMessage } from "../../../src/lib/chat.ts";
import { estimate } from "../../../src/lib/estimate.ts";
import { priceRuleFor, ruleStateOf, stormPricing, type PriceRule } from "../../../src/lib/storm.ts";
import type { Store } from "../store/index.ts";
import { activeStormAt, placeFromZip } from "../storms.ts";

/** What the assistant knows of a storm at the visitor's place. */
export interface ChatStorm {
  /** The ZIP the visitor gave. */
  zip: string;
  /** The price rule there. */
  rule: PriceRule;
}

/** The last 5-digit ZIP the visitor wrote, if any. */
export function zipInChat(messages: readonly ChatMessage[]): string | undefined {
  for (const m of [...messages].reverse()) {
    if (m.role !== "user") continue;
    const zips = m.content.match(/\b\d{5}\b/g);
    if (zips) return zips.at(-1);
  }
  return undefined;
}

/** The storm at the ZIP the visitor named, or null (none named, none there, or no store). */
export async function chatStorm(
  messages: readonly ChatMessage[],
  store: Store | null,
  now: number,
): Promise<ChatStorm | null> {
  const zip = zipInChat(messages);
  if (!zip || !store) return null;
  const place = await placeFromZip({ zip });
  const event = await activeStormAt(place, now, store);
  return event ? { zip, rule: priceRuleFor(ruleStateOf(event, place)) } : null;
}

/** The storm line for one estimate, or "" outside a storm. */
export function stormLine(storm: ChatStorm | null | undefined, serviceType: string, urgency: string): string {
  return storm ? stormPricing(estimate(serviceType, urgency), storm.rule).text : "";
}
