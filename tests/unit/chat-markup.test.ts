/**
 * The reply markup the widget renders: same-site links and the operator's contact
 * details become links, everything else stays text (no HTML, no foreign URLs).
 */
import { describe, expect, it } from "vitest";
import { parseMarkup, safeHref } from "../../src/lib/chat-markup.ts";
import { SITE } from "../../src/lib/site.ts";

describe("safeHref", () => {
  it("keeps the site's own pages, directory entries and section fragments", () => {
    expect(safeHref("/services/tree-removal")).toBe("/services/tree-removal");
    expect(safeHref("/services/tree-removal/")).toBe("/services/tree-removal");
    expect(safeHref("/")).toBe("/");
    expect(safeHref("/directory/oak-and-pine-tree-care")).toBe("/directory/oak-and-pine-tree-care");
    expect(safeHref("/services/emergency#quote")).toBe("/services/emergency#quote");
    expect(safeHref("/services/emergency?utm=x")).toBe("/services/emergency");
    expect(safeHref(SITE.phoneHref)).toBe(SITE.phoneHref);
    expect(safeHref(`mailto:${SITE.email}`)).toBe(`mailto:${SITE.email}`);
  });

  it("refuses everything else", () => {
    for (const href of [
      "https://evil.example/",
      "//evil.example/services/tree-removal",
      "javascript:alert(1)",
      "JAVASCRIPT:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "/\\evil.example",
      "/not-a-page",
      "/services/../admin",
      "/directory/<script>",
      "tel:+19005550000",
      "mailto:someone@else.example",
      "services/tree-removal",
    ]) {
      expect(safeHref(href), href).toBeNull();
    }
  });
});

describe("parseMarkup", () => {
  it("links, bold, phone and e-mail; paragraphs and lines", () => {
    const text = `Tree removal is **$550 - $2,750**. See [Tree removal](/services/tree-removal).\nCall ${SITE.phone} or write to ${SITE.email}.\n\n- one\n- two`;
    expect(parseMarkup(text)).toEqual([
      [
        [
          { type: "text", text: "Tree removal is " },
          { type: "strong", text: "$550 - $2,750" },
          { type: "text", text: ". See " },
          { type: "link", text: "Tree removal", href: "/services/tree-removal" },
          { type: "text", text: "." },
        ],
        [
          { type: "text", text: "Call " },
          { type: "link", text: SITE.phone, href: SITE.phoneHref },
          { type: "text", text: " or write to " },
          { type: "link", text: SITE.email, href: `mailto:${SITE.email}` },
          { type: "text", text: "." },
        ],
      ],
      [[{ type: "text", text: "• one" }], [{ type: "text", text: "• two" }]],
    ]);
  });

  it("a foreign or script link shows its label as text; HTML stays text", () => {
    expect(
      parseMarkup("[click me](https://evil.example) [x](javascript:alert(1)) <img src=x onerror=alert(1)>"),
    ).toEqual([[[{ type: "text", text: "click me [x](javascript:alert(1)) <img src=x onerror=alert(1)>" }]]]);
    expect(parseMarkup("[Quote](/services/emergency#quote)")[0]![0]).toEqual([
      { type: "link", text: "Quote", href: "/services/emergency#quote" },
    ]);
  });

  it("plain text and blank input", () => {
    expect(parseMarkup("Hello")).toEqual([[[{ type: "text", text: "Hello" }]]]);
    expect(parseMarkup("  \n\n ")).toEqual([]);
  });
});
