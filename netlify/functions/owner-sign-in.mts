/**
 * POST /owner/sign-in/:token: uses a one-time sign-in link and starts the owner's session (the
 * link's page, src/pages/owner/sign-in/[token].astro, only shows the button). The handler lives
 * in ../lib/owners/sign-in.ts.
 */
import type { Config } from "@netlify/functions";
import { signInHandler } from "../lib/owners/sign-in.ts";

export default signInHandler();

export const config: Config = { path: "/owner/sign-in/:token", method: "POST" };
