// @vitest-environment happy-dom
/**
 * Say only what happened: e-mail counts as able to reach a visitor or a business
 * only with a Resend key and a sender of the operator's own (never Resend's test sender);
 * the receipt never says an e-mail is on its way (it goes after the answer), and says none is
 * sent when e-mail cannot reach the visitor or the request is held; a request held as too fast
 * never says it was sent to a business; the status page says each e-mail's delivery state.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { heldRouting, initialRouting } from "../../netlify/lib/delivery/routing.ts";
import {
  EMAIL_NOT_READY,
  RESEND_TEST_SENDER,
  emailNotReady,
  emailReady,
  notifyConfig,
  offersCanBeSent,
  setupOf,
  smsNotReady,
  smsReady,
} from "../../netlify/lib/notify/config.ts";
import { NOTES, toMessage } from "../../netlify/lib/notify/drafts.ts";
import { EMAIL_NOTES, emailsOf } from "../../netlify/lib/page-data/delivery-status.ts";
import { receivedOf } from "../../netlify/lib/page-data/received.ts";
import { parseEnv, type Env } from "../../src/lib/env.ts";
import { BOOKING_CONFIRMATION, RECEIPT_COPY } from "../../src/lib/forms/copy.ts";
import type { Lead } from "../../src/lib/schemas/lead.ts";
import type { Message } from "../../src/lib/schemas/message.ts";
import { Received } from "../../src/views/leads/Received.tsx";

const NOW = Date.parse("2026-11-28T20:00:00Z");
const KEY = { RESEND_API_KEY: "re_live_x" };
const OWN_SENDER = { NOTIFY_EMAIL_FROM: "Treeline <leads@treeline.test>" };
const TWILIO = { TWILIO_ACCOUNT_SID: "AC1", TWILIO_AUTH_TOKEN: "token", TWILIO_FROM: "+15125550100" };

/** The provider modes an install can be in. */
const MODES: Record<string, Env> = {
  none: parseEnv({}),
  "test sender (the default)": parseEnv(KEY),
  "test sender, set explicitly": parseEnv({ ...KEY, NOTIFY_EMAIL_FROM: `Treeline <${RESEND_TEST_SENDER}>` }),
  "own sender": parseEnv({ ...KEY, ...OWN_SENDER }),
};

/** Anything that claims a message went. */
const CLAIMS_SENT = /on its way|has been sent|have been sent|we've sent|we sent|e-?mailed|texted|was sent/i;

