import { describe, expect, it } from "vitest";
import { signer } from "../../../netlify/lib/delivery/signing.ts";

const s = signer("k".repeat(40));
const LEAD = "ld_0mwxxarwz03o87sx46n";
const NOW = Date.parse("2026-11-26T12:00:00Z");
const tokenOf = (path: string) => path.replace(/^\/respond\//, "");

/** Every one-character change of `text` within the URL-safe alphabet. */
function* mutations(text: string) {
  const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.";
  for (let i = 0; i < text.length; i++) {
    const other = alphabet[(alphabet.indexOf(text[i]!) + 7) % alphabet.length]!;
    yield text.slice(0, i) + other + text.slice(i + 1);
  }
}

describe("status links", () => {
  it("verify for their lead only", () => {
    const [, , id, sig] = s.statusPath(LEAD).split("/");
    expect(id).toBe(LEAD);
    expect(sig).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(s.checkStatus(LEAD, sig!)).toBe(true);
    expect(s.checkStatus("ld_0mwxxarwz03o87sx46m", sig!)).toBe(false);
    for (const changed of mutations(sig!)) expect(s.checkStatus(LEAD, changed)).toBe(false);
  });

  it("differ with the key", () => {
    expect(signer("j".repeat(40)).statusPath(LEAD)).not.toBe(s.statusPath(LEAD));
  });
});

describe("answer links", () => {
  const token = tokenOf(s.answerPath(LEAD, "biz-001", NOW + 60_000));

  it("grant their lead and business until they expire", () => {
    expect(s.readAnswer(token, NOW)).toEqual({
      ok: true,
      leadId: LEAD,
      businessId: "biz-001",
      expiresAt: Math.ceil((NOW + 60_000) / 1000) * 1000,
    });
    expect(s.readAnswer(token, NOW + 61_000)).toEqual({ ok: false, reason: "expired" });
  });

  it("refuse any one-character change, an expiry pushed later included", () => {
    for (const changed of mutations(token)) expect(s.readAnswer(changed, NOW)).toMatchObject({ ok: false });
    const [lead, , exp, sig] = token.split(".");
    // Another business with this business's signature.
    expect(s.readAnswer([lead, "biz-002", exp, sig].join("."), NOW)).toEqual({ ok: false, reason: "invalid" });
    // A later expiry is a forgery, not a renewal.
    const later = (parseInt(exp!, 36) + 86_400).toString(36);
    expect(s.readAnswer([lead, "biz-001", later, sig].join("."), NOW)).toEqual({ ok: false, reason: "invalid" });
  });

  it("refuse malformed tokens", () => {
    for (const bad of ["", "a.b.c", `${token}.x`, token.replace(/\./g, "-"), `${LEAD}.biz 1.abc.${"a".repeat(22)}`]) {
      expect(s.readAnswer(bad, NOW)).toEqual({ ok: false, reason: "invalid" });
    }
  });
});
