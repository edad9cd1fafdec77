/**
 * Storm mode on the server: which declared storm covers a place now (read from the store), and
 * declaring one. The rules, texts and area matching are src/lib/storm.ts; this fills in what a
 * place's ZIP tells (its state and point) and reads the events.
 */
import {
  StormEvent,
  stormAt,
  stormFreshFor,
  stormNotice,
  type StormNotice,
  type StormPlace,
} from "../../src/lib/storm.ts";
import { errorName } from "./http-responses.ts";
import { getStore, type Store } from "./store/index.ts";
import { timeId } from "./store/ids.ts";

/**
 * The place with its state and point filled from its ZIP where it did not give them. The ZIP
 * dataset is loaded only then (a business page, which has all three, never loads it).
 */
export async function placeFromZip(place: StormPlace): Promise<StormPlace> {
  const zip = place.zip?.trim().slice(0, 5);
  if (!zip || (place.state && typeof place.lat === "number" && typeof place.lng === "number")) return place;
  const { zipPoint } = await import("../../src/lib/geo/places.ts");
  const hit = zipPoint(zip);
  if (!hit) return place;
  return {
    ...place,
    zip,
    state: place.state ?? hit.state,
    lat: place.lat ?? hit.lat,
    lng: place.lng ?? hit.lng,
  };
}

/**
 * The active storm covering `place` at `now`, or null. Fails soft: a store that cannot answer
 * leaves the page without the notice rather than failing the visitor's request.
 */
export async function activeStormAt(
  place: StormPlace,
  now = Date.now(),
  store: Store = getStore(),
): Promise<StormEvent | null> {
  if (!place.zip && !place.state && typeof place.lat !== "number") return null;
  let events: StormEvent[];
  try {
    events = await store.storms.list();
  } catch (error) {
    console.error(`[storms] storm check skipped: ${errorName(error)}`);
    return null;
  }
  return stormAt(await placeFromZip(place), events, now);
}

/** What declaring a storm takes: the event less what the store assigns. */
export type StormInput = Omit<StormEvent, "id" | "createdAt" | "updatedAt">;

/** Declares a storm (validated; a bad input throws zod's error) and returns it as stored. */
export async function declareStorm(
  input: StormInput,
  options: { store?: Store; now?: number; fromSuggestion?: string } = {},
): Promise<StormEvent> {
  const now = options.now ?? Date.now();
  const at = new Date(now).toISOString();
  const event = StormEvent.parse({ ...input, id: timeId("storm", now), createdAt: at, updatedAt: at });
  return (options.store ?? getStore()).storms.create(event, options.fromSuggestion);
}

/** Every declared storm, latest start first. */
export const listStorms = (store: Store = getStore()): Promise<StormEvent[]> => store.storms.list();

/** The notice a page shows for a place, and how long a cached copy of it may live. */
export interface PlaceStorm {
  /** The notice, or null outside every active storm (or when the store could not say). */
  notice: StormNotice | null;
  /** Seconds until a storm starts or ends, for the page's CDN life (undefined: none ahead). */
  freshForSeconds?: number;
}

/**
 * What an on-demand page shows about storms for a place: the notice when an active storm
 * covers it. Fails soft like activeStormAt: a store that cannot answer shows no notice.
 */
export async function stormForPlace(
  place: StormPlace,
  now = Date.now(),
  store: Store = getStore(),
): Promise<PlaceStorm> {
  let events: StormEvent[];
  try {
    events = await store.storms.list();
  } catch (error) {
    console.error(`[storms] storm check skipped: ${errorName(error)}`);
    return { notice: null };
  }
  const freshForSeconds = stormFreshFor(events, now);
  const filled = await placeFromZip(place);
  const event = stormAt(filled, events, now);
  return {
    notice: event ? stormNotice(event, filled) : null,
    ...(freshForSeconds !== undefined ? { freshForSeconds } : {}),
  };
}
