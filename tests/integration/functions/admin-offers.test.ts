/**
 * The operator routing a lead by hand through /api/admin/leads/:id/offers, in-process on a
 * real Redis with Miami businesses as test data: the token gate, the nearby list (distance,
 * services, 24/7 and open now, reachable; none already offered), an offer that reopens an
 * escalated lead, moves its status to offered (and the inbox's counts with it) and reaches
 * the business with its answer link, and every refusal changing nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AdminDeps } from "../../../netlify/lib/admin/endpoint.ts";
import { adminLeadsHandler } from "../../../netlify/lib/admin/leads.ts";
import { adminLeadOffersHandler } from "../../../netlify/lib/admin/offers.ts";
import { initialRouting } from "../../../netlify/lib/delivery/routing.ts";
import { signer } from "../../../netlify/lib/delivery/signing.ts";
import type { AdminLeadsReply, AdminNearbyReply, AdminOfferReply } from "../../../src/lib/admin.ts";
import { parseEnv } from "../../../src/lib/env.ts";
import { zipPoint } from "../../../src/lib/geo/places.ts";
import type { BusinessInput } from "../../../src/lib/schemas/business.ts";
import type { Lead, LeadType } from "../../../src/lib/schemas/lead.ts";
import { functionsHarness, getRequest, jsonRequest, nextIp, testBusiness } from "../../helpers/functions.ts";

const TOKEN = "test-admin-token-0123456789";
const SECRET = "test-link-secret-0123456789abcdefghijkl";
const SITE = "https://treeline.test";
// 03:00 in Miami on a Thursday: only the 24/7 businesses answer.
const NIGHT = Date.parse("2026-11-26T08:00:00Z");
const DAY_HOURS = Object.fromEntries(
  ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((d) => [d, "7:00 AM - 5:00 PM"]),
);
const h = await functionsHarness("admin-offers");

function miami(id: string, zip: string, over: Partial<BusinessInput> = {}): BusinessInput {
  return testBusiness(id, {
    name: `Miami ${id}`,
    slug: `miami-${id}`,
    city: "Miami",
    state: "FL",
    zipCode: zip,
    email: `${id}@pros.test`,
    timeZone: "America/New_York",
    services: ["Tree Removal", "Tree Trimming"],
    businessHours: DAY_HOURS,
    location: zipPoint(zip)!,
    ...over,
  });
}

const MIAMI = { label: "Miami, FL 33131", zip: "33131", ...zipPoint("33131")! };

describe.skipIf(!h)("admin API: offering a lead by hand", () => {
  let deps: AdminDeps;
  const auth = { authorization: `Bearer ${TOKEN}` };
  const offers = (id: string) => `/api/admin/leads/${id}/offers`;
  const list = (id: string, headers: Record<string, string> = auth) =>
    adminLeadOffersHandler(deps)(getRequest(offers(id), { headers }), nextIp());
  const post = (id: string, body: unknown, headers: Record<string, string> = auth) =>
    adminLeadOffersHandler(deps)(jsonRequest(offers(id), body, headers), nextIp());

  /** An emergency quote for Miami nobody was offered yet: the operator's (escalated). */
  async function escalatedQuote(type: LeadType = "quote"): Promise<Lead> {
    const { lead } = await h!.store.leads.create(
      type,
      { name: "Mia Homeowner", email: "mia@example.com", serviceType: "tree-removal", address: "100 Biscayne Blvd" },
      {
        sourcePage: "/",
        urgency: "emergency",
        routing: initialRouting([], "emergency", NIGHT, "no-pros"),
        ...(type === "quote" ? { place: MIAMI, timeZone: "America/New_York" } : {}),
      },
    );
    return lead;
  }

  beforeAll(async () => {
    deps = {
      store: () => h!.store,
      env: parseEnv({
        ADMIN_TOKEN: TOKEN,
        RATE_LIMIT_PER_MINUTE: "1000",
        SITE_URL: SITE,
        LINK_SIGNING_SECRET: SECRET,
      }),
      now: () => NIGHT,
    };
    await h!.store.businesses.upsert(miami("ao-day", "33131"));
    await h!.store.businesses.upsert(miami("ao-247", "33130", { emergency247: true }));
    await h!.store.businesses.upsert(miami("ao-stumps", "33125", { services: ["Stump Grinding"] }));
    await h!.store.businesses.upsert(miami("ao-silent", "33133", { email: undefined, phone: undefined }));
  });
  afterAll(async () => {
    await h?.teardown();
  });

  it("asks for the operator's token, and 404s a lead that is not there", async () => {
    const lead = await escalatedQuote();
    expect((await list(lead.id, {})).status).toBe(401);
    expect(
      (await post(lead.id, { businessIds: ["ao-day"] }, { authorization: "Bearer wrong-token-0000000" })).status,
    ).toBe(401);
    expect((await list("ld_0000000000000000000")).status).toBe(404);
    expect((await list("nonsense")).status).toBe(404);
    const put = await adminLeadOffersHandler(deps)(
      new Request(`http://127.0.0.1${offers(lead.id)}`, { method: "PUT", headers: auth }),
      nextIp(),
    );
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toContain("POST");
  });

  it("lists the businesses near the job: distance, services, 24/7 and open now, reachable", async () => {
    const lead = await escalatedQuote();
    const res = await list(lead.id);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = (await res.json()) as AdminNearbyReply;
    expect(body).toMatchObject({ near: "Miami, FL 33131", service: "Tree Removal", routable: true });
    // Those offering the service first, the one answering now first among them (an emergency).
    expect(body.data.map((b) => b.id)).toEqual(["ao-247", "ao-day", "ao-silent", "ao-stumps"]);
    expect(body.data[0]).toMatchObject({
      name: "Miami ao-247",
      slug: "miami-ao-247",
      services: ["Tree Removal", "Tree Trimming"],
      offersService: true,
      emergency247: true,
      reachable: true,
    });
    expect(body.data[0]!.distanceMiles).toBeGreaterThan(0);
    expect(body.data.find((b) => b.id === "ao-day")).toMatchObject({ openNow: false, emergency247: false });
    expect(body.data.find((b) => b.id === "ao-silent")).toMatchObject({ reachable: false });
    expect(body.data.find((b) => b.id === "ao-stumps")).toMatchObject({
      offersService: false,
      services: ["Stump Grinding"],
    });
    // A growth request goes to no business.
    const audit = await escalatedQuote("audit");
    expect(await (await list(audit.id)).json()).toEqual({ data: [], near: null, service: null, routable: false });
  });

  it("offers the lead to the chosen businesses: reopened, offered, counted, and the offer sent with its link", async () => {
    const lead = await escalatedQuote();
    expect(lead.status).toBe("escalated");
    const before = (await (
      await adminLeadsHandler(deps)(getRequest("/api/admin/leads", { headers: auth }), nextIp())
    ).json()) as AdminLeadsReply;

    const res = await post(lead.id, { businessIds: ["ao-247", "ao-day"] });
    expect(res.status).toBe(200);
    const body = (await res.json()) as AdminOfferReply;
    expect(body.offered).toEqual(["ao-247", "ao-day"]);
    expect(body.data.status).toBe("offered");
    expect(body.data.routing?.escalatedAt).toBeUndefined();
    expect(body.data.routing?.deliveries.map((d) => [d.businessId, d.state])).toEqual([
      ["ao-247", "waiting"],
      ["ao-day", "waiting"],
    ]);
    expect((await h!.store.leads.get(lead.id))?.status).toBe("offered");

    // The inbox follows: one lead fewer needs the operator, one more is offered.
    const after = (await (
      await adminLeadsHandler(deps)(getRequest("/api/admin/leads?status=offered", { headers: auth }), nextIp())
    ).json()) as AdminLeadsReply;
    expect(after.needsYou).toBe(before.needsYou - 1);
    expect(after.statusCounts.offered).toBe(before.statusCounts.offered + 1);
    expect(after.data.map((l) => l.id)).toContain(lead.id);

    // Sent at once (kept on a default install), with an answer link that works.
    const mail = (await h!.store.messages.forLead(lead.id)).find(
      (m) => m.kind === "offer" && m.channel === "email" && m.to === "ao-247@pros.test",
    )!;
    expect(mail.state).toBe("kept");
    const link = new RegExp(`${SITE}/respond/([^\\s"<]+)`).exec(mail.text)![1]!;
    expect(signer(SECRET).readAnswer(link, NIGHT)).toMatchObject({ ok: true, leadId: lead.id, businessId: "ao-247" });

    // The list no longer offers them.
    const again = (await (await list(lead.id)).json()) as AdminNearbyReply;
    expect(again.data.map((b) => b.id)).toEqual(["ao-silent", "ao-stumps"]);
  });

  it("refuses a bad body, an unknown or repeated business, one already offered and a growth request, changing nothing", async () => {
    const lead = await escalatedQuote();
    for (const body of [{}, { businessIds: [] }, { businessIds: "ao-day" }, { businessIds: [""] }, { ids: ["x"] }]) {
      const res = await post(lead.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await res.json()).fields).toBeTruthy();
    }
    const unknown = await post(lead.id, { businessIds: ["ao-day", "nope"] });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ problem: "unknown", businessIds: ["nope"] });
    const twice = await post(lead.id, { businessIds: ["ao-day", "ao-day"] });
    expect(await twice.json()).toMatchObject({ problem: "duplicate", businessIds: ["ao-day"] });
    expect(await h!.store.leads.get(lead.id)).toEqual(lead);

    expect((await post(lead.id, { businessIds: ["ao-day"] })).status).toBe(200);
    const already = await post(lead.id, { businessIds: ["ao-247", "ao-day"] });
    expect(already.status).toBe(409);
    expect(await already.json()).toMatchObject({
      problem: "already",
      businessIds: ["ao-day"],
      error: "The lead was already offered to Miami ao-day.",
    });
    const audit = await escalatedQuote("audit");
    const growth = await post(audit.id, { businessIds: ["ao-day"] });
    expect(growth.status).toBe(400);
    expect(await growth.json()).toMatchObject({ problem: "not-a-job" });
    expect((await post("ld_0000000000000000000", { businessIds: ["ao-day"] })).status).toBe(404);
  });
});
