/**
 * Lead delivery's response figures on a real Redis: an offer the clock expires is a miss for
 * its business, once however often the clock's step runs (one after another or at once); a first
 * answer is recorded, in time or late; an offer no channel delivered, or only kept (no provider),
 * is not held against the business, and an acceptance given back keeps its answer. A business
 * with 1 answered and 9 expired offers shows a 10% response rate, and its page is purged each
 * time its public line changes.
 */
import { afterAll, describe, expect, it } from "vitest";
import { advanceLead, answerLead, runClock } from "../../netlify/lib/delivery/progress.ts";
import { initialRouting, type Candidate } from "../../netlify/lib/delivery/routing.ts";
import { offersCanBeSent } from "../../netlify/lib/notify/config.ts";
import { notifyLead } from "../../netlify/lib/notify/index.ts";
import {
  KEPT_UNREACHED_BADGE,
  KEPT_UNREACHED_LINE,
  STATE_BADGES,
  statusPageOf,
} from "../../netlify/lib/page-data/delivery-status.ts";
import { keyspace } from "../../netlify/lib/store/keys.ts";
import { parseEnv } from "../../src/lib/env.ts";
import { responseLabel } from "../../src/lib/response-time.ts";
import type { Delivery, Lead } from "../../src/lib/schemas/lead.ts";
import { functionsHarness, testBusiness } from "../helpers/functions.ts";

const MIN = 60_000;
/**
 * Noon in Chicago (the default zone: 18:00 UTC, 12:00 CST or 13:00 CDT) yesterday: an answer's
 * minutes count daytime only (21:00-07:00 is left out), so a start taken from the wall clock made
 * these figures depend on the hour the suite ran (the tests of answers start at NOON).
 */
const NOON = (() => {
  const day = new Date();
  day.setUTCDate(day.getUTCDate() - 1);
  return day.setUTCHours(18, 0, 0, 0);
})();
const h = await functionsHarness("response-figures");

