/**
 * GET /api/businesses?search=&city=&limit=&offset=: one page of the directory, best first,
 * with the total across pages. The handler lives in ../lib/directory.ts.
 */
import type { Config } from "@netlify/functions";
import { businessesHandler } from "../lib/directory.ts";

export default businessesHandler();

// No method filter here: other methods must reach the handler to get a 405 with Allow.
export const config: Config = { path: "/api/businesses" };
