import { describe, expect, it } from "vitest";
import { ANSWER_WINDOW_MINUTES, answerDeadline } from "../../../netlify/lib/delivery/clock.ts";
import {
  advance,
  applyAnswer,
  initialRouting,
  needsNextPro,
  type Candidate,
} from "../../../netlify/lib/delivery/routing.ts";
import type { Lead } from "../../../src/lib/schemas/lead.ts";
import { nextDeadline } from "../../../netlify/lib/store/repos/leads.ts";

const T0 = Date.parse("2026-11-25T16:00:00Z"); // 10:00 in Chicago, a Wednesday
const MIN = 60_000;
const pro = (n: number): Candidate => ({
  businessId: `biz-00${n}`,
  name: `Pro ${n}`,
  slug: `pro-${n}`,
  email: `p${n}@example.com`,
});

function lead(type: Lead["type"], urgency: Lead["urgency"], candidates: Candidate[]): Lead {
  return {
    id: "ld_0mwxxarwz03o87sx46n",
    type,
    createdAt: new Date(T0).toISOString(),
    sourcePage: "/",
    reference: "TL-7KQ2-9F",
    urgency,
    status: "new",
    routing: initialRouting(candidates, urgency ?? "routine", T0),
    data: { location: "78664", serviceType: "Tree Removal" },
  };
}

describe("deadlines", () => {
  it("give an emergency 10 minutes, night or day", () => {
    expect(ANSWER_WINDOW_MINUTES.emergency).toBe(10);
    const night = Date.parse("2026-11-26T08:00:00Z"); // 02:00 in Chicago
    expect(answerDeadline("emergency", night)).toBe(night + 10 * MIN);
  });

  it("count routine and urgent hours in daytime only", () => {
    expect(answerDeadline("routine", T0)).toBe(T0 + 4 * 60 * MIN);
    expect(answerDeadline("urgent", T0)).toBe(T0 + 2 * 60 * MIN);
    // An offer at 22:00 Chicago time is due at 11:00 the next morning.
    const late = Date.parse("2026-11-26T04:00:00Z");
    expect(new Date(answerDeadline("routine", late)).toISOString()).toBe("2026-11-26T17:00:00.000Z");
  });
});

