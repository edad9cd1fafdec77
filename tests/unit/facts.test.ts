/**
 * The marketing facts module (src/lib/facts.ts): its figures come from the estimate
 * table and the response promise, the story adds up, and content YAML names facts as {tokens}
 * instead of typing them, so a price or a story figure changes in one place.
 */
import { readFileSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { BASE_RANGES, URGENCY_MULTIPLIERS, estimate, formatRange } from "../../src/lib/estimate.ts";
import { EMERGENCY_RESPONSE } from "../../src/lib/lead-urgency.ts";
import {
  EMERGENCY_PRICING,
  FACT_TOKENS,
  OWNER_STORY,
  PRUNING,
  emergencyFigures,
  factTokens,
} from "../../src/lib/facts.ts";
import { SERVICE_TYPES } from "../../src/lib/options.ts";

const CONTENT = new URL("../../content/", import.meta.url);
const yamlFiles = readdirSync(CONTENT, { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith(".yaml") && !f.startsWith("directory"))
  .sort();
const read = (file: string) => readFileSync(new URL(file, CONTENT), "utf8");
/** The file's text without comments (which may cite the spec's figures). */
const body = (file: string) =>
  read(file)
    .split("\n")
    .filter((l) => !/^\s*#/.test(l))
    .join("\n");

describe("facts module", () => {
  it("computes every emergency figure from the estimate table", () => {
    const e = emergencyFigures();
    expect(e.base).toBe(formatRange(...BASE_RANGES.emergency));
    expect(e.quoted).toBe(estimate("emergency", "emergency").text);
    expect(e.removal).toBe(estimate("tree-removal", "emergency").text);
    expect(e.multiplier).toBe(`${URGENCY_MULTIPLIERS.emergency}x`);
    expect(e.premium).toBe(`+${EMERGENCY_PRICING.premiumPercent}%`);
    expect(FACT_TOKENS.dispatchMinutes).toBe(`${EMERGENCY_RESPONSE.dispatchMinutes} minutes`);
    expect(factTokens()).toEqual(FACT_TOKENS);
  });

  it("quotes pruning as a quote-form service, with its own per-tree price", () => {
    expect(SERVICE_TYPES.map((s) => s.value)).toContain(PRUNING.quotedAs);
    expect(FACT_TOKENS.pruningQuote).toBe(estimate(PRUNING.quotedAs, "not-urgent").text);
    expect(FACT_TOKENS.pruningPrice).toBe("$150-600");
  });

  it("tells one owner story whose figures add up", () => {
    const m = (s: string) => Number(s.replace(/[$Mx]/g, ""));
    expect(m(OWNER_STORY.exit) / m(OWNER_STORY.revenue)).toBeCloseTo(m(OWNER_STORY.revenueMultiple));
  });
});

describe("content YAML names facts instead of typing them", () => {
  const known = new Set([...Object.keys(FACT_TOKENS), "price", "name"]);
  it.each(yamlFiles)("%s uses only known {tokens}", (file) => {
    const tokens = [...body(file).matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    expect(tokens.filter((t) => !known.has(t))).toEqual([]);
  });

  // Figures that only the facts module may state (each is a token in FACT_TOKENS).
  const e = emergencyFigures();
  const typed = [
    OWNER_STORY.owner,
    OWNER_STORY.startRevenue,
    OWNER_STORY.exit,
    "Mike R.",
    e.premium,
    e.quoted,
    e.base,
    FACT_TOKENS.pruningPrice!,
  ];
  it.each(yamlFiles)("%s types no owner-story, emergency-pricing or pruning figure", (file) => {
    const text = body(file);
    expect(typed.filter((figure) => text.includes(figure))).toEqual([]);
    expect(text).not.toMatch(/\b(?:two|three|four) years later\b/i);
  });

  it("a service page quoted as another service says how (estimateNote)", () => {
    const dir = "marketing/services/";
    for (const file of readdirSync(new URL(dir, CONTENT))) {
      const data = parseYaml(read(dir + file)) as { quoteServiceType: string; estimateNote?: string };
      if (data.quoteServiceType === file.replace(/\.yaml$/, "")) continue;
      expect(data.estimateNote, file).toMatch(/\{pruningQuote\}|\{price\}/);
    }
  });
});
