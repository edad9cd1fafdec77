/**
 * src/lib/credentials/: every licensing state's number format (valid, invalid, normalized),
 * the owner's form schema, which check survives an edit, and the public badges (none before
 * the operator's check, exact text after, insurance gone the day after its expiry).
 */
import { describe, expect, it } from "vitest";
import { badgesOf } from "../../src/lib/credentials/badges.ts";
import { credentialsInput, mergeCredentials } from "../../src/lib/credentials/form.ts";
import { formatCheckedAt, parseCoverUsd, todayIn } from "../../src/lib/credentials/format.ts";
import { CREDENTIAL_MESSAGES } from "../../src/lib/credentials/messages.ts";
import { statedText } from "../../src/lib/credentials/old-text.ts";
import { needsCheck } from "../../src/lib/credentials/queue.ts";
import {
  checkLicenceNumber,
  licenceOptionLabel,
  licenceTypesFor,
  noStateLicence,
} from "../../src/lib/credentials/state-rules.ts";
import { LICENSING_STATES, OTHER_LICENCE } from "../../src/lib/credentials/states.ts";
import { credentialStatus } from "../../src/lib/credentials/status.ts";
import { fieldErrors } from "../../src/lib/schemas/forms.ts";
import type { Credentials } from "../../src/lib/schemas/credentials.ts";

