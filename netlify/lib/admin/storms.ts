/**
 * Storm events behind /admin's Storms tab (same gate as every admin handler):
 *
 *   GET   /api/admin/storms                      -> AdminStormsReply (events, NWS suggestions, last check)
 *   POST  /api/admin/storms {StormInputSchema}   -> 201 {data: StormEvent}
 *   PATCH /api/admin/storms/:id {StormPatch}     -> {data: StormEvent} (a full edit, or {end: true})
 *   PATCH /api/admin/storm-suggestions/:id {action: "dismiss"} -> {data: StormSuggestion}
 *
 * Declaring from a suggestion is the POST with `fromSuggestion`: the event and the
 * suggestion's "declared" are written in one step. A radius's center is read by the
 * directory's place lookup, so a ZIP or "City, ST" the dataset does not know is a 400 on
 * `area.place`. Every write purges the `directory` cache tag: the business, directory and
 * /storm pages show the notice from their next render.
 */
import {
  STORM_MESSAGES,
  StormEvent,
  StormInputSchema,
  StormPatch,
  type AdminStormsReply,
  type StormArea,
  type StormAreaInput,
} from "../../../src/lib/storm.ts";
import { z } from "../../../src/lib/zod.ts";
import { DIRECTORY_TAG, netlifyPurge, purgeQuietly } from "../directory.ts";
import { HttpError, afterResponse, endpoint, jsonError, jsonResponse, storeCall, type Endpoint } from "../http.ts";
import { timeId } from "../store/ids.ts";
import { ADMIN_QUERY_ERROR, adminSpec, readPatch, type AdminDeps } from "./endpoint.ts";

export const ADMIN_STORM_ROUTE = "/api/admin/storms/:id" as const;
export const ADMIN_STORM_SUGGESTION_ROUTE = "/api/admin/storm-suggestions/:id" as const;

const STORM_ID = /^storm_[0-9a-z]{19}$/;

/** The stored area for the operator's: a radius's center found by the place lookup, or the 400. */
async function areaOf(input: StormAreaInput): Promise<StormArea> {
  if (input.kind === "states") return { kind: "states", states: [...new Set(input.states)] };
  if (input.kind === "zips") return { kind: "zips", zips: [...new Set(input.zips)] };
  const { findPlace } = await import("../../../src/lib/geo/places.ts");
  const place = findPlace(input.place);
  if (!place)
    throw new HttpError(400, ADMIN_QUERY_ERROR, { extra: { fields: { "area.place": STORM_MESSAGES.unknownPlace } } });
  return {
    kind: "radius",
    label: place.label,
    lat: Math.round(place.lat * 10_000) / 10_000,
    lng: Math.round(place.lng * 10_000) / 10_000,
    ...(place.state ? { state: place.state } : {}),
    miles: input.miles,
  };
}

/** The event an input makes, keeping `before`'s id and creation when it edits one. */
async function eventOf(input: StormInputSchema, at: number, before?: StormEvent): Promise<StormEvent> {
  const iso = new Date(at).toISOString();
  return StormEvent.parse({
    id: before?.id ?? timeId("storm", at),
    name: input.name,
    area: await areaOf(input.area),
    startsAt: new Date(input.startsAt).toISOString(),
    ...(input.endsAt ? { endsAt: new Date(input.endsAt).toISOString() } : {}),
    declaration: input.declaration,
    ...((input.fromSuggestion ?? before?.alertId) ? { alertId: input.fromSuggestion ?? before?.alertId } : {}),
    createdAt: before?.createdAt ?? iso,
    updatedAt: iso,
  });
}

