/**
 * GET /api/admin/storm-board: one row per declared storm event, newest first:
 * requests per hour, waiting, accepted, escalated, and the businesses in its area taking
 * storm jobs (or fully booked). Read from the storm's leads index (store.stormLeads) and the
 * capacity statements (store.capacity): nothing here scans the directory or every lead.
 */
import { isBooked } from "../../../src/lib/capacity.ts";
import { DEFAULT_TIME_ZONE } from "../../../src/lib/hours.ts";
import { areaCovers, areaLine, stormActive, type StormEvent } from "../../../src/lib/storm.ts";
import {
  STORM_BOARD_HOURS,
  STORM_BOARD_LEADS,
  type StormBoardEvent,
  type StormBoardReply,
} from "../../../src/lib/storm-routing.ts";
import { endpoint, jsonResponse, storeCall } from "../http.ts";
import type { Store } from "../store/index.ts";
import { adminSpec, type AdminDeps, type AdminHandler } from "./endpoint.ts";

const HOUR = 3_600_000;

/** Storm events the board shows: the newest ones (ended ones stay, for the after-action count). */
const BOARD_EVENTS = 10;

/** The board at `now`. */
export async function stormBoard(store: Store, now: number): Promise<StormBoardReply> {
  const events = (await store.storms.list()).slice(0, BOARD_EVENTS);
  if (events.length === 0) return { storms: [] };
  // Who said anything about their capacity, once for every event.
  const stated = await store.capacity.stated();
  const businesses = await store.businesses.getMany(stated.map((s) => s.businessId));
  const byId = new Map(businesses.map((b) => [b.id, b]));
  const storms = await Promise.all(
    events.map(async (event): Promise<StormBoardEvent> => {
      const [requests, leads] = await Promise.all([
        store.stormLeads.count(event.id),
        store.stormLeads.statuses(event.id, STORM_BOARD_LEADS),
      ]);
      const count = (...statuses: string[]) => leads.filter((l) => statuses.includes(l.status)).length;
      const taking: StormBoardEvent["taking"] = [];
      const booked: StormBoardEvent["booked"] = [];
      for (const { businessId, capacity } of stated) {
        const b = byId.get(businessId);
        if (!b || !covers(event, b)) continue;
        if (capacity.status === "taking") taking.push({ id: b.id, name: b.name });
        else if (isBooked(capacity, now, b.timeZone ?? DEFAULT_TIME_ZONE))
          booked.push({ id: b.id, name: b.name, until: capacity.until! });
      }
      return {
        id: event.id,
        name: event.name,
        area: areaLine(event.area),
        startsAt: event.startsAt,
        ...(event.endsAt ? { endsAt: event.endsAt } : {}),
        active: stormActive(event, now),
        requests,
        waiting: count("new", "offered"),
        accepted: count("accepted"),
        escalated: count("escalated"),
        closed: count("closed"),
        taking,
        booked,
        perHour: perHour(event, leads, now),
      };
    }),
  );
  return { storms };
}

/** The business's own place inside the event's area (its ZIP, state or point). */
const covers = (event: StormEvent, b: { zipCode?: string; state?: string; location?: { lat: number; lng: number } }) =>
  areaCovers(event.area, { zip: b.zipCode, state: b.state, lat: b.location?.lat, lng: b.location?.lng });

/** Arrivals per UTC clock hour, newest first, from the event's start (at most STORM_BOARD_HOURS). */
function perHour(event: StormEvent, leads: readonly { at: number }[], now: number) {
  const last = Math.floor(Math.min(now, event.endsAt ? Date.parse(event.endsAt) : now) / HOUR) * HOUR;
  const first = Math.max(Math.floor(Date.parse(event.startsAt) / HOUR) * HOUR, last - (STORM_BOARD_HOURS - 1) * HOUR);
  const out: { hourStart: string; count: number }[] = [];
  for (let hour = last; hour >= first; hour -= HOUR) {
    out.push({
      hourStart: new Date(hour).toISOString(),
      count: leads.filter((l) => l.at >= hour && l.at < hour + HOUR).length,
    });
  }
  return out;
}

/** GET /api/admin/storm-board -> StormBoardReply. */
export function adminStormBoardHandler(deps: AdminDeps = {}): AdminHandler {
  return endpoint(adminSpec("storm-board", ["GET"]), deps, async ({ store, now }) =>
    jsonResponse(await storeCall(() => stormBoard(store, now()))),
  );
}
