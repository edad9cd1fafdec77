/**
 * POST /api/hooks/subscribe: a Zapier or Make REST-hook subscription (a webhook endpoint for one event), authenticated with the business's API key.
 * The handler lives in ../lib/webhooks/api.ts; docs/webhooks.md shows how Zapier and Make use it.
 */
import type { Config } from "@netlify/functions";
import { subscribeHandler } from "../lib/webhooks/api.ts";

export default subscribeHandler();

export const config: Config = { path: "/api/hooks/subscribe", method: "POST" };
