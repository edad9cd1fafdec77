/**
 * POST /owner/webhooks: the signed-in owner adds, rotates, enables and deletes their business's
 * webhooks, sends a logged delivery again, and makes or revokes API keys for Zapier and Make;
 * the page is src/pages/owner/webhooks.astro. The handler lives in ../lib/owners/webhooks.ts.
 */
import type { Config } from "@netlify/functions";
import { ownerWebhooksHandler } from "../lib/owners/webhooks.ts";

export default ownerWebhooksHandler();

export const config: Config = { path: "/owner/webhooks", method: "POST" };
