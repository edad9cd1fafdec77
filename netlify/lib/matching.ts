/**
 * Who a homeowner's job is offered to: directory businesses within MATCH_RADIUS miles of the
 * job that offer its service, nearest first (best rated first among equally near ones), and
 * for an emergency only those answering emergencies 24/7 or open at that moment, and none that
 * said it is fully booked (src/lib/capacity.ts) for that day. One rule for
 * the find-pros request, the quote, the clock's next pro and the operator's list of nearby
 * businesses (operator-offer.ts).
 *
 * Matching reads the job's place as a point (the lead's `place`, resolved when it arrived), so
 * moving a lead on needs no ZIP dataset; a lead stored before places were kept has its text
 * read again by the clock (job-place.ts), while the notifier, which never loads the dataset,
 * leaves such a lead to the operator when nobody is left.
 */
import { isBooked, isTaking } from "../../src/lib/capacity.ts";
import { DEFAULT_TIME_ZONE } from "../../src/lib/hours.ts";
import { PRO_SERVICES, optionLabel, quoteProService } from "../../src/lib/options.ts";
import type { Place } from "../../src/lib/geo/places.ts";
import { timeZoneOf } from "../../src/lib/geo/time-zone.ts";
import type { ProMatch } from "../../src/lib/received.ts";
import type { Lead, LeadPlace } from "../../src/lib/schemas/lead.ts";
import { errorName } from "./http.ts";
import type { Store } from "./store/index.ts";
import type { ListQuery, ListedBusiness } from "./store/repos/businesses.types.ts";
import type { LeadRoute } from "./leads.types.ts";
import { STORM_OFFER_PROS } from "../../src/lib/storm-routing.ts";
import { activeStormAt } from "./storms.ts";
import { candidateOf, type Candidate } from "./delivery/routing.ts";

export const MATCH_LIMIT = 3;
/** Miles: farther than this is not "local". */
export const MATCH_RADIUS = 50;
/** Nearest candidates read before the rating tie-break; more than enough for three. */
const MATCH_CANDIDATES = 12;

/** A match as the visitor sees it, and as the lead is offered to it. */
export interface MatchedPro {
  match: ProMatch;
  candidate: Candidate;
}

/** What matching needs of a job. */
export interface Job {
  place: LeadPlace;
  /** A directory service name (PRO_SERVICES, or a business's own word for a booking); null = any. */
  service: string | null;
  /** Only businesses answering emergencies 24/7 or open at the time of the match. */
  emergency: boolean;
}

/** A resolved place as the lead keeps it (the state only decides the time zone). */
export const leadPlaceOf = (place: Place): LeadPlace => ({
  label: place.label.slice(0, 120),
  ...(place.zip ? { zip: place.zip } : {}),
  lat: place.lat,
  lng: place.lng,
});

/** Nearest first; best rated, then most reviewed, among equally near ones. */
const byDistance = (x: ListedBusiness, y: ListedBusiness) =>
  (x.distanceMiles ?? 0) - (y.distanceMiles ?? 0) ||
  Number(y.rating) - Number(x.rating) ||
  y.reviewCount - x.reviewCount;

/** Most candidates one match reads when fully booked businesses crowd the nearest ones. */
const MATCH_READ_CAP = 200;

/**
 * Businesses near the job offering its service, nearest first, at most `limit`, none of
 * `exclude`, none fully booked at `now` (unless `skipBooked` is false); for an emergency,
 * those answering 24/7 and those open at `now` (two bounded reads merged: the directory
 * filters on one or the other). When booked businesses leave too few, it reads further (up
 * to MATCH_READ_CAP). Throws when the directory cannot be read.
 */
export async function nearbyBusinesses(
  store: Store,
  job: Job,
  {
    limit,
    exclude = new Set(),
    now = Date.now(),
    emergency = job.emergency,
    skipBooked = true,
    preferTaking = false,
  }: NearbyOptions,
): Promise<Nearby[]> {
  let size = Math.max(MATCH_CANDIDATES, limit) + exclude.size;
  for (;;) {
    const query: ListQuery = {
      near: { lat: job.place.lat, lng: job.place.lng },
      radius: MATCH_RADIUS,
      ...(job.service ? { service: job.service } : {}),
      sort: "distance",
      limit: size,
      now,
    };
    const reads = emergency
      ? [
          { ...query, emergency: true },
          { ...query, openNow: true },
        ]
      : [query];
    const lists = await Promise.all(reads.map((q) => store.businesses.list(q)));
    const seen = new Map<string, ListedBusiness>();
    for (const b of lists.flatMap((l) => l.data)) if (!exclude.has(b.id) && !seen.has(b.id)) seen.set(b.id, b);
    let found: Nearby[] = [...seen.values()];
    if ((skipBooked || preferTaking) && found.length > 0) {
      const capacity = await store.capacity.getMany(found.map((b) => b.id));
      if (skipBooked) found = found.filter((b) => !isBooked(capacity.get(b.id), now, b.timeZone ?? DEFAULT_TIME_ZONE));
      if (preferTaking)
        found = found.map((b) => (isTaking(capacity.get(b.id)) ? { ...b, takingStormJobs: true as const } : b));
    }
    // Enough left, or the directory has no more near the job: done.
    const more = lists.some((l) => l.total > size);
    if (found.length >= limit || !more || size >= MATCH_READ_CAP)
      return found
        .sort((x, y) => Number(!!y.takingStormJobs) - Number(!!x.takingStormJobs) || byDistance(x, y))
        .slice(0, limit);
    size = Math.min(MATCH_READ_CAP, size * 2);
  }
}