describe("routing", () => {
  it("offers a new lead to every candidate at once, or to the operator when there is none", () => {
    const l = lead("find-pros", "emergency", [pro(1), pro(2), pro(3)]);
    expect(l.routing!.deliveries.map((d) => [d.businessId, d.state])).toEqual([
      ["biz-001", "waiting"],
      ["biz-002", "waiting"],
      ["biz-003", "waiting"],
    ]);
    expect(nextDeadline(l)).toBe(T0 + 10 * MIN);
    const none = lead("find-pros", "routine", []);
    expect(none.routing).toMatchObject({ deliveries: [], escalatedAt: new Date(T0).toISOString() });
    expect(none.routing!.events).toEqual([{ at: new Date(T0).toISOString(), kind: "escalated", reason: "no-pros" }]);
  });

  it("takes the first accept or decline and ignores repeats; a call is recorded once", () => {
    const l = lead("booking", "routine", [pro(1)]);
    const accepted = applyAnswer(l, "biz-001", { kind: "accept", window: "Today 4-6 PM", price: "$650" }, T0 + 5 * MIN);
    expect(accepted.outcome).toBe("applied");
    expect(accepted.lead!.routing!.deliveries[0]).toMatchObject({
      state: "accepted",
      window: "Today 4-6 PM",
      price: "$650",
      answeredAt: new Date(T0 + 5 * MIN).toISOString(),
    });
    expect(applyAnswer(accepted.lead!, "biz-001", { kind: "accept" }, T0 + 6 * MIN)).toEqual({
      lead: null,
      outcome: "repeated",
    });
    expect(applyAnswer(accepted.lead!, "biz-001", { kind: "decline", reason: "too-busy" }, T0 + 6 * MIN).outcome).toBe(
      "repeated",
    );
    const called = applyAnswer(accepted.lead!, "biz-001", { kind: "call" }, T0 + 7 * MIN);
    expect(called.lead!.routing!.deliveries[0]).toMatchObject({ calledAt: new Date(T0 + 7 * MIN).toISOString() });
    // The first answer's time stays the response time.
    expect(called.lead!.routing!.deliveries[0]!.answeredAt).toBe(new Date(T0 + 5 * MIN).toISOString());
    expect(applyAnswer(called.lead!, "biz-001", { kind: "call" }, T0 + 8 * MIN).outcome).toBe("repeated");
    expect(applyAnswer(l, "biz-009", { kind: "accept" }, T0).outcome).toBe("closed");
  });

  it("an emergency nobody accepts goes to the next pro, then to the operator", () => {
    let l = lead("find-pros", "emergency", [pro(1), pro(2), pro(3)]);
    l = applyAnswer(l, "biz-002", { kind: "decline", reason: "too-far" }, T0 + MIN).lead!;
    expect(advance(l, T0 + 9 * MIN)).toBeNull(); // nothing due yet
    expect(needsNextPro(l, T0 + 10 * MIN)).toBe(true);
    const passed = advance(l, T0 + 10 * MIN, pro(4))!;
    expect(passed.routing!.deliveries.map((d) => [d.businessId, d.state])).toEqual([
      ["biz-001", "expired"],
      ["biz-002", "declined"],
      ["biz-003", "expired"],
      ["biz-004", "waiting"],
    ]);
    expect(passed.routing!.events.slice(-3).map((e) => [e.kind, e.businessId, e.reason])).toEqual([
      ["expired", "biz-001", undefined],
      ["expired", "biz-003", undefined],
      ["offered", "biz-004", "next-pro"],
    ]);
    expect(nextDeadline(passed)).toBe(T0 + 20 * MIN);
    // One extra pro only; then the operator.
    expect(needsNextPro(passed, T0 + 20 * MIN)).toBe(false);
    const escalated = advance(passed, T0 + 20 * MIN, pro(5))!;
    expect(escalated.routing!.escalatedAt).toBe(new Date(T0 + 20 * MIN).toISOString());
    expect(escalated.routing!.events.at(-1)).toMatchObject({ kind: "escalated", reason: "no-answer" });
    expect(escalated.routing!.deliveries).toHaveLength(4);
    expect(nextDeadline(escalated)).toBeNull();
    expect(advance(escalated, T0 + 60 * MIN)).toBeNull();
  });

  it("an accepted lead only expires the other offers; a booking goes to the operator, not to another pro", () => {
    let l = lead("find-pros", "routine", [pro(1), pro(2)]);
    l = applyAnswer(l, "biz-001", { kind: "accept" }, T0 + MIN).lead!;
    const later = advance(l, T0 + 5 * 60 * MIN, pro(3))!;
    expect(later.routing!.deliveries.map((d) => d.state)).toEqual(["accepted", "expired"]);
    expect(later.routing!.escalatedAt).toBeUndefined();

    const booking = lead("booking", "emergency", [pro(1)]);
    expect(needsNextPro(booking, T0 + 10 * MIN)).toBe(false);
    const handed = advance(booking, T0 + 10 * MIN, pro(2))!;
    expect(handed.routing!.deliveries).toHaveLength(1);
    expect(handed.routing!.events.at(-1)).toMatchObject({ kind: "escalated", reason: "no-answer" });
  });

  it("everyone declining hands the lead on without waiting for the clock", () => {
    let l = lead("booking", "routine", [pro(1)]);
    l = applyAnswer(l, "biz-001", { kind: "decline", reason: "too-busy" }, T0 + MIN).lead!;
    const handed = advance(l, T0 + MIN)!;
    expect(handed.routing!.events.at(-1)).toMatchObject({ kind: "escalated", reason: "all-declined" });
  });
});
