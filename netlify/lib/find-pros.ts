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
import { noMatchesMessage } from "../../src/lib/forms/copy.ts";
import { findPlace } from "../../src/lib/geo/places.ts";
import { PRO_SERVICES, optionLabel } from "../../src/lib/options.ts";
import { FindProsRequest } from "../../src/lib/schemas/forms.ts";
import { checkPhoto } from "./blobs.ts";
import { errorName } from "./http.ts";
import type { LeadEndpoint } from "./leads.types.ts";
import type { ProMatch } from "../../src/lib/received.ts";
import { PHOTO_BODY_LIMIT } from "./leads.ts";
import { urgencyOf } from "../../src/lib/lead-urgency.ts";
import type { Store } from "./store/index.ts";
import { candidateOf, type Candidate } from "./delivery/routing.ts";

export const MATCH_LIMIT = 3;
/** Miles: farther than this is not "local". */
export const MATCH_RADIUS = 50;
/** Nearest candidates read before the rating tie-break; more than enough for three. */
const MATCH_CANDIDATES = 12;

/** The find-pros reply's `message` when nothing matched (routine; noMatchesMessage(urgency) has the emergency's). */
export const NO_MATCHES_MESSAGE = noMatchesMessage("routine");

/** A match as the visitor sees it, and as the lead is offered to it. */
export interface MatchedPro {
  match: ProMatch;
  candidate: Candidate;
}

/**
 * Up to `limit` matches for a job at `location`, as the visitor sees them and as the lead is
 * offered to them (contacts, time zone); `exclude` skips businesses already offered. Matching
 * is a courtesy on top of a stored lead, so an unknown place or a failing read yields none.
 */
export async function matchCandidates(
  store: Store,
  location: string,
  service: string,
  limit = MATCH_LIMIT,
  exclude: ReadonlySet<string> = new Set(),
): Promise<MatchedPro[]> {
  const place = findPlace(location);
  if (!place) return [];
  try {
    const { data } = await store.businesses.list({
      near: place,
      radius: MATCH_RADIUS,
      service: optionLabel(PRO_SERVICES, service),
      sort: "distance",
      limit: MATCH_CANDIDATES + exclude.size,
    });
    return data
      .filter((b) => !exclude.has(b.id))
      .map((b) => ({ b, miles: b.distanceMiles ?? 0 }))
      .sort((x, y) => x.miles - y.miles || Number(y.b.rating) - Number(x.b.rating) || y.b.reviewCount - x.b.reviewCount)
      .slice(0, limit)
      .map(({ b, miles }) => ({
        match: {
          id: b.id,
          name: b.name,
          slug: b.slug,
          phone: b.phone ?? null,
          rating: b.rating,
          reviewCount: b.reviewCount,
          distanceMiles: miles,
        },
        candidate: candidateOf(b, miles),
      }));
  } catch (error) {
    console.warn(`[lead] find-pros: directory lookup failed (${errorName(error)})`);
    return [];
  }
}

/** A find-pros request after matching: the businesses it was passed to go into the stored lead. */
export type FindProsLead = FindProsRequest & {
  matchedBusinesses?: ProMatch[];
  /** The same businesses as delivery needs them (routing keeps them, the lead data does not). */
  candidates?: Candidate[];
};

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
  async check(data, store) {
    const matched = await matchCandidates(store, data.location, data.serviceType);
    return {
      data: { ...data, matchedBusinesses: matched.map((m) => m.match), candidates: matched.map((m) => m.candidate) },
    };
  },
  candidates: (data) => data.candidates ?? [],
  prepare({ candidates: _candidates, ...data }) {
    const matches = data.matchedBusinesses ?? [];
    return {
      stored: { ...data, matchedBusinesses: matches },
      reply: matches.length > 0 ? { matches } : { matches, message: noMatchesMessage(urgencyOf("find-pros", data)) },
    };
  },
};
