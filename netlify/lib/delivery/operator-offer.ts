/**
 * The operator routing a lead by hand (from its window in /admin): the nearby businesses it
 * could go to, and offering it to the chosen ones. An operator's offer is like any other: the
 * same message, signed answer link and clock (routing.ts operatorOffer); a lead the operator
 * had is reopened, and comes back to the operator when nobody accepts.
 */
import { distanceMiles } from "../../../src/lib/geo/distance.ts";
import { openState } from "../../../src/lib/hours.ts";
import type { ProMatch } from "../../../src/lib/received.ts";
import type { Lead } from "../../../src/lib/schemas/lead.ts";
import { placeOfText } from "../job-place.ts";
import { jobOf, nearbyBusinesses, proMatchOf, type Job } from "../matching.ts";
import { notifyLead, type NotifyDeps } from "../notify/index.ts";
import type { Store } from "../store/index.ts";
import type { ListedBusiness } from "../store/repos/businesses.types.ts";
import { candidateOf, operatorOffer } from "./routing.ts";

/** Offers one lead can hold (the lead schema's `routing.deliveries` limit). */
export const MAX_OFFERS = 12;

/** A nearby business as the operator's list shows it. */
export interface NearbyCandidate extends ProMatch {
  /** Where the offer e-mail would go (null: its offer goes by text only, or not at all). */
  email: string | null;
  /** Offers the service the lead asks for (false: listed after those that do). */
  offersService: boolean;
  /** Answers emergencies 24/7. */
  emergency247: boolean;
  /** Open at the time of the list, in its own time zone. */
  openNow: boolean;
}

const nearby = (b: ListedBusiness, offersService: boolean, now: number): NearbyCandidate => ({
  ...proMatchOf(b),
  email: b.email ?? null,
  offersService,
  emergency247: b.emergency247 === true,
  openNow: openState(b.businessHours, b.timeZone, now, b.emergency247, b).open,
});

/**
 * The job a lead describes, for the operator: where it was matched, else where its text says
 * it is (a booking's property address, a lead stored before places were kept); null for a
 * growth request or a text naming no place we know.
 */
export async function operatorJobOf(lead: Lead): Promise<Job | null> {
  if (lead.type === "audit" || lead.type === "assessment") return null;
  return jobOf(lead, lead.place ?? (await placeOfText(lead)));
}

/**
 * Up to `limit` businesses near the lead's job that it has not been offered yet, nearest
 * first: those offering its service, then (to fill the list) nearby ones offering others.
 * For an emergency, those answering 24/7 or open now come first. Empty for a lead whose
 * place we do not know (or a growth request). Throws when the directory cannot be read.
 */
export async function nearbyCandidates(
  store: Store,
  lead: Lead,
  limit: number,
  now: number = Date.now(),
): Promise<NearbyCandidate[]> {
  const job = limit > 0 ? await operatorJobOf(lead) : null;
  if (!job) return [];
  const exclude = new Set((lead.routing?.deliveries ?? []).map((d) => d.businessId));
  const read = (service: string | null) =>
    nearbyBusinesses(
      store,
      { ...job, service },
      {
        limit: limit + exclude.size,
        exclude,
        now,
        emergency: false,
        // The operator decides: a business fully booked may still take a call from us.
        skipBooked: false,
      },
    );
  const offering = (await read(job.service)).map((b) => nearby(b, true, now));
  const seen = new Set(offering.map((c) => c.id));
  const others =
    job.service && offering.length < limit
      ? (await read(null)).filter((b) => !seen.has(b.id)).map((b) => nearby(b, false, now))
      : [];
  const availableFirst = (c: NearbyCandidate) => (job.emergency && !(c.emergency247 || c.openNow) ? 1 : 0);
  return [...offering.sort((x, y) => availableFirst(x) - availableFirst(y)), ...others].slice(0, limit);
}

/** Why an operator's offer was refused. */
export type OfferProblem = "no-business" | "duplicate" | "not-found" | "not-a-job" | "unknown" | "already" | "too-many";

export type OfferLeadResult =
  | { ok: true; lead: Lead; offered: string[] }
  | { ok: false; status: 400 | 404 | 409; problem: OfferProblem; message: string; businessIds?: string[] };

const refuse = (
  status: 400 | 404 | 409,
  problem: OfferProblem,
  message: string,
  businessIds?: string[],
): OfferLeadResult => ({ ok: false, status, problem, message, ...(businessIds ? { businessIds } : {}) });

const miles = (lead: Lead, b: { location?: { lat: number; lng: number } }) =>
  lead.place && b.location ? Math.round(distanceMiles(lead.place, b.location) * 10) / 10 : undefined;

/**
 * Offers lead `leadId` to the businesses `businessIds` (in that order) at `now`, then sends
 * the offers at once. Refused, changing nothing, when a business is unknown, named twice or
 * already offered the lead, when the lead is not a job for a business (growth requests) or
 * would hold more than MAX_OFFERS offers. The change is a compare-and-set: a business
 * offered meanwhile by another hand is skipped, not offered twice.
 */
export async function offerLeadTo(
  store: Store,
  leadId: string,
  businessIds: readonly string[],
  now: number,
  deps: NotifyDeps = {},
): Promise<OfferLeadResult> {
  const ids = businessIds.map((id) => id.trim());
  if (ids.length === 0 || ids.some((id) => id === ""))
    return refuse(400, "no-business", "Choose at least one business to offer the lead to.");
  const twice = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (twice.length > 0)
    return refuse(
      400,
      "duplicate",
      `Each business can be offered the lead once: ${twice.join(", ")} is listed twice.`,
      [...new Set(twice)],
    );
  const lead = await store.leads.get(leadId);
  if (!lead) return refuse(404, "not-found", "There is no such lead.");
  if (lead.type === "audit" || lead.type === "assessment")
    return refuse(400, "not-a-job", "A growth request is for Treeline's team: it is not offered to tree services.");
  const businesses = await store.businesses.getMany(ids);
  const byId = new Map(businesses.map((b) => [b.id, b]));
  const unknown = ids.filter((id) => !byId.has(id));
  if (unknown.length > 0)
    return refuse(400, "unknown", `No business in the directory has the id ${unknown.join(", ")}.`, unknown);
  const offered = new Set((lead.routing?.deliveries ?? []).map((d) => d.businessId));
  const already = ids.filter((id) => offered.has(id));
  if (already.length > 0) {
    const names = already.map((id) => byId.get(id)!.name).join(", ");
    return refuse(409, "already", `The lead was already offered to ${names}.`, already);
  }
  if (offered.size + ids.length > MAX_OFFERS) {
    const room = Math.max(0, MAX_OFFERS - offered.size);
    return refuse(
      400,
      "too-many",
      `A lead can be offered to at most ${MAX_OFFERS} businesses; this one can go to ${room} more.`,
    );
  }
  const candidates = ids.map((id) => {
    const b = byId.get(id)!;
    return candidateOf(b, miles(lead, b));
  });
  const result = await store.leads.mutate(leadId, (fresh) => operatorOffer(fresh, candidates, now), now);
  if (!result) return refuse(404, "not-found", "There is no such lead.");
  if (!result.changed) return refuse(409, "already", "The lead was already offered to those businesses.", ids);
  const added = new Set(result.lead.routing!.deliveries.map((d) => d.businessId));
  await notifyLead(store, leadId, { now: () => now, ...deps });
  return {
    ok: true,
    lead: (await store.leads.get(leadId)) ?? result.lead,
    offered: ids.filter((id) => added.has(id) && !offered.has(id)),
  };
}