/** GET and POST /api/admin/storms. */
export function adminStormsHandler(deps: AdminDeps = {}): Endpoint {
  const purge = deps.purge ?? netlifyPurge;
  return endpoint(adminSpec("storms", ["GET", "POST"]), deps, async ({ req, store, now, body, context }) => {
    if (req.method === "GET") {
      const [storms, suggestions, runs] = await storeCall(() =>
        Promise.all([store.storms.list(), store.storms.suggestions(), store.runs.latest(["storm-alerts"])]),
      );
      const run = runs["storm-alerts"];
      const reply: AdminStormsReply = {
        storms,
        suggestions,
        ...(run
          ? { lastCheck: { at: run.finishedAt, outcome: run.outcome, ...(run.error ? { error: run.error } : {}) } }
          : {}),
      };
      return jsonResponse(reply);
    }
    const input = readPatch(StormInputSchema, body);
    if (input.fromSuggestion && !(await storeCall(() => store.storms.getSuggestion(input.fromSuggestion!))))
      return jsonError(404, STORM_MESSAGES.suggestionNotFound);
    const event = await eventOf(input, now());
    await storeCall(() => store.storms.create(event, input.fromSuggestion));
    console.info(`[admin] storm ${event.id}: declared (${event.area.kind})`);
    await afterResponse(context, purgeQuietly(purge, [DIRECTORY_TAG]));
    return jsonResponse({ data: event }, 201);
  });
}

/** PATCH /api/admin/storms/:id: edit or end. */
export function adminStormHandler(deps: AdminDeps = {}): Endpoint {
  const purge = deps.purge ?? netlifyPurge;
  const spec = {
    ...adminSpec("storm", ["PATCH"]),
    route: { path: ADMIN_STORM_ROUTE, valid: (v: string) => STORM_ID.test(v), notFound: STORM_MESSAGES.notFound },
  };
  return endpoint(spec, deps, async ({ store, now, params: { id }, body, context }) => {
    const patch = readPatch(StormPatch, body);
    const before = await storeCall(() => store.storms.get(id));
    if (!before) return jsonError(404, STORM_MESSAGES.notFound);
    const at = now();
    let after: StormEvent;
    if ("end" in patch) {
      if (before.endsAt && Date.parse(before.endsAt) <= at)
        return jsonError(409, STORM_MESSAGES.alreadyEnded, { data: before });
      const iso = new Date(at).toISOString();
      // Ending one that has not started yet withdraws it: it never shows.
      after = {
        ...before,
        endsAt: iso,
        updatedAt: iso,
        ...(Date.parse(before.startsAt) > at ? { startsAt: iso } : {}),
      };
    } else {
      after = await eventOf(patch, at, before);
    }
    if (!(await storeCall(() => store.storms.update(after)))) return jsonError(404, STORM_MESSAGES.notFound);
    console.info(`[admin] storm ${id}: ${"end" in patch ? "ended" : "edited"}`);
    await afterResponse(context, purgeQuietly(purge, [DIRECTORY_TAG]));
    return jsonResponse({ data: after });
  });
}

const SuggestionAction = z.object({
  /** Only "dismiss": declaring is a POST to /api/admin/storms with `fromSuggestion`. */
  action: z.literal("dismiss", { error: 'Send {"action": "dismiss"}' }),
});

/** PATCH /api/admin/storm-suggestions/:id {action: "dismiss"}. */
export function adminStormSuggestionHandler(deps: AdminDeps = {}): Endpoint {
  const spec = {
    ...adminSpec("storm suggestion", ["PATCH"]),
    route: {
      path: ADMIN_STORM_SUGGESTION_ROUTE,
      valid: (v: string) => v.length > 0 && v.length <= 300,
      notFound: STORM_MESSAGES.suggestionNotFound,
    },
  };
  return endpoint(spec, deps, async ({ store, params: { id }, body }) => {
    readPatch(SuggestionAction, body);
    if (!(await storeCall(() => store.storms.dismissSuggestion(id))))
      return jsonError(404, STORM_MESSAGES.suggestionNotFound);
    return jsonResponse({ data: await storeCall(() => store.storms.getSuggestion(id)) });
  });
}
