/**
 * An install with no e-mail or text provider keeps its offers for the team: the confirmation and
 * the status page say so, never "offered ... each has 10 minutes" nor "waiting for an answer".
 */
import { describe, expect, it } from "vitest";
import { initialRouting, offerSummary } from "../../netlify/lib/delivery/routing.ts";
import { offersCanBeSent } from "../../netlify/lib/notify/config.ts";
import { KEPT_BADGE, statusPageOf } from "../../netlify/lib/page-data/delivery-status.ts";
import { offersNow } from "../../src/lib/forms/copy.ts";
import { parseEnv } from "../../src/lib/env.ts";
import type { Lead } from "../../src/lib/schemas/lead.ts";

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
});
