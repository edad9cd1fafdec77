/**
 * Storm mode's operator side, handlers in process against real Redis: the scheduled NWS check
 * against a local fake of api.weather.gov (tests/helpers/fake-nws.ts): suggestions from a FL
 * hurricane warning, grouped, never declared by themselves, the User-Agent NWS asks for, a
 * failing state skipped, the run's budget; and /api/admin/storms: declaring (states, ZIPs, a
 * radius around a ZIP), one-step declaring from a suggestion, editing, ending, dismissing,
 * every refusal with its field messages, and the cache purge that makes pages show it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  adminStormHandler,
  adminStormSuggestionHandler,
  adminStormsHandler,
} from "../../../netlify/lib/admin/storms.ts";
import { recordRun } from "../../../netlify/lib/scheduled-run.ts";
import { alertsSummary, checkAlerts, NWS_USER_AGENT, ALERT_STATES } from "../../../netlify/lib/storm-alerts.ts";
import { activeStormAt } from "../../../netlify/lib/storms.ts";
import { parseEnv } from "../../../src/lib/env.ts";
import { SITE } from "../../../src/lib/site.ts";
import type { AdminStormsReply, StormEvent, StormSuggestion } from "../../../src/lib/storm.ts";
import { startFakeNws, type FakeNws } from "../../helpers/fake-nws.ts";
import { functionsHarness, getRequest, jsonRequest, nextIp, patchRequest } from "../../helpers/functions.ts";

const TOKEN = "test-admin-token-storms-0123456";
const h = await functionsHarness("storms");
let nws: FakeNws;
beforeAll(async () => {
  nws = await startFakeNws();
});
afterAll(async () => {
  await nws?.close();
  await h?.teardown();
});

const T0 = Date.parse("2026-10-09T12:00:00Z");
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe.skipIf(!h)("storm mode: operator", () => {
  const store = h!.store;
  const env = parseEnv({ ADMIN_TOKEN: TOKEN, RATE_LIMIT_PER_MINUTE: "1000" });
  const auth = { authorization: `Bearer ${TOKEN}` };
  let clock = T0;
  const purges: string[][] = [];
  const deps = {
    store: () => store,
    env,
    now: () => clock,
    purge: async (tags: string[]) => void purges.push(tags),
  };
  const storms = adminStormsHandler(deps);
  const one = adminStormHandler(deps);
  const dismiss = adminStormSuggestionHandler(deps);
  const list = async () => {
    const res = await storms(getRequest("/api/admin/storms", { headers: auth }), nextIp());
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("no-store");
    return (await res.json()) as AdminStormsReply;
  };
  const declare = (body: unknown, headers: Record<string, string> = auth) =>
    storms(jsonRequest("/api/admin/storms", body, headers), nextIp());
  const edit = (id: string, body: unknown) => one(patchRequest(`/api/admin/storms/${id}`, body, auth), nextIp());
  const check = () => checkAlerts(store, { baseUrl: nws.url, now: () => clock });

  beforeEach(() => {
    nws.reset();
    purges.length = 0;
  });

  describe("the NWS check", () => {
    it("suggests one event per state and hazard from FL's hurricane alerts; nothing shows to visitors", async () => {
      clock = T0;
      nws.set("FL", {
        alerts: [
          {
            event: "Hurricane Warning",
            severity: "Extreme",
            areaDesc: "Miami-Dade; Broward",
            onset: iso(T0 + HOUR),
            expires: iso(T0 + 6 * HOUR),
          },
          {
            event: "Hurricane Warning",
            severity: "Severe",
            messageType: "Update",
            areaDesc: "Broward; Palm Beach",
            onset: iso(T0 + 2 * HOUR),
            ends: iso(T0 + 30 * HOUR),
          },
          // Not storm work, too mild, a test message, a cancellation, already over: none suggests anything.
          { event: "Rip Current Statement", severity: "Severe" },
          { event: "Tropical Storm Watch", severity: "Moderate" },
          { event: "Tornado Warning", status: "Test", severity: "Extreme" },
          { event: "Tornado Warning", messageType: "Cancel", severity: "Extreme" },
          { event: "High Wind Warning", severity: "Severe", onset: iso(T0 - 9 * HOUR), expires: iso(T0 - HOUR) },
        ],
      });
      nws.set("CA", { status: 503 });
      const report = await recordRun(store, "storm-alerts", check, alertsSummary, () => clock);
      expect(report).toMatchObject({
        states: ALERT_STATES.length,
        failed: 1,
        alerts: 7,
        matched: 2,
        suggested: 1,
        outOfTime: false,
      });

      // Every covered state was asked once, each with the User-Agent NWS asks for (name and contact).
      expect(nws.requests.map((r) => r.area).sort()).toEqual([...ALERT_STATES].sort());
      for (const r of nws.requests) {
        expect(r.headers["user-agent"]).toBe(NWS_USER_AGENT);
        expect(r.path).toBe("/alerts/active");
      }
      expect(NWS_USER_AGENT).toContain(SITE.email);

      const { suggestions, storms: events, lastCheck } = await list();
      const mine = suggestions.find((s) => s.id === "nws:FL:hurricane-warning:2026-10-09");
      expect(mine).toMatchObject({
        event: "Hurricane Warning",
        states: ["FL"],
        severity: "Extreme",
        areaDesc: "Miami-Dade; Broward; Palm Beach",
        startsAt: iso(T0 + HOUR),
        endsAt: iso(T0 + 30 * HOUR),
        status: "new",
      });
      expect(events).toEqual([]);
      // CA was not read: the check says so, never "ok".
      expect(lastCheck).toEqual({
        at: iso(T0),
        outcome: "failed",
        error: `the National Weather Service's alerts were not read for 1 of ${ALERT_STATES.length} states`,
      });
      // A suggestion is not a storm: a Miami visitor sees nothing until the operator declares one.
      expect(await activeStormAt({ zip: "33101" }, T0 + 2 * HOUR, store)).toBeNull();

      // The next run sees the same alerts: nothing new.
      expect((await check()).suggested).toBe(0);
    });

    it("stops at its budget: a state that hangs is cut off, the rest left for the next run", async () => {
      // A clock that moves with real time (the budget is real time), from T0.
      const started = Date.now();
      nws.set(ALERT_STATES[0]!, { delayMs: 400, alerts: [] });
      const report = await checkAlerts(store, {
        baseUrl: nws.url,
        budgetMs: 100,
        now: () => T0 + Date.now() - started,
      });
      expect(report.outOfTime).toBe(true);
      expect(report.failed).toBe(ALERT_STATES.length);
      expect(alertsSummary(report).outcome).toBe("partial");
      expect(nws.requests).toHaveLength(1);
    });
  });

  describe("/api/admin/storms", () => {
    it("declares from a suggestion in one step: the event shows, the suggestion says declared", async () => {
      clock = T0 + 2 * HOUR;
      const before = (await list()).suggestions.find((s) => s.id === "nws:FL:hurricane-warning:2026-10-09")!;
      const res = await declare({
        name: "Hurricane Test",
        area: { kind: "states", states: before.states },
        startsAt: before.startsAt,
        declaration: { level: "governor", reference: "EO 26-101" },
        fromSuggestion: before.id,
      });
      expect(res.status).toBe(201);
      const { data } = (await res.json()) as { data: StormEvent };
      expect(data).toMatchObject({
        name: "Hurricane Test",
        alertId: before.id,
        area: { kind: "states", states: ["FL"] },
      });
      expect(purges).toEqual([["directory"]]);
      const after = await list();
      expect(after.suggestions.find((s) => s.id === before.id)).toMatchObject({ status: "declared", stormId: data.id });
      expect((await activeStormAt({ zip: "33101" }, clock, store))?.id).toBe(data.id);
      // Ending it now takes it off visitors' pages.
      const ended = await edit(data.id, { end: true });
      expect(ended.status).toBe(200);
      expect(((await ended.json()) as { data: StormEvent }).data.endsAt).toBe(iso(clock));
      expect(await activeStormAt({ zip: "33101" }, clock, store)).toBeNull();
      expect((await edit(data.id, { end: true })).status).toBe(409);
    });

    it("declares ZIPs and a radius around a ZIP; edits one in full", async () => {
      clock = T0;
      const zips = await declare({
        name: "Hurricane Zips",
        area: { kind: "zips", zips: ["33101", "33125", "33101"] },
        startsAt: iso(T0),
        endsAt: iso(T0 + 72 * HOUR),
        declaration: { level: "county", reference: "Miami-Dade EO 1-26", url: "https://www.miamidade.gov/eo" },
      });
      expect(zips.status).toBe(201);
      const z = ((await zips.json()) as { data: StormEvent }).data;
      expect(z.area).toEqual({ kind: "zips", zips: ["33101", "33125"] });

      const radius = await declare({
        name: "Derecho",
        area: { kind: "radius", place: "78701", miles: "15" },
        startsAt: iso(T0),
        declaration: { level: "federal", reference: "FEMA-9001-EM" },
      });
      expect(radius.status).toBe(201);
      const r = ((await radius.json()) as { data: StormEvent }).data;
      expect(r.area).toMatchObject({ kind: "radius", label: "Austin, TX 78701", state: "TX", miles: 15 });
      expect((await activeStormAt({ zip: "78704" }, T0 + HOUR, store))?.id).toBe(r.id);
      expect(await activeStormAt({ zip: "77002" }, T0 + HOUR, store)).toBeNull();

      clock = T0 + HOUR;
      const edited = await edit(r.id, {
        name: "Derecho (widened)",
        area: { kind: "radius", place: "Austin, TX", miles: 200 },
        startsAt: iso(T0),
        declaration: { level: "governor", reference: "Proclamation 41-4001" },
      });
      expect(edited.status).toBe(200);
      const e = ((await edited.json()) as { data: StormEvent }).data;
      expect(e).toMatchObject({
        id: r.id,
        createdAt: r.createdAt,
        updatedAt: iso(T0 + HOUR),
        name: "Derecho (widened)",
      });
      expect((await activeStormAt({ zip: "77002" }, T0 + HOUR, store))?.id).toBe(e.id);
      const all = await list();
      expect(all.storms.map((s) => s.id)).toEqual(expect.arrayContaining([z.id, r.id]));
    });

    it("refuses bad input with its fields, an unknown place, unknown ids, and no token", async () => {
      const bad = async (body: unknown) => {
        const res = await declare(body);
        expect(res.status).toBe(400);
        return ((await res.json()) as { fields: Record<string, string> }).fields;
      };
      const base = { name: "X storm", startsAt: iso(T0), declaration: { level: "governor", reference: "EO 1" } };
      expect(await bad({ ...base, area: { kind: "zips", zips: ["3310"] } })).toEqual({
        "area.zips.0": "Use 5-digit ZIP codes, e.g. 33101",
      });
      expect(await bad({ ...base, area: { kind: "states", states: [] } })).toEqual({
        "area.states": "Name at least one state",
      });
      expect(await bad({ ...base, area: { kind: "radius", place: "Nowhere, ZZ", miles: 10 } })).toEqual({
        "area.place": "We couldn't find that ZIP code or city",
      });
      expect(await bad({ ...base, area: { kind: "radius", place: "33101", miles: 0 } })).toEqual({
        "area.miles": "Give a radius above 0 miles",
      });
      expect(
        await bad({
          ...base,
          area: { kind: "states", states: ["FL"] },
          declaration: { level: "governor", reference: "" },
        }),
      ).toEqual({ "declaration.reference": "Give the declaration's reference" });
      expect(await bad({ ...base, area: { kind: "states", states: ["FL"] }, endsAt: iso(T0 - 1) })).toEqual({
        endsAt: "The end must come after the start",
      });
      const missing = await declare({ ...base, area: { kind: "states", states: ["FL"] }, fromSuggestion: "nws:none" });
      expect(missing.status).toBe(404);
      expect((await edit(`storm_${"z".repeat(19)}`, { end: true })).status).toBe(404);
      expect((await edit("not-an-id", { end: true })).status).toBe(404);
      expect((await declare({ ...base, area: { kind: "states", states: ["FL"] } }, {})).status).toBe(401);
      expect(purges).toEqual([]);
    });

    it("dismisses a suggestion; the next check does not bring it back", async () => {
      clock = T0;
      nws.set("TX", {
        alerts: [{ event: "Ice Storm Warning", severity: "Severe", onset: iso(T0), expires: iso(T0 + 12 * HOUR) }],
      });
      expect((await check()).suggested).toBe(1);
      const id = "nws:TX:ice-storm-warning:2026-10-09";
      const res = await dismiss(
        patchRequest(`/api/admin/storm-suggestions/${encodeURIComponent(id)}`, { action: "dismiss" }, auth),
        nextIp(),
      );
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: StormSuggestion }).data.status).toBe("dismissed");
      expect((await check()).suggested).toBe(0);
      expect((await store.storms.getSuggestion(id))?.status).toBe("dismissed");
      const unknown = await dismiss(
        patchRequest("/api/admin/storm-suggestions/nws%3Anone", { action: "dismiss" }, auth),
        nextIp(),
      );
      expect(unknown.status).toBe(404);
      const wrong = await dismiss(
        patchRequest(`/api/admin/storm-suggestions/${encodeURIComponent(id)}`, { action: "declare" }, auth),
        nextIp(),
      );
      expect(wrong.status).toBe(400);
    });
  });
});
