/**
 * src/lib/lead-urgency.ts: the emergency page's facts are EMERGENCY_RESPONSE's figures, the
 * confirmations of one request never repeat them as their promise, and every lead form's
 * urgency reads as it should.
 */
import { readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { describe, expect, it, vi } from "vitest";
import { FACT_TOKENS } from "../../src/lib/facts.ts";
import * as COPY from "../../src/lib/forms/copy.ts";
import { EMERGENCY_CONFIRMATION, quotePromises } from "../../src/lib/forms/copy.ts";
import { CONTACT_PROMISE_HOURS, EMERGENCY_RESPONSE, urgencyOf } from "../../src/lib/lead-urgency.ts";
import { BOOKING_URGENCY, SERVICE_TYPES, TIMELINES, URGENCY } from "../../src/lib/options.ts";
import { ARRIVAL_PROMISE } from "../helpers/receipts.ts";

// The collection helpers import Astro's virtual content module; only fillTokens is used here.
vi.mock("astro:content", () => ({ defineCollection: (config: unknown) => config }));
const { fillTokens } = await import("../../src/lib/content/shapes.ts");

/** The emergency page's data as its collection loads it: fact tokens filled. */
const page = fillTokens(parseYaml(readFileSync("content/marketing/emergency.yaml", "utf8")), FACT_TOKENS) as {
  facts: { label: string; value: string }[];
};
const fact = (label: string) => page.facts.find((f) => f.label === label)?.value;

describe("EMERGENCY_RESPONSE agrees with the emergency page", () => {
  it("dispatch and on-site figures are the page's facts", () => {
    expect(fact("Crew dispatched")).toBe("Within 30 minutes");
    expect(fact("On site")).toBe("Within 2 hours maximum");
    expect(fact("Crew dispatched")).toBe(`Within ${EMERGENCY_RESPONSE.dispatchMinutes} minutes`);
    expect(fact("On site")).toBe(`Within ${EMERGENCY_RESPONSE.onSiteHours} hours maximum`);
  });

  it("no confirmation of one request repeats them as its promise; the routine promise is the spec's 24 hours", () => {
    const words = JSON.stringify(COPY);
    expect(words).not.toMatch(ARRIVAL_PROMISE);
    expect(words).not.toContain(fact("Crew dispatched")!.toLowerCase());
    expect(words).not.toContain(fact("On site")!.toLowerCase());
    expect(quotePromises("emergency").join(" ")).not.toMatch(/24 hours/);
    expect(EMERGENCY_CONFIRMATION.line).toBe(
      "If anyone is hurt or in danger, call 911. Stay away from downed power lines and call your electric utility. Treeline's 24/7 line: (512) 555-0142.",
    );
    expect(CONTACT_PROMISE_HOURS).toBe(24);
  });
});

describe("urgencyOf, for every form", () => {
  it("quote: an emergency urgency or an emergency service is an emergency; within days is urgent", () => {
    const expected: Record<(typeof URGENCY)[number]["value"], string> = {
      "not-urgent": "routine",
      "within-week": "routine",
      "within-days": "urgent",
      emergency: "emergency",
    };
    for (const { value } of URGENCY)
      expect(urgencyOf("quote", { urgency: value, serviceType: "tree-removal" })).toBe(expected[value]);
    for (const { value } of URGENCY)
      expect(urgencyOf("quote", { urgency: value, serviceType: "emergency" })).toBe("emergency");
    expect(SERVICE_TYPES.map((s) => s.value)).toContain("emergency");
    expect(urgencyOf("quote", {})).toBe("routine");
  });

  it("booking: its own urgency values", () => {
    const expected = { normal: "routine", urgent: "urgent", emergency: "emergency" } as const;
    for (const { value } of BOOKING_URGENCY) expect(urgencyOf("booking", { urgency: value })).toBe(expected[value]);
    expect(urgencyOf("booking", { urgency: "" })).toBe("routine");
  });

  it("find-pros: the timeline", () => {
    const expected = {
      emergency: "emergency",
      "within-week": "urgent",
      "within-month": "routine",
      flexible: "routine",
    } as const;
    for (const { value } of TIMELINES) expect(urgencyOf("find-pros", { timeline: value })).toBe(expected[value]);
  });

  it("audit and assessment are always routine, whatever they carry", () => {
    expect(urgencyOf("audit", { urgency: "emergency" })).toBe("routine");
    expect(urgencyOf("assessment", { timeline: "emergency" })).toBe("routine");
  });

  it("reads only strings (a FormData File or a missing body is routine)", () => {
    expect(urgencyOf("find-pros", { timeline: null })).toBe("routine");
    expect(urgencyOf("quote", null)).toBe("routine");
  });
});
