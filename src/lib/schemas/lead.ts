/**
 * Every form submission is stored as a lead: a typed envelope around the form's own payload.
 * Each form validates `data` with its own schema; the envelope is the same for all.
 */
import { z } from "../zod.ts";
import { URGENCY_LEVELS } from "../lead-urgency.ts";
import { LEAD_TYPES } from "../lead-types.ts";

export const LeadType = z.enum(LEAD_TYPES);
export type LeadType = z.infer<typeof LeadType>;

/**
 * Where a lead stands, read off its offers (src/lib/lead-status.ts): new (nobody has it yet),
 * offered (businesses have it and someone may still answer), accepted (a business took it),
 * escalated (passed to the operator), or closed (the operator closed it; it stays closed
 * until the operator reopens it). Every operator change is kept in `history`.
 */
export const LEAD_STATUSES = ["new", "offered", "accepted", "escalated", "closed"] as const;

/**
 * Statuses an earlier version stored, as they read now: the operator had "contacted" the
 * customer (the lead is with the operator), or marked it "won" or "lost" (done with it).
 */
export const LEGACY_LEAD_STATUSES: Readonly<Record<string, (typeof LEAD_STATUSES)[number]>> = {
  contacted: "escalated",
  won: "closed",
  lost: "closed",
};

export const LeadStatus = z.preprocess(
  (value) =>
    typeof value === "string" && Object.hasOwn(LEGACY_LEAD_STATUSES, value) ? LEGACY_LEAD_STATUSES[value] : value,
  z.enum(LEAD_STATUSES),
);
export type LeadStatus = z.infer<typeof LeadStatus>;

/** Longest operator note; a note is a reminder, not a document. */
export const MAX_NOTE_LENGTH = 2000;

/** One operator change, oldest first in `history`. */
export const LeadChange = z.object({
  /** ISO timestamp of the change. */
  at: z.iso.datetime({ offset: true }),
  /** Status before the change. */
  from: LeadStatus,
  /** Status after the change (equal to `from` when only the note changed). */
  to: LeadStatus,
  /** The note as it was saved with this change, if the change touched it. */
  note: z.string().max(MAX_NOTE_LENGTH).optional(),
});
export type LeadChange = z.infer<typeof LeadChange>;

/**
 * One business a lead was offered to (a booking's business, a find-pros match, or the next
 * pro the response clock passed it to), with its answer. Contact details are copied from the
 * directory at offer time: the messages say where they went even if the listing changes.
 */
export const DELIVERY_STATES = ["waiting", "accepted", "declined", "expired", "undelivered", "withdrawn"] as const;
export const DeliveryState = z.enum(DELIVERY_STATES);
export type DeliveryState = z.infer<typeof DeliveryState>;

export const Delivery = z.object({
  /** Directory business id. */
  businessId: z.string().min(1).max(64),
  /** Its name, as the visitor's status page shows it. */
  name: z.string().max(120),
  /** Its directory slug (for the link to its page). */
  slug: z.string().max(120),
  /** Where the offer e-mail goes, if the business has an address on file. */
  email: z.string().max(254).optional(),
  /** Where the offer text goes, if the business has a phone on file. */
  phone: z.string().max(40).optional(),
  /** Its IANA time zone (night hours are not counted against its response time). */
  timeZone: z.string().max(64).optional(),
  /** Miles from the job (find-pros). */
  distanceMiles: z.number().min(0).optional(),
  /** When the offer was made (ISO). */
  offeredAt: z.iso.datetime({ offset: true }),
  /** Answer by then, or the response clock passes the lead on (ISO). */
  deadlineAt: z.iso.datetime({ offset: true }),
  /**
   * waiting for an answer, accepted, declined, expired (no answer in time), undelivered (no
   * channel could take the offer to the business), or withdrawn (accepted, then given back).
   */
  state: DeliveryState,
  /** When the business first answered (accept, decline or call; ISO). */
  answeredAt: z.iso.datetime({ offset: true }).optional(),
  /** When the business tapped "Call the customer" (ISO). */
  calledAt: z.iso.datetime({ offset: true }).optional(),
  /** Accept: when they can come, in their words. */
  window: z.string().max(200).optional(),
  /** Accept: their price, in their words. */
  price: z.string().max(100).optional(),
  /** Decline: why (one of DECLINE_REASONS' values); withdraw: why (one of WITHDRAW_REASONS' values). */
  reason: z.string().max(60).optional(),
  /** Withdraw: when the business gave the accepted job back (ISO). */
  withdrawnAt: z.iso.datetime({ offset: true }).optional(),
  /** Report: why the business reported the lead as a bad lead (one of REPORT_REASONS' values). */
  report: z.string().max(60).optional(),
  /** Report: when (ISO). A reported offer never counts in the business's response figures. */
  reportedAt: z.iso.datetime({ offset: true }).optional(),
});
export type Delivery = z.infer<typeof Delivery>;

