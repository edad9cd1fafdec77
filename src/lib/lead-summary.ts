/**
 * How a lead of any type reads in a line (who, how to reach them, what they want): shared by the
 * admin island, the CSV export, the notifier and the store's search text, so a lead reads the
 * same everywhere. Browser-safe.
 */
import { CURRENT_REVENUE, SERVICE_TYPES, URGENCY, optionLabel, phaseName } from "./options.ts";
import type { Lead } from "./schemas/lead.ts";

export interface LeadSummary {
  /** The person (or "Unknown"). */
  name: string;
  email?: string;
  phone?: string;
  /** Company (audits and assessments) or the booked business (bookings). */
  company?: string;
  /** Street address or the find-pros location. */
  place?: string;
  /** What they asked for, in words. */
  what: string;
  /** Our estimate (quotes only). */
  estimate?: string;
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);

/** Who, how to reach them and what they want, from any lead type's payload. */
export function summarizeLead(lead: Pick<Lead, "type" | "data">): LeadSummary {
  const d = (lead.data && typeof lead.data === "object" ? lead.data : {}) as Record<string, unknown>;
  const name = str(d.name) ?? str(d.customerName) ?? "Unknown";
  const email = str(d.email) ?? str(d.customerEmail);
  const phone = str(d.phone) ?? str(d.customerPhone);
  switch (lead.type) {
    case "quote": {
      const service = str(d.serviceType);
      const urgency = str(d.urgency);
      const what = [
        service ? optionLabel(SERVICE_TYPES, service) : "Tree service",
        urgency ? optionLabel(URGENCY, urgency) : undefined,
      ]
        .filter(Boolean)
        .join(", ");
      return { name, email, phone, place: str(d.address), what, estimate: str(d.estimatedCost) };
    }
    case "audit":
    case "assessment": {
      const revenue = str(d.currentRevenue);
      const phase = str(d.phase);
      const what = [
        lead.type === "audit" ? "Growth audit" : `Assessment${phase ? `: ${phaseName(phase)}` : ""}`,
        revenue ? `revenue ${optionLabel(CURRENT_REVENUE, revenue)}` : undefined,
      ]
        .filter(Boolean)
        .join(", ");
      return { name, email, phone, company: str(d.companyName), what };
    }
    case "find-pros":
      return { name, email, phone, place: str(d.location), what: `Find pros: ${str(d.serviceType) ?? "tree service"}` };
    case "booking":
      return {
        name,
        email,
        phone,
        company: str(d.businessName),
        place: str(d.propertyAddress),
        what: `Booking${str(d.serviceType) ? `: ${str(d.serviceType)}` : ""}${str(d.preferredDate) ? ` on ${str(d.preferredDate)}` : ""}`,
      };
  }
}
