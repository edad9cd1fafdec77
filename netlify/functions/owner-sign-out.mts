/**
 * POST /owner/sign-out ends the owner's session and clears its cookie; the page after it is
 * src/pages/owner/sign-out.astro. The handler lives in ../lib/owners/sign-in.ts.
 */
import type { Config } from "@netlify/functions";
import { signOutHandler } from "../lib/owners/sign-in.ts";

export default signOutHandler();

export const config: Config = { path: "/owner/sign-out", method: "POST" };
