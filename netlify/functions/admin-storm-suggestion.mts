/**
 * PATCH /api/admin/storm-suggestions/:id {action: "dismiss"}: the operator sets an NWS
 * suggestion aside. Bearer ADMIN_TOKEN; the handler lives in ../lib/admin/storms.ts.
 */
import type { Config } from "@netlify/functions";
import { adminStormSuggestionHandler } from "../lib/admin/storms.ts";

export default adminStormSuggestionHandler();

// No method filter here: other methods must reach the handler to get a 405 with Allow.
export const config: Config = { path: "/api/admin/storm-suggestions/:id" };
