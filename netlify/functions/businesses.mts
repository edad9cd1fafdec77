/**
 * GET /api/businesses (search, city and the near-me parameters, docs/directory.md): one page of the directory,
 * with the total across pages. The handler lives in ../lib/directory-search.ts.
 */
import type { Config } from "@netlify/functions";
import { businessesHandler } from "../lib/directory-search.ts";

export default businessesHandler();

// No method filter here: other methods must reach the handler to get a 405 with Allow.
export const config: Config = { path: "/api/businesses" };
