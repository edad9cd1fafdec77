/**
 * POST /api/hooks/unsubscribe: ends a Zapier or Make REST-hook subscription (deletes its endpoint), authenticated with the business's API key.
 * The handler lives in ../lib/webhooks/api.ts; docs/webhooks.md shows how Zapier and Make use it.
 */
import type { Config } from "@netlify/functions";
import { unsubscribeHandler } from "../lib/webhooks/api.ts";

export default unsubscribeHandler();

export const config: Config = { path: "/api/hooks/unsubscribe", method: "POST" };
