/**
 * PATCH /api/admin/claims/:id {decision: "approve"|"refuse", reason}: the operator decides a
 * claim (approve: the claimant becomes an owner and gets a sign-in link; an added business is
 * listed first; refuse: the reason is kept and e-mailed). Bearer ADMIN_TOKEN; the handler
 * lives in ../lib/admin/claims.ts.
 */
import type { Config } from "@netlify/functions";
import { adminClaimHandler } from "../lib/admin/claims.ts";

export default adminClaimHandler();

// No method filter here: other methods must reach the handler to get a 405 with Allow.
export const config: Config = { path: "/api/admin/claims/:id" };
