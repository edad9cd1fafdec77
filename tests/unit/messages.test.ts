/**
 * Messages as composed, without a store or a provider: each written once for every channel it
 * takes (the SMS is the message's own SMS, the webhook body goes only to the webhook), the
 * visitor's text escaped in every e-mail and kept to one line in every subject, a "kept" note
 * for a channel without a provider, owners' messages on the same rails, and a lead summarized
 * once per composition however many messages it owes.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import { composeMessages } from "../../netlify/lib/delivery/compose.ts";
import { signer } from "../../netlify/lib/delivery/signing.ts";
import {
  CODE_REMOVED,
  LINK_REMOVED,
  claimRefused,
  signInCode,
  signInLink,
  signInTitle,
  withoutSignInSecrets,
} from "../../netlify/lib/messages/owner.ts";
import { leadFacts } from "../../netlify/lib/messages/parts.ts";
import {
  EMERGENCY_LINE,
  answerUpdate,
  nextStep,
  operatorHasIt,
  passedOn,
  receipt as receiptMessage,
  withdrawnUpdate,
} from "../../netlify/lib/messages/visitor.ts";
import { NOTES, toMessage, type ChannelSetup } from "../../netlify/lib/notify/drafts.ts";
import { summarizeLead } from "../../src/lib/lead-summary.ts";
import type { Delivery, Lead } from "../../src/lib/schemas/lead.ts";
import { ARRIVAL_PROMISE } from "../helpers/receipts.ts";

vi.mock("../../src/lib/lead-summary.ts", async (actual) => {
  const real = await actual<typeof import("../../src/lib/lead-summary.ts")>();
  return { ...real, summarizeLead: vi.fn(real.summarizeLead) };
});

const SITE = "https://treeline.test";
const HOSTILE = 'Jo <script>alert(1)</script>\nBcc: "x"';
const ALL: ChannelSetup = {
  email: true,
  emailReady: true,
  operatorEmails: ["ops@treeline.test"],
  webhook: true,
  sms: true,
};
const NONE: ChannelSetup = { email: false, emailReady: false, operatorEmails: [], webhook: false, sms: false };
const ctx = (setup: ChannelSetup) => ({ setup, signer: signer("x".repeat(40)), siteUrl: SITE });

const at = (minutes: number) => new Date(Date.parse("2026-11-28T15:00:00Z") + minutes * 60_000).toISOString();

/** An emergency find-pros request offered to two pros: one answered, one has no contact at all. */
function lead(): Lead {
  return {
    id: "ld_0000000000000000001",
    type: "find-pros",
    createdAt: at(0),
    sourcePage: "/find-a-tree-service",
    reference: "TL-7KQ2-9F",
    urgency: "emergency",
    // Where the request was matched, as the function keeps it.
    place: { label: "Austin, TX 78701", zip: "78701", lat: 30.27, lng: -97.74 },
    status: "new",
    data: {
      name: HOSTILE,
      email: "jo@example.com",
      phone: "512-555-0199",
      location: "78701",
      serviceType: "Tree Removal",
      description: "Oak on the roof <img src=x onerror=alert(1)>",
    },
    routing: {
      deliveries: [
        {
          businessId: "pro-1",
          name: "Oak & Sons",
          slug: "oak-sons",
          email: "pro@oak.test",
          phone: "(512) 555-0201",
          offeredAt: at(0),
          deadlineAt: at(10),
          state: "accepted",
          answeredAt: at(4),
          window: "Today 4-6 PM",
          price: "$650",
        },
        {
          businessId: "pro-2",
          name: "No Contact Trees",
          slug: "no-contact",
          offeredAt: at(0),
          deadlineAt: at(10),
          state: "waiting",
        },
      ],
      events: [
        { at: at(0), kind: "offered", businessId: "pro-1" },
        { at: at(0), kind: "offered", businessId: "pro-2" },
        { at: at(4), kind: "accepted", businessId: "pro-1" },
      ],
    },
  };
}

