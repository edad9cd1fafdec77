/**
 * The operator routing a lead by hand, on a real Redis with the directory's Miami businesses
 * as test data: the nearby list (service first, available-now first for an emergency, none
 * already offered), the refusals that change nothing, and an offer that reopens the lead and
 * reaches the business with a working answer link (kept in /admin on a default install).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nearbyCandidates, offerLeadTo } from "../../netlify/lib/delivery/operator-offer.ts";
import { initialRouting } from "../../netlify/lib/delivery/routing.ts";
import { signer } from "../../netlify/lib/delivery/signing.ts";
import { zipPoint } from "../../src/lib/geo/places.ts";
import { parseEnv } from "../../src/lib/env.ts";
import type { Lead, LeadType } from "../../src/lib/schemas/lead.ts";
import type { BusinessInput } from "../../src/lib/schemas/business.ts";
import { functionsHarness, testBusiness } from "../helpers/functions.ts";

const SECRET = "test-link-secret-0123456789abcdefghijkl";
const SITE = "https://treeline.test";
const env = parseEnv({ SITE_URL: SITE, LINK_SIGNING_SECRET: SECRET });
const h = await functionsHarness("operator-offer");
// 03:00 in Miami on a Thursday: only the 24/7 businesses are open.
const NIGHT = Date.parse("2026-11-26T08:00:00Z");
const DAY_HOURS = Object.fromEntries(
  ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((d) => [d, "7:00 AM - 5:00 PM"]),
);

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
    businessHours: DAY_HOURS,
    location: { lat, lng },
    ...over,
  });
}

const MIAMI_33131 = { label: "Miami, FL 33131", zip: "33131", ...zipPoint("33131")! };
const place = { label: MIAMI_33131.label, zip: MIAMI_33131.zip, lat: MIAMI_33131.lat, lng: MIAMI_33131.lng };

async function storedLead(type: LeadType, over: Partial<Lead> = {}): Promise<Lead> {
  const { lead } = await h!.store.leads.create(
    type,
    { name: "Mia Homeowner", email: "mia@example.com", serviceType: "tree-removal", address: "100 Biscayne Blvd" },
    {
      sourcePage: "/",
      urgency: "emergency",
      routing: initialRouting([], "emergency", Date.now(), "no-pros"),
      ...(type === "quote" ? { place, timeZone: "America/New_York" } : {}),
    },
  );
  return { ...lead, ...over };
}

describe.skipIf(!h)("operator offers", () => {
  beforeAll(async () => {
    // Nearest first: the 33131 one (day hours), then two 24/7 ones, a stump-only one, and Chicago.
    await h!.store.businesses.upsert(miami("op-day", "33131"));
    await h!.store.businesses.upsert(miami("op-247a", "33130", { emergency247: true }));
    await h!.store.businesses.upsert(miami("op-247b", "33133", { emergency247: true, email: undefined }));
    await h!.store.businesses.upsert(miami("op-stumps", "33125", { services: ["Stump Grinding"] }));
    const chicago = zipPoint("60601")!;
    await h!.store.businesses.upsert(
      testBusiness("op-chicago", { city: "Chicago", state: "IL", services: ["Tree Removal"], location: chicago }),
    );
  });
  afterAll(async () => {
    await h?.teardown();
  });

  it("lists nearby businesses offering the service first, available ones first for an emergency, none far away", async () => {
    const lead = await storedLead("quote");
    const list = await nearbyCandidates(h!.store, lead, 10, NIGHT);
    expect(list.map((c) => [c.id, c.offersService, c.emergency247, c.openNow])).toEqual([
      ["op-247a", true, true, false],
      ["op-247b", true, true, false],
      ["op-day", true, false, false],
      ["op-stumps", false, false, false],
    ]);
    expect(list[0]).toMatchObject({ name: "Miami op-247a", slug: "miami-op-247a", email: "op-247a@pros.test" });
    expect(list[0]!.distanceMiles).toBeGreaterThan(0);
    expect(list[1]!.email).toBeNull();
    expect(await nearbyCandidates(h!.store, lead, 2, NIGHT)).toHaveLength(2);
    // A growth request is not a job, and a lead whose place we do not know has no neighbors.
    expect(await nearbyCandidates(h!.store, { ...lead, type: "audit" }, 10, NIGHT)).toEqual([]);
    expect(
      await nearbyCandidates(h!.store, { ...lead, place: undefined, data: { address: "somewhere" } }, 10, NIGHT),
    ).toEqual([]);
  });

  it("refuses unknown, duplicate and already offered businesses, and growth requests, changing nothing", async () => {
    const lead = await storedLead("quote");
    const offer = (ids: string[], id = lead.id) => offerLeadTo(h!.store, id, ids, Date.now(), { env });
    expect(await offer([])).toMatchObject({ ok: false, status: 400, problem: "no-business" });
    expect(await offer(["op-day", "op-247a", "op-day"])).toMatchObject({
      ok: false,
      status: 400,
      problem: "duplicate",
      businessIds: ["op-day"],
      message: expect.stringContaining("op-day is listed twice"),
    });
    expect(await offer(["op-day", "nope"])).toMatchObject({ ok: false, problem: "unknown", businessIds: ["nope"] });
    expect(await offer(["op-day"], "ld_0000000000000000000")).toMatchObject({ ok: false, status: 404 });
    const audit = await storedLead("audit");
    expect(await offer(["op-day"], audit.id)).toMatchObject({ ok: false, problem: "not-a-job" });
    expect(await h!.store.leads.get(lead.id)).toEqual(lead);
    expect(await h!.store.messages.forLead(lead.id)).toEqual([]);

    expect(await offer(["op-day"])).toMatchObject({ ok: true, offered: ["op-day"] });
    expect(await offer(["op-247a", "op-day"])).toMatchObject({
      ok: false,
      status: 409,
      problem: "already",
      businessIds: ["op-day"],
      message: "The lead was already offered to Miami op-day.",
    });
  });

  it("reopens the lead, and the chosen business gets the offer with a working answer link at once", async () => {
    const lead = await storedLead("quote");
    const now = Date.now();
    const result = await offerLeadTo(h!.store, lead.id, ["op-247a", "op-247b"], now, { env });
    expect(result).toMatchObject({ ok: true, offered: ["op-247a", "op-247b"] });
    const stored = (await h!.store.leads.get(lead.id))!;
    expect(stored.routing!.escalatedAt).toBeUndefined();
    expect(stored.routing!.deliveries).toEqual([
      expect.objectContaining({
        businessId: "op-247a",
        state: "waiting",
        deadlineAt: new Date(now + 10 * 60_000).toISOString(),
        distanceMiles: expect.any(Number),
      }),
      expect.objectContaining({ businessId: "op-247b", state: "waiting" }),
    ]);
    expect(stored.routing!.events.slice(1).map((e) => [e.kind, e.businessId, e.reason])).toEqual([
      ["offered", "op-247a", "operator"],
      ["offered", "op-247b", "operator"],
    ]);
    expect(await h!.store.leads.clockDue(now + 10 * 60_000, 100)).toContain(lead.id);

    // A default install: the offer is composed and kept for /admin, its link working.
    const offers = (await h!.store.messages.forLead(lead.id)).filter((m) => m.kind === "offer");
    expect(offers.map((m) => [m.toName, m.channel, m.state]).sort()).toEqual([
      ["Miami op-247a", "email", "kept"],
      ["Miami op-247a", "sms", "kept"],
      ["Miami op-247b", "sms", "kept"],
    ]);
    const mail = offers.find((m) => m.channel === "email")!;
    expect(mail.to).toBe("op-247a@pros.test");
    const link = new RegExp(`${SITE}/respond/([^\\s"<]+)`).exec(mail.text)![1]!;
    expect(signer(SECRET).readAnswer(link, now)).toMatchObject({ ok: true, leadId: lead.id, businessId: "op-247a" });
  });
});
