/**
 * The admin's lead filters and counts (leads.find, leads.overview and the status and urgency
 * sets behind them), run by contract.ts on every transport: filters alone and combined, paging
 * through a scan, a lead's status following its offers through every routing change (and
 * staying closed once the operator closed it), the "N need you" count and open emergencies
 * following both, and leads stored by an earlier version (before the sets, with the statuses
 * it used) indexed again once.
 */
import { describe, expect, it } from "vitest";
import { keyspace } from "../../../netlify/lib/store/keys.ts";
import type { Store } from "../../../netlify/lib/store/index.ts";
import { LEAD_STATUSES, type Delivery, type Lead, type LeadType, type Routing } from "../../../src/lib/schemas/lead.ts";
import type { UrgencyLevel } from "../../../src/lib/lead-urgency.ts";
import type { StoreHarness } from "./contract.types.ts";

const pause = () => new Promise((r) => setTimeout(r, 2));
const AT = "2026-11-26T12:00:00.000Z";
const LATER = "2026-11-26T12:10:00.000Z";

function delivery(businessId: string, state: Delivery["state"] = "waiting"): Delivery {
  return {
    businessId,
    name: `Crew ${businessId}`,
    slug: `crew-${businessId}`,
    offeredAt: AT,
    deadlineAt: LATER,
    state,
  };
}

const offeredTo = (...ids: string[]): Routing => ({ deliveries: ids.map((b) => delivery(b)), events: [] });
const toOperator: Routing = {
  deliveries: [],
  events: [{ at: AT, kind: "escalated", reason: "no-pros" }],
  escalatedAt: AT,
};

async function make(
  store: Store,
  type: LeadType,
  name: string,
  urgency?: UrgencyLevel,
  routing?: Routing,
): Promise<string> {
  const { lead } = await store.leads.create(
    type,
    { name, email: `${name.toLowerCase()}@example.com` },
    { sourcePage: "/", ...(urgency ? { urgency } : {}), ...(routing ? { routing } : {}) },
  );
  await pause();
  return lead.id;
}

const ids = (page: { items: { id: string }[] }) => page.items.map((l) => l.id);

/** Which status sets hold the lead (exactly one, always). */
async function statusSetsOf(store: Store, id: string): Promise<string[]> {
  const keys = keyspace(store.prefix);
  const scores = await Promise.all(LEAD_STATUSES.map((s) => store.redis.zscore(keys.leadsByStatus(s), id)));
  return LEAD_STATUSES.filter((_, i) => scores[i] !== null);
}

/** A business's answer as the routing step writes it (state, answer time, event). */
const answer = (businessId: string, state: "accepted" | "declined" | "withdrawn") => (lead: Lead) => ({
  ...lead,
  routing: {
    ...lead.routing!,
    deliveries: lead.routing!.deliveries.map((d) =>
      d.businessId === businessId ? { ...d, state, answeredAt: LATER } : d,
    ),
    events: [...lead.routing!.events, { at: LATER, kind: state, businessId }],
  },
});

/** The clock passing the lead to the operator (its offers expired). */
const escalate = (lead: Lead) => ({
  ...lead,
  routing: {
    ...lead.routing!,
    deliveries: lead.routing!.deliveries.map((d) => (d.state === "waiting" ? { ...d, state: "expired" as const } : d)),
    events: [...lead.routing!.events, { at: LATER, kind: "escalated" as const, reason: "no-answer" }],
    escalatedAt: LATER,
  },
});

/** The operator offering the lead again (its escalation lifted, a new offer waiting). */
const offerAgain = (businessId: string) => (lead: Lead) => {
  const { escalatedAt: _, ...routing } = lead.routing!;
  return {
    ...lead,
    routing: {
      ...routing,
      deliveries: [...routing.deliveries, delivery(businessId)],
      events: [...routing.events, { at: LATER, kind: "offered" as const, businessId, reason: "operator" }],
    },
  };
};

/** A lead as an earlier version stored it: the document and its old indexes, its status set by its own name. */
async function writeOldLead(store: Store, lead: Omit<Lead, "status"> & { status: string }) {
  const keys = keyspace(store.prefix);
  await store.redis.set(keys.lead(lead.id), JSON.stringify(lead));
  await store.redis.zadd(keys.leadsByType(lead.type), { score: 0, member: lead.id });
  await store.redis.zadd(keys.leadsAll, { score: 0, member: lead.id });
  await store.redis.zadd(`${store.prefix}leads:status:${lead.status}`, { score: 0, member: lead.id });
  await store.redis.hset(keys.leadText, { [lead.id]: String((lead.data as { name: string }).name).toLowerCase() });
}

const oldLead = (n: number, type: LeadType, status: string, name: string, extra: Partial<Lead> = {}) => ({
  id: `ld_000000000000000000${n}`,
  type,
  createdAt: AT,
  sourcePage: "/",
  status,
  data: { name },
  ...extra,
});

