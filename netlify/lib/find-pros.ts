/**
 * POST /api/find-pros's endpoint definition (the pipeline is leads.ts): the "Get Multiple
 * Quotes Fast" lead goes to up to MATCH_LIMIT directory businesses near the job offering the
 * asked-for service (matching.ts; an emergency only to those answering 24/7 or open now). The
 * location is what the visitor typed: a ZIP ("78664"), "City, ST" or a city name, read by the
 * same place lookup as the directory's `near` search. Kept out of leads.ts so only the
 * functions that match a new lead (this one and the quote's) load the ZIP dataset.
 */
import { FIND_PROS_FORM } from "../../src/lib/forms/fields.ts";
import { noMatchesMessage } from "../../src/lib/forms/copy.ts";
import { findPlace } from "../../src/lib/geo/places.ts";
import { PRO_SERVICES, optionLabel } from "../../src/lib/options.ts";
import { FindProsRequest } from "../../src/lib/schemas/forms.ts";
import { PHOTO_TEXT } from "../../src/lib/photos.ts";
import { checkPhoto } from "./blobs.ts";
import type { LeadEndpoint, LeadRoute } from "./leads.types.ts";
import type { ProMatch } from "../../src/lib/received.ts";
import { PHOTO_BODY_LIMIT } from "./leads.ts";
import { urgencyOf } from "../../src/lib/lead-urgency.ts";
import { routeJob } from "./matching.ts";
import { stormForPlace } from "./storms.ts";
import type { StormNotice } from "../../src/lib/storm.ts";

export { MATCH_LIMIT, MATCH_RADIUS } from "./matching.ts";

/** The find-pros reply's `message` when nothing matched (routine; noMatchesMessage(urgency) has the emergency's). */
export const NO_MATCHES_MESSAGE = noMatchesMessage("routine");

/** A find-pros request after matching: the businesses it was passed to go into the stored lead. */
export type FindProsLead = FindProsRequest & {
  matchedBusinesses?: ProMatch[];
  /** Who it is offered to and where (routing and the lead's envelope keep them, the lead data does not). */
  route?: LeadRoute;
  /** The storm notice when the job's place is inside a declared storm (the confirmation shows it). */
  stormNotice?: StormNotice;
};

export const FIND_PROS_ENDPOINT: LeadEndpoint<FindProsLead> = {
  type: "find-pros",
  form: FIND_PROS_FORM,
  schema: FindProsRequest,
  multipartLimit: PHOTO_BODY_LIMIT,
  multipartTooLarge: PHOTO_TEXT.tooLargeToSend,
  replyOffers: true,
  async readUploads(form): ReturnType<NonNullable<LeadEndpoint["readUploads"]>> {
    const photo = await checkPhoto(form.get("photo"));
    if (!photo.ok) return { errors: { photo: photo.message } };
    return photo.bytes
      ? { errors: {}, upload: { bytes: photo.bytes, contentType: photo.contentType } }
      : { errors: {} };
  },
  // Matched before the write, so the stored lead names the businesses it went to.
  async check(data, store, now) {
    const emergency = urgencyOf("find-pros", data) === "emergency";
    const service = optionLabel(PRO_SERVICES, data.serviceType);
    const place = findPlace(data.location);
    const { route, matches } = await routeJob(store, place, service, emergency, now);
    const storm = place ? (await stormForPlace(place, now, store)).notice : null;
    return { data: { ...data, matchedBusinesses: matches, route, ...(storm ? { stormNotice: storm } : {}) } };
  },
  route: (data) => data.route ?? { candidates: [] },
  prepare({ route: _route, ...data }) {
    const matches = data.matchedBusinesses ?? [];
    return {
      stored: { ...data, matchedBusinesses: matches },
      reply: {
        ...(matches.length > 0 ? { matches } : { matches, message: noMatchesMessage(urgencyOf("find-pros", data)) }),
        ...(data.stormNotice ? { storm: data.stormNotice } : {}),
      },
    };
  },
};
