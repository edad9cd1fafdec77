/**
 * Where a lead's own text says its job is, for a lead that does not keep its place (a
 * booking's property address; a quote or find-pros request stored before places were kept).
 * It loads the ZIP dataset when called, so only the steps that may need it import this: the
 * clock's next pro (progress.ts) and the operator's nearby list (delivery/operator-offer.ts);
 * the visitor's status page (its storm notice); the notifier and the lead forms other than quote
 * and find-pros never bundle it.
 */
import type { Lead, LeadPlace } from "../../src/lib/schemas/lead.ts";
import { leadPlaceOf } from "./matching.ts";

export async function placeOfText(lead: Pick<Lead, "type" | "data">): Promise<LeadPlace | null> {
  const data = (lead.data && typeof lead.data === "object" ? lead.data : {}) as Record<string, unknown>;
  const text = (key: string) => (typeof data[key] === "string" ? (data[key] as string) : "");
  const { findPlace, placeInAddress } = await import("../../src/lib/geo/places.ts");
  const place =
    lead.type === "find-pros"
      ? findPlace(text("location"))
      : lead.type === "quote"
        ? placeInAddress(text("address"))
        : lead.type === "booking"
          ? placeInAddress(text("propertyAddress"))
          : null;
  return place ? leadPlaceOf(place) : null;
}