/** A nearby business; inside a storm (preferTaking), marked when it said it is taking storm jobs. */
export type Nearby = ListedBusiness & { takingStormJobs?: true };

export interface NearbyOptions {
  limit: number;
  /** Businesses already offered the lead. */
  exclude?: ReadonlySet<string>;
  /** The clock "open now" is read at. */
  now?: number;
  /** Override the job's emergency filter (the operator's list shows every nearby business). */
  emergency?: boolean;
  /** Leave out businesses fully booked at `now` (default true; the operator's list keeps them). */
  skipBooked?: boolean;
  /** Inside a storm: businesses taking storm jobs first (within MATCH_RADIUS), then the nearest. */
  preferTaking?: boolean;
}

/** A listed business as the visitor's confirmation shows it. */
export function proMatchOf(b: Nearby): ProMatch {
  return {
    id: b.id,
    name: b.name,
    slug: b.slug,
    phone: b.phone ?? null,
    rating: b.rating,
    reviewCount: b.reviewCount,
    distanceMiles: b.distanceMiles ?? 0,
    ...(b.isSample ? { isSample: true as const } : {}),
    ...(b.takingStormJobs ? { takingStormJobs: true as const } : {}),
  };
}

/**
 * Up to `limit` matches for the job, as the visitor sees them and as the lead is offered to
 * them. Matching is a courtesy on top of a stored lead, so a failing read yields none (the
 * lead then goes to the operator).
 */
export async function matchPros(store: Store, job: Job, options: Partial<NearbyOptions> = {}): Promise<MatchedPro[]> {
  try {
    const found = await nearbyBusinesses(store, job, { limit: MATCH_LIMIT, ...options });
    return found.map((b) => ({ match: proMatchOf(b), candidate: candidateOf(b, b.distanceMiles) }));
  } catch (error) {
    console.warn(`[lead] matching: directory lookup failed (${errorName(error)})`);
    return [];
  }
}

/** A new lead's route and the matches its visitor is shown. */
export interface JobRoute {
  route: LeadRoute;
  matches: ProMatch[];
}

/**
 * Routes a new job at `place` (null: the text named no place we know) asking for `service`:
 * the nearby matches, the place as the lead keeps it, and the job's time zone (its state's,
 * else the nearest match's, else DEFAULT_TIME_ZONE). No match: the operator's, saying why.
 * Inside an active storm (activeStormAt) businesses taking storm jobs come first, an emergency
 * is offered to STORM_OFFER_PROS at once instead of MATCH_LIMIT, and the lead keeps the event's
 * id (the storm board counts it).
 */
export async function routeJob(
  store: Store,
  place: Place | null,
  service: string | null,
  emergency: boolean,
  now: number,
): Promise<JobRoute> {
  if (!place) return { route: { candidates: [], noMatch: "no-place", timeZone: DEFAULT_TIME_ZONE }, matches: [] };
  const kept = leadPlaceOf(place);
  // activeStormAt fails soft (no storm) when the store cannot say.
  const storm = await activeStormAt({ zip: place.zip, state: place.state, lat: place.lat, lng: place.lng }, now, store);
  const limit = storm && emergency ? STORM_OFFER_PROS : MATCH_LIMIT;
  const matched = await matchPros(store, { place: kept, service, emergency }, { now, limit, preferTaking: !!storm });
  const candidates = matched.map((m) => m.candidate);
  const timeZone = timeZoneOf(place.state, place) ?? candidates[0]?.timeZone ?? DEFAULT_TIME_ZONE;
  return {
    route: { candidates, place: kept, timeZone, ...(storm ? { storm: storm.id } : {}) },
    matches: matched.map((m) => m.match),
  };
}

/** The service a lead asks for, as the directory names it; null when it names none. */
export function serviceOf(lead: Pick<Lead, "type" | "data">): string | null {
  const data = (lead.data && typeof lead.data === "object" ? lead.data : {}) as Record<string, unknown>;
  const service = typeof data.serviceType === "string" ? data.serviceType : "";
  if (!service) return null;
  switch (lead.type) {
    case "quote":
      return quoteProService(service) ?? null;
    case "find-pros":
      return optionLabel(PRO_SERVICES, service);
    case "booking":
      return service;
    default:
      return null;
  }
}

/**
 * The job a lead describes, for matching, at `place` (default: where it was matched when it
 * arrived); null without a place (a booking, a lead stored before places were kept, a text
 * naming none) or for a request that is not a job (growth).
 */
export function jobOf(
  lead: Pick<Lead, "type" | "data" | "place" | "urgency">,
  place: LeadPlace | null | undefined = lead.place,
): Job | null {
  if (lead.type === "audit" || lead.type === "assessment" || !place) return null;
  return { place, service: serviceOf(lead), emergency: lead.urgency === "emergency" };
}

/**
 * The nearest matching business the lead has not been offered yet, near `place` (default: the
 * lead's own); null when none.
 */
export async function nextProFor(
  store: Store,
  lead: Lead,
  now: number,
  place: LeadPlace | null | undefined = lead.place,
): Promise<Candidate | null> {
  const job = jobOf(lead, place);
  if (!job) return null;
  const offered = new Set((lead.routing?.deliveries ?? []).map((d) => d.businessId));
  const [next] = await matchPros(store, job, { limit: 1, exclude: offered, now, preferTaking: !!lead.storm });
  return next?.candidate ?? null;
}