describe("provider readiness", () => {
  it("e-mail is ready only with a Resend key and a sender of our own", () => {
    expect(emailNotReady(MODES.none!)).toBe(EMAIL_NOT_READY.noKey);
    expect(emailNotReady(MODES["test sender (the default)"]!)).toBe(EMAIL_NOT_READY.testSender);
    expect(emailNotReady(MODES["test sender, set explicitly"]!)).toBe(EMAIL_NOT_READY.testSender);
    expect(emailNotReady(parseEnv({ ...KEY, NOTIFY_EMAIL_FROM: "Delivered@Resend.dev" }))).toBe(
      EMAIL_NOT_READY.testSender,
    );
    expect(emailNotReady(MODES["own sender"]!)).toBeNull();
    // A sender without a key sends nothing.
    expect(emailReady(parseEnv(OWN_SENDER))).toBe(false);
    expect(emailReady(MODES["own sender"]!)).toBe(true);
    expect(EMAIL_NOT_READY.testSender).toContain(RESEND_TEST_SENDER);
  });

  it("SMS is ready with all three Twilio settings, and says which are missing", () => {
    expect(smsReady(parseEnv(TWILIO))).toBe(true);
    expect(smsNotReady(parseEnv(TWILIO))).toBeNull();
    expect(smsNotReady(parseEnv({}))).toBe(
      "TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM are not set: no text message is sent.",
    );
    expect(smsNotReady(parseEnv({ ...TWILIO, TWILIO_FROM: "" }))).toBe(
      "TWILIO_FROM is not set: no text message is sent.",
    );
  });

  it("offers count e-mail only when it can reach a business", () => {
    expect(offersCanBeSent(MODES.none!)).toBe(false);
    expect(offersCanBeSent(MODES["test sender (the default)"]!)).toBe(false);
    expect(offersCanBeSent(MODES["own sender"]!)).toBe(true);
    expect(offersCanBeSent(parseEnv(TWILIO))).toBe(true);
  });

  it("with the test sender, e-mail to visitors and businesses is kept (and says why); the operator's still goes", () => {
    const setup = setupOf(notifyConfig(parseEnv({ ...KEY, NOTIFY_EMAIL_TO: "ops@treeline.test" })));
    expect(setup).toMatchObject({ email: true, emailReady: false });
    const draft = (audience: Message["audience"]) =>
      toMessage(
        { id: "ld_1" },
        {
          key: "receipt",
          kind: "receipt",
          audience,
          channel: "email",
          to: "jo@example.com",
          written: { subject: "Hi", text: "Hi" },
          at: new Date(NOW).toISOString(),
        },
        setup,
      );
    for (const audience of ["visitor", "business"] as const)
      expect(draft(audience)).toMatchObject({ state: "kept", note: NOTES.testSender });
    expect(draft("operator").state).toBe("queued");

    const own = setupOf(notifyConfig(MODES["own sender"]!));
    expect(own.emailReady).toBe(true);
  });
});

const base = {
  createdAt: new Date(NOW).toISOString(),
  sourcePage: "/",
  reference: "TL-7KQ2-9F",
  urgency: "routine",
  timeZone: "America/Chicago",
  status: "new",
} as const;

const crew = { businessId: "b1", name: "Balcones Canopy Works", slug: "balcones", email: "crew@balcones.test" };

const quote = (held: boolean): Lead => ({
  ...base,
  id: "ld_0000000000000000001",
  type: "quote",
  place: { label: "Austin, TX 78701", zip: "78701", lat: 30.27, lng: -97.74 },
  data: { name: "Jo Oak", email: "jo@example.com", estimatedCost: "$200 - $800", matchedBusinesses: [] },
  routing: held ? heldRouting(NOW) : initialRouting([crew], "routine", NOW),
});

const booking = (held: boolean): Lead => ({
  ...base,
  id: "ld_0000000000000000002",
  type: "booking",
  data: { customerName: "Jo Oak", customerEmail: "jo@example.com", businessName: crew.name, businessSlug: crew.slug },
  routing: held ? heldRouting(NOW) : initialRouting([crew], "routine", NOW),
});

/** The no-JS confirmation's text for a lead on an install in `env`, as loadReceived builds it. */
function confirmation(lead: Lead, env: Env): string {
  const { lead: shown, receipt } = receivedOf(lead, "/requests/x/y", emailReady(env), !offersCanBeSent(env));
  const html = renderToStaticMarkup(createElement(Received, { lead: shown, receipt }));
  return new DOMParser().parseFromString(html, "text/html").body.textContent!.replace(/\s+/g, " ");
}

describe("the receipt says only what happens", () => {
  it.each(Object.keys(MODES))(
    "%s: a confirmation e-mail is promised only when e-mail can reach the visitor",
    (mode) => {
      const env = MODES[mode]!;
      const text = confirmation(quote(false), env);
      expect(text).not.toMatch(CLAIMS_SENT);
      if (mode === "own sender") {
        expect(text).toContain(RECEIPT_COPY.willEmail);
        expect(text).not.toContain(RECEIPT_COPY.keep);
      } else {
        expect(text).toContain(RECEIPT_COPY.keep);
        expect(text).not.toContain(RECEIPT_COPY.willEmail);
      }
    },
  );

  it("the JSON reply's willEmail follows the same rule", () => {
    for (const [mode, env] of Object.entries(MODES))
      expect(receivedOf(quote(false), "/r", emailReady(env)).receipt.willEmail).toBe(mode === "own sender");
    expect(receivedOf(quote(true), "/r", true).receipt.willEmail).toBe(false);
  });
});

