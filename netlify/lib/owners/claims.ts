/**
 * Claims: someone asking to run a listed business's page ("claim"), or to list one that is
 * not in the directory ("add"), stored by the claims repository (store/repos/claims.ts).
 *
 * A claim proved by the contact on file is stored too ("sent", then "proved" once its link or
 * code is used): the operator sees every way into every listing.
 */
import { randomBytes } from "node:crypto";
import type { Claim } from "../../../src/lib/owners/claims.ts";
import type { Store } from "../store/index.ts";

export type { Claim };

const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";
/** "cl_" and 20 random base32 characters (100 bits). */
export function newClaimId(): string {
  return `cl_${[...randomBytes(20)].map((b) => ALPHABET[b & 31]).join("")}`;
}

/** Stores a new claim (pending ones join the operator's queue). */
export const createClaim = (store: Store, claim: Claim): Promise<Claim> => store.claims.create(claim);

export const getClaim = (store: Store, id: string): Promise<Claim | null> => store.claims.get(id);

/**
 * Moves a claim on from `before` (as read) to `after`: false when it changed meanwhile
 * (someone decided first), so two decisions never both run.
 */
export const settleClaim = (store: Store, before: Claim, after: Claim): Promise<boolean> =>
  store.claims.settle(before, after);
