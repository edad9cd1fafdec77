/** src/lib/receipt.ts: the reference's canonical form, and reading the receipt off a reply. */
import { describe, expect, it } from "vitest";
import { REFERENCE_PATTERN, moreUrgent, normalizeReference, receiptOf } from "../../src/lib/receipt.ts";
import { RECEIPT } from "../helpers/receipts.ts";

describe("normalizeReference", () => {
  it.each([
    ["TL-7KQ2-9F", "TL-7KQ2-9F"],
    ["  tl-7kq2-9f ", "TL-7KQ2-9F"],
    ["TL7KQ29F", "TL-7KQ2-9F"],
    ["7KQ2-9F", "TL-7KQ2-9F"],
    ["7kq29f", "TL-7KQ2-9F"],
    ["tl 7kq2 9f", "TL-7KQ2-9F"],
    // Crockford: O reads as 0, I and L as 1 (the prefix's L is not touched).
    ["TL-OKQ2-IL", "TL-0KQ2-11"],
    ["okq2il", "TL-0KQ2-11"],
  ])("%j -> %s", (input, expected) => {
    expect(normalizeReference(input)).toBe(expected);
    expect(expected).toMatch(REFERENCE_PATTERN);
  });

  it.each(["", "TL-", "TL-7KQ2-9", "TL-7KQ2-9FF", "TL-7KQ2-9U", "XX-7KQ2-9F", "7KQ2_9F", "TL-7KQ2-9F-00"])(
    "%j is not a reference",
    (input) => expect(normalizeReference(input)).toBeNull(),
  );

  it("the pattern is Crockford base32: no I, L, O or U", () => {
    for (const letter of "ILOU") expect(`TL-${letter}KQ2-9F`).not.toMatch(REFERENCE_PATTERN);
    expect("TL-0123-YZ").toMatch(REFERENCE_PATTERN);
  });
});

describe("receiptOf", () => {
  it("reads the receipt fields of a reply", () => {
    expect(receiptOf({ ok: true, id: "ld_1", ...RECEIPT })).toEqual(RECEIPT);
    expect(receiptOf({ ...RECEIPT, reference: "tl-7kq2-9f" }).reference).toBe("TL-7KQ2-9F");
  });

  it("a reply without them (older replies, tests, an unreadable body) has nothing to show and is routine", () => {
    for (const reply of [{}, undefined, null, "x", { reference: 7, statusUrl: null, urgency: "soon" }])
      expect(receiptOf(reply)).toEqual({ reference: "", statusUrl: "", urgency: "routine" });
  });

  it("only a same-site path is a status link", () => {
    for (const statusUrl of ["https://evil.example/x", "//evil.example/x", "/\\evil.example", "javascript:alert(1)"])
      expect(receiptOf({ ...RECEIPT, statusUrl }).statusUrl).toBe("");
  });

  it("the urgency is the more urgent of the reply's and the caller's own reading", () => {
    expect(receiptOf({ ...RECEIPT, urgency: "routine" }, "emergency").urgency).toBe("emergency");
    expect(receiptOf({ ...RECEIPT, urgency: "emergency" }, "routine").urgency).toBe("emergency");
    expect(receiptOf({}, "urgent").urgency).toBe("urgent");
    expect(moreUrgent("urgent", "routine")).toBe("urgent");
    expect(moreUrgent("urgent", "emergency")).toBe("emergency");
  });
});
