/**
 * GET/POST /owner/credentials: the signed-in owner's licence and insurance form (no JavaScript
 * needed). The handler lives in ../lib/owners/credentials.ts.
 */
import type { Config } from "@netlify/functions";
import { ownerCredentialsHandler } from "../lib/owners/credentials.ts";

export default ownerCredentialsHandler();

export const config: Config = { path: "/owner/credentials" };
