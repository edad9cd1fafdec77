import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  AssessmentRequest,
  AuditRequest,
  FindProsRequest,
  QuoteRequest,
  fieldErrors,
} from "../../src/lib/schemas/forms";

const errorsOf = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? {} : fieldErrors(result.error);
};

const quote = {
  name: "Maria Garcia",
  email: "maria@example.com",
  phone: "(512) 555-0100",
  address: "1200 Barton Springs Rd, Austin",
  serviceType: "tree-removal",
  urgency: "emergency",
};
const audit = {
  name: "Dan Ortiz",
  email: "dan@example.com",
  phone: "2145550123",
  companyName: "Ortiz Tree Co",
  currentRevenue: "100k-250k",
  yearsInBusiness: "3-5",
  employeeCount: "2-5",
  currentChallenges: ["Finding qualified leads"],
  growthGoals: ["Exit strategy planning"],
};

describe("quote schema", () => {
  it("accepts a complete request and trims text", () => {
    const parsed = QuoteRequest.parse({ ...quote, name: "  Maria Garcia ", treeDetails: { height: "40 ft" } });
    expect(parsed.name).toBe("Maria Garcia");
    expect(parsed.treeDetails).toEqual({ height: "40 ft" });
  });

  it("gives the spec's message for every required field on an empty submit", () => {
    expect(errorsOf(QuoteRequest, {})).toEqual({
      name: "Name must be at least 2 characters",
      email: "Please enter a valid email",
      phone: "Please enter a valid phone number",
      address: "Please enter your full address",
      serviceType: "Please select a service type",
      urgency: "Please select urgency level",
    });
    expect(
      errorsOf(QuoteRequest, { ...quote, name: "", email: "", phone: "", address: "", serviceType: "", urgency: "" }),
    ).toEqual({
      name: "Name must be at least 2 characters",
      email: "Please enter a valid email",
      phone: "Please enter a valid phone number",
      address: "Please enter your full address",
      serviceType: "Please select a service type",
      urgency: "Please select urgency level",
    });
  });

  it("checks the boundaries", () => {
    expect(errorsOf(QuoteRequest, { ...quote, name: "A" })).toEqual({ name: "Name must be at least 2 characters" });
    expect(errorsOf(QuoteRequest, { ...quote, name: "Al" })).toEqual({});
    expect(errorsOf(QuoteRequest, { ...quote, phone: "512555010" })).toEqual({
      phone: "Please enter a valid phone number",
    });
    expect(errorsOf(QuoteRequest, { ...quote, address: "1 Rd" })).toEqual({
      address: "Please enter your full address",
    });
    expect(errorsOf(QuoteRequest, { ...quote, email: "maria@" })).toEqual({ email: "Please enter a valid email" });
    expect(errorsOf(QuoteRequest, { ...quote, name: "x".repeat(101) })).toEqual({ name: "This is too long" });
  });

  it("rejects wrong types with the field's message", () => {
    expect(errorsOf(QuoteRequest, { ...quote, name: 42, treeDetails: "tall" })).toMatchObject({
      name: "Name must be at least 2 characters",
      treeDetails: expect.any(String),
    });
  });
});

describe("audit and assessment schemas", () => {
  it("accepts a complete audit", () => {
    expect(errorsOf(AuditRequest, audit)).toEqual({});
  });

  it("gives the spec's messages on an empty submit", () => {
    expect(errorsOf(AuditRequest, { currentChallenges: [], growthGoals: [] })).toEqual({
      name: "Name must be at least 2 characters",
      email: "Please enter a valid email",
      phone: "Please enter a valid phone number",
      companyName: "Company name is required",
      currentRevenue: "Please select revenue range",
      yearsInBusiness: "Please select years in business",
      employeeCount: "Please select employee count",
      currentChallenges: "Please select at least one challenge",
      growthGoals: "Please select at least one goal",
    });
  });

  it("only accepts the listed choices", () => {
    expect(errorsOf(AuditRequest, { ...audit, currentRevenue: "a-lot" })).toEqual({
      currentRevenue: "Please select revenue range",
    });
    expect(errorsOf(AuditRequest, { ...audit, growthGoals: ["World domination"] })).toEqual({
      "growthGoals.0": "Please select at least one goal",
    });
  });

  it("assessment adds the phase", () => {
    expect(errorsOf(AssessmentRequest, { ...audit, phase: "phase-3" })).toEqual({});
    expect(errorsOf(AssessmentRequest, audit)).toEqual({ phase: "Please select a phase" });
  });
});

describe("find-pros schema", () => {
  it("validates every field", () => {
    expect(
      errorsOf(FindProsRequest, {
        location: "Austin",
        serviceType: "Tree Removal",
        propertyType: "residential",
        timeline: "within-week",
        name: "Lee Park",
        phone: "5125550188",
        email: "lee@example.com",
      }),
    ).toEqual({});
    expect(Object.keys(errorsOf(FindProsRequest, {})).sort()).toEqual(
      ["email", "location", "name", "phone", "propertyType", "serviceType", "timeline"].sort(),
    );
  });
});

describe("phaseName", () => {
  it("drops the phase number", async () => {
    const { phaseName } = await import("../../src/lib/options");
    expect(phaseName("phase-1")).toBe("Part-Time to Full-Time");
    expect(phaseName("phase-6")).toBe("Private-Equity Exit");
  });
});
