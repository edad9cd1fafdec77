/**
 * The operator's view of lead delivery (/api/admin/*) against a real Redis: on a default
 * install (no provider) every message is kept and listed (newest first, or one lead's oldest
 * first, paged), the lead's own messages and status page come with the lead, the inbox filters
 * by status and urgency and answers the "N new" count and the open emergencies, and the outbox
 * says which providers are set up.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { AdminDeps } from "../../../netlify/lib/admin/endpoint.ts";
import {
  PINNED_EMERGENCIES,
  adminLeadHandler,
  adminLeadsCsvHandler,
  adminLeadsHandler,
} from "../../../netlify/lib/admin/leads.ts";
import { adminMessagesHandler } from "../../../netlify/lib/admin/messages.ts";
import { adminOutboxHandler } from "../../../netlify/lib/admin/outbox.ts";
import { signer } from "../../../netlify/lib/delivery/signing.ts";
import { applyAnswer, initialRouting } from "../../../netlify/lib/delivery/routing.ts";
import { drainOutbox } from "../../../netlify/lib/notify/index.ts";
import type { AdminLeadReply, AdminLeadsReply, AdminMessagesReply } from "../../../src/lib/admin.ts";
import { parseEnv } from "../../../src/lib/env.ts";
import type { Lead } from "../../../src/lib/schemas/lead.ts";
import { ORIGIN, functionsHarness, getRequest, nextIp, type FunctionsHarness } from "../../helpers/functions.ts";

const TOKEN = "test-admin-token-messages-0123";
const SECRET = "a-link-signing-secret-of-32-chars-or-more";
const h = await functionsHarness("admin-msgs");

describe.skipIf(!h)("admin API: messages, lead delivery and inbox filters", () => {
  let harness: FunctionsHarness;
  let deps: AdminDeps;
  const env = parseEnv({ ADMIN_TOKEN: TOKEN, RATE_LIMIT_PER_MINUTE: "1000", LINK_SIGNING_SECRET: SECRET });
  const auth = { authorization: `Bearer ${TOKEN}` };
  const get = (path: string, headers: Record<string, string> = auth) => getRequest(path, { headers });
  const json = async <T>(res: Response | Promise<Response>, status = 200): Promise<T> => {
    const r = await res;
    expect(r.status).toBe(status);
    return (await r.json()) as T;
  };
  const pause = () => new Promise((r) => setTimeout(r, 2));

  /** A booking offered to one business, like the booking function stores it. */
  async function booking(name: string, urgency: Lead["urgency"] = "routine") {
    const now = Date.now();
    const routing = initialRouting(
      [
        {
          businessId: "biz-msg",
          name: "Cedar Crew",
          slug: "cedar-crew",
          email: "crew@example.com",
          phone: "+15125550111",
        },
      ],
      urgency ?? "routine",
      now,
    );
    const { lead } = await harness.store.leads.create(
      "booking",
      {
        customerName: name,
        customerEmail: `${name.split(" ")[0]!.toLowerCase()}@example.com`,
        customerPhone: "512-555-0123",
      },
      { sourcePage: "/directory/cedar-crew", urgency, routing },
    );
    await pause();
    return lead;
  }

  beforeAll(() => {
    harness = h!;
    deps = { store: () => harness.store, env };
  });
  afterAll(async () => {
    await h?.teardown();
  });

  it("keeps every message on a default install and lists them newest first, or one lead's oldest first", async () => {
    const lead = await booking("Mia Messages", "urgent");
    // The business answers: the visitor's update is one more message.
    await harness.store.leads.mutate(
      lead.id,
      (l) => applyAnswer(l, "biz-msg", { kind: "decline", reason: "too-far" }, Date.now() + 1_000).lead,
    );
    const report = await drainOutbox(harness.store, { env });
    expect(report.disabled).toBe(true);

    const messages = adminMessagesHandler(deps);
    const all = await json<AdminMessagesReply>(messages(get("/api/admin/messages?limit=100"), nextIp()));
    const mine = all.data.filter((m) => m.leadId === lead.id);
    expect(all.total).toBeGreaterThanOrEqual(mine.length);
    // Operator alert (kept in admin), visitor receipt, the offer by e-mail and SMS, the visitor's update.
    expect(mine.map((m) => `${m.audience}:${m.kind}:${m.channel}`).sort()).toEqual(
      [
        "operator:new-lead:admin",
        "visitor:receipt:email",
        "business:offer:email",
        "business:offer:sms",
        "visitor:declined:email",
      ].sort(),
    );
    expect(mine.every((m) => m.state === "kept" && m.note)).toBe(true);
    const times = all.data.map((m) => m.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    expect(mine.find((m) => m.channel === "sms")).toMatchObject({ to: "+15125550111", toName: "Cedar Crew" });

    const forLead = await json<AdminMessagesReply>(messages(get(`/api/admin/messages?leadId=${lead.id}`), nextIp()));
    expect(forLead.total).toBe(5);
    expect(forLead.data.map((m) => m.createdAt)).toEqual(forLead.data.map((m) => m.createdAt).sort());
    expect(forLead.data.at(-1)!.kind).toBe("declined");
    const second = await json<AdminMessagesReply>(
      messages(get(`/api/admin/messages?leadId=${lead.id}&offset=2&limit=2`), nextIp()),
    );
    expect(second).toEqual({ data: forLead.data.slice(2, 4), total: 5 });

    const paged = await json<AdminMessagesReply>(messages(get("/api/admin/messages?offset=1&limit=2"), nextIp()));
    expect(paged.data.map((m) => m.id)).toEqual(all.data.slice(1, 3).map((m) => m.id));
    expect(paged.total).toBe(all.total);
  });

  it("400s a bad messages query with the field, 401s without the token, 405s a POST, 503s a dead store", async () => {
    const messages = adminMessagesHandler(deps);
    for (const [q, field] of [
      ["offset=-1", "offset"],
      ["offset=abc", "offset"],
      ["offset=99999999", "offset"],
      ["limit=0", "limit"],
      ["limit=101", "limit"],
      ["leadId=nope", "leadId"],
    ]) {
      const res = await messages(get(`/api/admin/messages?${q}`), nextIp());
      expect(res.status, q).toBe(400);
      expect(Object.keys((await res.json()).fields), q).toEqual([field]);
    }
    const refused = await messages(get("/api/admin/messages", {}), nextIp());
    expect(refused.status).toBe(401);
    expect(Object.keys(await refused.json())).toEqual(["error"]);
    const post = await messages(
      new Request(`${ORIGIN}/api/admin/messages`, { method: "POST", headers: auth }),
      nextIp(),
    );
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET");
    vi.spyOn(console, "error").mockImplementation(() => {});
    // The log's store read fails (the gate's own reads still work): a clean 503.
    const failing = async () => {
      throw new Error("connection refused");
    };
    const store = harness.store;
    const dead = adminMessagesHandler({
      ...deps,
      store: () => ({ ...store, messages: { ...store.messages, list: failing, forLead: failing } }),
    });
    expect((await dead(get("/api/admin/messages"), nextIp())).status).toBe(503);
    expect((await dead(get(`/api/admin/messages?leadId=${"ld_" + "0".repeat(19)}`), nextIp())).status).toBe(503);
    vi.restoreAllMocks();
  });

  it("shows a lead with its routing, its messages and the visitor's status page", async () => {
    const lead = await booking("Lena Detail", "emergency");
    await drainOutbox(harness.store, { env });
    const one = adminLeadHandler(deps);
    const body = await json<AdminLeadReply>(
      one(get(`/api/admin/leads/${lead.id}`), { ...nextIp(), params: { id: lead.id } }),
    );
    expect(body.data).toMatchObject({ id: lead.id, urgency: "emergency", reference: lead.reference });
    expect(body.data.routing?.deliveries).toMatchObject([{ businessId: "biz-msg", state: "waiting" }]);
    expect(body.messages.map((m) => m.leadId)).toEqual(body.messages.map(() => lead.id));
    expect(body.messages.length).toBe(4);
    expect(body.statusUrl).toBe(signer(SECRET).statusPath(lead.id));
    expect(body.outbox).toBeNull();

    // Without a configured key the store's own is used; when it cannot be read the link is left out.
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const broken = adminLeadHandler({
      ...deps,
      env: parseEnv({ ADMIN_TOKEN: TOKEN, RATE_LIMIT_PER_MINUTE: "1000" }),
      store: () => ({
        ...harness.store,
        description: "no-secret-store",
        meta: {
          ...harness.store.meta,
          linkSecret: async () => {
            throw new Error("connection refused");
          },
        },
      }),
    });
    const noLink = await json<AdminLeadReply>(
      broken(get(`/api/admin/leads/${lead.id}`), { ...nextIp(), params: { id: lead.id } }),
    );
    expect(noLink.data.id).toBe(lead.id);
    expect(noLink).not.toHaveProperty("statusUrl");
    vi.restoreAllMocks();
  });

  it("filters the inbox by status, urgency and type, and answers what needs the operator and open emergencies", async () => {
    const leads = adminLeadsHandler(deps);
    const before = await json<AdminLeadsReply>(leads(get("/api/admin/leads"), nextIp()));
    const urgent = await booking("Uma Urgent", "urgent");
    const emergency = await booking("Eli Emergency", "emergency");
    const handled = await booking("Hal Handled", "emergency");
    await harness.store.leads.mutate(handled.id, (l) => applyAnswer(l, "biz-msg", { kind: "accept" }, Date.now()).lead);
    // Nobody to offer it to: the operator's at once.
    const { lead: unmatched } = await harness.store.leads.create(
      "find-pros",
      { name: "Nell Nomatch", email: "nell@example.com" },
      {
        sourcePage: "/find-a-tree-service",
        urgency: "emergency",
        routing: initialRouting([], "emergency", Date.now()),
      },
    );

    const now = await json<AdminLeadsReply>(leads(get("/api/admin/leads"), nextIp()));
    // Offered and accepted leads wait for a business, not the operator: only the escalated one counts.
    expect(now.needsYou).toBe(before.needsYou + 1);
    expect(now.needsYou).toBe(now.statusCounts.new + now.statusCounts.escalated);
    expect(now.statusCounts.offered).toBe(before.statusCounts.offered + 2);
    expect(now.statusCounts.accepted).toBe(before.statusCounts.accepted + 1);
    expect(now.emergencies.map((l) => l.id).slice(0, 2)).toEqual([unmatched.id, emergency.id]);
    expect(now.emergencies.map((l) => l.id)).not.toContain(handled.id);
    expect(
      now.emergencies.every((l) => l.urgency === "emergency" && ["new", "offered", "escalated"].includes(l.status)),
    ).toBe(true);
    expect(now.emergencies.length).toBeLessThanOrEqual(PINNED_EMERGENCIES);
    expect(now.counts.booking).toBeGreaterThanOrEqual(3);

    const ids = (reply: AdminLeadsReply) => reply.data.map((l) => l.id);
    const accepted = await json<AdminLeadsReply>(leads(get("/api/admin/leads?status=accepted"), nextIp()));
    expect(ids(accepted)).toContain(handled.id);
    expect(accepted.data.every((l) => l.status === "accepted")).toBe(true);
    const escalated = await json<AdminLeadsReply>(leads(get("/api/admin/leads?status=escalated"), nextIp()));
    expect(ids(escalated)[0]).toBe(unmatched.id);
    const emergencies = await json<AdminLeadsReply>(
      leads(get("/api/admin/leads?urgency=emergency&status=offered"), nextIp()),
    );
    expect(ids(emergencies)[0]).toBe(emergency.id);
    expect(ids(emergencies)).not.toContain(handled.id);
    const typed = await json<AdminLeadsReply>(
      leads(get("/api/admin/leads?type=booking&urgency=urgent&q=uma"), nextIp()),
    );
    expect(ids(typed)).toEqual([urgent.id]);
    const routine = await json<AdminLeadsReply>(leads(get("/api/admin/leads?type=booking&urgency=routine"), nextIp()));
    expect(routine.data.every((l) => (l.urgency ?? "routine") === "routine")).toBe(true);
    // Blank values mean "any".
    const blank = await json<AdminLeadsReply>(leads(get("/api/admin/leads?status=&urgency=&type="), nextIp()));
    expect(blank.data.length).toBeGreaterThan(0);

    for (const [q, field] of [
      ["status=archived", "status"],
      ["urgency=asap", "urgency"],
    ]) {
      const res = await leads(get(`/api/admin/leads?${q}`), nextIp());
      expect(res.status, q).toBe(400);
      expect(Object.keys((await res.json()).fields)).toEqual([field]);
    }

    // The export takes the same filters.
    const csv = await (await adminLeadsCsvHandler(deps)(get("/api/admin/leads.csv?status=accepted"), nextIp())).text();
    expect(csv).toContain(handled.id);
    expect(csv).toContain(",Accepted,");
    expect(csv).not.toContain(emergency.id);
  });

  it("says which providers are set up", async () => {
    const outbox = async (raw: Record<string, string>) =>
      (
        await json<{ channels: unknown }>(
          adminOutboxHandler({ ...deps, env: parseEnv({ ...raw, ADMIN_TOKEN: TOKEN }) })(
            get("/api/admin/outbox"),
            nextIp(),
          ),
        )
      ).channels;
    expect(await outbox({})).toEqual({ webhook: false, email: false, visitorEmail: false, sms: false });
    // Resend's test sender (the default NOTIFY_EMAIL_FROM) reaches no visitor or business.
    expect(await outbox({ RESEND_API_KEY: "re_test", NOTIFY_EMAIL_TO: "ops@example.com" })).toEqual({
      webhook: false,
      email: true,
      visitorEmail: false,
      sms: false,
    });
    expect(
      await outbox({
        RESEND_API_KEY: "re_test",
        NOTIFY_EMAIL_FROM: "Treeline <leads@treeline.test>",
        TWILIO_ACCOUNT_SID: "AC123",
        TWILIO_AUTH_TOKEN: "secret",
        TWILIO_FROM: "+15125550100",
      }),
    ).toEqual({ webhook: false, email: false, visitorEmail: true, sms: true });
    expect(
      await outbox({
        RESEND_API_KEY: "re_test",
        NOTIFY_EMAIL_FROM: "Treeline <leads@treeline.test>",
        NOTIFY_EMAIL_TO: "ops@example.com",
        NOTIFY_WEBHOOK_URL: "https://hooks.example.com/x",
      }),
    ).toEqual({ webhook: true, email: true, visitorEmail: true, sms: false });
  });
});
