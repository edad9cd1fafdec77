/**
 * POST /owner/claim/:slug: claim a listed business (a link to the e-mail on file, a code to the
 * phone on file, or a claim the operator checks); the page is src/pages/owner/claim/[slug].astro.
 * The handler lives in ../lib/owners/forms.ts.
 */
import type { Config } from "@netlify/functions";
import { claimHandler } from "../lib/owners/forms.ts";

export default claimHandler();

export const config: Config = { path: "/owner/claim/:slug", method: "POST" };
