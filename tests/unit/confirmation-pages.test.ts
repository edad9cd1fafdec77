// @vitest-environment happy-dom
/**
 * The no-JS confirmation (src/views/leads/Received.tsx, the content of
 * /requests/{id}/{sig}/received) with the lead's receipt: the reference and its status link
 * on every one, where the request stands now (the offer summary), and an emergency told the
 * danger first, then our own line, never promised a day or an arrival.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { NO_MATCHES_MESSAGE } from "../../netlify/lib/find-pros.ts";
import type { OfferSummary, ProMatch } from "../../src/lib/received.ts";
import { receiptOf, type Receipt } from "../../src/lib/receipt.ts";
import { Received } from "../../src/views/leads/Received.tsx";
import type { ReceivedLead } from "../../src/lib/received.ts";
import {
  AUDIT_TOASTS,
  BOOKING_TOASTS,
  DANGER_FIRST,
  EMERGENCY_CONFIRMATION,
  HOTLINE,
  QUOTE_CONFIRMATION,
  QUOTE_TOASTS,
  RECEIPT_COPY,
} from "../../src/lib/forms/copy.ts";
import { SITE } from "../../src/lib/site.ts";
import { ARRIVAL_PROMISE, DAY_PROMISE, RECEIPT } from "../helpers/receipts.ts";

/** The page's main content as the Astro page renders it. */
const page = (lead: ReceivedLead, receipt: Receipt) =>
  `<main>${renderToStaticMarkup(createElement(Received, { lead, receipt }))}</main>`;
const quoteConfirmationPage = (
  estimate: string,
  receipt: Receipt,
  more: { offers?: OfferSummary; matches?: ProMatch[] } = {},
) =>
  page(
    { kind: "quote", estimate, matches: more.matches ?? [], ...(more.offers ? { offers: more.offers } : {}) },
    receipt,
  );
const growthConfirmationPage = (kind: "audit" | "assessment", receipt: Receipt) => page({ kind }, receipt);
const bookingConfirmationPage = (businessName: string, slug: string, receipt: Receipt) =>
  page({ kind: "booking", businessName, slug }, receipt);
const findProsConfirmationPage = (matches: ProMatch[], receipt: Receipt, offers?: OfferSummary) =>
  page({ kind: "find-pros", matches, ...(offers ? { offers } : {}) }, receipt);

/** The page as a browser reads it: its main content (the header's phone link is on every page). */
function main(html: string) {
  const doc = new DOMParser().parseFromString(html, "text/html");
  const content = doc.querySelector("main")!;
  const text = content.textContent!.replace(/\s+/g, " ");
  return { doc, content, text };
}

/** The receipt block: the reference in <strong>, the status link by its text, the e-mail note. */
function expectReceipt(content: Element, text: string) {
  const receipt = content.querySelector(".receipt")!;
  expect(receipt.querySelector("strong")!.textContent).toBe(RECEIPT.reference);
  expect(receipt.textContent).toContain(`${RECEIPT_COPY.referenceLabel} ${RECEIPT.reference}`);
  const link = [...receipt.querySelectorAll("a")].find((a) => a.textContent === RECEIPT_COPY.track)!;
  expect(link.getAttribute("href")).toBe(RECEIPT.statusUrl);
  expect(text).toContain(RECEIPT_COPY.willEmail);
}

/**
 * An emergency's page: 911 and the power lines before anything else under the heading, then
 * our own line as the content's first link, named as ours; no day and no arrival anywhere.
 */
function expectEmergency(html: string) {
  const { doc, content, text } = main(html);
  expect(doc.body.textContent).not.toMatch(DAY_PROMISE);
  expect(doc.body.textContent).not.toMatch(ARRIVAL_PROMISE);
  const afterHeading = text.slice(text.indexOf(content.querySelector("h1")!.textContent!) + 1);
  expect(afterHeading.indexOf(DANGER_FIRST.hurt)).toBeGreaterThan(-1);
  expect(afterHeading.indexOf(DANGER_FIRST.hurt)).toBeLessThan(afterHeading.indexOf(DANGER_FIRST.lines));
  expect(text.split(DANGER_FIRST.hurt)).toHaveLength(2);
  const first = content.querySelector("a")!;
  expect(first.getAttribute("href")).toBe(SITE.phoneHref);
  expect(first.textContent).toBe(EMERGENCY_CONFIRMATION.call);
  expect(first.textContent).toBe(HOTLINE.text);
  expect(text.indexOf(DANGER_FIRST.lines)).toBeLessThan(text.indexOf(SITE.phone));
  expect(text.indexOf(SITE.phone)).toBeLessThan(text.indexOf(RECEIPT.reference));
  expectReceipt(content, text);
  return { content, text };
}

/** Three 24/7 crews near a Miami ZIP, ten minutes each, on the emergency clock. */
const MIAMI: OfferSummary = {
  offered: 3,
  near: "33131",
  aroundTheClock: true,
  answerMinutes: 10,
  answerBy: "2026-11-28T20:10:00.000Z",
  timeZone: "America/New_York",
};

const emergency = { ...RECEIPT, urgency: "emergency" } as const;
const MATCH: ProMatch = {
  id: "b1",
  name: "Balcones Canopy Works",
  slug: "balcones",
  phone: "(512) 555-0100",
  rating: "4.9",
  reviewCount: 12,
  distanceMiles: 3.2,
};

