/**
 * GET /owner: the signed-in owner's overview (their listing at a glance, response time, the
 * leads the site sent them). The handler lives in ../lib/owners/overview.ts.
 */
import type { Config } from "@netlify/functions";
import { ownerOverviewHandler } from "../lib/owners/overview.ts";

export default ownerOverviewHandler();

export const config: Config = { path: "/owner" };
