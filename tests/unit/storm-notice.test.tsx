/**
 * The storm notice's markup (src/views/storm/StormNotice.tsx), as the server renders it for
 * the business, directory and /storm pages: safety first, the hotline, the storm-chaser
 * checks, the declaration and the state's price rule; and the storm line of an estimate.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { estimate } from "../../src/lib/estimate.ts";
import { SITE } from "../../src/lib/site.ts";
import {
  GENERAL_PRICE_RULE,
  STORM_NOTICE,
  StormEvent,
  priceRuleFor,
  stormNotice,
  stormPricing,
} from "../../src/lib/storm.ts";
import { StormNotice } from "../../src/views/storm/StormNotice.tsx";

const at = "2026-10-09T12:00:00.000Z";
const event = StormEvent.parse({
  id: `storm_${"0".repeat(19)}`,
  name: "Hurricane Test",
  area: { kind: "zips", zips: ["33101"] },
  startsAt: at,
  declaration: { level: "governor", reference: "EO 26-101", url: "https://www.flgov.com/eo-26-101" },
  createdAt: at,
  updatedAt: at,
});

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");

describe("StormNotice", () => {
  it("says safety first, the hotline, the storm-chaser checks and Florida's rule for a Miami ZIP", () => {
    const html = renderToStaticMarkup(<StormNotice notice={stormNotice(event, { zip: "33101", state: "FL" })} />);
    const t = text(html);
    expect(t).toContain("Storm emergency in this area: Hurricane Test");
    expect(t).toContain("Emergency declared by the governor: EO 26-101.");
    expect(html).toContain('href="https://www.flgov.com/eo-26-101"');
    // Safety comes before the hotline, the hotline before storm chasers, and the price rule last.
    const order = ["call 911", "downed line", SITE.phone, "storm chaser", "Florida Statutes 501.160"].map((s) =>
      t.indexOf(s),
    );
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(html).toContain(`href="${SITE.phoneHref}"`);
    for (const check of STORM_NOTICE.chasers) expect(t).toContain(check);
    expect(t).toMatch(/license/);
    expect(t).toMatch(/Never pay in full up front/);
    expect(t).toMatch(/written estimate/);
    expect(html).toMatch(/<section aria-labelledby="storm-storm_0+"/);
  });

  it("after an emergency's own safety box it leaves the safety lines and hotline out, keeping the rest", () => {
    const notice = stormNotice(event, { zip: "33101", state: "FL" });
    const t = text(renderToStaticMarkup(<StormNotice notice={notice} safetyShown />));
    expect(t).not.toContain("call 911");
    expect(t).not.toContain(SITE.phone);
    expect(t).toContain("Storm emergency in this area: Hurricane Test");
    for (const check of STORM_NOTICE.chasers) expect(t).toContain(check);
    expect(t).toContain("Florida Statutes 501.160");
  });

  it("a state without its own rule gets the general line, without a citation", () => {
    const notice = stormNotice({ ...event, declaration: { level: "county", reference: "P-1" } }, { state: "OK" });
    expect(notice.rule).toBe(GENERAL_PRICE_RULE);
    const t = text(renderToStaticMarkup(<StormNotice notice={notice} />));
    expect(t).toContain(GENERAL_PRICE_RULE.rule);
    expect(t).not.toContain("Read the declaration");
  });
});

describe("stormPricing", () => {
  it("California: the pre-storm range, no surcharge, and 10% over its top as the most", () => {
    const pre = estimate("emergency", "emergency");
    const pricing = stormPricing(pre, priceRuleFor("CA"));
    expect(pricing.surchargePercent).toBe(0);
    expect(pricing.maxIncreasePercent).toBe(10);
    expect(pricing.text).toContain("California Penal Code 396");
    expect(pricing.text).toContain("10%");
    expect(pricing.text).toContain("no storm surcharge");
    // $2,160 at the top of the emergency range: at most $2,376.
    expect(pre.max).toBe(2160);
    expect(pricing.text).toContain("$2,376");
  });
  it("a state judged case by case names no figure; Georgia and Louisiana none over the pre-storm price", () => {
    const pre = estimate("tree-removal", "emergency");
    expect(stormPricing(pre, priceRuleFor("FL")).text).not.toMatch(/no more than \$/);
    expect(stormPricing(pre, priceRuleFor("GA")).text).toContain("may not charge more than before the declaration");
    expect(stormPricing(pre, priceRuleFor("TX")).text).toContain("17.4625");
  });
});
