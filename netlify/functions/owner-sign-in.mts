/**
 * GET/POST /owner/sign-in/:token: a one-time sign-in link (GET shows a button; POST uses the link and starts the owner's session). The handler lives in ../lib/owners/sign-in.ts.
 */
import type { Config } from "@netlify/functions";
import { signInHandler } from "../lib/owners/sign-in.ts";

export default signInHandler();

export const config: Config = { path: "/owner/sign-in/:token" };
