/**
 * What a visitor in a storm area is told, server side (real Redis): the directory's near-me
 * search (API answer and the on-demand page's data) and a business's own area carry the storm
 * notice with their state's price rule for a place inside an active storm, and nothing for a
 * place outside it, before it starts or after it ends. The notice's markup is in
 * tests/unit/storm-notice.test.tsx; the pages in a browser, tests/e2e/storm.spec.ts.
 */
import { afterAll, describe, expect, it } from "vitest";
import { loadDirectoryPage } from "../../../netlify/lib/directory-page.ts";
import { businessesHandler } from "../../../netlify/lib/directory-search.ts";
import { declareStorm, stormForPlace, activeStormAt } from "../../../netlify/lib/storms.ts";
import { parseDirectoryQuery } from "../../../src/lib/directory-url.ts";
import type { StormNotice } from "../../../src/lib/storm.ts";
import { directoryDeps, functionsHarness, getRequest, testBusiness } from "../../helpers/functions.ts";

const h = await functionsHarness("storm-notice");
afterAll(async () => {
  await h?.teardown();
});

const T0 = Date.parse("2026-10-09T12:00:00Z");
const HOUR = 3_600_000;

describe.skipIf(!h)("storm notice", () => {
  const store = h!.store;
  const search = async (near: string, now: number) => {
    const res = await businessesHandler({ ...directoryDeps(h!), now: () => now })(
      getRequest(`/api/businesses?near=${near}&limit=5`),
    );
    expect(res.status).toBe(200);
    return (await res.json()) as { storm?: StormNotice; total: number };
  };

  it("declared for ZIPs around 33101: the near-me search and a Miami business carry it, with Florida's rule; 78701 does not", async () => {
    await store.businesses.upsert(
      testBusiness("storm-miami", {
        city: "Miami",
        state: "FL",
        zipCode: "33101",
        slug: "storm-miami-tree",
        location: { lat: 25.7791, lng: -80.1978 },
      }),
    );
    await store.businesses.upsert(testBusiness("storm-austin", { location: { lat: 30.2713, lng: -97.7426 } }));
    const storm = await declareStorm(
      {
        name: "Hurricane Test",
        area: { kind: "zips", zips: ["33101", "33125", "33130"] },
        startsAt: new Date(T0).toISOString(),
        endsAt: new Date(T0 + 48 * HOUR).toISOString(),
        declaration: { level: "governor", reference: "EO 26-101" },
      },
      { store, now: T0 - HOUR },
    );

    const miami = await search("33101", T0 + HOUR);
    expect(miami.storm).toMatchObject({ id: storm.id, name: "Hurricane Test" });
    expect(miami.storm?.rule.citation).toBe("Florida Statutes 501.160");
    expect(miami.storm?.declaration).toBe("Emergency declared by the governor: EO 26-101.");
    expect((await search("78701", T0 + HOUR)).storm).toBeUndefined();
    // Before its start and at its end, nothing.
    expect((await search("33101", T0 - 1)).storm).toBeUndefined();
    expect((await search("33101", T0 + 48 * HOUR)).storm).toBeUndefined();

    // The on-demand /directory page reads the same answer.
    const page = await loadDirectoryPage(store, parseDirectoryQuery(new URLSearchParams("near=33101")), T0 + HOUR);
    expect(page.data.page.storm?.rule.citation).toBe("Florida Statutes 501.160");
    const austin = await loadDirectoryPage(store, parseDirectoryQuery(new URLSearchParams("near=78701")), T0 + HOUR);
    expect(austin.data.page.storm).toBeUndefined();

    // A business page asks with the business's own ZIP, state and point.
    const miamiBiz = await store.businesses.get("storm-miami");
    const own = await stormForPlace(
      { zip: miamiBiz!.zipCode, state: miamiBiz!.state, lat: 25.7791, lng: -80.1978 },
      T0 + HOUR,
      store,
    );
    expect(own.notice?.rule.state).toBe("FL");
    // Its cached copy ends when the storm does.
    expect(own.freshForSeconds).toBe(47 * 3600);
    const austinBiz = await store.businesses.get("storm-austin");
    expect(
      (await stormForPlace({ zip: austinBiz!.zipCode, state: austinBiz!.state }, T0 + HOUR, store)).notice,
    ).toBeNull();
  });

  it("a radius around a place covers ZIPs by their point; a state area by the ZIP's state", async () => {
    await declareStorm(
      {
        name: "Valley Fire Winds",
        area: { kind: "radius", label: "Sacramento, CA 95814", lat: 38.58, lng: -121.49, state: "CA", miles: 20 },
        startsAt: new Date(T0).toISOString(),
        declaration: { level: "county", reference: "Sacramento County Proclamation 2026-7" },
      },
      { store, now: T0 },
    );
    // 95616 (Davis, about 15 miles) is in; 94102 (San Francisco) is not.
    expect((await activeStormAt({ zip: "95616" }, T0 + HOUR, store))?.name).toBe("Valley Fire Winds");
    expect(await activeStormAt({ zip: "94102" }, T0 + HOUR, store)).toBeNull();
    const davis = await search("95616", T0 + HOUR);
    expect(davis.storm?.rule.citation).toBe("California Penal Code 396");

    await declareStorm(
      {
        name: "Ice Storm",
        area: { kind: "states", states: ["OK"] },
        startsAt: new Date(T0).toISOString(),
        declaration: { level: "federal", reference: "FEMA-9999-EM" },
      },
      { store, now: T0 },
    );
    const tulsa = await stormForPlace({ zip: "74103" }, T0 + HOUR, store);
    expect(tulsa.notice?.name).toBe("Ice Storm");
    expect(tulsa.notice?.rule.state).toBe("");
    expect(await activeStormAt({}, T0 + HOUR, store)).toBeNull();
  });
});
