/**
 * A quote routed like a find-pros request, in-process on a real Redis with a fake Resend on
 * 127.0.0.1 and the built site for the pages its links open: an emergency in Miami goes to
 * the nearest businesses answering 24/7 or open now, on the 10-minute clock, in Eastern time
 * (JSON and no-JS alike); a routine one in Chicago to nearby pros offering the service; one
 * with no match to the operator with its reason; an offer no channel can carry (a phone-only
 * business on an e-mail-only install) to the operator at once; and an operator's offer to the
 * chosen business, whose answer link works.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { QUOTE_ENDPOINT } from "../../../netlify/lib/lead-endpoints.ts";
import { offerLeadTo } from "../../../netlify/lib/delivery/operator-offer.ts";
import { receivedOf } from "../../../netlify/lib/page-data/received.ts";
import { zipPoint } from "../../../src/lib/geo/places.ts";
import { parseEnv, type Env } from "../../../src/lib/env.ts";
import type { BusinessInput } from "../../../src/lib/schemas/business.ts";
import type { OfferSummary, ProMatch } from "../../../src/lib/received.ts";
import {
  ORIGIN,
  formRequest,
  functionsHarness,
  humanStarted,
  jsonRequest,
  nextIp,
  testBusiness,
  toEntries,
  validQuote,
} from "../../helpers/functions.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../../helpers/webhook-receiver.ts";
import { siteHarness, type SiteHarness } from "../../helpers/site.ts";

const SITE = "https://treeline.test";
const SECRET = "test-link-secret-0123456789abcdefghijkl";
const MIN = 60_000;
const h = await functionsHarness("quote-routing");

/** The latest whole hour before now at which it is `hour` o'clock in `timeZone`. */
function atLocalHour(hour: number, timeZone: string): number {
  const format = new Intl.DateTimeFormat("en-US", { timeZone, hour: "numeric", hourCycle: "h23" });
  let t = Math.floor(Date.now() / (60 * MIN)) * 60 * MIN;
  while (Number(format.format(t)) !== hour) t -= 60 * MIN;
  return t;
}

const DAY_HOURS = Object.fromEntries(
  ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((d) => [d, "7:00 AM - 5:00 PM"]),
);

/** A business at a ZIP's centroid, open 7-5 every day (holidays too), with an e-mail and a phone. */
function pro(id: string, zip: string, over: Partial<BusinessInput> = {}): BusinessInput {
  const { lat, lng } = zipPoint(zip)!;
  return testBusiness(id, {
    name: `Pro ${id}`,
    slug: `pro-${id}`,
    zipCode: zip,
    email: `${id}@pros.test`,
    phone: "(305) 555-0100",
    services: ["Tree Removal"],
    businessHours: DAY_HOURS,
    closedHolidays: [],
    location: { lat, lng },
    ...over,
  });
}
const miami = (id: string, zip: string, over: Partial<BusinessInput> = {}) =>
  pro(id, zip, { city: "Miami", state: "FL", timeZone: "America/New_York", ...over });
const chicago = (id: string, zip: string, over: Partial<BusinessInput> = {}) =>
  pro(id, zip, { city: "Chicago", state: "IL", timeZone: "America/Chicago", ...over });

const DIRECTORY: BusinessInput[] = [
  // Miami, nearest to 33131 first: the day crew is in the job's own ZIP.
  miami("mia-day", "33131"),
  miami("mia-247a", "33130", { emergency247: true }),
  miami("mia-247b", "33133", { emergency247: true }),
  miami("mia-trim", "33125", { emergency247: true, services: ["Tree Trimming"] }),
  miami("mia-247c", "33012", { emergency247: true }),
  // Chicago: two remove trees, one only grinds stumps, one is 200 miles away.
  chicago("chi-loop", "60601"),
  chicago("chi-stumps", "60614", { services: ["Stump Grinding"] }),
  chicago("chi-north", "60640"),
  chicago("chi-far", "62701", { city: "Springfield" }),
  // Springfield: the only one offering stump grinding there, and it has only a phone.
  chicago("spr-phone", "62704", { city: "Springfield", email: undefined, services: ["Stump Grinding"] }),
];