/** The same lead with a third pro whose offer no channel took (the notifier marked it undelivered). */
function undelivered(): Lead {
  const l = lead();
  const routing = l.routing!;
  return {
    ...l,
    routing: {
      ...routing,
      deliveries: [
        ...routing.deliveries,
        {
          businessId: "pro-3",
          name: "Phone Only Trees",
          slug: "phone-only",
          phone: "(512) 555-0203",
          offeredAt: at(0),
          deadlineAt: at(10),
          state: "undelivered",
        },
      ],
      events: [
        ...routing.events,
        { at: at(0), kind: "offered", businessId: "pro-3" },
        { at: at(0), kind: "undelivered", businessId: "pro-3" },
      ],
    },
  };
}

describe("messages as composed", () => {
  beforeEach(() => {
    vi.mocked(summarizeLead).mockClear();
  });

  it("summarizes the lead once for all the messages it owes", () => {
    const messages = composeMessages(lead(), ctx(ALL));
    expect(new Set(messages.map((m) => m.kind))).toEqual(
      new Set(["new-lead", "receipt", "offer", "unreachable", "accepted", "review-invite"]),
    );
    expect(summarizeLead).toHaveBeenCalledTimes(1);
  });

  it("tells the operator of an undelivered offer, saying whether any channel here reaches the business", () => {
    const [reached, unreached] = [ALL, { ...ALL, sms: false }].map((setup) =>
      composeMessages(undelivered(), ctx(setup)).filter((m) => m.kind === "undeliverable"),
    );
    expect(reached!.map((m) => m.channel)).toEqual(["webhook", "email"]);
    expect(reached![0]!.subject).toContain("Phone Only Trees: our offer could not be delivered to the business");
    expect(reached![0]!.id).toBe("ld_0000000000000000001~ev4~webhook");
    expect(unreached![0]!.subject).toContain("Phone Only Trees: no channel set up here reaches the business");
    // The business with no contact at all was handed over at its offer ("unreachable"), not twice.
    const noContact = lead();
    noContact.routing!.deliveries[1]!.state = "undelivered";
    noContact.routing!.events.push({ at: at(1), kind: "undelivered", businessId: "pro-2" });
    expect(composeMessages(noContact, ctx(ALL)).filter((m) => m.kind === "undeliverable")).toEqual([]);
  });

  it("writes each message once for all its channels: the SMS is its own, the webhook body only on the webhook", () => {
    const messages = composeMessages(lead(), ctx(ALL));
    const [email, sms] = ["email", "sms"].map((c) => messages.find((m) => m.kind === "offer" && m.channel === c)!);
    expect(email!.subject).toBe(sms!.subject);
    expect(sms!.html).toBeUndefined();
    expect(sms!.text).toMatch(
      /^Treeline: EMERGENCY job - Tree Removal, Austin, TX 78701\. Answer by .+: https:\/\/treeline\.test\/respond\//,
    );
    const answerLink = /https:\/\/treeline\.test\/respond\/\S+/.exec(sms!.text)![0];
    expect(email!.text).toContain(answerLink);
    expect(email!.html).toContain(answerLink);

    const alerts = messages.filter((m) => m.kind === "new-lead");
    expect(alerts.map((m) => m.channel)).toEqual(["webhook", "email"]);
    expect(JSON.parse(alerts[0]!.payload!)).toMatchObject({ blocks: expect.any(Array) });
    expect(alerts[1]!.payload).toBeUndefined();
    expect(alerts[1]!.html).toContain('<a href="tel:+15125550199">512-555-0199</a>');
    const unreachable = messages.find((m) => m.kind === "unreachable" && m.channel === "webhook")!;
    expect(JSON.parse(unreachable.payload!)).toEqual({
      text: `${unreachable.subject}\n${SITE}/admin#lead=ld_0000000000000000001`,
    });

    const receipt = messages.find((m) => m.kind === "receipt")!;
    expect(receipt.text.split("\n")[0]).toBe(EMERGENCY_LINE);
    // Accepted for "Today 4-6 PM" (a Saturday morning in Chicago): asked once that day is over.
    const invite = messages.find((m) => m.kind === "review-invite")!;
    expect(invite).toMatchObject({
      subject: "How did Oak & Sons do? (TL-7KQ2-9F)",
      nextAttemptAt: "2026-11-29T06:00:00.000Z",
    });
  });

  it("offers a job with the customer's first name and area only: no phone, e-mail or street address", () => {
    const booked = {
      ...lead(),
      type: "booking" as const,
      data: {
        customerName: "Bob Booker",
        customerEmail: "bob@example.com",
        customerPhone: "512-555-0177",
        propertyAddress: "42 Pecan Lane, Austin TX 78701",
        serviceType: "Tree Trimming",
      },
    };
    const offers = composeMessages(booked, ctx(ALL)).filter((m) => m.kind === "offer");
    expect(offers.map((m) => m.channel)).toEqual(["email", "sms"]);
    for (const m of offers) {
      for (const part of [m.subject, m.text, m.html ?? ""]) {
        expect(part).not.toMatch(/555-0177|bob@example\.com|Pecan|Booker/);
      }
      expect(m.text).toContain("Austin, TX 78701");
    }
    expect(offers[0]!.text).toContain("Customer: Bob");
    expect(offers[0]!.subject).toMatch(/^EMERGENCY job: Tree Trimming in Austin, TX 78701 \(answer by /);
  });

  it("escapes what the visitor typed in every e-mail and keeps every subject on one line", () => {
    const messages = composeMessages(undelivered(), ctx(ALL));
    for (const m of messages) {
      expect(m.subject).not.toMatch(/[\r\n]/);
      if (!m.html) continue;
      expect(m.html).not.toMatch(/<script|<img/);
      if (m.html.includes("Oak on the roof")) expect(m.html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    }
    expect(messages.find((m) => m.kind === "receipt")!.html).toContain("Hi Jo &lt;script&gt;");
  });

  it("keeps a message whose channel has no provider, and says which setting is missing", () => {
    const messages = composeMessages(lead(), ctx(NONE));
    expect(messages.every((m) => m.state === "kept")).toBe(true);
    expect(messages.find((m) => m.kind === "new-lead")).toMatchObject({ channel: "admin", note: NOTES.noOperator });
    expect(messages.find((m) => m.channel === "sms")!.note).toBe(NOTES.noSms);
    expect(messages.find((m) => m.kind === "receipt")!.note).toBe(NOTES.noEmail);
  });

  it("words owners' messages in one place and stores them on the same rails", () => {
    const claim = { id: "cl_aaaaaaaaaaaaaaaaaaaa" };
    const draft = (m: ReturnType<typeof signInCode>) => ({
      key: m.kind,
      kind: m.kind,
      audience: "business" as const,
      channel: m.channel,
      to: "x",
      written: m.written,
      at: at(0),
    });
    const code = toMessage(claim, draft(signInCode({ businessName: "Oak & Sons", code: "123456" })), ALL);
    expect(code).toMatchObject({ id: `${claim.id}~owner-code~sms`, channel: "sms", state: "queued" });
    expect(code.text).toBe(
      "Treeline: 123456 is your code to manage Oak & Sons. It works for 10 minutes. If you didn't ask for it, ignore this text.",
    );
    expect(code.html).toBeUndefined();

    const link = signInLink({ businessName: "Oak & Sons", url: `${SITE}/owner/sign-in/abc` });
    expect(link).toMatchObject({ kind: "owner-sign-in", channel: "email" });
    expect(link.written.subject).toBe(signInTitle("Oak & Sons"));
    expect(link.written.html).toContain("Oak &amp; Sons");
    const approved = signInLink({ businessName: "Oak & Sons", url: `${SITE}/owner/sign-in/abc`, approved: true });
    expect(approved).toMatchObject({
      kind: "claim-approved",
      written: { subject: "Your claim of Oak & Sons is approved" },
    });

    const refused = toMessage(claim, draft(claimRefused({ businessName: "Oak & Sons", reason: "No proof <b>" })), NONE);
    expect(refused).toMatchObject({ state: "kept", note: NOTES.noEmail, subject: "Your request for Oak & Sons" });
    expect(refused.text).toContain("Reason: No proof <b>");
    expect(refused.html).toContain("Reason: No proof &lt;b&gt;");
  });

  it("drops a sign-in link or code from what the log keeps, and leaves every other message as it was", () => {
    const claim = { id: "cl_aaaaaaaaaaaaaaaaaaaa" };
    const token = "A".repeat(21) + "_-" + "z9".repeat(10);
    const draft = (m: ReturnType<typeof signInCode>) => ({
      key: m.kind,
      kind: m.kind,
      audience: "business" as const,
      channel: m.channel,
      to: "x",
      written: m.written,
      at: at(0),
    });
    const link = toMessage(
      claim,
      draft(signInLink({ businessName: "Oak 123456", url: `${SITE}/owner/sign-in/${token}`, approved: true })),
      ALL,
    );
    const clean = withoutSignInSecrets({ ...link, payload: JSON.stringify({ text: `/owner/sign-in/${token}` }) });
    expect(JSON.stringify(clean)).not.toContain(token);
    expect(clean.text).toContain(`Sign in: ${LINK_REMOVED}`);
    expect(clean.html).toContain(`href="${LINK_REMOVED}"`);
    expect(clean.payload).toContain(LINK_REMOVED);
    // Only a code message loses its digits: a link message's business name keeps them.
    expect(clean.subject).toBe("Your claim of Oak 123456 is approved");

    const code = toMessage(claim, draft(signInCode({ businessName: "Oak & Sons", code: "042517" })), ALL);
    expect(withoutSignInSecrets(code).text).toBe(
      `Treeline: ${CODE_REMOVED} is your code to manage Oak & Sons. It works for 10 minutes. If you didn't ask for it, ignore this text.`,
    );
    const refused = toMessage(claim, draft(claimRefused({ businessName: "Oak", reason: "No 123456" })), ALL);
    expect(withoutSignInSecrets(refused)).toBe(refused);
  });
});

/** An emergency quote for a Miami address, offered to three 24/7 crews at once, on Eastern time. */
function miami(deliveries: Partial<Delivery>[] = [{}, {}, {}]): Lead {
  const names = ["Brickell Tree Pros", "Coral Canopy", "Key Biscayne Arbor"];
  const list: Delivery[] = deliveries.map((d, i) => ({
    businessId: `mia-${i}`,
    name: names[i]!,
    slug: `mia-${i}`,
    email: `pro${i}@mia.test`,
    offeredAt: at(0),
    deadlineAt: at(10),
    state: "waiting",
    ...d,
  }));
  return {
    id: "ld_0000000000000000002",
    type: "quote",
    createdAt: at(0),
    sourcePage: "/services/emergency",
    reference: "TL-5F22-5D",
    urgency: "emergency",
    timeZone: "America/New_York",
    place: { label: "Miami, FL 33131", zip: "33131", lat: 25.77, lng: -80.19 },
    status: "new",
    data: {
      name: "Ana Ruiz",
      email: "ana@example.com",
      phone: "305-555-0199",
      address: "200 Biscayne Blvd Way, Miami, FL 33131",
      serviceType: "tree-removal",
      urgency: "emergency",
    },
    routing: {
      deliveries: list,
      events: list.map((d) => ({ at: d.offeredAt, kind: "offered" as const, businessId: d.businessId })),
    },
  };
}

const STATUS = `${SITE}/requests/x/y`;

describe("the visitor's messages tell the truth", () => {
  it("the emergency line: 911, the power lines, then our own line, named as ours; no dispatch or arrival", () => {
    expect(EMERGENCY_LINE).toBe(
      "If anyone is hurt or in danger, call 911. Stay away from downed power lines and call your electric utility. Treeline's 24/7 line: (512) 555-0142.",
    );
    expect(EMERGENCY_LINE).not.toMatch(ARRIVAL_PROMISE);
  });

  it("a Miami emergency's receipt: danger first, who has it now and until when, in Eastern time", () => {
    const written = receiptMessage(leadFacts(miami()), STATUS);
    const lines = written.text.split("\n");
    expect(lines[0]).toBe(EMERGENCY_LINE);
    expect(written.text).toContain(
      "Offered to 3 crews near 33131 that take emergencies now; each has 10 minutes to answer (by 10:10 AM EST). If nobody accepts in time, we pass your request on.",
    );
    expect(written.text).not.toMatch(ARRIVAL_PROMISE);
    expect(written.text).not.toMatch(/\bC[SD]T\b/);
    expect(written.html).toContain("call 911");
    expect(written.html!.indexOf("call 911")).toBeLessThan(written.html!.indexOf("Offered to 3 crews"));
  });

  it("every message of an emergency leads with the danger and promises no arrival", () => {
    const facts = leadFacts(miami());
    const d = facts.lead.routing!.deliveries[0]!;
    for (const written of [
      receiptMessage(facts, STATUS),
      answerUpdate(facts, d, "declined", STATUS),
      answerUpdate(facts, d, "accepted", STATUS),
      withdrawnUpdate(facts, { ...d, state: "withdrawn", reason: "other" }, STATUS),
      passedOn(facts, d, STATUS),
      operatorHasIt(facts, STATUS),
    ]) {
      expect(written.text.split("\n")[0], written.subject).toBe(EMERGENCY_LINE);
      expect(written.text, written.subject).not.toMatch(ARRIVAL_PROMISE);
      expect(written.html, written.subject).toContain("call 911");
    }
    expect(operatorHasIt(facts, STATUS).text).toContain(
      "No pro has accepted your emergency yet, so Treeline's team has it now and will call you.",
    );
  });

  it("says 'waiting' only for offers that wait: not for one no channel delivered, nor one withdrawn", () => {
    const lead = miami([{}, { state: "undelivered" }, { state: "withdrawn", answeredAt: at(3), withdrawnAt: at(5) }]);
    const next = nextStep(lead);
    expect(next).toBe(
      "Waiting for Brickell Tree Pros to answer, by 10:10 AM EST. If nobody accepts in time, we pass your request on.",
    );
    expect(next).not.toContain("Coral Canopy");
    expect(next).not.toContain("Key Biscayne Arbor");

    const none = miami([{ state: "undelivered" }, { state: "expired" }, { state: "declined", answeredAt: at(2) }]);
    expect(nextStep(none)).toBe("No pro has your request right now, so we're passing it on.");
    expect(nextStep(none)).not.toMatch(/waiting/i);
  });

  it("after acceptance names the pro; sent straight to our team says why", () => {
    expect(nextStep(miami([{ state: "accepted", answeredAt: at(4) }, {}, {}]))).toBe(
      "Brickell Tree Pros accepted your request and will contact you to confirm the details.",
    );
    const noPros = {
      ...miami([]),
      routing: {
        deliveries: [],
        events: [{ at: at(0), kind: "escalated" as const, reason: "no-pros" }],
        escalatedAt: at(0),
      },
    };
    expect(nextStep(noPros)).toBe(
      "No listed crew near 33131 takes emergencies right now: Treeline's team has your request and will call you.",
    );
    const routine = {
      ...noPros,
      urgency: "routine" as const,
      routing: { ...noPros.routing, events: [{ at: at(0), kind: "escalated" as const, reason: "no-place" }] },
    };
    expect(nextStep(routine)).toBe(
      "We couldn't place that address on our map: Treeline's team has your request and will contact you within 24 hours.",
    );
  });

  it("a routine request's deadline is said with its day, in the job's zone", () => {
    const lead: Lead = {
      ...miami([{ deadlineAt: "2026-11-30T17:00:00.000Z" }, { deadlineAt: "2026-11-30T17:00:00.000Z" }]),
      urgency: "routine",
      timeZone: "America/Chicago",
      place: { label: "Chicago, IL 60614", zip: "60614", lat: 41.92, lng: -87.65 },
      data: { name: "Lee", email: "lee@example.com", address: "2100 N Clark St, Chicago, IL 60614" },
    };
    expect(nextStep(lead)).toBe(
      "Offered to 2 pros near 60614; each has until Mon, Nov 30, 11:00 AM CST to answer. If nobody accepts in time, we pass your request on.",
    );
  });
});
