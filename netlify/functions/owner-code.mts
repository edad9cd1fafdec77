/**
 * POST /owner/code/:id: the SMS code (5 tries, then the code is gone); the page is
 * src/pages/owner/code/[id].astro. The handler lives in ../lib/owners/sign-in.ts.
 */
import type { Config } from "@netlify/functions";
import { codeHandler } from "../lib/owners/sign-in.ts";

export default codeHandler();

export const config: Config = { path: "/owner/code/:id", method: "POST" };