describe.skipIf(!h)("response figures from lead delivery", () => {
  afterAll(async () => h?.teardown());

  const store = () => h!.store;
  const candidate = (id: string): Candidate => ({ businessId: id, name: `Pro ${id}`, slug: `pro-${id}` });

  /** An emergency (10 minutes to answer) offered at `at` to each business. */
  async function emergency(businessIds: string[], at: number): Promise<Lead> {
    const routing = initialRouting(businessIds.map(candidate), "emergency", at);
    const { lead } = await store().leads.create(
      "booking",
      { customerName: "Rosa Rate", customerEmail: "rosa@example.com", customerPhone: "512-555-0123" },
      { sourcePage: "/directory/pro", urgency: "emergency", routing },
    );
    return lead;
  }

  const outcomes = async (id: string) =>
    (await store().redis.lrange(keyspace(store().prefix).responses(id), 0, -1)).map(String);

  /** Sets one delivery's fields as another step of delivery would (the notifier, a withdrawal). */
  async function setDelivery(leadId: string, businessId: string, patch: Partial<Delivery>) {
    await store().leads.mutate(leadId, (lead) => ({
      ...lead,
      routing: {
        ...lead.routing!,
        deliveries: lead.routing!.deliveries.map((d) => (d.businessId === businessId ? { ...d, ...patch } : d)),
      },
    }));
  }

  it("an expired offer is a miss, recorded once however often the clock runs", async () => {
    await store().businesses.upsert(testBusiness("rf-1"));
    await store().businesses.upsert(testBusiness("rf-2"));
    const t0 = Date.now();
    const lead = await emergency(["rf-1", "rf-2"], t0);
    const purges: string[][] = [];
    const purge = async (tags: string[]) => void purges.push(tags);

    // Before the deadline nothing expires and nothing is recorded.
    expect(await advanceLead(store(), lead.id, t0 + 9 * MIN, purge)).toBe(false);
    expect(await outcomes("rf-1")).toEqual([]);

    const due = t0 + 10 * MIN + 1_000;
    expect(await advanceLead(store(), lead.id, due, purge)).toBe(true);
    // The same step again, and five at once: the offers are already expired.
    expect(await advanceLead(store(), lead.id, due, purge)).toBe(false);
    await Promise.all(Array.from({ length: 5 }, () => advanceLead(store(), lead.id, due + 1_000, purge)));
    for (const id of ["rf-1", "rf-2"]) {
      const kept = await outcomes(id);
      expect(kept).toEqual([`${lead.id}|m|0|${t0 + 10 * MIN}`]);
      expect(await store().businesses.get(id)).toMatchObject({ responseOffers: 1 });
      expect(await store().businesses.get(id)).not.toHaveProperty("responseCount");
    }
    // One miss is below the minimum: no public line changed, no purge.
    expect(purges).toEqual([]);
  });

  it("two clock steps at once on a lead that expires record each miss once", async () => {
    await store().businesses.upsert(testBusiness("rf-3"));
    const t0 = Date.now();
    const lead = await emergency(["rf-3"], t0);
    const due = t0 + 11 * MIN;
    const changed = await Promise.all(
      Array.from({ length: 4 }, () => advanceLead(store(), lead.id, due, async () => {})),
    );
    expect(changed.filter(Boolean).length).toBeGreaterThanOrEqual(1);
    expect(await outcomes("rf-3")).toHaveLength(1);
  });

  it("a first answer is recorded in time; one after the deadline (before the clock ran) as late", async () => {
    await store().businesses.upsert(testBusiness("rf-4"));
    await store().businesses.upsert(testBusiness("rf-5"));
    const t0 = NOON;
    const lead = await emergency(["rf-4", "rf-5"], t0);
    await answerLead(store(), lead.id, "rf-4", { kind: "accept" }, t0 + 3 * MIN, async () => {});
    // What the same business does next (its call to the customer) adds nothing.
    await answerLead(store(), lead.id, "rf-4", { kind: "call" }, t0 + 4 * MIN, async () => {});
    await answerLead(store(), lead.id, "rf-5", { kind: "decline", reason: "too-busy" }, t0 + 12 * MIN, async () => {});
    await runClock(store(), { now: () => t0 + 13 * MIN, purge: async () => {} });
    expect(await outcomes("rf-4")).toEqual([`${lead.id}|a|3|${t0 + 3 * MIN}`]);
    expect(await outcomes("rf-5")).toEqual([`${lead.id}|l|12|${t0 + 12 * MIN}`]);
  });

  it("an offer no channel delivered is not a miss; an acceptance given back keeps its answer", async () => {
    await store().businesses.upsert(testBusiness("rf-6"));
    await store().businesses.upsert(testBusiness("rf-7"));
    const t0 = NOON;
    const lead = await emergency(["rf-6", "rf-7"], t0);
    await setDelivery(lead.id, "rf-6", { state: "undelivered" });
    await answerLead(store(), lead.id, "rf-7", { kind: "accept" }, t0 + 2 * MIN, async () => {});
    await setDelivery(lead.id, "rf-7", { state: "withdrawn", withdrawnAt: new Date(t0 + 5 * MIN).toISOString() });
    await advanceLead(store(), lead.id, t0 + 30 * MIN, async () => {});
    expect(await outcomes("rf-6")).toEqual([]);
    expect(await outcomes("rf-7")).toEqual([`${lead.id}|a|2|${t0 + 2 * MIN}`]);
  });

  it("an offer only kept (no provider here) has no outcome at its deadline, and its page says not reached", async () => {
    await store().businesses.upsert(testBusiness("rf-9"));
    await store().businesses.upsert(testBusiness("rf-10"));
    const t0 = Date.now();
    const routing = initialRouting(
      ["rf-9", "rf-10"].map((id) => ({ ...candidate(id), email: `${id}@pro.test` })),
      "emergency",
      t0,
    );
    const { lead } = await store().leads.create(
      "booking",
      { customerName: "Kip Kept", customerEmail: "kip@example.com", customerPhone: "512-555-0124" },
      { sourcePage: "/directory/pro", urgency: "emergency", routing },
    );
    // A default install: no e-mail or text provider, so every offer is composed and kept.
    const env = parseEnv({});
    expect(offersCanBeSent(env)).toBe(false);
    await notifyLead(store(), lead.id, { env, now: () => t0 + 1_000 });
    const offers = (await store().messages.forLead(lead.id)).filter((m) => m.kind === "offer");
    expect(offers.length).toBeGreaterThanOrEqual(2);
    expect(offers.every((m) => m.state === "kept")).toBe(true);
    // rf-10's offer went after all (as if a provider had taken it): its expiry is a miss.
    await store().messages.update(
      ...offers.filter((m) => m.to === "rf-10@pro.test").map((m) => ({ ...m, state: "sent" as const })),
    );

    expect(await advanceLead(store(), lead.id, t0 + 11 * MIN, async () => {})).toBe(true);
    expect(await outcomes("rf-9")).toEqual([]);
    expect(await store().businesses.get("rf-9")).not.toHaveProperty("responseOffers");
    expect(await outcomes("rf-10")).toEqual([`${lead.id}|m|0|${t0 + 10 * MIN}`]);

    const after = (await store().leads.get(lead.id))!;
    const page = statusPageOf(after, true, { messages: await store().messages.forLead(lead.id), ready: false });
    const [kept, missed] = page.holders;
    expect(kept).toMatchObject({ name: "Pro rf-9", badge: KEPT_UNREACHED_BADGE, lines: [KEPT_UNREACHED_LINE] });
    expect(missed).toMatchObject({ name: "Pro rf-10", badge: STATE_BADGES.expired });
  });

  it("1 answered and 9 expired offers: a 10% response rate; the page is purged as its line changes", async () => {
    await store().businesses.upsert(testBusiness("rf-8"));
    const purges: string[][] = [];
    const purge = async (tags: string[]) => void purges.push(tags);
    const labels: string[] = [];
    const t0 = NOON;
    for (let i = 0; i < 10; i++) {
      const lead = await emergency(["rf-8"], t0 + i * MIN);
      if (i === 0) await answerLead(store(), lead.id, "rf-8", { kind: "accept" }, t0 + MIN, purge);
      else expect(await advanceLead(store(), lead.id, t0 + i * MIN + 11 * MIN, purge)).toBe(true);
      labels.push(responseLabel((await store().businesses.get("rf-8"))!));
    }
    const business = await store().businesses.get("rf-8");
    expect(business).toMatchObject({ responseRate: 10, responseOffers: 10, responseCount: 1 });
    expect(business).not.toHaveProperty("responseMinutes");
    expect(labels.at(-1)).toBe("Responds to 10% of requests · last 10 requests");
    // Nothing public for four outcomes, then a new line each time: six purges of its tag.
    expect(labels.slice(0, 4)).toEqual(["", "", "", ""]);
    expect(purges).toEqual(Array.from({ length: 6 }, () => ["business-rf-8"]));
  });
});
