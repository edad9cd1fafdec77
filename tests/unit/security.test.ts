/**
 * The request-level rules of docs/security.md that need no store: which posts count as
 * cross-site, the headers on function-rendered pages (the same as netlify.toml gives the
 * static ones), and the text cleaning every schema applies.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PAGE_SECURITY_HEADERS, isCrossSite } from "../../netlify/lib/http.ts";
import { ChatRequest } from "../../src/lib/chat.ts";
import { BookingRequest } from "../../src/lib/schemas/booking.ts";
import { ReviewInput } from "../../src/lib/schemas/review.ts";
import { FindProsRequest, QuoteRequest } from "../../src/lib/schemas/forms.ts";
import { multiLine, singleLine } from "../../src/lib/schemas/text.ts";

/** The `[[headers]] for = "/*"` values of netlify.toml, names lower-cased. */
function tomlHeaders(): Record<string, string> {
  const toml = readFileSync(new URL("../../netlify.toml", import.meta.url), "utf8");
  const block = /for = "\/\*"\s*\n\s*\[headers\.values\]\n([\s\S]*?)(?:\n\s*\n|\n\[|$)/.exec(toml)?.[1] ?? "";
  const out: Record<string, string> = {};
  for (const [, name, value] of block.matchAll(/^\s*([A-Za-z-]+)\s*=\s*"(.*)"\s*$/gm))
    out[name!.toLowerCase()] = value!;
  return out;
}

describe("security headers on function-rendered pages", () => {
  it("equal netlify.toml's static-page headers (the server's own plain-text refusals carry them)", () => {
    const { "content-security-policy": staticCsp, ...rest } = tomlHeaders();
    expect(Object.keys(rest).length).toBeGreaterThanOrEqual(5);
    expect(PAGE_SECURITY_HEADERS).toEqual(rest);
    expect(staticCsp).toContain("frame-ancestors 'none'");
  });
});

describe("isCrossSite", () => {
  const post = (headers: Record<string, string>, url = "https://treeline.example/api/quote") =>
    new Request(url, { method: "POST", headers });

  it("refuses a foreign or opaque Origin and Sec-Fetch-Site cross-site / same-site", () => {
    expect(isCrossSite(post({ origin: "https://evil.example" }))).toBe(true);
    expect(isCrossSite(post({ origin: "https://treeline.example.evil.example" }))).toBe(true);
    expect(isCrossSite(post({ origin: "http://treeline.example" }))).toBe(true);
    expect(isCrossSite(post({ origin: "null" }))).toBe(true);
    expect(isCrossSite(post({ origin: "not a url" }))).toBe(true);
    expect(isCrossSite(post({ "sec-fetch-site": "cross-site" }))).toBe(true);
    expect(isCrossSite(post({ "sec-fetch-site": "same-site" }))).toBe(true);
  });

  it("lets the site's own origin, the configured SITE_URL and header-less clients through", () => {
    expect(isCrossSite(post({ origin: "https://treeline.example", "sec-fetch-site": "same-origin" }))).toBe(false);
    expect(
      isCrossSite(
        post({ origin: "https://www.treeline.example" }, "http://10.0.0.5:8888/api/quote"),
        "https://www.treeline.example",
      ),
    ).toBe(false);
    expect(isCrossSite(post({ "sec-fetch-site": "same-origin" }))).toBe(false);
    // Typed into the address bar or a bookmark.
    expect(isCrossSite(post({ "sec-fetch-site": "none" }))).toBe(false);
    // curl, server-to-server, tests.
    expect(isCrossSite(post({}))).toBe(false);
  });
});

describe("control and bidi characters in visitor text", () => {
  const nasty = "A\u0000B\u0007C\u001b[2JD\u007fE\u0085F\u202eG\u202aH\u2066I\u2069J";

  it("singleLine strips them and turns line breaks and tabs into spaces", () => {
    expect(singleLine(nasty)).toBe("ABC[2JDEFGHIJ");
    expect(singleLine("Subject\r\nBcc: x@evil.example\ttab\u2028sep")).toBe("Subject Bcc: x@evil.example tab sep");
  });

  it("multiLine keeps newlines (normalized) and tabs", () => {
    expect(multiLine("one\r\ntwo\rthree\n\tfour\u2029five")).toBe("one\ntwo\nthree\n\tfour\nfive");
    expect(multiLine(nasty)).toBe("ABC[2JDEFGHIJ");
  });

  it("every form schema applies them: one-line fields lose line breaks, descriptions keep them", () => {
    const quote = QuoteRequest.parse({
      name: "Jane\u202e Doe",
      email: "jane@example.com",
      phone: "512-555-0199\u0000",
      address: "1 Oak St\nSecond line",
      serviceType: "tree-removal",
      urgency: "emergency",
    });
    expect(quote).toMatchObject({ name: "Jane Doe", phone: "512-555-0199", address: "1 Oak St Second line" });
    const pros = FindProsRequest.parse({
      location: "Austin\u0000",
      serviceType: "Tree Removal",
      propertyType: "residential",
      description: "Big oak\r\nleaning\u202e",
      timeline: "within-week",
      name: "Jo Do",
      phone: "512-555-0199",
      email: "jo@example.com",
    });
    expect(pros).toMatchObject({ location: "Austin", description: "Big oak\nleaning" });
    const booking = BookingRequest.parse({
      customerName: "Kim\u0007",
      customerEmail: "k@example.com",
      customerPhone: "5125550199",
      businessId: "t-001",
      description: "a\nb\u0000",
    });
    expect(booking).toMatchObject({ customerName: "Kim", description: "a\nb" });
    const review = ReviewInput.parse({
      customerName: "\u202eKim",
      title: "Great\r\nwork",
      reviewText: "Line 1\nLine 2\u0000",
    });
    expect(review).toMatchObject({ customerName: "Kim", title: "Great work", reviewText: "Line 1\nLine 2" });
    const chat = ChatRequest.parse({ messages: [{ role: "user", content: "hi\u0000\nthere\u202e" }] });
    expect(chat.messages[0]!.content).toBe("hi\nthere");
  });
});
