// @vitest-environment happy-dom
/**
 * The no-JS confirmation (src/views/leads/Received.tsx, the content of
 * /requests/{id}/{sig}/received) with the lead's receipt: the reference and its status link
 * on every one, and an emergency told to call now, the hotline first, never promised a day.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { NO_MATCHES_MESSAGE } from "../../netlify/lib/find-pros.ts";
import type { ProMatch } from "../../src/lib/received.ts";
import { receiptOf, type Receipt } from "../../src/lib/receipt.ts";
import { Received } from "../../src/views/leads/Received.tsx";
import type { ReceivedLead } from "../../src/lib/received.ts";
import {
  AUDIT_TOASTS,
  BOOKING_TOASTS,
  EMERGENCY_CONFIRMATION,
  QUOTE_CONFIRMATION,
  QUOTE_TOASTS,
  RECEIPT_COPY,
} from "../../src/lib/forms/copy.ts";
import { SITE } from "../../src/lib/site.ts";
import { DAY_PROMISE, RECEIPT } from "../helpers/receipts.ts";

/** The page's main content as the Astro page renders it. */
const page = (lead: ReceivedLead, receipt: Receipt) =>
  `<main>${renderToStaticMarkup(createElement(Received, { lead, receipt }))}</main>`;
const quoteConfirmationPage = (estimate: string, receipt: Receipt) =>
  page({ kind: "quote", estimate, matches: [] }, receipt);
const growthConfirmationPage = (kind: "audit" | "assessment", receipt: Receipt) => page({ kind }, receipt);
const bookingConfirmationPage = (businessName: string, slug: string, receipt: Receipt) =>
  page({ kind: "booking", businessName, slug }, receipt);
const findProsConfirmationPage = (matches: ProMatch[], receipt: Receipt) =>
  page({ kind: "find-pros", matches }, receipt);

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
  expect(text).toContain(RECEIPT_COPY.emailed);
}

/** An emergency's page: the hotline is the content's first link, the figures follow, no day anywhere. */
function expectEmergency(html: string) {
  const { doc, content, text } = main(html);
  expect(doc.body.textContent).not.toMatch(DAY_PROMISE);
  const first = content.querySelector("a")!;
  expect(first.getAttribute("href")).toBe(SITE.phoneHref);
  expect(first.textContent).toBe(EMERGENCY_CONFIRMATION.call);
  expect(text).toContain(EMERGENCY_CONFIRMATION.figures);
  expect(text.indexOf(SITE.phone)).toBeLessThan(text.indexOf(RECEIPT.reference));
  expectReceipt(content, text);
}

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

  it("emergency: call now first, the emergency figures, never 24 hours", () => {
    expectEmergency(quoteConfirmationPage("$540 - $2,160", emergency));
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
    const { text } = main(quoteConfirmationPage("$200 - $800", receiptOf({ ...RECEIPT, emailed: false })));
    expect(text).not.toContain(RECEIPT_COPY.emailed);
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

  it("emergency, with and without matches: call now first, never 24 hours", () => {
    expectEmergency(findProsConfirmationPage([MATCH], emergency));
    expectEmergency(findProsConfirmationPage([], emergency));
  });
});
