/**
 * A business reports a bad lead from its answer page, in-process on a real Redis: POST
 * /respond/:token with action "report" (the no-JS form and JSON). The report reaches the
 * operator (an alert, and the lead escalated when nobody else has it), never counts in the
 * business's response figures (a waiting offer records nothing and the clock makes no miss of
 * it; an answer or a miss already kept is taken out), shows in /admin by reason and by form
 * (GET /api/admin/reports), and stands once. A missing reason is the field's message.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminReportsHandler } from "../../../netlify/lib/admin/reports.ts";
import { ANSWER_MESSAGES, NOTICES, respondHandler } from "../../../netlify/lib/delivery/handlers.ts";
import { advanceLead, answerLead } from "../../../netlify/lib/delivery/progress.ts";
import { initialRouting, type Candidate } from "../../../netlify/lib/delivery/routing.ts";
import { signer } from "../../../netlify/lib/delivery/signing.ts";
import { answerPageOf } from "../../../netlify/lib/page-data/delivery-answer.ts";
import { keyspace } from "../../../netlify/lib/store/keys.ts";
import { parseEnv } from "../../../src/lib/env.ts";
import type { LeadReportSummary } from "../../../src/lib/schemas/lead-report.ts";
import {
  ORIGIN,
  expectFlash,
  formRequest,
  functionsHarness,
  jsonRequest,
  nextIp,
  testBusiness,
  validBooking,
  validFindPros,
} from "../../helpers/functions.ts";

const SECRET = "report-fn-secret-0123456789abcdefghijk";
const TOKEN = "report-admin-token-0123456789abcdef";
const MIN = 60_000;
const h = await functionsHarness("lead-report");
afterAll(async () => {
  await h?.teardown();
});

describe.skipIf(!h)("reporting a bad lead from the answer page", () => {
  const env = parseEnv({ RATE_LIMIT_PER_MINUTE: "1000", LINK_SIGNING_SECRET: SECRET, ADMIN_TOKEN: TOKEN });
  const sign = signer(SECRET);
  const purges: string[][] = [];
  const deps = () => ({ store: () => h!.store, env, purge: async (tags: string[]) => void purges.push(tags) });
  const store = () => h!.store;

  async function run(req: Request) {
    const pending: Promise<unknown>[] = [];
    const res = await respondHandler(deps())(req, { ...nextIp(), waitUntil: (p) => void pending.push(p) });
    await Promise.all(pending);
    return res;
  }
  const post = (path: string, fields: [string, string][]) => run(formRequest(path, fields));
  const outcomes = async (id: string) =>
    (await store().redis.lrange(keyspace(store().prefix).responses(id), 0, -1)).map(String);
  const reports = async (): Promise<LeadReportSummary> => {
    const res = await adminReportsHandler({ store, env })(
      new Request(`${ORIGIN}/api/admin/reports`, { headers: { authorization: `Bearer ${TOKEN}` } }),
      nextIp(),
    );
    expect(res.status).toBe(200);
    return (await res.json()) as LeadReportSummary;
  };

  const pro = (n: number): Candidate => ({
    businessId: `lr-${n}`,
    name: `Report Pro ${n}`,
    slug: `lr-pro-${n}`,
    email: `pro${n}@pros.test`,
  });

  beforeAll(async () => {
    for (const n of [1, 2, 3])
      await store().businesses.upsert(
        testBusiness(`lr-${n}`, { name: `Report Pro ${n}`, slug: `lr-pro-${n}`, email: `pro${n}@pros.test` }),
      );
  });

  async function lead(kind: "booking" | "find-pros", pros: Candidate[], at = Date.now()) {
    const data = kind === "booking" ? validBooking("lr-1") : { ...validFindPros(), location: "78701" };
    const { lead } = await store().leads.create(kind, data, {
      sourcePage: kind === "booking" ? "/directory/lr-pro-1" : "/find-a-tree-service",
      urgency: "emergency",
      routing: initialRouting(pros, "emergency", at),
    });
    const link = (businessId: string) => sign.answerPath(lead.id, businessId, at + 86_400_000);
    return { lead, link };
  }
  const delivery = async (leadId: string, businessId: string) =>
    (await store().leads.get(leadId))!.routing!.deliveries.find((d) => d.businessId === businessId)!;

  it("a waiting offer reported: the operator has it, no figure for the business, shown in /admin by reason and form", async () => {
    const before = await reports();
    const t0 = Date.now();
    const { lead: l, link } = await lead("booking", [pro(1)], t0);

    const missing = await post(link("lr-1"), [["action", "report"]]);
    expect(await expectFlash(store(), missing, link("lr-1"))).toMatchObject({
      status: 422,
      form: "report",
      errors: { reason: ANSWER_MESSAGES.reportReason },
    });
    expect((await delivery(l.id, "lr-1")).state).toBe("waiting");

    const res = await post(link("lr-1"), [
      ["action", "report"],
      ["reason", "spam"],
    ]);
    expect(await expectFlash(store(), res, link("lr-1"))).toMatchObject({
      status: 200,
      notice: NOTICES.applied.report,
    });
    const after = (await store().leads.get(l.id))!;
    expect(after.routing!.deliveries[0]).toMatchObject({
      state: "declined",
      reason: "spam",
      report: "spam",
      reportedAt: expect.any(String),
    });
    expect(after.routing!.deliveries[0]!.answeredAt).toBeUndefined();
    // Nobody else has it: the operator does, not a next pro.
    expect(after.status).toBe("escalated");
    expect(after.routing!.events.slice(-2)).toMatchObject([
      { kind: "reported", businessId: "lr-1", reason: "spam" },
      { kind: "escalated", reason: "reported" },
    ]);
    const messages = await store().messages.forLead(l.id);
    const alert = messages.find((m) => m.kind === "reported");
    expect(alert).toMatchObject({ audience: "operator" });
    expect(alert!.subject).toContain("Report Pro 1: reported the lead: spam");

    // Not an answer, and the clock makes no miss of it.
    expect(await outcomes("lr-1")).toEqual([]);
    await advanceLead(store(), l.id, t0 + 30 * MIN, async () => {});
    expect(await outcomes("lr-1")).toEqual([]);
    expect(await store().businesses.get("lr-1")).not.toHaveProperty("responseOffers");

    const summary = await reports();
    expect(summary.total).toBe(before.total + 1);
    expect(summary.byReason.spam).toBe((before.byReason.spam ?? 0) + 1);
    expect(summary.byForm.booking).toBe((before.byForm.booking ?? 0) + 1);
    expect(summary.recent[0]).toMatchObject({
      leadId: l.id,
      reference: l.reference,
      businessId: "lr-1",
      businessName: "Report Pro 1",
      reason: "spam",
      form: "booking",
      sourcePage: "/directory/lr-pro-1",
    });

    // Once: a second report (another reason) changes nothing and says so.
    const again = await post(link("lr-1"), [
      ["action", "report"],
      ["reason", "duplicate"],
    ]);
    expect(await expectFlash(store(), again, link("lr-1"))).toMatchObject({ notice: NOTICES.reportedAgain });
    expect((await reports()).total).toBe(summary.total);
    expect((await delivery(l.id, "lr-1")).report).toBe("spam");

    // The answer page says it was reported, and offers no second report.
    const page = answerPageOf(after, after.routing!.deliveries[0]!, link("lr-1"), t0 + MIN);
    expect(page.report).toMatchObject({ reason: "Spam" });
  });

  it("an accepted job reported leaves the figures: its answer is taken out, and it is no longer held", async () => {
    const t0 = Date.now();
    const { lead: l, link } = await lead("find-pros", [pro(2), pro(3)], t0);
    await answerLead(store(), l.id, "lr-2", { kind: "accept", window: "Sat" }, t0 + 2 * MIN, async () => {});
    // Its answer is recorded (the minutes count daytime only, so they depend on the hour this runs).
    expect(await outcomes("lr-2")).toEqual([
      expect.stringMatching(new RegExp(`^${l.id}\\|a\\|\\d+\\|${t0 + 2 * MIN}$`)),
    ]);
    expect(await store().businesses.get("lr-2")).toMatchObject({ responseOffers: 1, responseCount: 1 });

    const res = await run(jsonRequest(link("lr-2"), { action: "report", reason: "bad-contact" }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, outcome: "applied", state: "withdrawn" });
    expect(await outcomes("lr-2")).toEqual([]);
    const figures = await store().businesses.get("lr-2");
    expect(figures).not.toHaveProperty("responseOffers");
    expect(figures).not.toHaveProperty("responseCount");
    // Pro 3 still waits: the lead stays with it rather than going to the operator now.
    const after = (await store().leads.get(l.id))!;
    expect(after.routing!.escalatedAt).toBeUndefined();
    expect(after.routing!.deliveries.map((d) => d.state)).toEqual(["withdrawn", "waiting"]);
    expect((await reports()).byForm["find-pros"]).toBeGreaterThanOrEqual(1);
    // A late record of the same lead (a step that ran before the report finished) counts nothing.
    const late = await store().businesses.recordOutcome("lr-2", l.id, { answered: true, minutes: 2, inTime: true });
    expect(late).toMatchObject({ recorded: false });
    expect(await outcomes("lr-2")).toEqual([]);
  });

  it("a miss already recorded is taken out when the business reports the lead", async () => {
    const t0 = Date.now();
    const { lead: l, link } = await lead("find-pros", [pro(3)], t0);
    await advanceLead(store(), l.id, t0 + 11 * MIN, async () => {});
    expect(await outcomes("lr-3")).toEqual([`${l.id}|m|0|${t0 + 10 * MIN}`]);
    const res = await post(link("lr-3"), [
      ["action", "report"],
      ["reason", "wrong-area"],
    ]);
    expect(await expectFlash(store(), res, link("lr-3"))).toMatchObject({ notice: NOTICES.applied.report });
    expect(await outcomes("lr-3")).toEqual([]);
    expect((await delivery(l.id, "lr-3")).state).toBe("expired");
    expect((await reports()).byReason["wrong-area"]).toBeGreaterThanOrEqual(1);
  });
});
