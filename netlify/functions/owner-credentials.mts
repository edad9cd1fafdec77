/**
 * POST /owner/credentials: the signed-in owner's license and insurance form (no JavaScript
 * needed; the page is src/pages/owner/credentials.astro). The handler lives in
 * ../lib/owners/credentials.ts.
 */
import type { Config } from "@netlify/functions";
import { ownerCredentialsHandler } from "../lib/owners/credentials.ts";

export default ownerCredentialsHandler();

export const config: Config = { path: "/owner/credentials", method: "POST" };
