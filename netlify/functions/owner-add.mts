/**
 * POST /owner/add: "Add your business" (the page is src/pages/owner/add.astro), checked by the
 * operator before it is listed. The handler lives in ../lib/owners/forms.ts.
 */
import type { Config } from "@netlify/functions";
import { addBusinessHandler } from "../lib/owners/forms.ts";

export default addBusinessHandler();

export const config: Config = { path: "/owner/add", method: "POST" };
