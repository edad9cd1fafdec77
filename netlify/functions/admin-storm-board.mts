/**
 * GET /api/admin/storm-board: per declared storm, requests per hour, waiting, accepted,
 * escalated and the businesses in its area taking storm jobs. Bearer ADMIN_TOKEN; the handler
 * lives in ../lib/admin/storm-board.ts.
 */
import type { Config } from "@netlify/functions";
import { adminStormBoardHandler } from "../lib/admin/storm-board.ts";

export default adminStormBoardHandler();

// No method filter here: other methods must reach the handler to get a 405 with Allow.
export const config: Config = { path: "/api/admin/storm-board" };
