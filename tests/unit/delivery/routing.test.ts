import { describe, expect, it } from "vitest";
import { ANSWER_WINDOW_MINUTES, answerDeadline } from "../../../netlify/lib/delivery/clock.ts";
import {
  advance,
  applyAnswer,
  applyReport,
  initialRouting,
  markUndelivered,
  needsNextPro,
  offerSummary,
  operatorOffer,
  heldRouting,
  isHeld,
  type Candidate,
} from "../../../netlify/lib/delivery/routing.ts";
import { MAX_OFFERS } from "../../../netlify/lib/delivery/operator-offer.ts";
import { Routing, type Lead } from "../../../src/lib/schemas/lead.ts";
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

describe("quotes", () => {
  it("take a next pro like find-pros requests; bookings and growth requests never do", () => {
    const quote = lead("quote", "emergency", [pro(1), pro(2), pro(3)]);
    expect(needsNextPro(quote, T0 + 10 * MIN)).toBe(true);
    const passed = advance(quote, T0 + 10 * MIN, pro(4))!;
    expect(passed.routing!.events.at(-1)).toMatchObject({ kind: "offered", businessId: "biz-004", reason: "next-pro" });
    expect(needsNextPro(lead("booking", "emergency", [pro(1)]), T0 + 10 * MIN)).toBe(false);
  });

  it("with no match go to the operator at once with the reason", () => {
    const routing = initialRouting([], "emergency", T0, "no-place");
    expect(routing.events).toEqual([{ at: new Date(T0).toISOString(), kind: "escalated", reason: "no-place" }]);
    expect(routing.escalatedAt).toBe(new Date(T0).toISOString());
  });
});

describe("undelivered offers", () => {
  it("stop waiting, and with nobody else waiting the lead moves on at once: a next pro, then the operator", () => {
    const l = lead("quote", "routine", [pro(1), pro(2)]);
    const one = markUndelivered(l, ["biz-001"], T0 + 1_000)!;
    expect(one.routing!.deliveries.map((d) => d.state)).toEqual(["undelivered", "waiting"]);
    expect(one.routing!.events.at(-1)).toEqual({
      at: new Date(T0 + 1_000).toISOString(),
      kind: "undelivered",
      businessId: "biz-001",
    });
    // Someone still waits: the clock has nothing to do yet.
    expect(needsNextPro(one, T0 + 1_000)).toBe(false);
    expect(advance(one, T0 + 1_000)).toBeNull();

    const both = markUndelivered(one, ["biz-002"], T0 + 2_000)!;
    expect(needsNextPro(both, T0 + 2_000)).toBe(true);
    const next = advance(both, T0 + 2_000, pro(3))!;
    expect(next.routing!.deliveries.map((d) => [d.businessId, d.state])).toEqual([
      ["biz-001", "undelivered"],
      ["biz-002", "undelivered"],
      ["biz-003", "waiting"],
    ]);
    const none = advance(markUndelivered(next, ["biz-003"], T0 + 3_000)!, T0 + 3_000, pro(4))!;
    expect(none.routing!.escalatedAt).toBe(new Date(T0 + 3_000).toISOString());
    expect(none.routing!.events.at(-1)).toMatchObject({ kind: "escalated", reason: "none-reached" });
  });

  it("change nothing once answered, expired or unknown", () => {
    let l = lead("find-pros", "routine", [pro(1)]);
    l = applyAnswer(l, "biz-001", { kind: "accept" }, T0 + MIN).lead!;
    expect(markUndelivered(l, ["biz-001", "biz-009"], T0 + 2 * MIN)).toBeNull();
  });
});

describe("operator offers", () => {
  it("reopen an escalated lead with the same offer and clock, and come back to the operator when nobody accepts", () => {
    const none = lead("quote", "emergency", []);
    expect(none.routing!.escalatedAt).toBeDefined();
    const offered = operatorOffer(none, [pro(5), pro(6), pro(5)], T0 + 5 * MIN)!;
    expect(offered.routing!.escalatedAt).toBeUndefined();
    expect(offered.routing!.deliveries).toEqual([
      expect.objectContaining({
        businessId: "biz-005",
        state: "waiting",
        offeredAt: new Date(T0 + 5 * MIN).toISOString(),
        deadlineAt: new Date(T0 + 15 * MIN).toISOString(),
      }),
      expect.objectContaining({ businessId: "biz-006", state: "waiting" }),
    ]);
    expect(offered.routing!.events.slice(1)).toEqual([
      { at: new Date(T0 + 5 * MIN).toISOString(), kind: "offered", businessId: "biz-005", reason: "operator" },
      { at: new Date(T0 + 5 * MIN).toISOString(), kind: "offered", businessId: "biz-006", reason: "operator" },
    ]);
    expect(nextDeadline(offered)).toBe(T0 + 15 * MIN);
    // Nobody answers: back to the operator, not to a next pro.
    expect(needsNextPro(offered, T0 + 15 * MIN)).toBe(false);
    const back = advance(offered, T0 + 15 * MIN, pro(7))!;
    expect(back.routing!.deliveries).toHaveLength(2);
    expect(back.routing!.events.at(-1)).toMatchObject({ kind: "escalated", reason: "no-answer" });
    expect(back.routing!.escalatedAt).toBe(new Date(T0 + 15 * MIN).toISOString());
  });

  it("release a lead held as sent too fast: once the operator offers it, its visitor hears as any other", () => {
    const held: Lead = { ...lead("quote", "routine", []), routing: heldRouting(T0) };
    expect(isHeld(held)).toBe(true);
    expect(isHeld(operatorOffer(held, [pro(3)], T0 + MIN)!)).toBe(false);
  });

  it("skip businesses already offered, and leads without routing get one", () => {
    const l = lead("find-pros", "routine", [pro(1)]);
    expect(operatorOffer(l, [pro(1)], T0)).toBeNull();
    const plain: Lead = { ...l, type: "quote", routing: undefined };
    expect(operatorOffer(plain, [pro(2)], T0)!.routing!.deliveries.map((d) => d.businessId)).toEqual(["biz-002"]);
  });

  it("stop at the schema's limit of offers", () => {
    const many = initialRouting(
      Array.from({ length: MAX_OFFERS + 1 }, (_, i) => pro(i)),
      "routine",
      T0,
    );
    expect(Routing.safeParse({ ...many, deliveries: many.deliveries.slice(0, MAX_OFFERS) }).success).toBe(true);
    expect(Routing.safeParse(many).success).toBe(false);
  });
});

