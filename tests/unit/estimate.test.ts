import { describe, expect, it } from "vitest";
import { estimate, formatRange } from "../../src/lib/estimate";
import { SERVICE_TYPES, URGENCY } from "../../src/lib/options";

// Expected figures written out by hand from the published price list, not recomputed from the table.
const expected: Record<string, Record<string, string>> = {
  "tree-trimming": {
    "not-urgent": "$200 - $800",
    "within-week": "$220 - $880",
    "within-days": "$260 - $1,040",
    emergency: "$360 - $1,440",
  },
  "tree-removal": {
    "not-urgent": "$500 - $2,500",
    "within-week": "$550 - $2,750",
    "within-days": "$650 - $3,250",
    emergency: "$900 - $4,500",
  },
  "stump-grinding": {
    "not-urgent": "$150 - $500",
    "within-week": "$165 - $550",
    "within-days": "$195 - $650",
    emergency: "$270 - $900",
  },
  emergency: {
    "not-urgent": "$300 - $1,200",
    "within-week": "$330 - $1,320",
    "within-days": "$390 - $1,560",
    emergency: "$540 - $2,160",
  },
};

describe("estimate", () => {
  for (const service of SERVICE_TYPES) {
    for (const urgency of URGENCY) {
      it(`${service.value} x ${urgency.value}`, () => {
        expect(estimate(service.value, urgency.value).text).toBe(expected[service.value][urgency.value]);
      });
    }
  }

  it("covers every option pair", () => {
    expect(Object.keys(expected).sort()).toEqual(SERVICE_TYPES.map((s) => s.value).sort());
  });

  it("unknown service: $200 - $1,500 whatever the urgency", () => {
    expect(estimate("lot-clearing", "emergency")).toEqual({ min: 200, max: 1500, text: "$200 - $1,500" });
    expect(estimate("", "")).toEqual({ min: 200, max: 1500, text: "$200 - $1,500" });
    expect(estimate("__proto__", "not-urgent").text).toBe("$200 - $1,500");
  });

  it("unknown urgency multiplies by 1", () => {
    expect(estimate("tree-removal", "whenever").text).toBe("$500 - $2,500");
    expect(estimate("tree-removal", "constructor").text).toBe("$500 - $2,500");
  });

  it("rounds each bound after multiplying", () => {
    // 150 * 1.1 = 165.00000000000003 must not leak floating-point noise.
    expect(estimate("stump-grinding", "within-week")).toMatchObject({ min: 165, max: 550 });
    expect(formatRange(1234.4, 99999)).toBe("$1,234 - $99,999");
  });
});