/** What happened to a lead after it arrived, oldest first; each event may send messages. */
export const ROUTING_EVENTS = [
  "offered",
  "accepted",
  "declined",
  "called",
  "expired",
  "escalated",
  "undelivered",
  "withdrawn",
  "completed",
  "reported",
] as const;
export const RoutingEvent = z.object({
  /** ISO timestamp. */
  at: z.iso.datetime({ offset: true }),
  /** What happened. */
  kind: z.enum(ROUTING_EVENTS),
  /** The business it concerns (absent for an escalation to the operator). */
  businessId: z.string().max(64).optional(),
  /** Why: an escalation's ("no-answer", "all-declined", "no-pros", ...), an offer's ("next-pro", "operator"). */
  reason: z.string().max(60).optional(),
});
export type RoutingEvent = z.infer<typeof RoutingEvent>;

/** Who has the lead and what they said: the businesses it went to, and the clock. */
export const Routing = z.object({
  /** Businesses offered the lead, in offer order (nearest first for find-pros). */
  deliveries: z.array(Delivery).max(12),
  /** Every change, oldest first. */
  events: z.array(RoutingEvent).max(200),
  /** Set once the lead is passed to the operator (ISO). */
  escalatedAt: z.iso.datetime({ offset: true }).optional(),
});
export type Routing = z.infer<typeof Routing>;

/**
 * The job's place as the server understood it: how it reads back ("Miami, FL 33131"), its ZIP
 * when the text had one, and the point nearby businesses are measured from.
 */
export const LeadPlace = z.object({
  label: z.string().max(120),
  zip: z
    .string()
    .regex(/^\d{5}$/)
    .optional(),
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
});
export type LeadPlace = z.infer<typeof LeadPlace>;

/** Envelope schema for a given payload schema. */
export function leadSchema<T extends z.ZodType>(data: T) {
  return z.object({
    /** Server id; sorts by creation time. */
    id: z.string().min(1),
    /** Which form produced it. */
    type: LeadType,
    /** ISO timestamp set by the server. */
    createdAt: z.iso.datetime({ offset: true }),
    /** Site path the form was submitted from, e.g. "/services/tree-removal". */
    sourcePage: z.string().max(500),
    /** The visitor's reference, e.g. "TL-7KQ2-9F" (absent on leads stored before receipts). */
    reference: z.string().max(20).optional(),
    /** emergency, urgent or routine (lead-urgency.ts), from the form's own fields. */
    urgency: z.enum(URGENCY_LEVELS).optional(),
    /** The job's IANA time zone (from its place); every time a person reads about the lead is in it. */
    timeZone: z.string().max(64).optional(),
    /** Where the job is, as matched (a quote's address, a find-pros location): offers go near it. */
    place: LeadPlace.optional(),
    /** The storm event (src/lib/storm.ts id) an emergency arrived inside: offered to STORM_OFFER_PROS at once. */
    storm: z.string().max(40).optional(),
    /** Deliveries to businesses and their answers (bookings and find-pros requests). */
    routing: Routing.optional(),
    /** Where it stands (LEAD_STATUSES), kept in step with its offers by the store. */
    status: LeadStatus,
    /** The operator's current note (absent until one is written). */
    note: z.string().max(MAX_NOTE_LENGTH).optional(),
    /** ISO timestamp of the last operator change (absent until the first). */
    updatedAt: z.iso.datetime({ offset: true }).optional(),
    /** Operator changes, oldest first (absent until the first). */
    history: z.array(LeadChange).optional(),
    /** The form payload, validated by the caller. */
    data,
  });
}

/** Envelope with an unchecked payload. */
export const Lead = leadSchema(z.unknown());
export type Lead<T = unknown> = Omit<z.infer<typeof Lead>, "data"> & { data: T };
