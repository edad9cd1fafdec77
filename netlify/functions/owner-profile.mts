/**
 * POST /owner/profile: the owner's description, services, areas, contact details, hours and
 * closures, as one form that works without JavaScript (the page is
 * src/pages/owner/profile.astro). The handler lives in ../lib/owners/profile.ts.
 */
import type { Config } from "@netlify/functions";
import { ownerProfileHandler } from "../lib/owners/profile.ts";

export default ownerProfileHandler();

export const config: Config = { path: "/owner/profile", method: "POST" };
