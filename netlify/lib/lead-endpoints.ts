/**
 * What each lead endpoint adds to the one pipeline (leads.ts): its form and schema, its
 * store rules and the reply it answers with (a no-JS post's pages are src/pages/forms and
 * src/pages/requests). A quote is matched like a find-pros request (matching.ts); the ZIP
 * dataset its address is read with is imported when a quote arrives, so the other endpoints
 * here never load it. find-pros has its own file.
 */
import { estimate } from "../../src/lib/estimate.ts";
import { priceRuleFor, ruleStateOf, stormPricing, type PriceRule } from "../../src/lib/storm.ts";
import { activeStormAt } from "./storms.ts";
import { DEFAULT_TIME_ZONE } from "../../src/lib/hours.ts";
import { timeZoneOf } from "../../src/lib/geo/time-zone.ts";
import type { LeadPlace } from "../../src/lib/schemas/lead.ts";
import { urgencyOf } from "../../src/lib/lead-urgency.ts";
import { quoteProService } from "../../src/lib/options.ts";
import type { ProMatch } from "../../src/lib/received.ts";
import { ASSESSMENT_FORM, AUDIT_FORM, BOOKING_FORM, QUOTE_FORM, type FormDef } from "../../src/lib/forms/fields.ts";
import { BUSINESS_NOT_FOUND } from "../../src/lib/directory.ts";
import { BOOKING_MESSAGES, bookingRequestSchema, BookingRequest } from "../../src/lib/schemas/booking.ts";
import { AssessmentRequest, AuditRequest, QuoteRequest } from "../../src/lib/schemas/forms.ts";
import { TEXT_BODY_LIMIT } from "./http.ts";
import type { LeadEndpoint, LeadRoute } from "./leads.types.ts";
import { candidateOf, type Candidate } from "./delivery/routing.ts";
import { leadPlaceOf, routeJob } from "./matching.ts";

/** A quote after matching: the businesses it was offered to go into the stored lead, as find-pros's do. */
export type QuoteLead = QuoteRequest & {
  matchedBusinesses?: ProMatch[];
  /** Who it is offered to and where (routing and the lead's envelope keep them, the lead data does not). */
  route?: LeadRoute;
  /** The price rule of the storm declared over the job's place, when one is (the stored lead keeps its line). */
  stormRule?: PriceRule;
};

export const QUOTE_ENDPOINT: LeadEndpoint<QuoteLead> = {
  type: "quote",
  form: QUOTE_FORM,
  schema: QuoteRequest,
  multipartLimit: TEXT_BODY_LIMIT,
  replyOffers: true,
  // The job's place is the ZIP in its address, else its "City, ST"; its service, the directory's name for it.
  async check(data, store, now) {
    const { placeInAddress } = await import("../../src/lib/geo/places.ts");
    const emergency = urgencyOf("quote", data) === "emergency";
    const service = quoteProService(data.serviceType) ?? null;
    const place = placeInAddress(data.address);
    const { route, matches } = await routeJob(store, place, service, emergency, now);
    // Inside a declared storm the estimate states the state's price rule (src/lib/storm.ts).
    const storm = place ? await activeStormAt(place, now, store) : null;
    const stormRule = storm && place ? priceRuleFor(ruleStateOf(storm, place)) : undefined;
    return { data: { ...data, matchedBusinesses: matches, route, ...(stormRule ? { stormRule } : {}) } };
  },
  route: (data) => data.route ?? { candidates: [] },
  prepare({ route: _route, stormRule, ...data }) {
    // The visitor's figure is kept for reference only; the price we stand by is our own.
    const { estimatedCost: clientEstimate, ...rest } = data;
    const pre = estimate(data.serviceType, data.urgency);
    // A storm adds nothing to the range: it stays the pre-storm figure, with the rule beside it.
    const storm = stormRule ? stormPricing(pre, stormRule) : undefined;
    const matches = data.matchedBusinesses ?? [];
    return {
      stored: {
        ...rest,
        estimatedCost: pre.text,
        ...(clientEstimate ? { clientEstimate } : {}),
        ...(storm ? { stormPricing: storm.text } : {}),
        matchedBusinesses: matches,
      },
      reply: { estimatedCost: pre.text, matches, ...(storm ? { storm } : {}) },
    };
  },
};

/** The two growth forms differ only in their form, schema and confirmation wording. */
function growthEndpoint<T extends Record<string, unknown>>(
  type: "audit" | "assessment",
  form: FormDef,
  schema: LeadEndpoint<T>["schema"],
): LeadEndpoint<T> {
  return {
    type,
    form,
    schema,
    multipartLimit: TEXT_BODY_LIMIT,
    prepare: (data) => ({ stored: { ...data }, reply: {} }),
  };
}

export const AUDIT_ENDPOINT: LeadEndpoint<AuditRequest> = growthEndpoint("audit", AUDIT_FORM, AuditRequest);
export const ASSESSMENT_ENDPOINT: LeadEndpoint<AssessmentRequest> = growthEndpoint(
  "assessment",
  ASSESSMENT_FORM,
  AssessmentRequest,
);

/** A booking after the store check: the request plus the business it is for. */
export type BookingLead = BookingRequest & {
  businessName?: string;
  businessSlug?: string;
  /** Who the booking is offered to (the business's contacts; routing keeps them, the lead data does not). */
  candidate?: Candidate;
  /** Where the job is, from its property address (the lead's envelope keeps it, the lead data does not). */
  place?: LeadPlace;
  /** That place's time zone. */
  zone?: string;
};

export const BOOKING_ENDPOINT: LeadEndpoint<BookingLead> = {
  type: "booking",
  form: BOOKING_FORM,
  schema: BookingRequest,
  schemaAt: (now) => bookingRequestSchema(now),
  multipartLimit: TEXT_BODY_LIMIT,
  // The confirmation says whether the business can get it (offered, kept, or held for the team).
  replyOffers: true,
  async check(data, store) {
    const business = await store.businesses.get(data.businessId);
    if (!business) return { status: 404, error: BUSINESS_NOT_FOUND };
    let serviceType = data.serviceType;
    if (serviceType !== undefined) {
      const wanted = serviceType.toLowerCase();
      serviceType = business.services.find((s) => s.toLowerCase() === wanted);
      if (serviceType === undefined) return { errors: { serviceType: BOOKING_MESSAGES.serviceType } };
    }
    // The admin reads leads without the directory at hand, so the lead names the business.
    const candidate = candidateOf(business);
    // Where the job is, kept so the business sees its area before it accepts (never the street).
    const { placeInAddress } = await import("../../src/lib/geo/places.ts");
    const found = data.propertyAddress ? placeInAddress(data.propertyAddress) : null;
    const place = found ? leadPlaceOf(found) : undefined;
    const zone = found ? timeZoneOf(found.state, found) : undefined;
    return {
      data: { ...data, serviceType, businessName: business.name, businessSlug: business.slug, candidate, place, zone },
    };
  },
  prepare: ({ candidate: _candidate, place: _place, zone: _zone, ...data }) => ({
    stored: { ...data },
    reply: { businessName: data.businessName },
  }),
  // Times are the job's own zone when its address names a place, else the business's.
  route: (data) => ({
    candidates: data.candidate ? [data.candidate] : [],
    timeZone: data.zone ?? data.candidate?.timeZone ?? DEFAULT_TIME_ZONE,
    ...(data.place ? { place: data.place } : {}),
  }),
};
