/**
 * What a webhook says (docs/webhooks.md, "Payload"): Standard Webhooks' `{type, timestamp,
 * data}`, where data carries what a CRM needs to make a job (customer, address, service,
 * urgency, timeline, description, photo link, the answer link) and nothing the business was
 * not sent: before it accepts, the customer's first name and the job's area only, never their
 * phone, e-mail or street address (docs/lead-delivery.md, "Contacts follow acceptance"); those
 * join once it has accepted, as on its answer page. Events are read off the lead's routing
 * events, so each has a stable id (`evt_{lead}_{n}`): the same on every attempt and every run.
 */
import { PRO_SERVICES, SERVICE_TYPES, TIMELINES, optionLabel } from "../../../src/lib/options.ts";
import { URGENCY_LABELS } from "../../../src/lib/lead-urgency.ts";
import { summarizeLead } from "../../../src/lib/lead-summary.ts";
import type { Delivery, Lead, RoutingEvent } from "../../../src/lib/schemas/lead.ts";
import type { Review } from "../../../src/lib/schemas/review.ts";
import type { WebhookEvent } from "../../../src/lib/webhooks.ts";
import { linksFor } from "../delivery/compose.ts";
import type { Signer } from "../delivery/signing.ts";
import { firstName, jobArea, jobRows } from "../messages/job.ts";

/** One event for one business, before it is addressed to its endpoints. */
export interface BusinessEvent {
  /** Stable: the same every time the lead is read (webhook-id). */
  id: string;
  type: WebhookEvent;
  businessId: string;
  /** When it happened (ISO). */
  at: string;
  /** The JSON body's `data`. */
  data: Record<string, unknown>;
}

/** Which webhook event a routing event is, for the business it concerns. */
const EVENT_OF: Partial<Record<RoutingEvent["kind"], WebhookEvent>> = {
  offered: "offer.made",
  accepted: "offer.answered",
  declined: "offer.answered",
  expired: "lead.updated",
  withdrawn: "lead.updated",
  completed: "lead.updated",
};

const str = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);

/** The lead as this business may see it now (its delivery's state decides the contacts). */
export function leadData(lead: Lead, delivery: Delivery, links: { answerUrl: string }): Record<string, unknown> {
  const d = (lead.data && typeof lead.data === "object" ? lead.data : {}) as Record<string, unknown>;
  const summary = summarizeLead(lead);
  const accepted = delivery.state === "accepted";
  const rows = new Map(jobRows(lead, summary, { area: true }));
  const serviceCode = str(d.serviceType);
  const timeline = str(d.timeline);
  return {
    lead: {
      id: lead.id,
      ...(lead.reference ? { reference: lead.reference } : {}),
      kind: lead.type,
      receivedAt: lead.createdAt,
      service: {
        ...(serviceCode ? { code: serviceCode } : {}),
        label:
          rows.get("Service") ??
          optionLabel(lead.type === "find-pros" ? PRO_SERVICES : SERVICE_TYPES, serviceCode ?? ""),
      },
      urgency: { code: lead.urgency ?? "routine", label: URGENCY_LABELS[lead.urgency ?? "routine"] },
      ...(timeline ? { timeline: { code: timeline, label: optionLabel(TIMELINES, timeline) } } : {}),
      ...(str(d.preferredDate) ? { preferredDate: str(d.preferredDate) } : {}),
      ...(str(d.description) ? { description: str(d.description) } : {}),
      ...(lead.timeZone ? { timeZone: lead.timeZone } : {}),
      customer: {
        name: accepted ? summary.name : firstName(summary.name),
        ...(accepted && summary.phone ? { phone: summary.phone } : {}),
        ...(accepted && summary.email ? { email: summary.email } : {}),
      },
      address: {
        ...(jobArea(lead) ? { area: jobArea(lead) } : {}),
        ...(lead.place?.zip ? { zip: lead.place.zip } : {}),
        ...(accepted && summary.place ? { street: summary.place } : {}),
      },
      // Served to the answer link only, like the answer page's photo.
      ...(typeof d.photoKey === "string" ? { photoUrl: `${links.answerUrl}/photo` } : {}),
      answerUrl: links.answerUrl,
    },
    offer: {
      state: delivery.state,
      offeredAt: delivery.offeredAt,
      answerBy: delivery.deadlineAt,
      ...(delivery.distanceMiles !== undefined ? { distanceMiles: delivery.distanceMiles } : {}),
      ...(delivery.answeredAt ? { answeredAt: delivery.answeredAt } : {}),
      ...(delivery.window ? { window: delivery.window } : {}),
      ...(delivery.price ? { price: delivery.price } : {}),
      ...(delivery.reason ? { reason: delivery.reason } : {}),
      ...(delivery.withdrawnAt ? { withdrawnAt: delivery.withdrawnAt } : {}),
    },
    business: { id: delivery.businessId, name: delivery.name },
  };
}

/** Every webhook event a lead's routing holds, per business, with their data as of now. */
export function leadEvents(lead: Lead, ctx: { signer: Signer; siteUrl: string }): BusinessEvent[] {
  const deliveries = new Map((lead.routing?.deliveries ?? []).map((d) => [d.businessId, d]));
  const links = linksFor(lead, ctx);
  return (lead.routing?.events ?? []).flatMap((event, i): BusinessEvent[] => {
    const type = EVENT_OF[event.kind];
    const delivery = event.businessId ? deliveries.get(event.businessId) : undefined;
    if (!type || !delivery) return [];
    return [
      {
        id: `evt_${lead.id}_${i}`,
        type,
        businessId: delivery.businessId,
        at: event.at,
        data: { change: event.kind, ...leadData(lead, delivery, { answerUrl: links.answerUrl(delivery) }) },
      },
    ];
  });
}

/** A review of the business, as its public page shows it. */
export function reviewEvent(businessId: string, review: Review, pageUrl: string): BusinessEvent {
  return {
    id: `evt_review_${review.id}`,
    type: "review.posted",
    businessId,
    at: review.createdAt,
    data: {
      review: {
        id: review.id,
        rating: review.rating,
        ...(review.title ? { title: review.title } : {}),
        ...(review.reviewText ? { text: review.reviewText } : {}),
        customerName: review.customerName,
        verified: review.isVerified === true,
        postedAt: review.createdAt,
        url: pageUrl,
      },
      business: { id: businessId },
    },
  };
}

/** The JSON body sent and signed. */
export const bodyOf = (event: BusinessEvent): string =>
  JSON.stringify({ type: event.type, timestamp: event.at, data: event.data });
