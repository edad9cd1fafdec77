import { describe, expect, it } from "vitest";
import { leadFields } from "../../src/islands/admin/leadFields";

const valueOf = (lead: Parameters<typeof leadFields>[0], path: string) =>
  leadFields(lead).find((f) => f.path === path)?.value;

describe("admin lead detail fields", () => {
  it("shows a quote's choices by their labels", () => {
    const lead = {
      type: "quote" as const,
      data: { name: "Maria", serviceType: "tree-removal", urgency: "within-week", address: "1 Main St" },
    };
    expect(leadFields(lead)).toEqual([
      { path: "name", label: "Name", value: "Maria" },
      { path: "serviceType", label: "Service type", value: "Tree Removal" },
      { path: "urgency", label: "Urgency", value: "Within a week" },
      { path: "address", label: "Address", value: "1 Main St" },
    ]);
  });

  it("reads a value with the sending form's own list", () => {
    // "within-week" and "emergency" read differently on find-pros, quote and booking.
    expect(valueOf({ type: "find-pros", data: { timeline: "within-week" } }, "timeline")).toBe("Within 1 week");
    expect(valueOf({ type: "find-pros", data: { propertyType: "apartment-condo" } }, "propertyType")).toBe(
      "Apartment/Condo",
    );
    expect(valueOf({ type: "quote", data: { serviceType: "emergency" } }, "serviceType")).toBe("Emergency Service");
    expect(valueOf({ type: "quote", data: { urgency: "emergency" } }, "urgency")).toBe("Emergency (ASAP)");
    expect(valueOf({ type: "booking", data: { urgency: "emergency" } }, "urgency")).toBe("Emergency");
  });

  it("labels audit and assessment choices, lists included", () => {
    const assessment = {
      type: "assessment" as const,
      data: {
        phase: "phase-2",
        currentRevenue: "100k-250k",
        yearsInBusiness: "3-5",
        employeeCount: "just-me",
        currentChallenges: ["Finding qualified leads", "Tracking finances"],
      },
    };
    expect(leadFields(assessment).map((f) => f.value)).toEqual([
      "Phase 2: Lead Generation and Pricing",
      "$100K - $250K",
      "3-5 years",
      "Just me",
      "Finding qualified leads, Tracking finances",
    ]);
  });

  it("keeps raw values where nothing maps", () => {
    // Old data outside the list, a booking's service (the business's own words), free text and numbers.
    expect(valueOf({ type: "quote", data: { urgency: "next-year" } }, "urgency")).toBe("next-year");
    expect(valueOf({ type: "booking", data: { serviceType: "tree-removal" } }, "serviceType")).toBe("tree-removal");
    expect(valueOf({ type: "quote", data: { estimatedCost: "$300 - $800" } }, "estimatedCost")).toBe("$300 - $800");
    expect(
      leadFields({ type: "quote", data: { treeDetails: { height: "30 ft", condition: "" }, count: 2, gone: null } }),
    ).toEqual([
      { path: "treeDetails.height", label: "Tree details / height", value: "30 ft" },
      { path: "count", label: "Count", value: "2" },
    ]);
  });
});
