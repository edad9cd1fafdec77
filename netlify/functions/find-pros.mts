/**
 * POST /api/find-pros: validates and stores a find-pros lead. JSON clients get JSON; a no-JavaScript
 * form post gets a server-rendered page. The pipeline lives in ../lib/leads.ts, the matching in ../lib/find-pros.ts.
 */
import type { Config } from "@netlify/functions";
import { FIND_PROS_ENDPOINT } from "../lib/find-pros.ts";
import { leadHandler } from "../lib/leads.ts";

export default leadHandler(FIND_PROS_ENDPOINT);

// No method filter here: other methods must reach the handler to get a 405 with Allow.
export const config: Config = { path: "/api/find-pros" };
