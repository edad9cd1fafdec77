import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
// A YAML 1.2 parser (Vite's); the content files use nothing on which YAML parsers differ.
import { parse as parseYaml } from "yaml";
import { describe, expect, it, vi } from "vitest";
import { BASE_RANGES, formatRange } from "../../src/lib/estimate.ts";

// The collection modules import Astro's virtual content module; only their schemas are used here.
vi.mock("astro:content", () => ({ defineCollection: (config: unknown) => config }));
const { fillTokens, inOrder } = await import("../../src/lib/content/shapes.ts");
const { SERVICE_SLUGS, ServicePageSchema, TYPICAL_RANGES, typicalPrice, withPrice } =
  await import("../../src/lib/content/services.ts");
const { QuickCost } = await import("../../src/lib/content/resources.ts");
const { FACT_TOKENS } = await import("../../src/lib/facts.ts");

const read = (file: string) => readFileSync(path.resolve(file), "utf8");
const serviceDir = "content/marketing/services";
const serviceFiles = readdirSync(serviceDir).filter((f) => f.endsWith(".yaml"));
const services = serviceFiles.map((file) => {
  const raw = read(path.join(serviceDir, file));
  const slug = file.replace(/\.yaml$/, "") as (typeof SERVICE_SLUGS)[number];
  // Collections fill the fact tokens on load (withFacts); the page fills {price}.
  return { slug, raw, data: ServicePageSchema.parse(fillTokens(parseYaml(raw), FACT_TOKENS)) };
});

describe("formatRange: the one price format", () => {
  it("keeps the estimate's spaced form by default", () => {
    expect(formatRange(900, 4500)).toBe("$900 - $4,500");
    expect(formatRange(900, 4500, "spaced")).toBe("$900 - $4,500");
  });
  it("writes the marketing figures compactly", () => {
    expect(formatRange(200, 800, "compact")).toBe("$200-800");
    expect(formatRange(1500, 4000, "compact")).toBe("$1,500-4,000");
    expect(formatRange(500, 2500, "compact")).toBe("$500-2,500");
  });
});

describe("typical prices", () => {
  it("are the quote table's base ranges for the four quoted services", () => {
    for (const service of Object.keys(BASE_RANGES) as (keyof typeof BASE_RANGES)[]) {
      expect(TYPICAL_RANGES[service]).toBe(BASE_RANGES[service]);
    }
  });
  it("cover every service page", () => {
    expect(Object.keys(TYPICAL_RANGES).sort()).toEqual([...SERVICE_SLUGS].sort());
  });
  it("read as the published price list states them", () => {
    expect(typicalPrice("tree-trimming")).toBe("$200-800");
    expect(typicalPrice("tree-pruning")).toBe("$150-600");
    expect(typicalPrice("stump-grinding")).toBe("$150-500");
    expect(typicalPrice("tree-removal", "spaced")).toBe("$500 - $2,500");
  });
});

describe("service page prose", () => {
  it("has one YAML file per priced service page", () => {
    expect(services.map((s) => s.slug).sort()).toEqual(SERVICE_SLUGS.filter((s) => s !== "emergency").sort());
  });

  for (const { slug, raw, data } of services) {
    it(`${slug}: quotes its typical price only through {price}`, () => {
      const [min, max] = TYPICAL_RANGES[slug];
      // Retyped, in either format, the figure could drift from the quote table.
      expect(raw).not.toContain(formatRange(min, max, "compact"));
      expect(raw).not.toContain(formatRange(min, max, "spaced"));
      expect(data.metaDescription).toContain("{price}");
      expect(data.pricing.intro).toContain("{price}");
    });

    it(`${slug}: shows the typical price wherever the prose quotes it`, () => {
      const filled = withPrice(slug, data);
      const price = typicalPrice(slug);
      expect(filled.metaDescription).toContain(price);
      expect(filled.pricing.intro).toContain(price);
      expect(filled.facts.find((f) => f.label === "Typical cost")?.value).toMatch(
        new RegExp(`^\\${price}( per (tree|stump))?$`),
      );
      expect(filled.faqs.some((f) => f.answer.includes(price))).toBe(true);
      // No token is left for the page to print.
      expect(JSON.stringify(filled)).not.toMatch(/\{\w+\}/);
    });
  }

  it("keeps the published figures as text", () => {
    const facts = Object.fromEntries(
      services.map(({ slug, data }) => [slug, withPrice(slug, data).facts.map((f) => f.value)]),
    );
    expect(facts["tree-trimming"]).toContain("$200-800");
    expect(facts["tree-removal"]).toContain("$500-2,500");
    expect(facts["tree-pruning"]).toContain("$150-600 per tree");
    expect(facts["stump-grinding"]).toContain("$150-500 per stump");
  });
});

describe("quick reference costs", () => {
  const rows = (parseYaml(read("content/growth/consumer/quick-costs.yaml")) as unknown[]).map((row) =>
    QuickCost.parse(row),
  );
  it("name a service page each, so the range is its typical price", () => {
    expect(rows.map((r) => r.page)).toEqual([
      "tree-trimming",
      "tree-removal",
      "tree-pruning",
      "stump-grinding",
      "emergency",
    ]);
    expect(typicalPrice("emergency", "spaced")).toBe(formatRange(...BASE_RANGES.emergency));
  });
  it("reject a row without a page or with a typed range", () => {
    expect(() => QuickCost.parse({ order: 1, service: "X", unit: "per tree", note: "n" })).toThrow();
    expect(() =>
      QuickCost.parse({ order: 1, service: "X", page: "hedge-laying", unit: "per tree", note: "n" }),
    ).toThrow();
  });
});

describe("content helpers", () => {
  it("inOrder sorts by order and keeps the id", () => {
    const entries = [
      { id: "b", data: { order: 2, name: "second" } },
      { id: "a", data: { order: 3, name: "third" } },
      { id: "c", data: { order: 1, name: "first" } },
    ];
    expect(inOrder(entries)).toEqual([
      { id: "c", order: 1, name: "first" },
      { id: "b", order: 2, name: "second" },
      { id: "a", order: 3, name: "third" },
    ]);
    // The input is not reordered in place.
    expect(entries.map((e) => e.id)).toEqual(["b", "a", "c"]);
  });

  it("fillTokens fills strings at any depth and leaves unknown tokens and other values alone", () => {
    const value = { a: "Cost {price}.", b: ["{price} per tree", { c: "{other}" }], n: 3, t: true };
    expect(fillTokens(value, { price: "$1-2" })).toEqual({
      a: "Cost $1-2.",
      b: ["$1-2 per tree", { c: "{other}" }],
      n: 3,
      t: true,
    });
  });
});
