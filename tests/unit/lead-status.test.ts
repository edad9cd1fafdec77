/**
 * src/lib/lead-status.ts: a lead's status read off its offers (the operator's "closed" aside),
 * what needs the operator, open emergencies, statuses an earlier version stored as they read
 * now (and the schema reading them the same way), and the references the admin's search reads.
 */
import { describe, expect, it } from "vitest";
import {
  isOpenEmergency,
  needsOperator,
  routedStatus,
  statusOf,
  withCurrentStatuses,
} from "../../src/lib/lead-status.ts";
import { normalizeReference } from "../../src/lib/receipt.ts";
import { Lead, LEAD_STATUSES, type Delivery, type Routing } from "../../src/lib/schemas/lead.ts";
import { LEAD_STATUS_HINTS, LEAD_STATUS_LABELS, LeadPatch, needsYouLabel } from "../../src/lib/admin.ts";

const AT = "2026-11-26T12:00:00.000Z";
const d = (state: Delivery["state"], businessId = `biz-${state}`): Delivery => ({
  businessId,
  name: businessId,
  slug: businessId,
  offeredAt: AT,
  deadlineAt: AT,
  state,
});
const routing = (states: Delivery["state"][], escalated = false): Routing => ({
  deliveries: states.map((s, i) => d(s, `biz-${i}`)),
  events: [],
  ...(escalated ? { escalatedAt: AT } : {}),
});

describe("statusOf: a lead's status follows its offers", () => {
  it.each<[string, Routing | undefined, string]>([
    ["no routing (a growth request, an old lead)", undefined, "new"],
    ["routing with nobody yet", routing([]), "new"],
    ["an offer waiting", routing(["waiting", "declined"]), "offered"],
    ["one accepted while others wait", routing(["waiting", "accepted"]), "accepted"],
    ["accepted even after an escalation", routing(["accepted"], true), "accepted"],
    ["passed to the operator, nobody accepted", routing(["expired", "declined"], true), "escalated"],
    ["nobody matched: the operator's at once", routing([], true), "escalated"],
    ["every offer over, not passed on yet", routing(["expired", "undelivered"]), "new"],
    ["an acceptance withdrawn", routing(["withdrawn"]), "new"],
  ])("%s -> %s", (_, r, expected) => {
    expect(routedStatus(r)).toBe(expected);
    for (const status of ["new", "offered", "accepted", "escalated"] as const)
      expect(statusOf({ status, routing: r })).toBe(expected);
  });

  it("closed stays closed, whatever the offers do; an earlier version's won and lost are closed", () => {
    for (const r of [undefined, routing(["waiting"]), routing(["accepted"]), routing([], true)]) {
      expect(statusOf({ status: "closed", routing: r })).toBe("closed");
      expect(statusOf({ status: "won" as never, routing: r })).toBe("closed");
      expect(statusOf({ status: "lost" as never, routing: r })).toBe("closed");
    }
    // The operator's old "contacted" is not a close: the offers decide.
    expect(statusOf({ status: "contacted" as never, routing: routing(["accepted"]) })).toBe("accepted");
  });

  it("new and escalated need the operator; an emergency is open until accepted or closed", () => {
    expect(LEAD_STATUSES.filter(needsOperator)).toEqual(["new", "escalated"]);
    for (const status of LEAD_STATUSES) {
      expect(isOpenEmergency({ urgency: "emergency", status })).toBe(status !== "accepted" && status !== "closed");
      expect(isOpenEmergency({ urgency: "urgent", status })).toBe(false);
    }
    expect(isOpenEmergency({ urgency: undefined, status: "new" })).toBe(false);
    expect([0, 1, 2].map(needsYouLabel)).toEqual(["0 need you", "1 needs you", "2 need you"]);
  });

  it("labels and explains every status", () => {
    for (const status of LEAD_STATUSES) {
      expect(LEAD_STATUS_LABELS[status]).toBeTruthy();
      expect(LEAD_STATUS_HINTS[status]).toMatch(/\.$/);
    }
  });
});

describe("statuses an earlier version stored", () => {
  const old = {
    id: "ld_0000000000000000001",
    type: "quote",
    createdAt: AT,
    sourcePage: "/",
    status: "contacted",
    history: [
      { at: AT, from: "new", to: "contacted", note: "Called" },
      { at: AT, from: "contacted", to: "won" },
    ],
    data: {},
  };

  it("read as today's: contacted is escalated, won and lost are closed (the schema agrees)", () => {
    const read = withCurrentStatuses(old as never as Lead);
    expect(read.status).toBe("escalated");
    expect(read.history).toEqual([
      { at: AT, from: "new", to: "escalated", note: "Called" },
      { at: AT, from: "escalated", to: "closed" },
    ]);
    expect(Lead.parse(old)).toMatchObject({ status: "escalated", history: read.history });
    expect(Lead.parse({ ...old, status: "lost", history: undefined }).status).toBe("closed");
    expect(Lead.safeParse({ ...old, status: "archived" }).success).toBe(false);
    // A lead written since is the same object: nothing to map.
    const current = { ...old, status: "offered", history: [] } as never as Lead;
    expect(withCurrentStatuses(current)).toBe(current);
  });
});

describe("the operator's edit", () => {
  it("closes or reopens, with or without a note; it never sets a status by name", () => {
    expect(LeadPatch.parse({ closed: true })).toEqual({ closed: true });
    expect(LeadPatch.parse({ closed: false, note: " Back on " })).toEqual({ closed: false, note: "Back on" });
    expect(LeadPatch.parse({ note: "" })).toEqual({ note: "" });
    for (const body of [{}, { status: "closed" }, { closed: "true" }, { closed: true, status: "new" }])
      expect(LeadPatch.safeParse(body).success, JSON.stringify(body)).toBe(false);
  });
});

describe("references the admin's search reads", () => {
  it.each(["TL-5F22-5D", "5F22-5D", "tl-5f22-5d", "5f22-5d", "TL 5F22 5D", " tl 5f22 5d ", "5F225D", "TL5F225D"])(
    "%j is TL-5F22-5D",
    (q) => expect(normalizeReference(q)).toBe("TL-5F22-5D"),
  );

  it.each(["Jordan Lee", "jordan@example.com", "(512) 555-0199", "5F22", "TL-5F22-5D extra"])(
    "%j is not a reference",
    (q) => expect(normalizeReference(q)).toBeNull(),
  );
});
