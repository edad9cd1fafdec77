/**
 * The claim flows' schemas (src/lib/owners/forms.ts) read form posts as the browser sends them
 * (every value a string, a blank optional field, one checkbox or several) and refuse with the
 * field's own message.
 */
import { describe, expect, it } from "vitest";
import { fieldErrors } from "../../../src/lib/schemas/forms.ts";
import { isClaimId } from "../../../src/lib/owners/choices.ts";
import { ClaimDecision } from "../../../src/lib/owners/claims.ts";
import { CLOSING_HOLIDAYS } from "../../../src/lib/holidays.ts";
import { PROFILE_MESSAGES } from "../../../src/lib/owner-profile/messages.ts";
import {
  AddBusinessInput,
  ClaimInput,
  CodeInput,
  SignInRequestInput,
  addFormInput,
  addedHours,
} from "../../../src/lib/owners/forms.ts";
import { linkLifetime } from "../../../src/lib/owners/limits.ts";
import { OWNER_MESSAGES } from "../../../src/lib/owners/messages.ts";

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
  /** The form as the browser posts it: flat fields, each day's mode and times. */
  const posted: Record<string, string | string[]> = {
    businessName: "Cedar Ridge Arborists",
    address: "400 Ridge Rd",
    zipCode: "83702",
    phone: "(208) 555-0177",
    businessEmail: "hello@cedar-ridge.test",
    website: "",
    services: "Tree Removal",
    schedule: "hours",
    "monday.mode": "open",
    "monday.open": "07:00",
    "monday.close": "17:30",
    "saturday.mode": "24h",
    yearsInBusiness: "",
    name: "Cal Cedar",
    email: "cal@cedar-ridge.test",
    role: "owner",
  };
  const parse = (over: Record<string, string | string[]> = {}) =>
    AddBusinessInput.safeParse(addFormInput({ ...posted, ...over }));

  it("reads any US ZIP with no city or state, the hours per day, no holidays and no years unless given", () => {
    const result = parse();
    expect(result.success).toBe(true);
    const input = result.data!;
    expect(input.services).toEqual(["Tree Removal"]);
    expect(input.website).toBeUndefined();
    expect(input.yearsInBusiness).toBeUndefined();
    expect(input.closedHolidays).toEqual([]);
    expect(addedHours(input)).toEqual({ monday: "7:00 AM - 5:30 PM", saturday: "Open 24 hours" });
    expect(parse({ services: ["Tree Removal", "Stump Grinding"] }).data!.services).toHaveLength(2);
  });

  it("by appointment stores no hours; years and chosen holidays are kept", () => {
    const input = parse({
      schedule: "appointment",
      yearsInBusiness: "12",
      closedHolidays: ["Christmas Day", "Thanksgiving Day"],
    }).data!;
    expect(addedHours(input)).toEqual({});
    expect(input.yearsInBusiness).toBe(12);
    expect(input.closedHolidays).toEqual(
      CLOSING_HOLIDAYS.filter((h) => ["Christmas Day", "Thanksgiving Day"].includes(h)),
    );
  });

  it("refuses set hours with every day closed, a day without times, a bad ZIP, years and holidays not in range", () => {
    const closed = parse({ "monday.mode": "closed", "saturday.mode": "closed" });
    expect(errors(closed)).toEqual({ hours: OWNER_MESSAGES.hoursMissing });
    expect(errors(parse({ "monday.close": "" }))["hours.monday"]).toBe(PROFILE_MESSAGES.time);
    expect(errors(parse({ zipCode: "8370" })).zipCode).toBe(OWNER_MESSAGES.zipCode);
    expect(errors(parse({ yearsInBusiness: "-1" })).yearsInBusiness).toBe(OWNER_MESSAGES.yearsInBusiness);
    expect(errors(parse({ yearsInBusiness: "ten" })).yearsInBusiness).toBe(OWNER_MESSAGES.yearsInBusiness);
    expect(Object.values(errors(parse({ closedHolidays: "Festivus" })))).toContain(OWNER_MESSAGES.holidays);
    expect(errors(parse({ schedule: "sometimes" })).schedule).toBe(OWNER_MESSAGES.schedule);
  });

  it("refuses no service and a website that is not http(s)", () => {
    expect(errors(parse({ services: [], website: "ftp://x.test" }))).toMatchObject({
      services: OWNER_MESSAGES.services,
      website: OWNER_MESSAGES.website,
    });
    expect(errors(parse({ services: "Juggling" })).services).toBe(OWNER_MESSAGES.services);
  });
});

describe("SignInRequestInput", () => {
  const address = (v: string) => SignInRequestInput.safeParse({ address: v });
  it("reads an e-mail (lower-cased) or a US phone (its 10 digits)", () => {
    expect(address(" Mia@Maple.TEST ").data!.address).toEqual({ kind: "email", value: "mia@maple.test" });
    expect(address("(208) 555-0142").data!.address).toEqual({ kind: "phone", value: "2085550142" });
    expect(address("+1 208 555 0142").data!.address).toEqual({ kind: "phone", value: "2085550142" });
  });
  it("refuses anything else with one message", () => {
    for (const bad of ["", "mia@", "555-0142", "call me", "x".repeat(300)])
      expect(errors(address(bad))).toEqual({ address: OWNER_MESSAGES.signInAddress });
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
