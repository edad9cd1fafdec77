/**
 * A stored lead's confirmation (/requests/{id}/{sig}/received, where a lead form's no-JS post
 * lands): read from the lead itself, so a reload shows the same thing without posting again,
 * and says what the JSON reply said: the receipt, what was asked, the pros it went to and
 * where the request stands (offerSummary, read from the lead's own routing).
 */
import { emailReady, offersCanBeSent } from "../notify/config.ts";
import { env as currentEnv } from "../../../src/lib/env.ts";
import { readStormNotice } from "../../../src/lib/offers.ts";
import type { Receipt } from "../../../src/lib/receipt.ts";
import type { ReceivedLead, ReceivedMatch } from "../../../src/lib/received.ts";
import type { Lead } from "../../../src/lib/schemas/lead.ts";
import { isHeld, offerSummary } from "../delivery/routing.ts";
import { signerFor } from "../delivery/signing.ts";
import { errorName } from "../http.ts";
import { getStore, type Store } from "../store/index.ts";

export interface ReceivedPage {
  lead: ReceivedLead;
  receipt: Receipt;
}

const str = (v: unknown) => (typeof v === "string" ? v : undefined);

/** The businesses a routed lead's data says it went to (find-pros and quotes keep them). */
const matchesIn = (data: Record<string, unknown>): ReceivedMatch[] =>
  Array.isArray(data.matchedBusinesses) ? (data.matchedBusinesses as ReceivedMatch[]) : [];

/** What the confirmation shows for a stored lead. */
export function receivedOf(
  lead: Lead,
  statusUrl: string,
  /** E-mail can reach the visitor here (emailReady). */
  emailConfigured: boolean,
  /** Offers reach no business here (no e-mail or text provider): they are kept for the team. */
  kept = false,
): ReceivedPage {
  const data = (lead.data && typeof lead.data === "object" ? lead.data : {}) as Record<string, unknown>;
  const receipt: Receipt = {
    reference: lead.reference ?? "",
    statusUrl,
    urgency: lead.urgency ?? "routine",
    // Every lead form asks for an e-mail; it goes only when e-mail can reach the visitor, and not for a held lead.
    willEmail: emailConfigured && !isHeld(lead),
  };
  // What happened to a request routed to businesses (leads stored before routing have nothing to tell).
  const withOffers = lead.routing ? { offers: offerSummary(lead, { kept }) } : {};
  switch (lead.type) {
    case "quote":
      return {
        receipt,
        lead: {
          kind: "quote",
          estimate: str(data.estimatedCost) ?? "",
          matches: matchesIn(data),
          ...withOffers,
          ...(str(data.stormPricing) ? { storm: str(data.stormPricing) } : {}),
        },
      };
    case "audit":
    case "assessment":
      return { receipt, lead: { kind: lead.type } };
    case "booking":
      return {
        receipt,
        lead: {
          kind: "booking",
          businessName: str(data.businessName) ?? "the business",
          slug: str(data.businessSlug),
          ...withOffers,
        },
      };
    case "find-pros":
      return {
        receipt,
        lead: {
          kind: "find-pros",
          matches: matchesIn(data),
          ...withOffers,
          ...(readStormNotice(data.stormNotice) ? { storm: readStormNotice(data.stormNotice) } : {}),
        },
      };
  }
}

/** The confirmation for /requests/{leadId}/{sig}/received: null when the link opens nothing, "unavailable" on an outage. */
export async function loadReceived(
  leadId: string,
  sig: string,
  store: () => Store = getStore,
): Promise<ReceivedPage | null | "unavailable"> {
  try {
    const s = store();
    const signer = await signerFor(s);
    if (!signer.checkStatus(leadId, sig)) return null;
    const lead = await s.leads.get(leadId);
    if (!lead) return null;
    const env = currentEnv();
    return receivedOf(lead, signer.statusPath(leadId), emailReady(env), !offersCanBeSent(env));
  } catch (error) {
    console.error(`[lead] confirmation page: store unavailable (${errorName(error)})`);
    return "unavailable";
  }
}
