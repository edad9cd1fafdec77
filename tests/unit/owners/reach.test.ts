/**
 * What the owners' pages may say and offer (netlify/lib/owners/reach.ts): a channel counts only
 * when it can deliver, and a message's state reads as sent, tried again, or kept for the team.
 */
import { describe, expect, it } from "vitest";
import { canEmail, canText, deliveryOf } from "../../../netlify/lib/owners/reach.ts";
import { parseEnv } from "../../../src/lib/env.ts";

describe("reach", () => {
  it("e-mail counts only with a key and a sender of the operator's own; texts with every Twilio setting", () => {
    expect(canEmail(parseEnv({}))).toBe(false);
    expect(canEmail(parseEnv({ RESEND_API_KEY: "re_x" }))).toBe(false);
    expect(canEmail(parseEnv({ RESEND_API_KEY: "re_x", NOTIFY_EMAIL_FROM: "Treeline <onboarding@resend.dev>" }))).toBe(
      false,
    );
    expect(canEmail(parseEnv({ RESEND_API_KEY: "re_x", NOTIFY_EMAIL_FROM: "Treeline <hi@treeline.test>" }))).toBe(true);
    expect(canText(parseEnv({ TWILIO_ACCOUNT_SID: "AC1", TWILIO_AUTH_TOKEN: "t" }))).toBe(false);
    expect(canText(parseEnv({ TWILIO_ACCOUNT_SID: "AC1", TWILIO_AUTH_TOKEN: "t", TWILIO_FROM: "+15125550100" }))).toBe(
      true,
    );
  });

  it("says sent only for a message the provider took", () => {
    expect(deliveryOf({ state: "sent" })).toBe("sent");
    expect(deliveryOf({ state: "retrying" })).toBe("retrying");
    expect(deliveryOf({ state: "queued" })).toBe("retrying");
    expect(deliveryOf({ state: "kept" })).toBe("kept");
    expect(deliveryOf({ state: "failed" })).toBe("kept");
  });
});
