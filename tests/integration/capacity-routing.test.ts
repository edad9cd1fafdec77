/**
 * Routing and capacity: a business that said it is fully booked gets no new offer
 * until its day is over, in its own time zone; the next nearest does. On the embedded store
 * (every transport runs the same repositories: tests/integration/store/capacity.ts).
 */
import { afterAll, describe, expect, it } from "vitest";
import { createStore } from "../../netlify/lib/store/index.ts";
import { matchPros, nextProFor } from "../../netlify/lib/matching.ts";
import { nearbyCandidates } from "../../netlify/lib/delivery/operator-offer.ts";
import { initialRouting } from "../../netlify/lib/delivery/routing.ts";
import { zipPoint } from "../../src/lib/geo/places.ts";
import type { Capacity } from "../../src/lib/capacity.ts";
import type { BusinessInput } from "../../src/lib/schemas/business.ts";
import { testBusiness } from "../helpers/functions.ts";

const store = createStore({ transport: "embedded", prefix: "test:capacity-routing:" });
afterAll(() => store.close());

// Noon in Miami, Sunday Nov 29 2026.
const NOON = Date.parse("2026-11-29T17:00:00Z");
const place = { label: "Miami, FL 33131", zip: "33131", ...zipPoint("33131")! };
const job = {
  place: { label: place.label, zip: place.zip, lat: place.lat, lng: place.lng },
  service: "Tree Removal",
  emergency: true,
};

function miami(id: string, zip: string, over: Partial<BusinessInput> = {}): BusinessInput {
  const { lat, lng } = zipPoint(zip)!;
  return testBusiness(id, {
    name: `Miami ${id}`,
    slug: `miami-${id}`,
    city: "Miami",
    state: "FL",
    zipCode: zip,
    email: `${id}@pros.test`,
    timeZone: "America/New_York",
    services: ["Tree Removal"],
    emergency247: true,
    location: { lat, lng },
    ...over,
  });
}

const booked = (until: string): Capacity => ({
  status: "booked",
  until,
  setAt: new Date(NOON).toISOString(),
  via: "answer",
});

const ids = async (options: Parameters<typeof matchPros>[2] = {}) =>
  (await matchPros(store, job, { now: NOON, ...options })).map((m) => m.match.id);

describe("routing skips fully booked businesses", () => {
  it("offers the next nearest instead, until the booked day is over in the business's zone", async () => {
    // Nearest first: 33131, 33130, 33133, 33125.
    for (const [id, zip] of [
      ["near", "33131"],
      ["second", "33130"],
      ["third", "33133"],
      ["fourth", "33125"],
    ] as const)
      await store.businesses.upsert(miami(id, zip));
    expect(await ids()).toEqual(["near", "second", "third"]);

    await store.capacity.set("near", booked("2026-11-29"));
    expect(await ids()).toEqual(["second", "third", "fourth"]);
    // Still booked at 23:59 in Miami (04:59 UTC the next day), free at 00:00.
    expect(await ids({ now: Date.parse("2026-11-30T04:59:00Z") })).not.toContain("near");
    expect(await ids({ now: Date.parse("2026-11-30T05:00:00Z") })).toContain("near");

    // "Taking storm jobs" is no booking; clearing the statement puts it back.
    await store.capacity.set("near", { status: "taking", setAt: new Date(NOON).toISOString(), via: "owner" });
    expect(await ids()).toEqual(["near", "second", "third"]);
    await store.capacity.set("near", booked("2026-12-02"));
    await store.capacity.set("near", null);
    expect(await ids()).toEqual(["near", "second", "third"]);
  });

  it("the clock's next pro skips a booked business too; the operator's list keeps it", async () => {
    await store.capacity.set("fourth", booked("2026-12-05"));
    const { lead } = await store.leads.create(
      "quote",
      { name: "Mia Homeowner", email: "mia@example.com", serviceType: "tree-removal", address: "100 Biscayne Blvd" },
      {
        sourcePage: "/",
        urgency: "emergency",
        routing: initialRouting(
          (await matchPros(store, job, { now: NOON })).map((m) => m.candidate),
          "emergency",
          NOON,
        ),
        place: job.place,
        timeZone: "America/New_York",
      },
    );
    expect(lead.routing!.deliveries.map((d) => d.businessId)).toEqual(["near", "second", "third"]);
    // "fourth" is booked and nobody else is near: no next pro.
    expect(await nextProFor(store, lead, NOON)).toBeNull();
    await store.capacity.set("fourth", booked("2026-11-28"));
    expect((await nextProFor(store, lead, NOON))?.businessId).toBe("fourth");
    await store.capacity.set("fourth", booked("2026-12-05"));
    const list = await nearbyCandidates(store, lead, 10, NOON);
    expect(list.map((c) => c.id)).toContain("fourth");
  });

  it("reads past a crowd of booked businesses to find free ones farther out", async () => {
    const crowd = createStore({ transport: "embedded", prefix: "test:capacity-crowd:" });
    try {
      const zips = [
        "33131",
        "33130",
        "33133",
        "33125",
        "33129",
        "33132",
        "33136",
        "33128",
        "33135",
        "33137",
        "33145",
        "33127",
        "33142",
        "33134",
        "33138",
      ];
      for (const [i, zip] of zips.entries()) {
        await crowd.businesses.upsert(miami(`c${String(i).padStart(2, "0")}`, zip));
        if (i < 13) await crowd.capacity.set(`c${String(i).padStart(2, "0")}`, booked("2026-12-01"));
      }
      const found = await matchPros(crowd, job, { now: NOON });
      expect(found.map((m) => m.match.id).sort()).toEqual(["c13", "c14"]);
    } finally {
      await crowd.close();
    }
  });
});
