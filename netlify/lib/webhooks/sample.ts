/**
 * Made-up events, shaped exactly like real ones (./payload.ts builds both), for Zapier's and
 * Make's sample data and the docs: a CRM maps its fields from these before a real lead comes.
 * Nothing in them is anyone's: the customer, the phone (555-01xx) and the street are fictional.
 */
import type { Delivery, Lead } from "../../../src/lib/schemas/lead.ts";
import type { WebhookEvent } from "../../../src/lib/webhooks.ts";
import { leadData, reviewEvent } from "./payload.ts";

const AT = "2026-11-29T15:00:00.000Z";

const SAMPLE_LEAD: Lead = {
  id: "ld_sample0000000000000",
  type: "find-pros",
  createdAt: AT,
  sourcePage: "/find-pros",
  reference: "TL-SAMP-LE",
  urgency: "urgent",
  timeZone: "America/Chicago",
  place: { label: "Austin, TX 78704", zip: "78704", lat: 30.24, lng: -97.77 },
  status: "offered",
  data: {
    name: "Sam Sample",
    email: "sam.sample@example.com",
    phone: "(512) 555-0142",
    location: "1200 Sample St, Austin, TX 78704",
    serviceType: "tree-removal",
    timeline: "within-week",
    description: "A dead live oak leaning toward the garage.",
    photoKey: "sample.jpg",
  },
};

/** One sample event of `type` for the business, as its endpoint would get it (the parsed body). */
export function sampleEvent(type: WebhookEvent, business: { id: string; name: string }, siteUrl: string) {
  const answerUrl = `${siteUrl}/respond/sample`;
  if (type === "review.posted") {
    const e = reviewEvent(
      business.id,
      {
        id: "rv_sample",
        customerName: "Sam S.",
        rating: 5,
        title: "Fast and careful",
        reviewText: "They took the oak down without touching the garage.",
        serviceType: "Tree Removal",
        isVerified: true,
        createdAt: AT,
      },
      `${siteUrl}/directory/sample`,
    );
    return { type, timestamp: AT, data: { ...e.data, business } };
  }
  const answered = type !== "offer.made";
  const delivery: Delivery = {
    businessId: business.id,
    name: business.name,
    slug: "sample",
    offeredAt: AT,
    deadlineAt: "2026-11-29T17:00:00.000Z",
    distanceMiles: 3.2,
    state: answered ? "accepted" : "waiting",
    ...(answered ? { answeredAt: "2026-11-29T15:20:00.000Z", window: "Tuesday morning", price: "$900" } : {}),
  };
  const change = type === "offer.made" ? "offered" : type === "offer.answered" ? "accepted" : "completed";
  return { type, timestamp: AT, data: { change, ...leadData(SAMPLE_LEAD, delivery, { answerUrl }) } };
}