export function leadFacetsContract(h: StoreHarness) {
  describe("operator: lead filters, statuses that follow offers, what needs the operator", () => {
    it("filters by status, urgency and type alone and together, newest first", async () => {
      const store = await h.fresh("lead-facets");
      const a = await make(store, "quote", "Alma", "emergency", toOperator);
      const b = await make(store, "booking", "Boris", "emergency", offeredTo("biz-1"));
      const c = await make(store, "quote", "Cleo", "urgent");
      const d = await make(store, "find-pros", "Dara", undefined, offeredTo("biz-1", "biz-2"));
      const e = await make(store, "audit", "Emil", "routine");
      await store.leads.mutate(d, answer("biz-2", "accepted"));
      await store.leads.update(e, { closed: true });

      expect(ids(await store.leads.find({ status: "new" }))).toEqual([c]);
      expect(ids(await store.leads.find({ status: "offered" }))).toEqual([b]);
      expect(ids(await store.leads.find({ status: "accepted" }))).toEqual([d]);
      expect(ids(await store.leads.find({ status: "escalated" }))).toEqual([a]);
      expect(ids(await store.leads.find({ status: "closed" }))).toEqual([e]);
      expect(ids(await store.leads.find({ urgency: "emergency" }))).toEqual([b, a]);
      expect(ids(await store.leads.find({ urgency: "urgent" }))).toEqual([c]);
      // Routine: every lead in neither urgency set, including one created without an urgency.
      expect(ids(await store.leads.find({ urgency: "routine" }))).toEqual([e, d]);
      expect(ids(await store.leads.find({ type: "quote", urgency: "emergency" }))).toEqual([a]);
      expect(ids(await store.leads.find({ type: "quote", status: "new", urgency: "urgent" }))).toEqual([c]);
      expect(ids(await store.leads.find({ status: "accepted", urgency: "routine" }))).toEqual([d]);
      expect(ids(await store.leads.find({ status: "new", q: "cleo" }))).toEqual([c]);
      expect(ids(await store.leads.find({ status: "offered", q: "cleo" }))).toEqual([]);
      expect(ids(await store.leads.find({}))).toEqual([e, d, c, b, a]);
    });

    it("pages a filtered scan with a cursor", async () => {
      const store = await h.fresh("lead-facets-page");
      const made: string[] = [];
      for (let i = 0; i < 7; i++) made.push(await make(store, i % 2 ? "booking" : "quote", `P${i}`, "emergency"));
      const quotes = made.filter((_, i) => i % 2 === 0).reverse();
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page = await store.leads.find(
          { type: "quote", urgency: "emergency", status: "new" },
          { cursor, limit: 2 },
        );
        seen.push(...ids(page));
        expect(page.scanned).toBeGreaterThan(0);
        cursor = page.nextCursor;
        pages++;
      } while (cursor && pages < 10);
      expect(seen).toEqual(quotes);
      // One filter reads its own set: an exact page, no scan.
      const plain = await store.leads.find({ urgency: "emergency" }, { limit: 3 });
      expect(ids(plain)).toEqual([...made].reverse().slice(0, 3));
      expect(plain.scanned).toBeUndefined();
      expect(plain.nextCursor).toBe(made[4]);
    });

    it("moves a lead's status with every routing change, in its sets too; closed stays closed until reopened", async () => {
      const store = await h.fresh("lead-status-sync");
      const id = await make(store, "find-pros", "Sam", "emergency", offeredTo("biz-1", "biz-2"));
      const status = async () => {
        const lead = (await store.leads.get(id))!;
        expect(await statusSetsOf(store, id)).toEqual([lead.status]);
        return lead.status;
      };
      expect(await status()).toBe("offered");

      // A decline while another offer waits: still offered. Nobody left, passed on: escalated.
      await store.leads.mutate(id, answer("biz-1", "declined"));
      expect(await status()).toBe("offered");
      await store.leads.mutate(id, escalate);
      expect(await status()).toBe("escalated");
      // The operator offers it again: offered; a business accepts: accepted.
      await store.leads.mutate(id, offerAgain("biz-3"));
      expect(await status()).toBe("offered");
      await store.leads.mutate(id, answer("biz-3", "accepted"));
      expect(await status()).toBe("accepted");
      // It gives the job back: nothing waits, nothing accepted, not passed on: new again.
      await store.leads.mutate(id, answer("biz-3", "withdrawn"));
      expect(await status()).toBe("new");

      // Closed by the operator: no routing change reopens it.
      await store.leads.update(id, { closed: true, note: "Customer found someone" });
      await store.leads.mutate(id, offerAgain("biz-4"));
      expect(await status()).toBe("closed");
      await store.leads.mutate(id, answer("biz-4", "accepted"));
      expect(await status()).toBe("closed");
      // Reopened: what the offers say now.
      const reopened = await store.leads.update(id, { closed: false });
      expect(reopened?.status).toBe("accepted");
      expect(await status()).toBe("accepted");
      // The operator's history holds the operator's changes only, each with what it was then.
      expect(reopened?.history?.map((c) => [c.from, c.to])).toEqual([
        ["new", "closed"],
        ["closed", "accepted"],
      ]);
    });

    it("a lead that starts with nobody is escalated; one with no routing (a growth request) is new", async () => {
      const store = await h.fresh("lead-status-start");
      const held = await make(store, "quote", "Held", "routine", toOperator);
      const audit = await make(store, "audit", "Ada");
      expect((await store.leads.get(held))?.status).toBe("escalated");
      expect((await store.leads.get(audit))?.status).toBe("new");
      expect(await statusSetsOf(store, held)).toEqual(["escalated"]);
    });

    it("counts what needs the operator (new and escalated) and pins open emergencies; both follow offers and edits", async () => {
      const store = await h.fresh("lead-overview");
      const a = await make(store, "quote", "Ada", "emergency", offeredTo("biz-1"));
      const b = await make(store, "find-pros", "Ben", "emergency", toOperator);
      await make(store, "audit", "Cy");
      let overview = await store.leads.overview();
      expect(overview).toMatchObject({
        needsYou: 2,
        statusCounts: { new: 1, offered: 1, accepted: 0, escalated: 1, closed: 0 },
      });
      expect(overview.emergencies.map((l) => l.id)).toEqual([b, a]);

      // A pro accepts: no longer open, still not the operator's.
      await store.leads.mutate(a, answer("biz-1", "accepted"));
      overview = await store.leads.overview();
      expect(overview.needsYou).toBe(2);
      expect(overview.emergencies.map((l) => l.id)).toEqual([b]);

      // The operator closes the escalated one: nothing open; reopened, pinned again.
      await store.leads.update(b, { closed: true });
      overview = await store.leads.overview();
      expect(overview).toMatchObject({ needsYou: 1, emergencies: [] });
      await store.leads.update(b, { closed: false });
      overview = await store.leads.overview(1);
      expect(overview.needsYou).toBe(2);
      expect(overview.emergencies.map((l) => l.id)).toEqual([b]);

      // Concurrent edits and routing changes: the lead ends in exactly one status set, the one it has.
      await Promise.all([
        store.leads.update(b, { closed: true }),
        store.leads.mutate(b, offerAgain("biz-2")),
        store.leads.update(b, { closed: false }),
        store.leads.mutate(b, answer("biz-2", "declined")),
        store.leads.update(b, { note: "Calling" }),
      ]);
      const final = (await store.leads.get(b))!;
      expect(await statusSetsOf(store, b)).toEqual([final.status]);
      const pinned = (await store.leads.overview()).emergencies.map((l) => l.id);
      expect(pinned).toEqual(final.status === "closed" || final.status === "accepted" ? [] : [b]);
    });

    it("indexes leads an earlier version stored once: old statuses read as today's, the old sets go", async () => {
      const store = await h.fresh("lead-backfill");
      const keys = keyspace(store.prefix);
      const accepted: Routing = { deliveries: [{ ...delivery("biz-1"), state: "accepted" }], events: [] };
      const olds = [
        oldLead(1, "quote", "new", "Olga"),
        oldLead(2, "booking", "won", "Otto", {
          history: [{ at: AT, from: "contacted" as never, to: "won" as never }],
        }),
        oldLead(3, "audit", "contacted", "Oona"),
        oldLead(4, "find-pros", "new", "Omar", { routing: accepted }),
        oldLead(5, "booking", "lost", "Opal"),
      ];
      for (const lead of olds) await writeOldLead(store, lead);
      // Read before any re-indexing: today's statuses already.
      expect((await store.leads.get(olds[2]!.id))?.status).toBe("escalated");
      expect((await store.leads.get(olds[1]!.id))?.history).toEqual([{ at: AT, from: "escalated", to: "closed" }]);
      const fresh = await make(store, "quote", "Nina", "emergency");

      expect(await store.leads.overview()).toMatchObject({
        needsYou: 3,
        statusCounts: { new: 2, offered: 0, accepted: 1, escalated: 1, closed: 2 },
      });
      expect(ids(await store.leads.find({ status: "closed" }))).toEqual([olds[4]!.id, olds[1]!.id]);
      expect(ids(await store.leads.find({ status: "accepted" }))).toEqual([olds[3]!.id]);
      expect(ids(await store.leads.find({ urgency: "routine" }))).toEqual(olds.map((l) => l.id).reverse());
      expect(ids(await store.leads.find({ type: "quote", status: "new" }))).toEqual([fresh, olds[0]!.id]);
      expect(await store.redis.hget(keys.meta, "leadStatuses")).toBe("done");
      // Stored as they read now; the sets of the old statuses are gone.
      expect(await store.redis.get<Lead>(keys.lead(olds[3]!.id))).toMatchObject({ status: "accepted" });
      for (const gone of ["contacted", "won", "lost"])
        expect(await store.redis.exists(`${store.prefix}leads:status:${gone}`)).toBe(0);
      // An edit of an old lead moves it like any other.
      await store.leads.update(olds[0]!.id, { closed: true });
      expect(await statusSetsOf(store, olds[0]!.id)).toEqual(["closed"]);
      expect((await store.leads.overview()).needsYou).toBe(2);
    });
  });
}
