/**
 * The claim flows' schemas (src/lib/owners/forms.ts) read form posts as the browser sends them
 * (every value a string, a blank optional field, one checkbox or several) and refuse with the
 * field's own message.
 */
import { describe, expect, it } from "vitest";
import { fieldErrors } from "../../../src/lib/schemas/forms.ts";
import { isClaimId } from "../../../src/lib/owners/choices.ts";
import { ClaimDecision } from "../../../src/lib/owners/claims.ts";
import { AddBusinessInput, ClaimInput, CodeInput } from "../../../src/lib/owners/forms.ts";
import { linkLifetime } from "../../../src/lib/owners/limits.ts";
import { OWNER_MESSAGES, stateOfCity } from "../../../src/lib/owners/messages.ts";

const errors = (result: { success: boolean; error?: unknown }) =>
  result.success ? {} : fieldErrors(result.error as Parameters<typeof fieldErrors>[0]);

describe("ClaimInput", () => {
  const valid = { name: "Mia Maple", email: " Mia@Maple.test ", role: "owner", proof: "email", phone: "", note: "" };

  it("reads a claim; a blank phone and note are absent", () => {
    expect(ClaimInput.parse(valid)).toEqual({
      name: "Mia Maple",
      email: "Mia@Maple.test",
      role: "owner",
      proof: "email",
    });
  });

  it("refuses each field with its own message", () => {
    const result = ClaimInput.safeParse({
      name: "M",
      email: "nope",
      role: "boss",
      proof: "fax",
      phone: "12",
      note: "x".repeat(1001),
    });
    expect(errors(result)).toEqual({
      name: OWNER_MESSAGES.name,
      email: OWNER_MESSAGES.email,
      role: OWNER_MESSAGES.role,
      proof: OWNER_MESSAGES.proof,
      phone: OWNER_MESSAGES.phone,
      note: OWNER_MESSAGES.note,
    });
  });
});

describe("AddBusinessInput", () => {
  const valid = {
    businessName: "Cedar Ridge Arborists",
    address: "400 Ridge Rd",
    city: "Austin",
    state: "tx",
    zipCode: "78704",
    phone: "(512) 555-0177",
    businessEmail: "hello@cedar-ridge.test",
    website: "",
    services: "Tree Removal",
    name: "Cal Cedar",
    email: "cal@cedar-ridge.test",
    role: "owner",
  };

  it("takes one checkbox or several, upper-cases the state, and drops a blank website", () => {
    const one = AddBusinessInput.parse(valid);
    expect(one.services).toEqual(["Tree Removal"]);
    expect(one.state).toBe("TX");
    expect(one.website).toBeUndefined();
    expect(AddBusinessInput.parse({ ...valid, services: ["Tree Removal", "Stump Grinding"] }).services).toHaveLength(2);
  });

  it("refuses a city outside the metros, a bad ZIP, no service and a website that is not http(s)", () => {
    const result = AddBusinessInput.safeParse({
      ...valid,
      city: "Gotham",
      zipCode: "7870",
      services: [],
      website: "ftp://x.test",
    });
    expect(errors(result)).toMatchObject({
      city: OWNER_MESSAGES.city,
      zipCode: OWNER_MESSAGES.zipCode,
      services: OWNER_MESSAGES.services,
      website: OWNER_MESSAGES.website,
    });
    expect(errors(AddBusinessInput.safeParse({ ...valid, services: "Juggling" })).services).toBe(
      OWNER_MESSAGES.services,
    );
  });

  it("refuses a state the city is not in", () => {
    expect(errors(AddBusinessInput.safeParse({ ...valid, city: "Los Angeles", state: "TX" })).state).toBe(
      stateOfCity("Los Angeles", "CA"),
    );
    expect(AddBusinessInput.safeParse({ ...valid, city: "Los Angeles", state: "ca", zipCode: "90012" }).success).toBe(
      true,
    );
  });
});

describe("ClaimDecision and CodeInput", () => {
  it("a refusal needs a reason; an approval does not", () => {
    expect(ClaimDecision.safeParse({ decision: "approve" }).success).toBe(true);
    expect(errors(ClaimDecision.safeParse({ decision: "refuse", reason: "  " }))).toEqual({
      reason: OWNER_MESSAGES.reasonRequired,
    });
    expect(ClaimDecision.parse({ decision: "refuse", reason: " Not staff " }).reason).toBe("Not staff");
  });

  it("a code is six digits; spaces are ignored", () => {
    expect(CodeInput.parse({ code: "123 456" }).code).toBe("123456");
    expect(errors(CodeInput.safeParse({ code: "12345" }))).toEqual({ code: OWNER_MESSAGES.code });
    expect(errors(CodeInput.safeParse({ code: "12a456" }))).toEqual({ code: OWNER_MESSAGES.code });
  });

  it("claim ids are cl_ and 20 lower-case base32 characters", () => {
    expect(isClaimId("cl_abcdefghijklmnopqrs2")).toBe(true);
    expect(isClaimId("ld_abcdefghijklmnopqrs2")).toBe(false);
    expect(isClaimId("cl_ABCDEFGHIJKLMNOPQRS2")).toBe(false);
  });
});

describe("linkLifetime", () => {
  it("says how long a link works in the unit a reader expects", () => {
    expect(linkLifetime(20 * 60_000)).toBe("20 minutes");
    expect(linkLifetime(3 * 60 * 60_000)).toBe("3 hours");
    expect(linkLifetime(7 * 24 * 60 * 60_000)).toBe("7 days");
  });
});
