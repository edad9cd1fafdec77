/**
 * POST /api/booking-request against a real Redis with seeded businesses: the lead pipeline's
 * behavior (limits, bot traps, HTML path) plus the booking's own rules: the business must
 * exist and offer the service, and the date must be real and not past in Texas.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BOOKING_ENDPOINT } from "../../../netlify/lib/lead-endpoints.ts";
import { SAVE_ERROR } from "../../../netlify/lib/leads.ts";
import { VALIDATION_ERROR } from "../../../src/lib/schemas/forms.ts";
import { BUSINESS_NOT_FOUND } from "../../../src/lib/directory.ts";
import { BOOKING_MESSAGES, BookingRequest, isCalendarDate, texasDate } from "../../../src/lib/schemas/booking.ts";
import type { LeadDeps } from "../../../netlify/lib/leads.ts";
import {
  ORIGIN,
  brokenDirectory,
  deadStore,
  formRequest,
  functionsHarness,
  humanStarted,
  jsonRequest,
  nextIp,
  testBusiness,
  texasNoon,
  toEntries,
  validBooking,
  receiptReply,
  expectFlash,
} from "../../helpers/functions.ts";
import { parseEnv } from "../../../src/lib/env.ts";

const h = await functionsHarness("booking");
afterAll(async () => {
  await h?.teardown();
});

const TODAY = "2026-03-10";
const clock = () => texasNoon(TODAY);
const PATH = "/api/booking-request";

describe.skipIf(!h)("POST /api/booking-request", () => {
  const booking = (deps: LeadDeps = {}) => h!.handler(BOOKING_ENDPOINT, { now: clock, ...deps });
  const post = (body: unknown, deps: LeadDeps = {}) => booking(deps)(jsonRequest(PATH, body), nextIp());
  const bookings = async () => (await h!.store.leads.list("booking", { limit: 100 })).items;

  beforeAll(async () => {
    await h!.store.businesses.upsert(
      testBusiness("bk-01", {
        name: "Oakline Tree Care",
        slug: "oakline-tree-care",
        services: ["Tree Trimming", "Tree Removal", "Stump Grinding"],
      }),
    );
    await h!.store.businesses.upsert(
      testBusiness("bk-02", { name: `O'Neil & Sons <Trees>`, slug: "oneil-and-sons", services: ["Tree Pruning"] }),
    );
  });

  it("201 JSON with the business name; the lead has the defaults and names the business", async () => {
    const res = await post({
      ...validBooking("bk-01"),
      serviceType: "tree REMOVAL",
      preferredDate: "2026-03-12",
      _started: humanStarted(),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = await res.json();
    expect(body).toEqual({
      ok: true,
      id: expect.stringMatching(/^ld_/),
      businessName: "Oakline Tree Care",
      // No e-mail or text provider here: offered to its business, but only kept for the team.
      offers: expect.objectContaining({ offered: 1, kept: true }),
      ...receiptReply("routine"),
    });
    const lead = await h!.store.leads.get(body.id);
    // Offered to its business at once: its status follows (src/lib/lead-status.ts).
    // Where the job is (the area its business sees before accepting) and its time zone.
    expect(lead).toMatchObject({
      type: "booking",
      status: "offered",
      place: { label: "Austin, TX" },
      timeZone: "America/Chicago",
    });
    expect(lead!.data).toEqual({
      customerName: "Bob Booker",
      customerEmail: "bob@example.com",
      customerPhone: "512-555-0177",
      // Stored as the business spells it.
      serviceType: "Tree Removal",
      propertyAddress: "42 Pecan Lane, Austin TX",
      preferredDate: "2026-03-12",
      urgency: "normal",
      description: "Two oaks over the roof.",
      requestType: "consultation",
      businessId: "bk-01",
      businessName: "Oakline Tree Care",
      businessSlug: "oakline-tree-care",
    });
  });

  it("only name, email, phone and business are required; blanks are absent", async () => {
    const res = await post({
      customerName: "Min",
      customerEmail: "min@example.com",
      customerPhone: "5125550100",
      serviceType: "",
      propertyAddress: "",
      preferredDate: "",
      urgency: "",
      description: "  ",
      requestType: "",
      businessId: "bk-01",
    });
    expect(res.status).toBe(201);
    const lead = await h!.store.leads.get((await res.json()).id);
    expect(lead!.data).toEqual({
      customerName: "Min",
      customerEmail: "min@example.com",
      customerPhone: "5125550100",
      urgency: "normal",
      requestType: "consultation",
      businessId: "bk-01",
      businessName: "Oakline Tree Care",
      businessSlug: "oakline-tree-care",
    });
  });

  it("keeps a chosen urgency and request type", async () => {
    const res = await post({ ...validBooking("bk-01"), urgency: "emergency", requestType: "service" });
    const lead = await h!.store.leads.get((await res.json()).id);
    expect(lead!.data).toMatchObject({ urgency: "emergency", requestType: "service" });
  });

  it("400 with the messages for an empty object", async () => {
    const res = await post({});
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: VALIDATION_ERROR,
      fields: {
        customerName: "Please enter your full name",
        customerEmail: "Please enter a valid email",
        customerPhone: "Please enter a valid phone number",
        businessId: BOOKING_MESSAGES.businessId,
      },
    });
  });

  it("400 for bad fields, one message each", async () => {
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [{ customerPhone: "555-0100" }, { customerPhone: "Please enter a valid phone number" }],
      [{ customerEmail: "bob@" }, { customerEmail: "Please enter a valid email" }],
      [{ urgency: "whenever" }, { urgency: BOOKING_MESSAGES.urgency }],
      [{ requestType: "demolition" }, { requestType: BOOKING_MESSAGES.requestType }],
      [{ description: "d".repeat(2001) }, { description: BOOKING_MESSAGES.tooLong }],
      [{ propertyAddress: "a".repeat(301) }, { propertyAddress: BOOKING_MESSAGES.tooLong }],
      [{ businessId: "not an id!" }, { businessId: BOOKING_MESSAGES.businessId }],
      [{ businessId: 7 }, { businessId: BOOKING_MESSAGES.businessId }],
    ];
    for (const [over, fields] of cases) {
      const res = await post({ ...validBooking("bk-01"), ...over });
      expect(res.status, JSON.stringify(over)).toBe(400);
      expect(await res.json()).toEqual({ error: VALIDATION_ERROR, fields });
    }
  });

  it("preferredDate: a real YYYY-MM-DD date, today or later in Texas", async () => {
    const dateError = async (preferredDate: string, now = clock) => {
      const res = await post({ ...validBooking("bk-01"), preferredDate }, { now });
      return res.status === 201 ? null : (await res.json()).fields?.preferredDate;
    };
    expect(await dateError(TODAY)).toBeNull();
    expect(await dateError("2027-01-01")).toBeNull();
    expect(await dateError("2026-03-09")).toBe("Please choose a date from today on");
    expect(await dateError("2025-12-31")).toBe(BOOKING_MESSAGES.pastDate);
    for (const bad of ["2026-02-30", "2026-13-01", "2026-3-12", "03/12/2026", "2026-03-12T10:00:00Z", "soon"]) {
      expect(await dateError(bad), bad).toBe("Please choose a valid date");
    }
    // 23:00 in Austin on 9 March is already 10 March in UTC: Texas decides what "today" is.
    const lateEvening = () => Date.parse("2026-03-10T04:00:00Z");
    expect(texasDate(lateEvening())).toBe("2026-03-09");
    expect(await dateError("2026-03-09", lateEvening)).toBeNull();
    expect(await dateError("2026-03-08", lateEvening)).toBe(BOOKING_MESSAGES.pastDate);
  });

  it("the shared schema alone: calendar dates and defaults", () => {
    expect(isCalendarDate("2028-02-29")).toBe(true);
    expect(isCalendarDate("2026-02-29")).toBe(false);
    const parsed = BookingRequest.parse({
      customerName: "A",
      customerEmail: "a@example.com",
      customerPhone: "5125550100",
      businessId: "bk-01",
    });
    expect(parsed).toMatchObject({ urgency: "normal", requestType: "consultation" });
  });

  it("404 for a business that does not exist; nothing stored", async () => {
    const before = (await bookings()).length;
    const res = await post(validBooking("bk-404"));
    expect(res.status).toBe(404);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({ error: "Business not found" });
    expect((await bookings()).length).toBe(before);
  });

  it("400 for a service the business does not offer", async () => {
    const res = await post({ ...validBooking("bk-02") });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: VALIDATION_ERROR,
      fields: { serviceType: "Please choose one of this business's services" },
    });
    expect((await post({ ...validBooking("bk-02"), serviceType: "tree pruning" })).status).toBe(201);
  });

  it("405 with Allow, 415 and 413 like every lead endpoint", async () => {
    const handler = booking();
    const get = await handler(new Request(`${ORIGIN}${PATH}`), nextIp());
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    const text = await handler(
      new Request(`${ORIGIN}${PATH}`, { method: "POST", headers: { "content-type": "text/plain" }, body: "{}" }),
      nextIp(),
    );
    expect(text.status).toBe(415);
    const big = await post({ ...validBooking("bk-01"), description: "x".repeat(17 * 1024) });
    expect(big.status).toBe(413);
  });

  it("429 with Retry-After once the per-IP limit is used up", async () => {
    const limited = booking({ env: parseEnv({ RATE_LIMIT_PER_MINUTE: "2" }) });
    const ip = nextIp();
    expect((await limited(jsonRequest(PATH, validBooking("bk-01")), ip)).status).toBe(201);
    expect((await limited(jsonRequest(PATH, {}), ip)).status).toBe(400);
    const res = await limited(jsonRequest(PATH, validBooking("bk-01")), ip);
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect((await res.json()).error).toMatch(/too many/i);
  });

  it("too fast, with e-mail that can reach anyone: held for the team; the reply promises no e-mail and no offer", async () => {
    const ready = booking({
      env: parseEnv({ RESEND_API_KEY: "re_x", NOTIFY_EMAIL_FROM: "Treeline <leads@treeline.test>" }),
      notify: async () => undefined,
    });
    const human = await (
      await ready(jsonRequest(PATH, { ...validBooking("bk-01"), _started: humanStarted() }), nextIp())
    ).json();
    expect(human).toMatchObject({ willEmail: true, offers: { offered: 1 } });
    expect(human.offers.kept).toBeUndefined();
    const fast = await (
      await ready(jsonRequest(PATH, { ...validBooking("bk-01"), _started: String(clock() - 300) }), nextIp())
    ).json();
    expect(fast).toMatchObject({ willEmail: false, offers: { offered: 0, held: true } });
    const lead = await h!.store.leads.get(fast.id);
    expect(lead!.routing!.events[0]).toMatchObject({ kind: "escalated", reason: "too-fast" });
  });

  it("honeypot: the same reply with the business name, nothing stored", async () => {
    const before = (await bookings()).length;
    const res = await post({ ...validBooking("bk-01"), company_website: "spam" });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toEqual({
      ok: true,
      id: expect.stringMatching(/^ld_/),
      businessName: "Oakline Tree Care",
      offers: expect.objectContaining({ offered: 1, kept: true }),
      ...receiptReply("routine"),
    });
    expect(await h!.store.leads.get(body.id)).toBeNull();
    expect((await bookings()).length).toBe(before);
  });

  it("idempotency: the same key twice stores one booking", async () => {
    const key = `booking-${Date.now()}`;
    const a = await (
      await booking()(jsonRequest(PATH, validBooking("bk-01"), { "idempotency-key": key }), nextIp())
    ).json();
    const b = await (
      await booking()(jsonRequest(PATH, validBooking("bk-01"), { "idempotency-key": key }), nextIp())
    ).json();
    expect(b.id).toBe(a.id);
  });

  it("503 when the lead cannot be written or the business cannot be read", async () => {
    const down = await post(validBooking("bk-01"), { store: () => deadStore(h!.store), env: parseEnv({}) });
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ error: SAVE_ERROR });
    const noDirectory = await post(validBooking("bk-01"), {
      store: () => brokenDirectory(h!.store),
      env: parseEnv({}),
    });
    expect(noDirectory.status).toBe(503);
  });

  describe("form posts (no JavaScript)", () => {
    const formPost = (fields: Record<string, unknown>) =>
      booking()(formRequest(PATH, toEntries({ ...fields, _started: humanStarted() })), nextIp());

    it("303 to the lead's confirmation page; the lead names the business", async () => {
      const res = await formPost({
        ...validBooking("bk-02"),
        serviceType: "Tree Pruning",
        _source: "/directory/oneil-and-sons",
      });
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toMatch(/^\/requests\/ld_[0-9a-z]+\/[\w-]{22}\/received$/);
      const lead = (await bookings()).find(
        (l) =>
          (l.data as { businessId?: string }).businessId === "bk-02" && l.sourcePage === "/directory/oneil-and-sons",
      );
      expect(res.headers.get("location")).toContain(`/requests/${lead!.id}/`);
      expect(lead?.data).toMatchObject({
        urgency: "normal",
        requestType: "consultation",
        serviceType: "Tree Pruning",
        businessName: `O'Neil & Sons <Trees>`,
        businessSlug: expect.any(String),
      });
    });

    it("back to the booking's page with the messages, the values and the business id", async () => {
      const res = await formPost({ ...validBooking("bk-01"), customerPhone: "123", serviceType: "Tree Removal" });
      const flash = await expectFlash(h!.store, res, "/forms/booking");
      expect(flash.status).toBe(422);
      expect(flash.errors.customerPhone).toBe("Please enter a valid phone number");
      expect(flash.values).toMatchObject({ businessId: "bk-01", serviceType: "Tree Removal", customerPhone: "123" });
    });

    it("a service the business does not offer is explained on the form", async () => {
      const res = await formPost({ ...validBooking("bk-01"), serviceType: "Tree Pruning" });
      const flash = await expectFlash(h!.store, res, "/forms/booking");
      expect(flash.errors.serviceType).toBe(BOOKING_MESSAGES.serviceType);
    });

    it("an unknown business: back to the form's page with the problem (404)", async () => {
      const res = await formPost(validBooking("bk-404"));
      const flash = await expectFlash(h!.store, res, "/forms/booking");
      expect(flash).toMatchObject({ status: 404, problem: BUSINESS_NOT_FOUND, values: { businessId: "bk-404" } });
    });
  });
});
