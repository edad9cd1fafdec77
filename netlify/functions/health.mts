/**
 * GET /api/health: which store this instance uses, whether it answers and whether it can
 * write (a short-lived probe key; the embedded store must also save it to disk). 503 when
 * either fails, so uptime checks see a store that cannot take a lead rather than a cheerful 200.
 */
import type { Config } from "@netlify/functions";
import { endpoint, jsonResponse } from "../lib/http.ts";

export default endpoint({ log: "[health]", methods: ["GET"] }, {}, async ({ store }) => {
  const [answers, writable] = await Promise.all([store.ping(), store.writable()]);
  const ok = answers && writable;
  return jsonResponse({ ok, store: store.kind, answers, writable }, ok ? 200 : 503);
});

export const config: Config = { path: "/api/health", method: "GET" };
