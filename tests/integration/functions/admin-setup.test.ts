/**
 * GET /api/admin/setup (netlify/functions/admin-setup.mts) against a real Redis: the admin's
 * token gate (disabled, 401, wrong method), and the answer's shape: every line of the launch
 * checklist with a state and a sentence, read from the configuration and the store (a run
 * kept by a scheduled function, the last send, the directory's size).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import handler, { config } from "../../../netlify/functions/admin-setup.mts";
import { adminSetupHandler } from "../../../netlify/lib/admin/setup.ts";
import type { AdminDeps } from "../../../netlify/lib/admin/endpoint.ts";
import { ADMIN_DISABLED } from "../../../src/lib/admin.ts";
import { SETUP_STATES, type AdminSetupReply } from "../../../src/lib/admin-setup.ts";
import { parseEnv, type RawEnv } from "../../../src/lib/env.ts";
import {
  functionsHarness,
  getRequest,
  jsonRequest,
  nextIp,
  testBusiness,
  type FunctionsHarness,
} from "../../helpers/functions.ts";

const TOKEN = "test-admin-token-setup-0123456789";
const NOW = Date.parse("2026-11-28T22:00:00.000Z");
const h = await functionsHarness("admin-setup");

describe.skipIf(!h)("admin API: the launch checklist", () => {
  let harness: FunctionsHarness;
  const auth = { authorization: `Bearer ${TOKEN}` };
  const deps = (raw: RawEnv = {}): AdminDeps => ({
    store: () => harness.store,
    env: parseEnv({ ADMIN_TOKEN: TOKEN, ...raw }),
    now: () => NOW,
  });
  const get = (headers: Record<string, string> = auth) => getRequest("/api/admin/setup", { headers });

  beforeAll(() => {
    harness = h!;
  });
  afterAll(async () => {
    await h?.teardown();
  });

  it("is routed at /api/admin/setup", () => {
    expect(config.path).toBe("/api/admin/setup");
    expect(typeof handler).toBe("function");
  });

  it("needs the operator token: disabled without one, 401 for a wrong one, 405 for a write", async () => {
    const off = await adminSetupHandler({ ...deps(), env: parseEnv({}) })(get(), nextIp());
    expect(off.status).toBe(503);
    expect(await off.json()).toMatchObject({ error: ADMIN_DISABLED, disabled: true });

    const wrong = await adminSetupHandler(deps())(get({ authorization: "Bearer not-the-token-at-all" }), nextIp());
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(JSON.stringify(await wrong.json())).not.toContain("store");

    const post = await adminSetupHandler(deps())(jsonRequest("/api/admin/setup", {}, auth), nextIp());
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET");
  });

  it("answers every line with a state and a sentence; RESEND_API_KEY with the default sender is not ready", async () => {
    const res = await adminSetupHandler(deps({ RESEND_API_KEY: "re_test" }))(get(), nextIp());
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("no-store");
    expect(res.headers.get("x-robots-tag")).toContain("noindex");
    const body = (await res.json()) as AdminSetupReply;
    expect(body.checkedAt).toBe(new Date(NOW).toISOString());
    expect(body.lines.map((l) => l.id)).toEqual([
      "store",
      "contact",
      "email",
      "sms",
      "claude",
      "link-secret",
      "schedule:lead-clock",
      "schedule:notify-outbox",
      "schedule:storm-alerts",
      "data",
    ]);
    for (const line of body.lines) {
      expect(SETUP_STATES).toContain(line.state);
      expect(line.label.length).toBeGreaterThan(0);
      expect(line.text).toMatch(/^[A-Z].+\.$/);
      expect(Array.isArray(line.facts)).toBe(true);
    }
    const line = Object.fromEntries(body.lines.map((l) => [l.id, l]));
    expect(line.store).toMatchObject({ state: "ready", text: "Redis takes writes: nothing to do." });
    expect(line.email).toMatchObject({
      state: "not-ready",
      text: "RESEND_API_KEY uses Resend's test sender onboarding@resend.dev, set NOTIFY_EMAIL_FROM to an address on your verified domain.",
    });
    expect(line.data!.state).toBe("not-ready");
    // No secret in the answer: the key is named, never shown.
    expect(JSON.stringify(body)).not.toContain("re_test");
  });

  it("reads what the store holds: a scheduled run, the last send, the businesses", async () => {
    await harness.store.runs.record({
      name: "notify-outbox",
      startedAt: new Date(NOW - 60_000).toISOString(),
      finishedAt: new Date(NOW - 59_000).toISOString(),
      durationMs: 1_000,
      outcome: "ok",
      counts: { claimed: 1, delivered: 1, retry: 0, dropped: 0, left: 0 },
    });
    await harness.store.runs.recordSends([
      { channel: "email", outcome: "accepted", at: new Date(NOW - 60_000).toISOString(), kind: "receipt" },
    ]);
    await harness.store.businesses.upsert(testBusiness("setup-biz"));
    const secret = "a-link-signing-secret-of-32-chars-or-more";
    const res = await adminSetupHandler(
      deps({ RESEND_API_KEY: "re_test", NOTIFY_EMAIL_FROM: "hello@treeline-pros.com", LINK_SIGNING_SECRET: secret }),
    )(get(), nextIp());
    const body = (await res.json()) as AdminSetupReply;
    const line = Object.fromEntries(body.lines.map((l) => [l.id, l]));
    expect(line["schedule:notify-outbox"]).toMatchObject({
      state: "ready",
      text: "Last run 2026-11-28 21:59 UTC, 1,000 ms: claimed 1, delivered 1, retry 0, dropped 0, left 0.",
    });
    expect(line.email!.state).toBe("ready");
    expect(line.email!.text).toContain("the provider accepted the last e-mail");
    expect(line["link-secret"]!.text).toBe("Set in LINK_SIGNING_SECRET: nothing to do.");
    expect(line.data).toMatchObject({ state: "ready", text: "1 business, 0 claimed by their owners." });
    expect(JSON.stringify(body)).not.toContain(secret);
  });
});
