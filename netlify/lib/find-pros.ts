/**
 * POST /api/find-pros's endpoint definition (the pipeline is leads.ts) and its matching:
 * the "Get Multiple Quotes Fast" lead goes to up to
 * MATCH_LIMIT directory businesses offering the asked-for service, nearest to the job first
 * (within MATCH_RADIUS miles), best rated first among equally near ones. The location is
 * what the visitor typed: a ZIP ("78664"), "City, ST" or a city name, read by the same place
 * lookup as the directory's `near` search. Kept out of leads.ts so only this function
 * loads the ZIP dataset.
 */
import { FIND_PROS_FORM } from "../../src/lib/forms/fields.ts";
import { findPlace } from "../../src/lib/geo/places.ts";
import { PRO_SERVICES, optionLabel } from "../../src/lib/options.ts";
import { FindProsRequest } from "../../src/lib/schemas/forms.ts";
import { checkPhoto } from "./blobs.ts";
import { errorName } from "./http.ts";
import { PHOTO_BODY_LIMIT, type LeadEndpoint } from "./leads.ts";
import { urgencyOf } from "../../src/lib/lead-urgency.ts";
import { NO_MATCHES_MESSAGE, findProsConfirmationPage, receiptOf, type ProMatch } from "./pages.ts";
import type { Store } from "./store/index.ts";

export const MATCH_LIMIT = 3;
/** Miles: farther than this is not "local". */
export const MATCH_RADIUS = 50;
/** Nearest candidates read before the rating tie-break; more than enough for three. */
const MATCH_CANDIDATES = 12;

/**
 * Up to `limit` matches for a job at `location`. Matching is a courtesy on top of a stored
 * lead, so an unknown place or a failing read yields no matches rather than an error.
 */
export async function matchPros(
  store: Store,
  location: string,
  service: string,
  limit = MATCH_LIMIT,
): Promise<ProMatch[]> {
  const place = findPlace(location);
  if (!place) return [];
  try {
    const { data } = await store.businesses.list({
      near: place,
      radius: MATCH_RADIUS,
      service: optionLabel(PRO_SERVICES, service),
      sort: "distance",
      limit: MATCH_CANDIDATES,
    });
    return data
      .map((b) => ({ b, miles: b.distanceMiles ?? 0 }))
      .sort((x, y) => x.miles - y.miles || Number(y.b.rating) - Number(x.b.rating) || y.b.reviewCount - x.b.reviewCount)
      .slice(0, limit)
      .map(({ b, miles }) => ({
        id: b.id,
        name: b.name,
        slug: b.slug,
        phone: b.phone ?? null,
        rating: b.rating,
        reviewCount: b.reviewCount,
        distanceMiles: miles,
      }));
  } catch (error) {
    console.warn(`[lead] find-pros: directory lookup failed (${errorName(error)})`);
    return [];
  }
}

/** A find-pros request after matching: the businesses it was passed to go into the stored lead. */
export type FindProsLead = FindProsRequest & { matchedBusinesses?: ProMatch[] };

export const FIND_PROS_ENDPOINT: LeadEndpoint<FindProsLead> = {
  type: "find-pros",
  form: FIND_PROS_FORM,
  schema: FindProsRequest,
  multipartLimit: PHOTO_BODY_LIMIT,
  async readUploads(form): ReturnType<NonNullable<LeadEndpoint["readUploads"]>> {
    const photo = await checkPhoto(form.get("photo"));
    if (!photo.ok) return { errors: { photo: photo.message } };
    return photo.bytes
      ? { errors: {}, upload: { bytes: photo.bytes, contentType: photo.contentType } }
      : { errors: {} };
  },
  // Matched before the write, so the stored lead names the businesses it went to.
  check: async (data, store) => ({
    data: { ...data, matchedBusinesses: await matchPros(store, data.location, data.serviceType) },
  }),
  prepare(data) {
    const matches = data.matchedBusinesses ?? [];
    return {
      stored: { ...data, matchedBusinesses: matches },
      reply: matches.length > 0 ? { matches } : { matches, message: NO_MATCHES_MESSAGE },
    };
  },
  confirmation: (data, reply) =>
    findProsConfirmationPage(data.matchedBusinesses ?? [], receiptOf(reply, urgencyOf("find-pros", data))),
};
