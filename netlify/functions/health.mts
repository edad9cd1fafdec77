/**
 * GET /api/health: which store this instance uses and whether it answers. 503 when it does
 * not, so uptime checks and the e2e suite see a dead store rather than a cheerful 200.
 */
import type { Config } from "@netlify/functions";
import { endpoint, jsonResponse } from "../lib/http.ts";

export default endpoint({ log: "[health]", methods: ["GET"] }, {}, async ({ store }) => {
  const answers = await store.ping();
  return jsonResponse({ ok: answers, store: store.kind, answers }, answers ? 200 : 503);
});

export const config: Config = { path: "/api/health", method: "GET" };