const MIAMI_ADDRESS = "100 Biscayne Blvd, Miami, FL 33131";
const CHICAGO_ADDRESS = "233 S Wacker Dr, Chicago, IL 60606";

interface Email {
  to: string[];
  subject: string;
  text: string;
}

interface QuoteReply {
  id: string;
  statusUrl: string;
  reference: string;
  matches: ProMatch[];
  offers: OfferSummary;
}

describe.skipIf(!h)("quotes routed to businesses", () => {
  let mail: WebhookReceiver;
  let site: SiteHarness;
  /** A default install: no provider at all, every message kept for /admin. */
  const defaults = parseEnv({ SITE_URL: SITE, RATE_LIMIT_PER_MINUTE: "1000", LINK_SIGNING_SECRET: SECRET });
  /** E-mail only (Resend and the operator's address), no SMS. */
  let emailOnly: Env;
  const emails = (to: string) => mail.calls.map((c) => c.body as Email).filter((e) => e.to.includes(to));

  beforeAll(async () => {
    mail = await startWebhookReceiver("/emails");
    emailOnly = parseEnv({
      SITE_URL: SITE,
      RATE_LIMIT_PER_MINUTE: "1000",
      LINK_SIGNING_SECRET: SECRET,
      RESEND_API_KEY: "re_test",
      // A sender of our own: Resend's test sender (the default) reaches no business.
      NOTIFY_EMAIL_FROM: "Treeline <leads@treeline.test>",
      RESEND_API_URL: mail.url,
      NOTIFY_EMAIL_TO: "ops@treeline.test",
    });
    site = (await siteHarness("quote-routing", { LINK_SIGNING_SECRET: SECRET }, { prefix: h!.store.prefix }))!;
    for (const b of DIRECTORY) await h!.store.businesses.upsert(b);
  });
  afterEach(() => {
    mail.calls.length = 0;
  });
  afterAll(async () => {
    await mail.close();
    await site?.stop();
    await h?.teardown();
  });

  /** Posts a quote (JSON) on `env` at `now`, and waits for the work after the response. */
  async function quote(over: Record<string, unknown>, { env = defaults, now = Date.now() } = {}) {
    const pending: Promise<unknown>[] = [];
    const res = await h!.handler(QUOTE_ENDPOINT, { env, now: () => now })(
      jsonRequest("/api/quote", { ...validQuote(), ...over, _started: humanStarted() }),
      { ...nextIp(), waitUntil: (p) => void pending.push(p) },
    );
    await Promise.all(pending);
    expect(res.status).toBe(201);
    return (await res.json()) as QuoteReply;
  }
  const stored = async (id: string) => (await h!.store.leads.get(id))!;

  it("an emergency in Miami at 3 AM goes to the three nearest businesses answering 24/7, each with 10 minutes", async () => {
    const now = atLocalHour(3, "America/New_York");
    const reply = await quote({ address: MIAMI_ADDRESS, serviceType: "tree-removal", urgency: "emergency" }, { now });
    // The day crew in the job's own ZIP is closed; the 24/7 trimmer does not remove trees.
    expect(reply.matches.map((m) => m.id)).toEqual(["mia-247a", "mia-247b", "mia-247c"]);
    expect(reply.offers).toEqual({
      offered: 3,
      near: "33131",
      aroundTheClock: true,
      answerMinutes: 10,
      answerBy: new Date(now + 10 * MIN).toISOString(),
      timeZone: "America/New_York",
      // No provider here: the offers are kept for the team, and the reply says so.
      kept: true,
    });
    const lead = await stored(reply.id);
    expect(lead).toMatchObject({
      urgency: "emergency",
      timeZone: "America/New_York",
      place: { label: "Miami, FL 33131", zip: "33131" },
      data: { matchedBusinesses: reply.matches },
    });
    expect(lead.routing!.deliveries.map((d) => [d.businessId, d.state, d.deadlineAt])).toEqual(
      ["mia-247a", "mia-247b", "mia-247c"].map((id) => [id, "waiting", new Date(now + 10 * MIN).toISOString()]),
    );
    // A default install keeps the offers for /admin (nothing is sent, nothing is undelivered).
    const offers = (await h!.store.messages.forLead(reply.id)).filter((m) => m.kind === "offer");
    expect(new Set(offers.map((m) => m.state))).toEqual(new Set(["kept"]));
    expect(new Set(offers.map((m) => m.toName))).toEqual(new Set(["Pro mia-247a", "Pro mia-247b", "Pro mia-247c"]));
    expect(offers.find((m) => m.channel === "email")!.text).toContain(`${SITE}/respond/${reply.id}.mia-247a.`);

    // The clock passes it to the next business answering now, then to the operator.
    expect(await h!.store.leads.clockDue(now + 10 * MIN, 1000)).toContain(reply.id);
  });

  it("by day, the businesses open now count too; the no-JS form routes the same way and its page carries the offers", async () => {
    const now = atLocalHour(9, "America/New_York");
    const reply = await quote({ address: MIAMI_ADDRESS, serviceType: "tree-removal", urgency: "emergency" }, { now });
    expect(reply.matches.map((m) => m.id)).toEqual(["mia-day", "mia-247a", "mia-247b"]);

    const res = await h!.handler(QUOTE_ENDPOINT, { env: defaults, now: () => now })(
      formRequest(
        "/api/quote",
        toEntries({ ...validQuote(), address: MIAMI_ADDRESS, urgency: "emergency", _started: humanStarted() }),
      ),
      nextIp(),
    );
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get("location")!, ORIGIN);
    const [, , id] = location.pathname.split("/");
    const lead = await stored(id!);
    expect(lead.routing!.deliveries.map((d) => d.businessId)).toEqual(["mia-day", "mia-247a", "mia-247b"]);
    const received = receivedOf(lead, location.pathname.replace(/\/received$/, ""), false);
    expect(received.lead).toMatchObject({
      kind: "quote",
      estimate: "$900 - $4,500",
      matches: [{ name: "Pro mia-day" }, { name: "Pro mia-247a" }, { name: "Pro mia-247b" }],
      offers: { offered: 3, near: "33131", answerMinutes: 10, timeZone: "America/New_York" },
    });
    const page = await site.fetch(location.pathname);
    expect(page.status).toBe(200);
  });

  it("a routine quote in Chicago goes to nearby pros offering the service, on the daytime clock", async () => {
    const now = atLocalHour(10, "America/Chicago");
    const reply = await quote(
      { address: CHICAGO_ADDRESS, serviceType: "tree-removal", urgency: "not-urgent" },
      { now },
    );
    expect(reply.matches.map((m) => m.id)).toEqual(["chi-loop", "chi-north"]);
    expect(reply.offers).toMatchObject({
      offered: 2,
      near: "60606",
      aroundTheClock: false,
      answerMinutes: 240,
      timeZone: "America/Chicago",
    });
    const lead = await stored(reply.id);
    expect(lead.timeZone).toBe("America/Chicago");
    expect(lead.routing!.deliveries.every((d) => Date.parse(d.deadlineAt) >= now + 4 * 60 * MIN)).toBe(true);
  });

  it("a quote with no match goes to the operator at once, saying why", async () => {
    const nowhere = await quote({ address: "12 Nowhere Road, Atlantis" });
    expect(nowhere).toMatchObject({ matches: [], offers: { offered: 0, near: null, toOperator: "no-place" } });
    expect((await stored(nowhere.id)).routing).toMatchObject({
      deliveries: [],
      escalatedAt: expect.any(String),
      events: [{ kind: "escalated", reason: "no-place" }],
    });
    // Chicago at night: nobody there answers emergencies 24/7.
    const night = atLocalHour(2, "America/Chicago");
    const none = await quote({ address: CHICAGO_ADDRESS, urgency: "emergency" }, { now: night, env: emailOnly });
    expect(none).toMatchObject({ matches: [], offers: { offered: 0, near: "60606", toOperator: "no-pros" } });
    expect((await stored(none.id)).routing!.events).toEqual([
      expect.objectContaining({ kind: "escalated", reason: "no-pros" }),
    ]);
    expect(emails("ops@treeline.test").map((e) => e.subject)).toContainEqual(
      expect.stringMatching(/^EMERGENCY needs you: TL-.* - no listed pro near the job offers that service/),
    );
  });

  it("a phone-only business on an e-mail-only install: undelivered, and the operator has the lead at once", async () => {
    const reply = await quote(
      { address: "300 S 2nd St, Springfield, IL 62701", serviceType: "stump-grinding", urgency: "not-urgent" },
      { env: emailOnly },
    );
    expect(reply.matches.map((m) => m.id)).toEqual(["spr-phone"]);
    const lead = await stored(reply.id);
    expect(lead.routing!.deliveries.map((d) => [d.businessId, d.state])).toEqual([["spr-phone", "undelivered"]]);
    expect(lead.routing!.events.map((e) => [e.kind, e.reason])).toEqual([
      ["offered", undefined],
      ["undelivered", undefined],
      ["escalated", "none-reached"],
    ]);
    expect(await h!.store.leads.clockDue(Date.now() + 30 * 24 * 60 * MIN, 1000)).not.toContain(reply.id);
    const offer = (await h!.store.messages.forLead(reply.id)).find((m) => m.kind === "offer")!;
    expect(offer).toMatchObject({ channel: "sms", state: "kept" });
    expect(emails("ops@treeline.test").map((e) => e.subject)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/needs you: TL-.* Pro spr-phone: no channel set up here reaches the business/),
        expect.stringMatching(/needs you: TL-.* none of the pros could be reached/),
      ]),
    );
    const [visitor] = emails("jane@example.com").filter((e) => e.subject.startsWith("Our team has your request"));
    expect(visitor).toBeDefined();
    // Nobody is shown as waiting for it.
    const status = await site.fetch(reply.statusUrl);
    expect(await status.text()).not.toContain("Waiting for an answer");
  });

  it("the operator's offer reaches the chosen business with a working answer link", async () => {
    const night = atLocalHour(2, "America/Chicago");
    const lost = await quote({ address: CHICAGO_ADDRESS, urgency: "emergency" }, { now: night });
    expect((await stored(lost.id)).routing!.escalatedAt).toBeDefined();

    mail.calls.length = 0;
    const result = await offerLeadTo(h!.store, lost.id, ["chi-north"], Date.now(), { env: emailOnly });
    expect(result).toMatchObject({ ok: true, offered: ["chi-north"] });
    const [offer] = emails("chi-north@pros.test");
    expect(offer!.subject).toMatch(/^EMERGENCY job: Tree Removal/);
    const path = new URL(new RegExp(`${SITE}/respond/[^\\s"<]+`).exec(offer!.text)![0]).pathname;
    const page = await site.fetch(path);
    expect(page.status).toBe(200);
    // An emergency: one button accepts and calls.
    expect(await page.text()).toContain("Accept and call");

    const accepted = await site.fetch(path, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: site.origin,
        "sec-fetch-site": "same-origin",
      },
      body: new URLSearchParams([["action", "accept"]]).toString(),
    });
    expect(accepted.status).toBe(303);
    const lead = await stored(lost.id);
    expect(lead.routing!.deliveries).toEqual([expect.objectContaining({ businessId: "chi-north", state: "accepted" })]);
    expect(lead.routing!.escalatedAt).toBeUndefined();
  });
});