describe("offer summary", () => {
  const place = { label: "Miami, FL 33131", zip: "33131", lat: 25.76, lng: -80.19 };
  it("says how many have it, near where, for how long and until when, in the job's zone", () => {
    const l = { ...lead("quote", "emergency", [pro(1), pro(2), pro(3)]), place, timeZone: "America/New_York" };
    expect(offerSummary(l)).toEqual({
      offered: 3,
      near: "33131",
      aroundTheClock: true,
      answerMinutes: 10,
      answerBy: new Date(T0 + 10 * MIN).toISOString(),
      timeZone: "America/New_York",
    });
    const routine = {
      ...lead("find-pros", "routine", [pro(1)]),
      place: { ...place, zip: undefined, label: "Chicago, IL" },
    };
    expect(offerSummary(routine)).toMatchObject({ near: "Chicago, IL", aroundTheClock: false, answerMinutes: 240 });
    expect(offerSummary(routine).timeZone).toBe("America/Chicago");
  });

  it("counts no undelivered offer, and names why the operator has a request nobody was offered", () => {
    const l = markUndelivered(lead("quote", "routine", [pro(1), pro(2)]), ["biz-001"], T0)!;
    expect(offerSummary(l)).toMatchObject({ offered: 1 });
    const lost = { ...lead("quote", "routine", []), routing: initialRouting([], "routine", T0, "no-place") };
    expect(offerSummary(lost)).toEqual({
      offered: 0,
      near: null,
      aroundTheClock: false,
      timeZone: "America/Chicago",
      toOperator: "no-place",
    });
    expect(offerSummary(lead("quote", "routine", []))).toMatchObject({ offered: 0, toOperator: "no-pros" });
  });
});

describe("a business reports a bad lead", () => {
  it("stops its offer (waiting: declined; accepted: given back), once; the operator takes the lead only when nobody else has it", () => {
    const two = lead("find-pros", "routine", [pro(1), pro(2)]);
    const first = applyReport(two, "biz-001", "spam", T0 + MIN);
    expect(first.outcome).toBe("applied");
    expect(first.lead!.routing!.deliveries[0]).toMatchObject({
      state: "declined",
      reason: "spam",
      report: "spam",
      reportedAt: new Date(T0 + MIN).toISOString(),
    });
    // Pro 2 still may answer: nothing escalates.
    expect(first.lead!.routing!.escalatedAt).toBeUndefined();
    expect(first.lead!.routing!.events.at(-1)).toEqual({
      at: new Date(T0 + MIN).toISOString(),
      kind: "reported",
      businessId: "biz-001",
      reason: "spam",
    });
    expect(applyReport(first.lead!, "biz-001", "duplicate", T0 + 2 * MIN)).toEqual({ lead: null, outcome: "repeated" });

    // The last one able to act reports it (after accepting): the operator, never a next pro.
    const accepted = applyAnswer(first.lead!, "biz-002", { kind: "accept" }, T0 + 2 * MIN).lead!;
    const last = applyReport(accepted, "biz-002", "bad-contact", T0 + 3 * MIN).lead!;
    expect(last.routing!.deliveries[1]).toMatchObject({
      state: "withdrawn",
      reason: "bad-contact",
      withdrawnAt: new Date(T0 + 3 * MIN).toISOString(),
    });
    expect(last.routing!.escalatedAt).toBe(new Date(T0 + 3 * MIN).toISOString());
    expect(last.routing!.events.at(-1)).toMatchObject({ kind: "escalated", reason: "reported" });
    expect(needsNextPro(last, T0 + 3 * MIN)).toBe(false);

    // An expired offer keeps its state; a lead already with the operator is not escalated again.
    const expired = advance(lead("booking", "routine", [pro(1)]), T0 + 10 * 60 * MIN)!;
    const reported = applyReport(expired, "biz-001", "wrong-area", T0 + 11 * 60 * MIN).lead!;
    expect(reported.routing!.deliveries[0]).toMatchObject({ state: "expired", report: "wrong-area" });
    expect(reported.routing!.events.filter((e) => e.kind === "escalated")).toHaveLength(1);
    // A business the lead was not offered to reports nothing.
    expect(applyReport(two, "biz-009", "spam", T0)).toEqual({ lead: null, outcome: "closed" });
  });
});
