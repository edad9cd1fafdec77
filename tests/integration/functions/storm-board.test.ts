/**
 * Surge routing and the storm board, in-process on a real Redis: an
 * emergency inside a declared storm goes to STORM_OFFER_PROS pros at once and keeps the
 * event's id; outside it, or not an emergency, MATCH_LIMIT; the clock keeps its schedule (one
 * more pro at minute 10, the operator at minute 20); GET /api/admin/storm-board counts the
 * event's requests per hour and by status, and the businesses in its area taking storm jobs.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminStormBoardHandler } from "../../../netlify/lib/admin/storm-board.ts";
import { advanceLead, answerLead } from "../../../netlify/lib/delivery/progress.ts";
import { FIND_PROS_ENDPOINT } from "../../../netlify/lib/find-pros.ts";
import { MATCH_LIMIT } from "../../../netlify/lib/matching.ts";
import { declareStorm } from "../../../netlify/lib/storms.ts";
import { searchDirectory } from "../../../netlify/lib/directory-search.ts";
import { parseEnv } from "../../../src/lib/env.ts";
import { zipPoint } from "../../../src/lib/geo/places.ts";
import type { BusinessInput } from "../../../src/lib/schemas/business.ts";
import { STORM_OFFER_PROS, type StormBoardReply } from "../../../src/lib/storm-routing.ts";
import type { StormEvent } from "../../../src/lib/storm.ts";
import {
  functionsHarness,
  getRequest,
  jsonRequest,
  nextIp,
  testBusiness,
  validFindPros,
} from "../../helpers/functions.ts";

const TOKEN = "storm-board-admin-token-0123456789";
const MIN = 60_000;
const h = await functionsHarness("storm-board");
afterAll(async () => {
  await h?.teardown();
});

// Eight 24/7 crews around downtown Miami, one in Austin.
const MIAMI_ZIPS = ["33131", "33130", "33132", "33129", "33136", "33128", "33125", "33135"];
const crew = (id: string, zip: string, over: Partial<BusinessInput> = {}) =>
  testBusiness(id, {
    name: `Storm Crew ${id}`,
    slug: `storm-crew-${id}`,
    city: "Miami",
    state: "FL",
    zipCode: zip,
    email: `${id}@pros.test`,
    timeZone: "America/New_York",
    services: ["Tree Removal"],
    emergency247: true,
    location: zipPoint(zip)!,
    ...over,
  });

describe.skipIf(!h)("storm mode: surge routing and the storm board", () => {
  const env = parseEnv({ RATE_LIMIT_PER_MINUTE: "1000", ADMIN_TOKEN: TOKEN, LINK_SIGNING_SECRET: "x".repeat(40) });
  let storm: StormEvent;

  beforeAll(async () => {
    for (const [i, zip] of MIAMI_ZIPS.entries()) await h!.store.businesses.upsert(crew(`m${i}`, zip));
    await h!.store.businesses.upsert(
      crew("austin", "78701", { city: "Austin", state: "TX", timeZone: "America/Chicago" }),
    );
    await h!.store.capacity.set("m7", { status: "taking", setAt: new Date().toISOString(), via: "owner" });
    await h!.store.capacity.set("austin", { status: "taking", setAt: new Date().toISOString(), via: "owner" });
    storm = await declareStorm(
      {
        name: "Hurricane Test",
        area: { kind: "zips", zips: MIAMI_ZIPS },
        startsAt: new Date(Date.now() - 60 * MIN).toISOString(),
        declaration: { level: "governor", reference: "EO 26-001" },
      },
      { store: h!.store },
    );
  });

  const request = async (location: string, timeline: string) => {
    const res = await h!.handler(FIND_PROS_ENDPOINT, { env })(
      jsonRequest("/api/find-pros", { ...validFindPros(), location, timeline }),
      nextIp(),
    );
    expect(res.status).toBe(201);
    const body = await res.json();
    return (await h!.store.leads.get(body.id))!;
  };
  const board = async (headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) =>
    adminStormBoardHandler({ store: () => h!.store, env })(getRequest("/api/admin/storm-board", { headers }), nextIp());

  it("an emergency inside the storm goes to STORM_OFFER_PROS at once; the clock adds one at minute 10 and escalates at 20", async () => {
    const lead = await request("33131", "emergency");
    expect(lead.storm).toBe(storm.id);
    expect(lead.routing!.deliveries).toHaveLength(STORM_OFFER_PROS);
    // m7, the farthest, said it is taking storm jobs: it comes first, then the nearest.
    const ids = lead.routing!.deliveries.map((d) => d.businessId);
    expect(ids[0]).toBe("m7");
    expect(ids[1]).toBe("m0");
    const matches = (lead.data as { matchedBusinesses: { id: string; takingStormJobs?: true }[] }).matchedBusinesses;
    expect(matches.filter((m) => m.takingStormJobs).map((m) => m.id)).toEqual(["m7"]);
    expect(await h!.store.stormLeads.count(storm.id)).toBe(1);

    const offeredAt = Date.parse(lead.routing!.deliveries[0]!.offeredAt);
    expect(await advanceLead(h!.store, lead.id, offeredAt + 10 * MIN + 1, async () => {})).toBe(true);
    const ten = (await h!.store.leads.get(lead.id))!;
    expect(ten.routing!.deliveries).toHaveLength(STORM_OFFER_PROS + 1);
    expect(ten.routing!.events.at(-1)).toMatchObject({ kind: "offered", reason: "next-pro" });
    expect(await advanceLead(h!.store, lead.id, offeredAt + 20 * MIN + 2, async () => {})).toBe(true);
    const twenty = (await h!.store.leads.get(lead.id))!;
    expect(twenty.status).toBe("escalated");
    expect(twenty.routing!.events.at(-1)).toMatchObject({ kind: "escalated", reason: "no-answer" });
  });

  it("not an emergency: MATCH_LIMIT (taking ones first) and counted in the storm; outside it, no storm", async () => {
    const routine = await request("33131", "within-week");
    expect(routine.routing!.deliveries.map((d) => d.businessId).slice(0, 2)).toEqual(["m7", "m0"]);
    expect(routine.routing!.deliveries).toHaveLength(MATCH_LIMIT);
    expect(routine.storm).toBe(storm.id);
    const austin = await request("78701", "emergency");
    expect(austin.storm).toBeUndefined();
    expect(austin.routing!.deliveries.map((d) => d.businessId)).toEqual(["austin"]);
  });

  it("the board: requests per hour, waiting, accepted, escalated, and who in the area is taking work", async () => {
    const accepted = await request("33130", "emergency");
    await answerLead(h!.store, accepted.id, "m1", { kind: "accept" }, Date.now(), async () => {});
    await request("33132", "emergency");
    await h!.store.capacity.set("m6", {
      status: "booked",
      until: "2099-12-31",
      setAt: new Date().toISOString(),
      via: "answer",
    });

    expect((await board({})).status).toBe(401);
    const res = await board();
    expect(res.status).toBe(200);
    const { storms } = (await res.json()) as StormBoardReply;
    expect(storms).toHaveLength(1);
    const s = storms[0]!;
    expect(s).toMatchObject({
      id: storm.id,
      name: "Hurricane Test",
      active: true,
      requests: 4,
      waiting: 2,
      accepted: 1,
      escalated: 1,
      closed: 0,
      taking: [{ id: "m7", name: "Storm Crew m7" }],
      booked: [{ id: "m6", name: "Storm Crew m6", until: "2099-12-31" }],
    });
    // Every request arrived within the last two clock hours (the storm started an hour ago).
    expect(s.perHour.reduce((n, x) => n + x.count, 0)).toBe(4);
    expect(s.perHour.length).toBeGreaterThanOrEqual(2);
    expect(Date.parse(s.perHour[0]!.hourStart)).toBeGreaterThan(Date.parse(s.perHour.at(-1)!.hourStart));
  });

  it("the directory's near search inside the storm lists businesses taking storm jobs first and says so; outside, as usual", async () => {
    const inside = await searchDirectory(h!.store, new URLSearchParams({ near: "33131", sort: "distance" }));
    expect(inside.ok).toBe(true);
    if (!inside.ok) return;
    expect(inside.answer.takingFirst).toBe(true);
    expect(inside.answer.data[0]).toMatchObject({ id: "m7", takingStormJobs: true });
    expect(inside.answer.data.filter((b) => "takingStormJobs" in b)).toHaveLength(1);
    const outside = await searchDirectory(h!.store, new URLSearchParams({ near: "78701", sort: "distance" }));
    expect(outside.ok && outside.answer.takingFirst).toBeFalsy();
    expect(outside.ok && outside.answer.data.some((b) => "takingStormJobs" in b)).toBe(false);
  });
});
