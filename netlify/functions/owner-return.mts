/**
 * POST /owner: a returning owner asks for a sign-in link with the address on file (the page is
 * src/pages/owner/index.astro, whose signed-out view has the form). The handler lives in
 * ../lib/owners/returning.ts.
 */
import type { Config } from "@netlify/functions";
import { returningSignInHandler } from "../lib/owners/returning.ts";

export default returningSignInHandler();

export const config: Config = { path: "/owner", method: "POST" };
