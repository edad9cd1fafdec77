/**
 * Lead delivery end to end, in-process on a real Redis, with a fake Resend (POST /emails
 * JSON) and a fake Twilio (the Messages API's form POST) on 127.0.0.1: a booking reaches its
 * business and the visitor; the business's link answers; the visitor's page follows; a
 * changed link changes nothing; a find-pros emergency nobody accepts moves to the next pro
 * and then to the operator as the clock is driven; a business that cannot be reached, or
 * whose provider refuses the message, is handed to the operator instead.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { BOOKING_ENDPOINT } from "../../netlify/lib/lead-endpoints.ts";
import { FIND_PROS_ENDPOINT } from "../../netlify/lib/find-pros.ts";
import {
  jobDoneHandler,
  respondCallHandler,
  respondHandler,
  respondPhotoHandler,
} from "../../netlify/lib/delivery/handlers.ts";
import { runClock } from "../../netlify/lib/delivery/progress.ts";
import { REVIEW_INVITE_DELAY_MS } from "../../netlify/lib/delivery/compose.ts";
import { reviewInviteHandler } from "../../netlify/lib/delivery/review-invite.ts";
import { signer } from "../../netlify/lib/delivery/signing.ts";
import { EMERGENCY_LINE } from "../../netlify/lib/messages/visitor.ts";
import { drainOutbox } from "../../netlify/lib/notify/index.ts";
import { zipPoint } from "../../src/lib/geo/places.ts";
import { parseEnv } from "../../src/lib/env.ts";
import type { BusinessInput } from "../../src/lib/schemas/business.ts";
import {
  ORIGIN,
  TINY_PNG,
  formRequest,
  functionsHarness,
  humanStarted,
  jsonRequest,
  multipartRequest,
  nextIp,
  testBusiness,
  validBooking,
  validFindPros,
  expectFlash,
} from "../helpers/functions.ts";
import { startWebhookReceiver, type ReceivedCall, type WebhookReceiver } from "../helpers/webhook-receiver.ts";
import { siteHarness, type SiteHarness } from "../helpers/site.ts";

const SITE = "https://treeline.test";
const SECRET = "test-link-secret-0123456789abcdefghijkl";
const MIN = 60_000;
const h = await functionsHarness("delivery");

interface Email {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html?: string;
}

describe.skipIf(!h)("lead delivery", () => {
  let mail: WebhookReceiver;
  let sms: WebhookReceiver;
  let env: ReturnType<typeof parseEnv>;
  /** The built site on the same store: the pages the links open. */
  let site: SiteHarness;

  const emails = (to: string) => mail.calls.map((c) => c.body as Email).filter((e) => e.to.includes(to));
  const texts = () =>
    sms.calls.map((c: ReceivedCall) => ({
      path: c.path,
      auth: c.headers.authorization,
      form: new URLSearchParams(String(c.body)),
    }));

  function near(n: number, over: Partial<BusinessInput> = {}): BusinessInput {
    const { lat, lng } = zipPoint("78701")!;
    return testBusiness(`dl-${n}`, {
      name: `Pro ${n} Trees`,
      slug: `pro-${n}-trees`,
      email: `pro${n}@pros.test`,
      phone: `(512) 555-02${String(n).padStart(2, "0")}`,
      services: ["Tree Removal", "Tree Trimming"],
      // An emergency goes only to businesses answering 24/7 (or open at the time).
      emergency247: true,
      // Farther by number, so "nearest first" is pro 1, 2, 3, then 4.
      location: { lat: lat + n * 0.01, lng },
      ...over,
    });
  }

  beforeAll(async () => {
    mail = await startWebhookReceiver("/emails");
    sms = await startWebhookReceiver("/");
    env = parseEnv({
      SITE_URL: SITE,
      RATE_LIMIT_PER_MINUTE: "1000",
      LINK_SIGNING_SECRET: SECRET,
      RESEND_API_KEY: "re_test",
      RESEND_API_URL: mail.url,
      NOTIFY_EMAIL_TO: "ops@treeline.test",
      NOTIFY_EMAIL_FROM: "Treeline <leads@treeline.test>",
      TWILIO_ACCOUNT_SID: "AC123",
      TWILIO_AUTH_TOKEN: "twilio-token",
      TWILIO_FROM: "+15125550100",
      TWILIO_API_URL: new URL(sms.url).origin,
    });
    // The served pages run with the same providers as the functions: offers do reach businesses.
    site = (await siteHarness(
      "delivery",
      {
        LINK_SIGNING_SECRET: SECRET,
        RESEND_API_KEY: "re_test",
        NOTIFY_EMAIL_FROM: "Treeline <leads@treeline.test>",
        RESEND_API_URL: mail.url,
      },
      { prefix: h!.store.prefix },
    ))!;
    for (const n of [1, 2, 3, 4, 5]) await h!.store.businesses.upsert(near(n));
    await h!.store.businesses.upsert(
      testBusiness("dl-quiet", {
        name: "Quiet Trees",
        slug: "quiet-trees",
        phone: undefined,
        services: ["Tree Trimming"],
      }),
    );
    await h!.store.businesses.upsert(
      near(9, { id: "dl-mailonly", slug: "mail-only", name: "Mail Only", phone: undefined, location: undefined }),
    );
  });
  afterEach(() => {
    mail.calls.length = 0;
    sms.calls.length = 0;
  });
  afterAll(async () => {
    await mail.close();
    await sms.close();
    await site?.stop();
    await h?.teardown();
  });

  /** Posts a lead through the real pipeline and waits for its after-response work. */
  async function submit<T>(endpoint: Parameters<NonNullable<typeof h>["handler"]>[0], body: T, request = jsonRequest) {
    const pending: Promise<unknown>[] = [];
    const res = await h!.handler(endpoint as never, { env })(
      request === jsonRequest
        ? jsonRequest(endpoint === BOOKING_ENDPOINT ? "/api/booking-request" : "/api/find-pros", {
            ...body,
            _started: humanStarted(),
          })
        : (body as unknown as Request),
      { ...nextIp(), waitUntil: (p) => void pending.push(p) },
    );
    await Promise.all(pending);
    return res;
  }

  const purges: string[][] = [];
  const deps = () => ({
    store: () => h!.store,
    env,
    photos: () => h!.photos,
    purge: async (tags: string[]) => void purges.push(tags),
  });
  async function call(handler: ReturnType<typeof respondHandler>, req: Request) {
    const pending: Promise<unknown>[] = [];
    const res = await handler(req, { ...nextIp(), waitUntil: (p) => void pending.push(p) });
    await Promise.all(pending);
    return res;
  }
  /** A page, as the built site serves it. */
  const get = (path: string) => site.fetch(path);
  /** The answer page's form post: 303 back to the page. */
  const answer = (path: string, fields: [string, string][], headers: Record<string, string> = {}) =>
    call(respondHandler(deps()), formRequest(path, fields, headers));
  /** Where a form post went: the page its 303 leads to (its flash read back on `path`). */
  async function followed(res: Response, path: string) {
    const { location } = await expectFlash(h!.store, res, path);
    return get(`${location.pathname}${location.search}`);
  }
  const status = (url: string) => site.fetch(new URL(url, ORIGIN).pathname);
  const linkIn = (text: string, kind: "respond" | "requests" | "review") =>
    new URL(new RegExp(`${SITE}/${kind}/[^\\s"<]+`).exec(text)![0]).pathname;

  it("a booking reaches its business by e-mail and text, and the visitor gets the reference and a status link", async () => {
    const res = await submit(BOOKING_ENDPOINT, validBooking("dl-1"));
    expect(res.status).toBe(201);
    const reply = (await res.json()) as { id: string; reference: string; statusUrl: string };

    // Everything went out before the after-response work finished (no waiting for a scheduled run).
    const [offer] = emails("pro1@pros.test");
    expect(offer).toMatchObject({
      from: "Treeline <leads@treeline.test>",
      subject: expect.stringMatching(/^New job: Tree Trimming in Austin, TX/),
    });
    // Before it accepts, a business learns the customer's first name and area, nothing to reach them by.
    expect(offer!.text).toContain("Customer: Bob");
    expect(offer!.text).not.toMatch(/Booker|555-0177|bob@example\.com|Pecan/);
    expect(offer!.text).toContain(`${SITE}/respond/${reply.id}.dl-1.`);
    expect(offer!.html).toContain(`${SITE}/respond/${reply.id}.dl-1.`);
    const [text] = texts();
    expect(text!.path).toBe("/2010-04-01/Accounts/AC123/Messages.json");
    expect(text!.auth).toBe(`Basic ${Buffer.from("AC123:twilio-token").toString("base64")}`);
    expect(text!.form.get("To")).toBe("+15125550201");
    expect(text!.form.get("From")).toBe("+15125550100");
    expect(text!.form.get("Body")).toContain(`${SITE}/respond/${reply.id}.dl-1.`);

    const [receipt] = emails("bob@example.com");
    expect(receipt!.subject).toBe(`Your request ${reply.reference} is in`);
    expect(receipt!.text).toContain(`Your reference: ${reply.reference}`);
    expect(receipt!.text).toContain(`${SITE}${reply.statusUrl}`);
    expect(emails("ops@treeline.test")).toHaveLength(1);
    // Each e-mail carries its message id as Resend's Idempotency-Key: a retry never mails twice.
    const keys = mail.calls.map((c) => c.headers["idempotency-key"]);
    expect(keys.every((k) => typeof k === "string" && k.startsWith(`${reply.id}~`))).toBe(true);
    expect(new Set(keys).size).toBe(keys.length);

    // The business's link opens its answer page; accepting shows on the visitor's page.
    const path = linkIn(offer!.text, "respond");
    const page = await get(path);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("private, no-store");
    expect(page.headers.get("x-robots-tag")).toContain("noindex");
    // Not "no-referrer": a browser posts a no-referrer page's forms with `Origin: null`, which
    // the cross-site check refuses. "same-origin" sends the site's Origin, and nothing elsewhere.
    expect(page.headers.get("referrer-policy")).toBe("same-origin");
    const html = await page.text();
    expect(html).toContain("Accept this job");
    expect(html).toContain("Bob");
    expect(html).not.toMatch(/Booker|555-0177|bob@example\.com|Pecan|ping=/);

    const before = await status(reply.statusUrl);
    expect(before.status).toBe(200);
    expect(await before.text()).toContain("Waiting for an answer");

    const opaque = await answer(path, [["action", "accept"]], { origin: "null", "sec-fetch-site": "same-origin" });
    expect((await followed(opaque, path)).status).toBe(403);
    // The page's own Accept, with the headers a browser sends under that policy.
    const accepted = await answer(
      path,
      [
        ["action", "accept"],
        ["window", "Tomorrow 8-10 AM"],
        ["price", "$450"],
      ],
      { origin: ORIGIN, "sec-fetch-site": "same-origin", referer: `${ORIGIN}${path}` },
    );
    const acceptedPage = await followed(accepted, path);
    expect(acceptedPage.status).toBe(200);
    const acceptedHtml = await acceptedPage.text();
    expect(acceptedHtml).toContain("you accepted this job");
    // Accepting brings the customer's name, number, e-mail and address, and the call button.
    for (const detail of ["Bob Booker", "512-555-0177", "bob@example.com", "42 Pecan Lane, Austin TX"])
      expect(acceptedHtml).toContain(detail);
    expect(acceptedHtml).toContain('ping="' + path + '/call"');
    const after = await (await status(reply.statusUrl)).text();
    expect(after).toContain("Accepted");
    expect(after).toContain("Tomorrow 8-10 AM");
    expect(after).toContain("$450");
    const [update] = emails("bob@example.com").slice(1);
    expect(update!.subject).toBe(`Pro 1 Trees accepted your request (${reply.reference})`);

    // Now the tap on the number is recorded, and the visitor sees it.
    const ping = await call(
      respondCallHandler(deps()),
      new Request(`${ORIGIN}${path}/call`, { method: "POST", headers: { "content-type": "text/ping" }, body: "PING" }),
    );
    expect(ping.status).toBe(204);
    expect((await h!.store.leads.get(reply.id))!.routing!.deliveries[0]!.calledAt).toBeDefined();
    expect(await (await status(reply.statusUrl)).text()).toContain("Called you");

    // Answering again changes nothing and sends nothing.
    mail.calls.length = 0;
    const again = await answer(path, [
      ["action", "decline"],
      ["reason", "too-busy"],
    ]);
    const againPage = await followed(again, path);
    expect(againPage.status).toBe(200);
    expect(await againPage.text()).toContain("You already answered this job");
    expect(emails("bob@example.com")).toHaveLength(0);
    const lead = await h!.store.leads.get(reply.id);
    expect(lead!.routing!.deliveries[0]).toMatchObject({
      state: "accepted",
      window: "Tomorrow 8-10 AM",
      price: "$450",
    });
    expect(await h!.store.leads.clockDue(Date.now() + 30 * 24 * 60 * MIN, 100)).not.toContain(reply.id);
  });

  it("a link with one character changed answers 4xx and changes nothing; an expired link is 410", async () => {
    const res = await submit(BOOKING_ENDPOINT, validBooking("dl-2"));
    const { id, statusUrl } = (await res.json()) as { id: string; statusUrl: string };
    const path = linkIn(emails("pro2@pros.test")[0]!.text, "respond");
    const before = await h!.store.leads.get(id);
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === "a" ? "b" : "a") + s.slice(i + 1);
    for (const i of [path.length - 1, path.indexOf("dl-2") + 3, "/respond/ld_".length + 4]) {
      const tampered = flip(path, i);
      expect((await get(tampered)).status).toBe(404);
      const posted = await followed(await answer(tampered, [["action", "accept"]]), tampered);
      expect(posted.status).toBe(404);
      expect(await posted.text()).toMatch(/This link isn(&#39;|')t valid/);
    }
    // Another business's id under this signature.
    expect((await get(path.replace(".dl-2.", ".dl-3."))).status).toBe(404);
    expect((await status(flip(statusUrl, statusUrl.length - 2))).status).toBe(404);
    expect(await h!.store.leads.get(id)).toEqual(before);

    const expired = signer(SECRET).answerPath(id, "dl-2", Date.now() - 1_000);
    const gone = await get(expired);
    expect(gone.status).toBe(410);
    expect(await gone.text()).toContain("This link has expired");
    expect(await h!.store.leads.get(id)).toEqual(before);
  });

  it("a decline needs a reason; the number's ping is refused to a business that has not accepted", async () => {
    const res = await submit(BOOKING_ENDPOINT, validBooking("dl-3"));
    const { id, statusUrl } = (await res.json()) as { id: string; statusUrl: string };
    const path = linkIn(emails("pro3@pros.test")[0]!.text, "respond");

    const bad = await answer(path, [["action", "decline"]]);
    expect(await expectFlash(h!.store, bad, path)).toMatchObject({
      status: 422,
      form: "decline",
      errors: { reason: "Choose a reason for declining." },
    });
    const badPage = await followed(bad, path);
    expect(badPage.status).toBe(422);
    expect(await badPage.text()).toContain("Choose a reason for declining.");
    const json = await call(respondHandler(deps()), jsonRequest(path, { action: "maybe" }));
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({ fields: { action: "Choose Accept or Decline." } });

    const ping = () =>
      respondCallHandler(deps())(
        new Request(`${ORIGIN}${path}/call`, {
          method: "POST",
          headers: { "content-type": "text/ping" },
          body: "PING",
        }),
        nextIp(),
      );
    // The number comes with the acceptance: a ping before it records nothing.
    expect((await ping()).status).toBe(403);
    expect((await h!.store.leads.get(id))!.routing!.deliveries[0]!.calledAt).toBeUndefined();
    expect((await h!.store.businesses.get("dl-3"))?.responseCount ?? 0).toBe(0);

    const declined = await answer(path, [
      ["action", "decline"],
      ["reason", "too-busy"],
    ]);
    const declinedPage = await (await followed(declined, path)).text();
    expect(declinedPage).toContain("passed the job on");
    expect(declinedPage).not.toMatch(/Booker|555-0177|bob@example\.com|Pecan|Call the customer/);
    expect((await ping()).status).toBe(403);
    expect(await (await status(statusUrl)).text()).not.toContain("Called you");
    // The only business declined: the operator has it at once.
    const lead = await h!.store.leads.get(id);
    expect(lead!.routing).toMatchObject({ escalatedAt: expect.any(String) });
    expect(emails("ops@treeline.test").map((e) => e.subject)).toContainEqual(
      expect.stringMatching(/needs you: TL-.* every pro declined/),
    );
    // The decline is the response time; the refused pings add nothing.
    expect(await h!.store.businesses.get("dl-3")).toMatchObject({ responseCount: 1 });
    // Below five outcomes there is no public figure, so the page was not purged.
    expect(purges).toEqual([]);
    // Four more first answers make the figures public: the business page is purged once.
    for (let i = 0; i < 4; i++) {
      const more = await submit(BOOKING_ENDPOINT, validBooking("dl-3"));
      const { id: other } = (await more.json()) as { id: string };
      const link = linkIn(emails("pro3@pros.test").find((e) => e.text.includes(other))!.text, "respond");
      await answer(link, [["action", "accept"]]);
    }
    expect(await h!.store.businesses.get("dl-3")).toMatchObject({
      responseCount: 5,
      responseRate: 100,
      responseMinutes: expect.any(Number),
      responseOffers: 5,
    });
    expect(purges).toEqual([["business-dl-3"]]);
  });

  it("a find-pros emergency goes to the three nearest pros, then the next one, then the operator", async () => {
    const body = { ...validFindPros(), location: "78701", serviceType: "Tree Removal", timeline: "emergency" };
    const form = new FormData();
    for (const [k, v] of Object.entries(body)) form.set(k, v);
    form.set("_started", humanStarted());
    form.set("photo", new Blob([TINY_PNG], { type: "image/png" }), "tree.png");
    const pending: Promise<unknown>[] = [];
    const res = await h!.handler(FIND_PROS_ENDPOINT, { env })(
      multipartRequest("/api/find-pros", form, { accept: "application/json" }),
      { ...nextIp(), waitUntil: (p) => void pending.push(p) },
    );
    await Promise.all(pending);
    expect(res.status).toBe(201);
    const reply = (await res.json()) as { id: string; reference: string; urgency: string; matches: { id: string }[] };
    expect(reply.urgency).toBe("emergency");
    expect(reply.matches.map((m) => m.id)).toEqual(["dl-1", "dl-2", "dl-3"]);
    for (const n of [1, 2, 3]) {
      const [offer] = emails(`pro${n}@pros.test`);
      expect(offer!.subject).toMatch(/^EMERGENCY job: Tree Removal in Austin, TX 78701/);
    }
    expect(texts().map((t) => t.form.get("To"))).toEqual(
      expect.arrayContaining(["+15125550201", "+15125550202", "+15125550203"]),
    );
    expect(emails("pro4@pros.test")).toHaveLength(0);
    const receipt = emails("homer@example.com")[0]!;
    expect(receipt.text.split("\n")[0]).toBe(EMERGENCY_LINE);
    expect(receipt.text).toContain(
      "Offered to 3 crews near 78701 that take emergencies now; each has 10 minutes to answer",
    );
    expect(receipt.text).not.toMatch(/24 hours|dispatch|on site/);

    // The photo is there for the pros the lead went to.
    const path = linkIn(emails("pro1@pros.test")[0]!.text, "respond");
    const photo = await respondPhotoHandler(deps())(new Request(`${ORIGIN}${path}/photo`), nextIp());
    expect(photo.status).toBe(200);
    expect(photo.headers.get("content-type")).toBe("image/png");

    // Minute 10: nobody accepted; the next nearest pro gets it and the visitor hears.
    const t0 = Date.now();
    mail.calls.length = 0;
    expect(await runClock(h!.store, { env, now: () => t0 + 9 * MIN })).toMatchObject({ changed: 0 });
    const report = await runClock(h!.store, { env, now: () => t0 + 10 * MIN + 1_000 });
    expect(report.changed).toBeGreaterThanOrEqual(1);
    expect(emails("pro4@pros.test")[0]!.subject).toMatch(/^EMERGENCY job/);
    expect(emails("pro5@pros.test")).toHaveLength(0);
    expect(emails("homer@example.com")[0]!.subject).toBe(
      `We've also offered your request to Pro 4 Trees (${reply.reference})`,
    );
    // The first pros' links no longer take an answer.
    const late = await answer(path, [["action", "accept"]]);
    expect(await expectFlash(h!.store, late, path)).toMatchObject({
      status: 409,
      problem: expect.stringContaining("passed"),
    });

    // Minute 20: still nobody; the operator gets it.
    mail.calls.length = 0;
    await runClock(h!.store, { env, now: () => t0 + 20 * MIN + 2_000 });
    const [alert] = emails("ops@treeline.test");
    expect(alert!.subject).toMatch(new RegExp(`^EMERGENCY needs you: ${reply.reference} - no pro accepted in time`));
    expect(emails("homer@example.com")[0]!.subject).toBe(`Our team has your request (${reply.reference})`);
    const lead = await h!.store.leads.get(reply.id);
    expect(lead!.routing!.deliveries.map((d) => d.state)).toEqual(["expired", "expired", "expired", "expired"]);
    // Nothing further is due for it.
    mail.calls.length = 0;
    await runClock(h!.store, { env, now: () => t0 + 60 * MIN });
    expect(emails("ops@treeline.test")).toHaveLength(0);
  });

  it("a business with no e-mail or phone on file is handed to the operator, saying why", async () => {
    const res = await submit(BOOKING_ENDPOINT, validBooking("dl-quiet"));
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const subjects = emails("ops@treeline.test").map((e) => e.subject);
    expect(subjects).toContainEqual(
      expect.stringMatching(/needs you: TL-.* Quiet Trees: the business has no e-mail or phone on file/),
    );
    const messages = await h!.store.messages.forLead(id);
    expect(messages.filter((m) => m.audience === "business")).toEqual([]);
  });

  it("a provider that refuses an offer for good hands it to the operator at once; a failing one never fails the visitor", async () => {
    // Resend refuses the business's address for good (422) and fails the visitor's receipt for now (500).
    mail.route = (c) => {
      const to = (c.body as Email).to;
      return to.includes("pro9@pros.test") ? 422 : to.includes("bob@example.com") ? 500 : undefined;
    };
    const res = await submit(BOOKING_ENDPOINT, { ...validBooking("dl-mailonly"), serviceType: "Tree Removal" });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const state = async () =>
      Object.fromEntries(
        (await h!.store.messages.forLead(id)).map((m) => [`${m.kind}:${m.channel}`, [m.state, m.note]]),
      );
    // Its only business cannot get it: the offer is undelivered and the operator has the lead, not waiting for the clock.
    expect(await state()).toEqual({
      "new-lead:email": ["sent", undefined],
      "receipt:email": ["retrying", "Attempt 1: HTTP 500"],
      "offer:email": ["failed", "Attempt 1: HTTP 422"],
      "undeliverable:email": ["sent", undefined],
      "escalated:email": ["sent", undefined],
      "operator-has-it:email": ["retrying", "Attempt 1: HTTP 500"],
    });
    expect(emails("ops@treeline.test").map((e) => e.subject)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/needs you: TL-.* Mail Only: our offer could not be delivered to the business/),
        expect.stringMatching(/needs you: TL-.* none of the pros could be reached/),
      ]),
    );
    const lead = (await h!.store.leads.get(id))!;
    expect(lead.routing!.deliveries.map((d) => d.state)).toEqual(["undelivered"]);
    expect(lead.routing!.escalatedAt).toBeDefined();
    expect(await h!.store.leads.clockDue(Date.now() + 30 * 24 * 60 * MIN, 100)).not.toContain(id);

    // The scheduled run sends the visitor's e-mails once the provider answers; the refused offer is not tried again.
    mail.route = null;
    mail.calls.length = 0;
    const item = (await h!.store.outbox.get(id))!;
    // Both retries are due a minute after their own first attempt, a few milliseconds apart.
    await drainOutbox(h!.store, { env, now: () => Date.parse(item.nextAttemptAt) + 5_000 });
    expect(mail.calls.map((c) => (c.body as Email).to)).toEqual([["bob@example.com"], ["bob@example.com"]]);
    expect((await state())["receipt:email"]).toEqual(["sent", undefined]);
    expect(await h!.store.outbox.get(id)).toBeNull();
  });
  it("once the job should be done the visitor is invited to review the pro; that review is Verified, once", async () => {
    const res = await submit(BOOKING_ENDPOINT, { ...validBooking("dl-4"), customerEmail: "rita@example.com" });
    const { id, statusUrl } = (await res.json()) as { id: string; statusUrl: string };
    const path = linkIn(emails("pro4@pros.test")[0]!.text, "respond");
    await answer(path, [["action", "accept"]]);
    const invite = (await h!.store.messages.forLead(id)).find((m) => m.kind === "review-invite")!;
    expect(invite).toMatchObject({ state: "queued", to: "rita@example.com" });
    // No booked day and no day in the pro's answer: a few days after the acceptance.
    const acceptedAt = (await h!.store.leads.get(id))!.routing!.deliveries[0]!.answeredAt!;
    expect(Date.parse(invite.nextAttemptAt!) - Date.parse(acceptedAt)).toBe(REVIEW_INVITE_DELAY_MS);
    // Not before its time; then the scheduled run sends it.
    expect(emails("rita@example.com").some((e) => e.subject.startsWith("How did"))).toBe(false);
    await drainOutbox(h!.store, { env, now: () => Date.parse(invite.nextAttemptAt!) - 1_000 });
    expect(emails("rita@example.com").some((e) => e.subject.startsWith("How did"))).toBe(false);
    await drainOutbox(h!.store, { env, now: () => Date.parse(invite.nextAttemptAt!) + 1 });
    const sent = emails("rita@example.com").find((e) => e.subject.startsWith("How did Pro 4 Trees do?"))!;
    const reviewPath = linkIn(sent.text, "review");

    const review = (req: Request) => reviewInviteHandler({ ...deps() })(req, nextIp());
    // The site's own clock is days before that: no Verified review yet, the page says when.
    const early = await get(reviewPath);
    expect(early.status).toBe(200);
    const earlyHtml = await early.text();
    expect(earlyHtml).toContain("once the job is done");
    expect(earlyHtml).not.toContain('name="rating"');
    const tooSoon = await review(
      formRequest(reviewPath, [
        ["rating", "5"],
        ["customerName", "Rita R."],
      ]),
    );
    expect(await expectFlash(h!.store, tooSoon, reviewPath)).toMatchObject({
      status: 409,
      problem: expect.stringContaining("once the job is done"),
    });
    expect(await h!.store.reviews.list("dl-4")).toHaveLength(0);
    // The homeowner says the job is done (the status page's form): the review can be written now.
    const markDone = (url: string) =>
      call(
        jobDoneHandler(deps()),
        formRequest(`${new URL(url, ORIGIN).pathname}/done`, [["businessId", "dl-4"]], { origin: "null" }),
      );
    const done = await markDone(statusUrl);
    expect(await (await followed(done, new URL(statusUrl, ORIGIN).pathname)).text()).toContain(
      "You can review Pro 4 Trees now",
    );
    const form = await get(reviewPath);
    expect(form.status).toBe(200);
    expect(form.headers.get("cache-control")).toBe("private, no-store");
    const html = await form.text();
    expect(html).toMatch(/<input type="radio" name="rating" value="5" checked/);
    expect(html).toContain("Verified");
    const flip = reviewPath.slice(0, -1) + (reviewPath.endsWith("a") ? "b" : "a");
    expect((await get(flip)).status).toBe(404);
    // An answer link is not a review link, nor the other way round.
    expect((await get(path.replace("/respond/", "/review/"))).status).toBe(404);
    expect((await get(reviewPath.replace("/review/", "/respond/"))).status).toBe(404);
    const invalid = await review(formRequest(reviewPath, [["rating", "9"]]));
    expect(await expectFlash(h!.store, invalid, reviewPath)).toMatchObject({ status: 422, values: { rating: "9" } });

    const posted = await review(
      formRequest(reviewPath, [
        ["rating", "4"],
        ["customerName", "Rita R."],
        ["title", "Quick and tidy"],
      ]),
    );
    const postedPage = await followed(posted, reviewPath);
    expect(postedPage.status).toBe(200);
    expect(await postedPage.text()).toContain("marked Verified");
    const [stored] = await h!.store.reviews.list("dl-4");
    expect(stored).toMatchObject({ customerName: "Rita R.", rating: 4, title: "Quick and tidy", isVerified: true });
    // A second post changes nothing.
    const again = await review(
      formRequest(reviewPath, [
        ["rating", "1"],
        ["customerName", "Rita R."],
      ]),
    );
    expect(await (await followed(again, reviewPath)).text()).toContain("Your verified review");
    expect(await (await get(reviewPath)).text()).toContain("Your verified review");
    expect(await h!.store.reviews.list("dl-4")).toHaveLength(1);
    expect(purges).toContainEqual(["directory", "business-dl-4"]);

    // Someone who already reviewed that business from the same address gets a clear refusal.
    const other = await submit(BOOKING_ENDPOINT, { ...validBooking("dl-4"), customerEmail: "rita@example.com" });
    const { id: second } = (await other.json()) as { id: string };
    const otherLink = linkIn(emails("pro4@pros.test").find((e) => e.text.includes(second))!.text, "respond");
    await answer(otherLink, [["action", "accept"]]);
    await markDone(signer(SECRET).statusPath(second));
    const otherPath = new URL(signer(SECRET).reviewPath(second, "dl-4", Date.now() + 86_400_000), ORIGIN).pathname;
    const refused = await review(
      formRequest(otherPath, [
        ["rating", "5"],
        ["customerName", "Rita R."],
      ]),
    );
    const refusedPage = await followed(refused, otherPath);
    expect(refusedPage.status).toBe(409);
    expect(await refusedPage.text()).toContain("already reviewed this business from this e-mail address");
    expect(await h!.store.reviews.list("dl-4")).toHaveLength(1);
  });
});
