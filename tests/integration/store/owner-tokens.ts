/**
 * The owners' part of the repository contract, run by contract.ts on every transport
 * (embedded, real Redis, Upstash REST): the Lua that takes a sign-in link once, counts an SMS
 * code's tries, and decides a claim only if nobody decided it first; the failure counter; and
 * owner sessions.
 */
import { describe, expect, it } from "vitest";
import {
  createClaim,
  getClaim,
  listClaims,
  newClaimId,
  settleClaim,
  type Claim,
} from "../../../netlify/lib/owners/claims.ts";
import { addOwner, createOwnerSession, readOwnerSession, removeOwner } from "../../../netlify/lib/owners/session.ts";
import {
  issueCode,
  issueSignInLink,
  ownerLockedOutFor,
  recordOwnerFailure,
  takeSignInLink,
  tryCode,
} from "../../../netlify/lib/owners/tokens.ts";
import { parseEnv } from "../../../src/lib/env.ts";
import { CODE_MAX_TRIES, OWNER_MAX_FAILURES } from "../../../src/lib/owners/limits.ts";
import type { StoreHarness } from "./contract.types.ts";

const NOW = Date.parse("2026-11-28T12:00:00Z");
const grant = { businessId: "biz-1", email: "jo@oak.test", via: "email", claimId: "cl_aaaaaaaaaaaaaaaaaaaa" } as const;

function claim(createdAt: number, status: Claim["status"] = "pending"): Claim {
  return {
    id: newClaimId(),
    kind: "claim",
    businessId: "biz-1",
    businessName: "Oak & Sons",
    claimant: { name: "Jo", email: "jo@else.test", role: "owner" },
    proof: "operator",
    status,
    createdAt: new Date(createdAt).toISOString(),
  };
}

export function ownerTokensContract(h: StoreHarness) {
  describe("owners: sign-in links, codes, claims, sessions", () => {
    it("a link is taken once, even by two takers at the same moment", async () => {
      const store = await h.fresh("own-link");
      const { token } = await issueSignInLink(store, grant, NOW);
      const results = await Promise.all([takeSignInLink(store, token, NOW), takeSignInLink(store, token, NOW)]);
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.find((r) => r.ok)).toMatchObject({ grant });
      expect(await takeSignInLink(store, token, NOW)).toEqual({ ok: false, reason: "invalid" });
    });

    it("a code counts wrong tries and is gone at the last; the right one is taken once", async () => {
      const store = await h.fresh("own-code");
      const first = await issueCode(store, grant, NOW);
      const wrong = first.code === "000000" ? "111111" : "000000";
      for (let left = CODE_MAX_TRIES - 1; left > 0; left--)
        expect(await tryCode(store, first.id, wrong, NOW)).toEqual({ ok: false, reason: "wrong", triesLeft: left });
      expect(await tryCode(store, first.id, wrong, NOW)).toEqual({ ok: false, reason: "gone" });
      expect(await tryCode(store, first.id, first.code, NOW)).toEqual({ ok: false, reason: "gone" });

      const second = await issueCode(store, grant, NOW);
      expect(await tryCode(store, second.id, second.code, NOW)).toMatchObject({ ok: true, grant });
      expect(await tryCode(store, second.id, second.code, NOW)).toEqual({ ok: false, reason: "gone" });
    });

    it("a claim is decided once: the second decision, made from the same reading, is refused", async () => {
      const store = await h.fresh("own-claim");
      const pending = await createClaim(store, claim(NOW));
      await createClaim(store, claim(NOW + 1, "sent"));
      expect((await listClaims(store, { status: "pending" })).total).toBe(1);
      expect((await listClaims(store, { status: "all" })).total).toBe(2);
      const read = (await getClaim(store, pending.id))!;
      expect(read).toEqual(pending);
      const approved: Claim = { ...read, status: "approved", decidedAt: new Date(NOW).toISOString() };
      const refused: Claim = { ...read, status: "refused", reason: "no", decidedAt: new Date(NOW).toISOString() };
      expect(await settleClaim(store, read, approved)).toBe(true);
      expect(await settleClaim(store, read, refused)).toBe(false);
      expect(await getClaim(store, pending.id)).toEqual(approved);
      expect((await listClaims(store, { status: "pending" })).total).toBe(0);
    });

    it("failures lock an address out; sessions end when the owner is removed", async () => {
      const store = await h.fresh("own-session");
      for (let i = 0; i < OWNER_MAX_FAILURES; i++) await recordOwnerFailure(store, "203.0.113.9");
      expect(await ownerLockedOutFor(store, "203.0.113.9")).toBeGreaterThan(0);

      const env = parseEnv({
        SITE_URL: "https://treeline.test",
        LINK_SIGNING_SECRET: "contract-owner-secret-0123456789abcd",
      });
      await addOwner(store, "biz-1", "jo@oak.test", "email", NOW);
      const { setCookie, session } = await createOwnerSession(store, env, grant, NOW);
      const req = new Request("https://treeline.test/owner", { headers: { cookie: setCookie.split(";")[0]! } });
      expect(await readOwnerSession(req, store, env, NOW)).toEqual(session);
      await removeOwner(store, "biz-1", "jo@oak.test");
      expect(await readOwnerSession(req, store, env, NOW)).toBeNull();
    });
  });
}
