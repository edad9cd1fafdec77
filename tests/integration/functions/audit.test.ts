/**
 * POST /api/audit and /api/assessment against a real Redis: they share the pipeline with
 * the quote, so this covers what differs (lists, choices, the growth confirmation page).
 */
import { afterAll, describe, expect, it } from "vitest";
import { ASSESSMENT_ENDPOINT, AUDIT_ENDPOINT } from "../../../netlify/lib/lead-endpoints.ts";
import { MESSAGES, VALIDATION_ERROR } from "../../../src/lib/schemas/forms.ts";
import {
  deadStore,
  formRequest,
  functionsHarness,
  humanStarted,
  jsonRequest,
  nextIp,
  toEntries,
  validAssessment,
  validAudit,
  receiptReply,
  expectFlash,
} from "../../helpers/functions.ts";
import { parseEnv } from "../../../src/lib/env.ts";

const h = await functionsHarness("audit");
const RECEIVED = /^\/requests\/ld_[0-9a-z]+\/[\w-]{22}\/received$/;
afterAll(async () => {
  await h?.teardown();
});

describe.skipIf(!h)("POST /api/audit", () => {
  const audit = () => h!.handler(AUDIT_ENDPOINT);

  it("201 and the lead is stored as sent", async () => {
    const res = await audit()(jsonRequest("/api/audit", { ...validAudit(), _started: humanStarted() }), nextIp());
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toEqual({
      ok: true,
      id: expect.stringMatching(/^ld_/),
      ...receiptReply("routine"),
    });
    const lead = await h!.store.leads.get(body.id);
    expect(lead).toMatchObject({ type: "audit", status: "new", data: validAudit() });
  });

  it("every spec message for an empty JSON object", async () => {
    const res = await audit()(jsonRequest("/api/audit", {}), nextIp());
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: VALIDATION_ERROR,
      fields: {
        name: "Name must be at least 2 characters",
        email: "Please enter a valid email",
        phone: "Please enter a valid phone number",
        companyName: "Company name is required",
        currentRevenue: "Please select revenue range",
        yearsInBusiness: "Please select years in business",
        employeeCount: "Please select employee count",
        currentChallenges: "Please select at least one challenge",
        growthGoals: "Please select at least one goal",
      },
    });
  });

  it("list errors are reported per field, not per item; wrong types are 400", async () => {
    const res = await audit()(
      jsonRequest("/api/audit", {
        ...validAudit(),
        currentChallenges: ["Finding qualified leads", "Hacking"],
        growthGoals: "Double revenue in 12 months",
      }),
      nextIp(),
    );
    expect(res.status).toBe(400);
    expect((await res.json()).fields).toEqual({
      currentChallenges: MESSAGES.currentChallenges,
      growthGoals: MESSAGES.growthGoals,
    });
  });

  it("form post: 303 to the lead's confirmation page (its content: tests/integration/pages/leads.test.ts)", async () => {
    const res = await audit()(
      formRequest("/api/audit", toEntries({ ...validAudit(), _started: humanStarted() })),
      nextIp(),
    );
    expect(res.status).toBe(303);
    const [, , id] = res.headers.get("location")!.split("/");
    expect(res.headers.get("location")).toMatch(RECEIVED);
    expect(await h!.store.leads.get(id!)).toMatchObject({ type: "audit" });
  });

  it("form post with errors: back to the form's page with the ticked boxes and the messages", async () => {
    const fields: [string, string][] = [
      ["name", "Owner"],
      ["email", "owner@example.com"],
      ["phone", "5125550100"],
      ["companyName", "B"],
      ["currentRevenue", "500k-1m"],
      ["yearsInBusiness", ""],
      ["employeeCount", "6-10"],
      ["currentChallenges", "Scheduling and routing"],
      ["currentChallenges", "Collecting payments"],
    ];
    const res = await audit()(formRequest("/api/audit", fields), nextIp());
    const flash = await expectFlash(h!.store, res, "/forms/audit");
    expect(flash.status).toBe(422);
    expect(flash.values).toMatchObject({
      currentRevenue: "500k-1m",
      currentChallenges: ["Scheduling and routing", "Collecting payments"],
    });
    expect(flash.errors).toMatchObject({
      companyName: MESSAGES.companyName,
      yearsInBusiness: MESSAGES.yearsInBusiness,
      growthGoals: MESSAGES.growthGoals,
    });
    expect(flash.errors.currentChallenges).toBeUndefined();
  });

  it("honeypot in a form post: the same 303 as a stored lead, nothing stored", async () => {
    const before = (await h!.store.leads.list("audit", { limit: 100 })).items.length;
    const res = await audit()(
      formRequest("/api/audit", [...toEntries(validAudit()), ["company_website", "spam"]]),
      nextIp(),
    );
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toMatch(RECEIVED);
    expect((await h!.store.leads.list("audit", { limit: 100 })).items.length).toBe(before);
  });

  it("a form post when the store is down: back to the form's page, which says so", async () => {
    const res = await h!.handler(AUDIT_ENDPOINT, { store: () => deadStore(h!.store) })(
      formRequest("/api/audit", toEntries(validAudit())),
      nextIp(),
    );
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/forms/audit?problem=unavailable");
  });
});

describe.skipIf(!h)("POST /api/assessment", () => {
  const assessment = () => h!.handler(ASSESSMENT_ENDPOINT);

  it("201 and the phase is stored", async () => {
    const res = await assessment()(jsonRequest("/api/assessment", validAssessment()), nextIp());
    expect(res.status).toBe(201);
    const lead = await h!.store.leads.get((await res.json()).id);
    expect(lead).toMatchObject({ type: "assessment", data: { phase: "phase-2", companyName: "Branch Masters" } });
  });

  it("the audit's messages plus the phase", async () => {
    const res = await assessment()(jsonRequest("/api/assessment", { ...validAudit(), phase: "phase-9" }), nextIp());
    expect(res.status).toBe(400);
    expect((await res.json()).fields).toEqual({ phase: "Please select a phase" });
  });

  it("form post: 303 to the lead's confirmation page", async () => {
    const res = await assessment()(formRequest("/api/assessment", toEntries(validAssessment())), nextIp());
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toMatch(RECEIVED);
  });

  it("limits are per endpoint", async () => {
    const env = parseEnv({ RATE_LIMIT_PER_MINUTE: "1" });
    const ip = nextIp();
    expect((await h!.handler(ASSESSMENT_ENDPOINT, { env })(jsonRequest("/api/assessment", {}), ip)).status).toBe(400);
    expect((await h!.handler(ASSESSMENT_ENDPOINT, { env })(jsonRequest("/api/assessment", {}), ip)).status).toBe(429);
    expect((await h!.handler(AUDIT_ENDPOINT, { env })(jsonRequest("/api/audit", {}), ip)).status).toBe(400);
  });
});