describe("licence number formats", () => {
  it.each([
    // state, type, typed, stored
    ["MD", "LTE", "1234", "1234"],
    ["MD", "LTE", "LTE #01234", "1234"],
    ["MD", "LTE", " md lte 7 ", "7"],
    ["NJ", "NJTC", "NJTC 849512", "849512"],
    ["NJ", "NJTC", "849512", "849512"],
    ["NJ", "LTE", "LTE #100", "100"],
    ["NJ", "LTCO", "LTCO#1001", "1001"],
    ["LA", "ARB", "2345", "2345"],
    ["LA", "ARB", "No. 002345", "2345"],
    ["CT", "ARB", "S-4478", "S-4478"],
    ["CT", "ARB", "s 4478", "S-4478"],
    ["CT", "ARB", "4478", "S-4478"],
    ["CA", "C-49", "1012345", "1012345"],
    ["CA", "C-49", "CSLB #987654", "987654"],
    ["TX", OTHER_LICENCE, "tx-12345", "TX-12345"],
  ])("%s %s %j is valid, stored as %j", (state, type, typed, stored) => {
    expect(checkLicenceNumber(state, type, typed)).toEqual({ ok: true, number: stored });
  });

  it.each([
    ["MD", "LTE", "123456", "Maryland LTE numbers are 1 to 5 digits, e.g. 1234"],
    ["MD", "LTE", "12A4", "Maryland LTE numbers are 1 to 5 digits, e.g. 1234"],
    ["NJ", "NJTC", "NJTC 12", "New Jersey registration numbers are NJTC followed by 3 to 7 digits, e.g. NJTC 849512"],
    ["NJ", "LTE", "LTE", "New Jersey LTE numbers are 1 to 5 digits, e.g. 100"],
    ["NJ", "LTCO", "999999", "New Jersey LTCO numbers are 1 to 5 digits, e.g. 1001"],
    ["LA", "ARB", "1234567", "Louisiana arborist license numbers are 1 to 6 digits, e.g. 2345"],
    ["CT", "ARB", "B-12", "Connecticut arborist license numbers are S- followed by 1 to 6 digits, e.g. S-4478"],
    ["CA", "C-49", "12345", "California CSLB license numbers are 6 or 7 digits, e.g. 1012345"],
    ["CA", "C-49", "C49-ABC123", "California CSLB license numbers are 6 or 7 digits, e.g. 1012345"],
  ])("%s %s %j is refused with the state's message", (state, type, typed, message) => {
    expect(checkLicenceNumber(state, type, typed)).toEqual({ ok: false, message });
  });

  it("a licensing state offers only its own types; another state the free-form licence", () => {
    expect(checkLicenceNumber("MD", "LTCO", "100")).toEqual({ ok: false, message: CREDENTIAL_MESSAGES.type });
    expect(checkLicenceNumber("MD", OTHER_LICENCE, "100")).toEqual({ ok: false, message: CREDENTIAL_MESSAGES.type });
    expect(licenceTypesFor("TX").map((t) => t.key)).toEqual([OTHER_LICENCE]);
    expect(noStateLicence("TX")).toMatch(/^No state license for tree work in Texas; add a certification instead/);
  });

  it("every state's example is valid and every state names its authority and lookup page", () => {
    expect(LICENSING_STATES.map((s) => s.code)).toEqual(expect.arrayContaining(["MD", "NJ", "LA", "CT", "CA"]));
    for (const s of LICENSING_STATES) {
      expect(s.authority).not.toBe("");
      expect(s.lookupUrl).toMatch(/^https:\/\//);
      for (const t of s.types) expect(checkLicenceNumber(s.code, t.key, t.example)).toMatchObject({ ok: true });
    }
  });
});

describe("parseCoverUsd", () => {
  it.each([
    ["$1,000,000", 1_000_000],
    ["1000000", 1_000_000],
    ["$2M", 2_000_000],
    ["1.5 million", 1_500_000],
    ["500k", 500_000],
    ["lots", null],
    ["", null],
    ["1.5", null],
  ])("%j -> %s", (raw, n) => expect(parseCoverUsd(raw)).toBe(n));
});

describe("CredentialsInput", () => {
  const schema = credentialsInput("2026-11-28");
  const full = {
    licenceState: "MD",
    licenceType: "LTE",
    licenceNumber: "LTE #1234",
    insuranceCarrier: "Acme Mutual",
    insuranceCover: "$1,000,000",
    insuranceExpiresOn: "2027-06-30",
  };

  it("reads a full form into a normalized licence and insurance", () => {
    expect(schema.parse(full)).toEqual({
      licence: { state: "MD", type: "LTE", number: "1234" },
      insurance: { carrier: "Acme Mutual", coverUsd: 1_000_000, expiresOn: "2027-06-30" },
    });
  });

  it("blank parts are not stated", () => {
    expect(schema.parse({})).toEqual({ licence: null, insurance: null });
    expect(schema.parse({ ...full, insuranceCarrier: "", insuranceCover: "", insuranceExpiresOn: "" }).insurance).toBe(
      null,
    );
  });

  it("answers each wrong field with its message", () => {
    const bad = schema.safeParse({
      licenceState: "MD",
      licenceType: "LTE",
      licenceNumber: "123456",
      insuranceCarrier: "",
      insuranceCover: "a lot",
      insuranceExpiresOn: "2026-11-27",
    });
    expect(bad.success).toBe(false);
    expect(fieldErrors(bad.error!)).toEqual({
      licenceNumber: "Maryland LTE numbers are 1 to 5 digits, e.g. 1234",
      insuranceCarrier: CREDENTIAL_MESSAGES.carrier,
      insuranceCover: CREDENTIAL_MESSAGES.cover,
      insuranceExpiresOn: CREDENTIAL_MESSAGES.expired,
    });
  });

  it("a state, then a type of that state, then a number", () => {
    const errors = (v: Record<string, string>) => fieldErrors(schema.safeParse(v).error!);
    expect(errors({ licenceNumber: "1234" })).toEqual({ licenceState: CREDENTIAL_MESSAGES.state });
    expect(errors({ licenceState: "MD", licenceType: "C-49", licenceNumber: "1" })).toEqual({
      licenceType: CREDENTIAL_MESSAGES.type,
    });
    expect(errors({ licenceState: "MD", licenceType: "LTE" })).toEqual({ licenceNumber: CREDENTIAL_MESSAGES.number });
  });

  it("an expiry of today is still cover", () => {
    expect(schema.parse({ ...full, insuranceExpiresOn: "2026-11-28" }).insurance?.expiresOn).toBe("2026-11-28");
  });
});

const CHECK = { checkedAt: "2026-11-28T16:00:00.000Z", note: "MD DNR register" };
const checked: Credentials = {
  licence: { state: "MD", type: "LTE", number: "1234", check: CHECK },
  insurance: { carrier: "Acme Mutual", coverUsd: 1_000_000, expiresOn: "2027-06-30", check: CHECK },
};

describe("mergeCredentials", () => {
  it("an unchanged credential keeps its check; a changed one loses it", () => {
    const same = mergeCredentials(checked, {
      licence: { state: "MD", type: "LTE", number: "1234" },
      insurance: { carrier: "Acme Mutual", coverUsd: 1_000_000, expiresOn: "2027-06-30" },
    });
    expect(same).toEqual(checked);
    expect(needsCheck(same)).toBe(false);
    const changed = mergeCredentials(checked, {
      licence: { state: "MD", type: "LTE", number: "1235" },
      insurance: { carrier: "Acme Mutual", coverUsd: 1_000_000, expiresOn: "2027-12-31" },
    });
    expect(changed?.licence).toEqual({ state: "MD", type: "LTE", number: "1235" });
    expect(changed?.insurance?.check).toBeUndefined();
    expect(needsCheck(changed)).toBe(true);
    expect(mergeCredentials(checked, { licence: null, insurance: null })).toBeUndefined();
  });
});

describe("badgesOf", () => {
  it("nothing before the operator's check", () => {
    const { licence, insurance } = checked;
    const unchecked = { licence: { ...licence!, check: undefined }, insurance: { ...insurance!, check: undefined } };
    expect(badgesOf(unchecked, "2026-11-28")).toEqual({});
    expect(badgesOf(undefined, "2026-11-28")).toEqual({});
  });

  it("the exact text once checked", () => {
    expect(badgesOf(checked, "2026-11-28")).toEqual({
      licence: "License MD LTE #1234, checked by Treeline on Nov 28, 2026",
      insurance: "Insured: $1,000,000 general liability (Acme Mutual), checked by Treeline on Nov 28, 2026",
    });
  });

  it("insurance that expired yesterday has no badge; one that expires today has", () => {
    const on = (expiresOn: string) => ({ insurance: { ...checked.insurance!, expiresOn } });
    expect(badgesOf(on("2026-11-27"), "2026-11-28")).toEqual({});
    expect(badgesOf(on("2026-11-28"), "2026-11-28").insurance).toMatch(/^Insured: \$1,000,000/);
  });

  it("today is the business's date: 11 pm in Chicago is still the 27th", () => {
    const lateOn27th = Date.parse("2026-11-28T05:00:00Z");
    expect(todayIn(lateOn27th)).toBe("2026-11-27");
    expect(todayIn(lateOn27th, "America/New_York")).toBe("2026-11-28");
  });
});

describe("credentialStatus", () => {
  it("the owner's words say whether it is on their page", () => {
    expect(credentialStatus({ state: "MD", type: "LTE", number: "1" }, "2026-11-28").text).toBe(
      "Not on your page until Treeline checks it",
    );
    expect(credentialStatus(checked.licence!, "2026-11-28").text).toBe("On your page: checked on Nov 28, 2026");
    expect(credentialStatus({ ...checked.insurance!, expiresOn: "2026-11-01" }, "2026-11-28").text).toBe(
      "Expired on Nov 1, 2026: not on your page",
    );
  });

  it("the operator's words: waiting, and the check's date with its time and zone", () => {
    expect(credentialStatus({ state: "MD", type: "LTE", number: "1" }, "2026-11-28", undefined, "operator").text).toBe(
      "Waiting for Treeline's check",
    );
    expect(
      credentialStatus({ ...checked.insurance!, expiresOn: "2026-11-01" }, "2026-11-28", undefined, "operator").text,
    ).toBe("Expired on Nov 1, 2026");
  });
});

describe("the check's date: one day everywhere, the business's", () => {
  // 06:24 UTC on Nov 28 is 10:24 pm on Nov 27 in Pasadena: the badge says the 27th, and the
  // operator's card says the same date with its zone instead of contradicting it silently.
  const lateCheck = { state: "CA", type: "C-49", number: "1012345", check: { checkedAt: "2026-11-28T06:24:00.000Z" } };
  const LA = "America/Los_Angeles";

  it("the badge, the owner's page and the operator's card name the same day", () => {
    expect(badgesOf({ licence: lateCheck }, "2026-11-27", LA).licence).toBe(
      "License CA C-49 #1012345, checked by Treeline on Nov 27, 2026",
    );
    expect(credentialStatus(lateCheck, "2026-11-27", LA).text).toBe("On your page: checked on Nov 27, 2026");
    expect(credentialStatus(lateCheck, "2026-11-27", LA, "operator").text).toBe(
      "Checked on Nov 27, 2026, 10:24 PM PST (the business's time)",
    );
    expect(formatCheckedAt(lateCheck.check.checkedAt, "America/New_York")).toBe("Nov 28, 2026, 1:24 AM EST");
  });
});

describe("the operator's old free text (statedText)", () => {
  const old = { licenseNumber: "ISA Certified Arborist CA-6696A", insuranceDetails: "$2M general liability" };

  it("shows while the business states nothing structured of that kind", () => {
    expect(statedText(old)).toEqual({ licence: old.licenseNumber, insurance: old.insuranceDetails });
    expect(statedText({})).toEqual({});
  });

  it("never once a structured licence or insurance of that kind exists, checked or not", () => {
    expect(statedText({ ...old, credentials: { licence: checked.licence! } })).toEqual({
      insurance: old.insuranceDetails,
    });
    expect(statedText({ ...old, credentials: { insurance: { ...checked.insurance!, check: undefined } } })).toEqual({
      licence: old.licenseNumber,
    });
    expect(statedText({ ...old, credentials: checked })).toEqual({});
  });
});

describe("licence type options", () => {
  it("are short and name the state: CA · C-49, NJ · LTCO", () => {
    const labels = LICENSING_STATES.flatMap((s) => s.types.map((t) => licenceOptionLabel(s.code, t)));
    expect(labels).toEqual([
      "MD · LTE",
      "NJ · NJTC",
      "NJ · LTE",
      "NJ · LTCO",
      "LA · Arborist",
      "CT · Arborist",
      "CA · C-49",
    ]);
    // Unambiguous: no two options of one state read the same.
    expect(new Set(labels).size).toBe(labels.length);
    for (const label of labels) expect(label.length).toBeLessThanOrEqual(16);
  });
});