describe("quote confirmation page", () => {
  it("routine: the spec's words, the estimate, the receipt", () => {
    const { content, text } = main(quoteConfirmationPage("$200 - $800", RECEIPT));
    expect(content.querySelector("h1")!.textContent).toBe(QUOTE_TOASTS.success.title);
    expect(text).toContain(QUOTE_TOASTS.success.description);
    for (const promise of QUOTE_CONFIRMATION.promises) expect(text).toContain(promise);
    expect(text).toContain("$200 - $800");
    expectReceipt(content, text);
  });

  it("emergency: the danger first, our own line, never 24 hours or an arrival", () => {
    expectEmergency(quoteConfirmationPage("$540 - $2,160", emergency));
  });

  it("emergency with offers: says who has it now, then lists them with their own numbers", () => {
    const { content, text } = expectEmergency(
      quoteConfirmationPage("$540 - $2,160", emergency, { offers: MIAMI, matches: [MATCH] }),
    );
    const now = "Offered to 3 crews near 33131 that take emergencies now; each has 10 minutes to answer.";
    expect(content.querySelector("[data-testid=offers-now]")!.textContent).toBe(now);
    expect(text.indexOf(DANGER_FIRST.lines)).toBeLessThan(text.indexOf(now));
    const pro = [...content.querySelectorAll("a")].find((a) => a.getAttribute("href") === "/directory/balcones")!;
    expect(pro.textContent).toBe(MATCH.name);
    expect(text).toContain(`Call ${MATCH.name} at ${MATCH.phone}`);
  });

  it("emergency sent straight to our team: says why, and that the team will call", () => {
    const { text } = expectEmergency(
      quoteConfirmationPage("$540 - $2,160", emergency, {
        offers: { ...MIAMI, offered: 0, answerMinutes: undefined, answerBy: undefined, toOperator: "no-pros" },
      }),
    );
    expect(text).toContain(
      "No listed crew near 33131 takes emergencies right now: Treeline's team has your request and will call you.",
    );
  });

  it("routine with offers: the deadline in the job's own zone, named, and the spec's promises", () => {
    const chicago: OfferSummary = {
      offered: 2,
      near: "60614",
      aroundTheClock: false,
      answerBy: "2026-11-30T17:00:00.000Z",
      timeZone: "America/Chicago",
    };
    const { text } = main(quoteConfirmationPage("$200 - $800", RECEIPT, { offers: chicago }));
    expect(text).toContain("Offered to 2 pros near 60614; each has until Mon, Nov 30, 11:00 AM CST to answer.");
    for (const promise of QUOTE_CONFIRMATION.promises) expect(text).toContain(promise);
    expect(text).toContain(QUOTE_CONFIRMATION.variesNote);
  });

  it("the endpoint's own reading counts: a routine reply for an emergency form is still an emergency", () => {
    expectEmergency(quoteConfirmationPage("$540 - $2,160", receiptOf(RECEIPT, "emergency")));
  });

  it("a reply without a receipt omits the block", () => {
    const { content } = main(quoteConfirmationPage("$200 - $800", receiptOf({})));
    expect(content.querySelector(".receipt")).toBeNull();
    expect(content.textContent).not.toContain(RECEIPT_COPY.track);
  });

  it("without an e-mail provider it does not promise an e-mail: the link is to be kept", () => {
    const { text } = main(quoteConfirmationPage("$200 - $800", receiptOf({ ...RECEIPT, willEmail: false })));
    expect(text).not.toContain(RECEIPT_COPY.willEmail);
    expect(text).toContain(RECEIPT_COPY.keep);
  });
});

describe("growth confirmation page", () => {
  it("audit and assessment show the receipt", () => {
    for (const kind of ["audit", "assessment"] as const) {
      const { content, text } = main(growthConfirmationPage(kind, RECEIPT));
      expect(text).toContain(AUDIT_TOASTS.success.description);
      expectReceipt(content, text);
    }
  });
});

describe("booking confirmation page", () => {
  it("routine: the spec's words, the business, the receipt", () => {
    const { content, text } = main(bookingConfirmationPage("Balcones Canopy Works", "balcones", RECEIPT));
    expect(text).toContain(BOOKING_TOASTS.success.description);
    expect(text).toContain("Balcones Canopy Works");
    expectReceipt(content, text);
  });

  it("emergency: call now first, never 24 hours", () => {
    expectEmergency(bookingConfirmationPage("Balcones Canopy Works", "balcones", emergency));
  });
});

describe("find-pros confirmation page", () => {
  it("routine: the matches, the follow-up promise, the receipt", () => {
    const { content, text } = main(findProsConfirmationPage([MATCH], RECEIPT));
    expect(text).toContain(MATCH.name);
    expect(text).toContain("within 24 hours");
    expectReceipt(content, text);
    expect(main(findProsConfirmationPage([], RECEIPT)).text).toContain(NO_MATCHES_MESSAGE);
  });

  it("emergency, with and without matches: the danger first, never 24 hours or an arrival", () => {
    expectEmergency(findProsConfirmationPage([MATCH], emergency));
    expectEmergency(findProsConfirmationPage([], emergency));
    const { text } = expectEmergency(findProsConfirmationPage([MATCH], emergency, MIAMI));
    expect(text).toContain("Offered to 3 crews near 33131 that take emergencies now; each has 10 minutes to answer.");
  });
});