describe("a request held as too fast (the no-JS page)", () => {
  it.each(Object.keys(MODES))("%s: a booking never says it was sent to the business, nor e-mailed", (mode) => {
    const text = confirmation(booking(true), MODES[mode]!);
    expect(text).not.toMatch(CLAIMS_SENT);
    expect(text).not.toContain(BOOKING_CONFIRMATION.offeredTo);
    expect(text).toContain("Thank you! We've got your request for Balcones Canopy Works.");
    expect(text).toContain("Treeline's team checks it before it goes to any business, and will contact you within");
    expect(text).toContain(RECEIPT_COPY.keep);
  });

  it("a quote says the team checks it and lists no one as offered", () => {
    const text = confirmation(quote(true), MODES["own sender"]!);
    expect(text).toContain("We've got your request: Treeline's team checks it before it goes to any business");
    expect(text).not.toMatch(/Offered to/);
    expect(text).toContain(RECEIPT_COPY.keep);
  });

  it("a booking that can reach its business is offered (not 'sent'); one kept for the team says it has not reached them", () => {
    expect(confirmation(booking(false), MODES["own sender"]!)).toContain(
      `${BOOKING_CONFIRMATION.offeredTo} Balcones Canopy Works.`,
    );
    const kept = confirmation(booking(false), MODES["test sender (the default)"]!);
    expect(kept).toContain("has no e-mail or text service set up yet, so it has not reached them");
    expect(kept).not.toMatch(CLAIMS_SENT);
  });
});

describe("the status page's e-mails, from their delivery state", () => {
  const message = (state: Message["state"], more: Partial<Message> = {}): Message => ({
    id: `ld_0000000000000000001~receipt~email~${state}`,
    leadId: "ld_0000000000000000001",
    kind: "receipt",
    audience: "visitor",
    channel: "email",
    to: "jo@example.com",
    subject: "Your request TL-7KQ2-9F is in",
    text: "...",
    state,
    createdAt: new Date(NOW).toISOString(),
    attempts: 0,
    ...more,
  });

  it("says sent only once Resend took it, and what happened otherwise", () => {
    const rows = (m: Message) => emailsOf(quote(false), [m], { ready: true, now: NOW }).rows[0]!.state;
    expect(rows(message("sent", { attempts: 1, sentAt: new Date(NOW + 60_000).toISOString() }))).toBe(
      "Sent to jo@example.com Sat, Nov 28, 2:01 PM CST",
    );
    expect(rows(message("failed", { attempts: 1 }))).toBe(
      "Couldn't be sent to jo@example.com: the e-mail service refused it",
    );
    expect(rows(message("retrying", { attempts: 1, nextAttemptAt: new Date(NOW + 60_000).toISOString() }))).toMatch(
      /^Not sent yet: our e-mail service didn't take it, we'll try again/,
    );
    expect(rows(message("queued"))).toBe("Not sent yet: going to jo@example.com now");
    expect(rows(message("kept", { note: NOTES.testSender }))).toBe("Not sent: this site sends no e-mail yet");
    // An operator's or a business's message is not the visitor's.
    expect(emailsOf(quote(false), [message("sent", { audience: "business" })], { ready: true }).rows).toEqual([]);
  });

  it("with none yet: promised only when e-mail can reach the visitor and the request is not held", () => {
    expect(emailsOf(quote(false), [], { ready: true }).note).toBe(EMAIL_NOTES.soon);
    expect(emailsOf(quote(false), [], { ready: false }).note).toBe(EMAIL_NOTES.none);
    expect(emailsOf(quote(true), [], { ready: true }).note).toBe(EMAIL_NOTES.none);
  });
});
