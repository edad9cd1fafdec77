/**
 * The operator routing a lead by hand, from its window in /admin: the businesses near the job
 * it could go to, and offering it to the chosen ones. The offer is the one every lead gets
 * (delivery/operator-offer.ts: the same message, signed answer link and clock; a lead the
 * operator had is reopened and comes back when nobody accepts), so this file only reads and
 * answers.
 */
import {
  LeadOfferPost,
  NEARBY_LIMIT,
  isLeadId,
  type AdminNearbyBusiness,
  type AdminNearbyReply,
  type AdminOfferReply,
} from "../../../src/lib/admin.ts";
import { nearbyCandidates, offerLeadTo, operatorJobOf, type NearbyCandidate } from "../delivery/operator-offer.ts";
import { endpoint, jsonError, jsonResponse, storeCall } from "../http.ts";
import type { Store } from "../store/index.ts";
import { adminSpec, readPatch, type AdminDeps, type AdminHandler } from "./endpoint.ts";
import { LEAD_NOT_FOUND } from "./leads.ts";

/** The list's rows: what the operator chooses by (distance, services, 24/7 or open now, reachable). */
async function rowsOf(store: Store, nearby: NearbyCandidate[]): Promise<AdminNearbyBusiness[]> {
  const listed = new Map((await store.businesses.getMany(nearby.map((c) => c.id))).map((b) => [b.id, b]));
  return nearby.map((c) => ({
    id: c.id,
    name: c.name,
    slug: c.slug,
    distanceMiles: c.distanceMiles,
    rating: c.rating,
    reviewCount: c.reviewCount,
    services: listed.get(c.id)?.services ?? [],
    offersService: c.offersService,
    emergency247: c.emergency247,
    openNow: c.openNow,
    reachable: c.email !== null || c.phone !== null,
    ...(listed.get(c.id)?.isSample ? { isSample: true } : {}),
  }));
}

/**
 * GET /api/admin/leads/:id/offers -> AdminNearbyReply: up to NEARBY_LIMIT businesses near the
 * job it has not been offered yet. POST { businessIds } offers it to them (then sends the
 * offers) -> AdminOfferReply; a refusal (unknown or repeated business, already offered, a
 * growth request, more than a lead can hold) changes nothing and says why, with the ids.
 */
export function adminLeadOffersHandler(deps: AdminDeps = {}): AdminHandler {
  const spec = {
    ...adminSpec("lead offers", ["GET", "POST"]),
    route: { path: "/api/admin/leads/:id/offers" as const, valid: isLeadId, notFound: LEAD_NOT_FOUND },
  };
  return endpoint(spec, deps, async ({ req, store, env, params: { id }, body, now }) => {
    if (req.method === "GET") {
      const lead = await storeCall(() => store.leads.get(id));
      if (!lead) return jsonError(404, LEAD_NOT_FOUND);
      const job = await operatorJobOf(lead);
      const data = await storeCall(async () => rowsOf(store, await nearbyCandidates(store, lead, NEARBY_LIMIT, now())));
      const reply: AdminNearbyReply = {
        data,
        near: job?.place.label ?? null,
        service: job?.service ?? null,
        routable: lead.type !== "audit" && lead.type !== "assessment",
      };
      return jsonResponse(reply);
    }
    const { businessIds } = readPatch(LeadOfferPost, body);
    const result = await storeCall(() => offerLeadTo(store, id, businessIds, now(), { env, ...deps.notify }));
    if (!result.ok) {
      return jsonError(result.status, result.message, {
        problem: result.problem,
        ...(result.businessIds ? { businessIds: result.businessIds } : {}),
      });
    }
    console.info(`[admin] lead ${id} (${result.lead.type}): offered to ${result.offered.join(", ")} by hand`);
    const reply: AdminOfferReply = { data: result.lead, offered: result.offered };
    return jsonResponse(reply);
  });
}
