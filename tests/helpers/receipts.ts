/**
 * The receipt fields a lead POST answers with (src/lib/receipt.ts), as the tests' replies
 * carry them, and the one check every emergency confirmation must pass.
 */
import type { Receipt } from "../../src/lib/receipt.ts";

export const RECEIPT: Receipt = {
  reference: "TL-7KQ2-9F",
  statusUrl: "/requests/ld_0abc123/Xy12Zq",
  urgency: "routine",
  willEmail: true,
};

/** A day's wait in any spelling ("24 hours", "24-hour", "24 hrs"): never said to an emergency. */
export const DAY_PROMISE = /\b24[\s-]*(hours?|hrs?|h)\b/i;

/**
 * A promise of when a crew comes ("dispatched within 30 minutes", "on site within 2 hours",
 * "arrives"): the site controls who is asked, not that, so no confirmation says it.
 */
export const ARRIVAL_PROMISE = /\b(dispatch\w*|on site|arriv\w*)\b/i;
