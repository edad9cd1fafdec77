/**
 * An install with no e-mail or text provider keeps its offers for the team: the confirmation and
 * the status page say so, never "offered ... each has 10 minutes" nor "waiting for an answer",
 * and past the deadline such an offer is not reached, never "didn't answer in time".
 */
import { describe, expect, it } from "vitest";
import { advance, initialRouting, offerSummary } from "../../netlify/lib/delivery/routing.ts";
import { offersCanBeSent } from "../../netlify/lib/notify/config.ts";
import {
  KEPT_BADGE,
  KEPT_UNREACHED_BADGE,
  KEPT_UNREACHED_LINE,
  STATE_BADGES,
  statusPageOf,
} from "../../netlify/lib/page-data/delivery-status.ts";
import { offersNow } from "../../src/lib/forms/copy.ts";
import { parseEnv } from "../../src/lib/env.ts";
import type { Lead } from "../../src/lib/schemas/lead.ts";
import type { Message } from "../../src/lib/schemas/message.ts";

const NOW = Date.parse("2026-11-28T20:00:00Z");
const lead: Lead = {
  id: "ld_0000000000000000001",
  type: "quote",
  createdAt: new Date(NOW).toISOString(),
  sourcePage: "/",
  reference: "TL-7KQ2-9F",
  urgency: "emergency",
  timeZone: "America/New_York",
  place: { label: "Miami, FL 33131", zip: "33131", lat: 25.77, lng: -80.19 },
  status: "offered",
  data: { name: "Jo Storm", address: "100 Biscayne Blvd, Miami, FL 33131", serviceType: "tree-removal" },
  routing: initialRouting(
    [1, 2].map((n) => ({ businessId: `b${n}`, name: `Crew ${n}`, slug: `crew-${n}`, email: `c${n}@x.test` })),
    "emergency",
    NOW,
  ),
};

describe("offers on an install that cannot send them", () => {
  it("reach a business only with e-mail (Resend) or text (Twilio) set up", () => {
    expect(offersCanBeSent(parseEnv({}))).toBe(false);
    expect(offersCanBeSent(parseEnv({ NOTIFY_WEBHOOK_URL: "https://hooks.example/x" }))).toBe(false);
    // Resend's test sender (the default NOTIFY_EMAIL_FROM) reaches no business.
    expect(offersCanBeSent(parseEnv({ RESEND_API_KEY: "re_x" }))).toBe(false);
    expect(
      offersCanBeSent(parseEnv({ RESEND_API_KEY: "re_x", NOTIFY_EMAIL_FROM: "Leads <leads@treeline.test>" })),
    ).toBe(true);
    expect(
      offersCanBeSent(parseEnv({ TWILIO_ACCOUNT_SID: "AC1", TWILIO_AUTH_TOKEN: "t", TWILIO_FROM: "+15125550100" })),
    ).toBe(true);
  });

  it("are said as kept for the team on the confirmation and the status page, with the time in the job's zone", () => {
    const kept = offerSummary(lead, { kept: true });
    expect(kept).toMatchObject({ offered: 2, kept: true });
    const text = offersNow(kept, "emergency")!;
    expect(text).toMatch(/^We matched your request to 2 crews near 33131, but .* has not reached them/);
    expect(text).not.toMatch(/each has|minutes to answer/);

    const page = statusPageOf(lead, true);
    expect(page.nextStep).toBe(text);
    for (const holder of page.holders) {
      expect(holder.badge).toEqual(KEPT_BADGE);
      expect(holder.lines[0]).toMatch(/^Kept for our team until .+ 3:10 PM EST/);
    }
    // With a provider, the same lead is offered and waiting.
    expect(offerSummary(lead).kept).toBeUndefined();
    expect(statusPageOf(lead).holders[0]!.badge.label).toBe("Waiting for an answer");
  });

  it("past their deadline are not reached, never 'didn't answer in time'", () => {
    const expired = advance(lead, NOW + 11 * 60_000, null)!;
    expect(expired.routing!.deliveries.map((d) => d.state)).toEqual(["expired", "expired"]);
    const offer = (businessId: string, state: Message["state"]): Message => {
      const i = expired.routing!.events.findIndex((e) => e.kind === "offered" && e.businessId === businessId);
      return {
        id: `${lead.id}~ev${i}~email`,
        leadId: lead.id,
        kind: "offer",
        audience: "business",
        channel: "email",
        to: `${businessId}@x.test`,
        subject: "Emergency job",
        text: "...",
        state,
        createdAt: new Date(NOW).toISOString(),
        attempts: state === "sent" ? 1 : 0,
      };
    };
    const notReached = { badge: KEPT_UNREACHED_BADGE, lines: [KEPT_UNREACHED_LINE] };
    expect(KEPT_UNREACHED_LINE).toBe(
      "Not reached: this site sends no e-mail or text yet; Treeline's team has your request",
    );

    // An install that cannot send offers, before its messages are read: none reached anyone.
    for (const holder of statusPageOf(expired, true).holders.slice(0, 2)) expect(holder).toMatchObject(notReached);

    // The message log says which: Crew 1's offer was only kept, Crew 2's went (a provider took it).
    const messages = [offer("b1", "kept"), offer("b2", "sent")];
    for (const kept of [true, false]) {
      const [crew1, crew2] = statusPageOf(expired, kept, { messages, ready: false }).holders;
      expect(crew1).toMatchObject(notReached);
      expect(crew2).toMatchObject({ badge: STATE_BADGES.expired, lines: ["Didn't answer in time"] });
    }
    // With a provider and no sign of a kept offer, an expired offer is unanswered as before.
    expect(statusPageOf(expired).holders[0]!.badge).toEqual(STATE_BADGES.expired);
  });
});
