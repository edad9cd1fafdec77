/**
 * The admin's lead filters and counts (leads.find, leads.overview and the status and urgency
 * sets behind them), run by contract.ts on every transport: filters alone and combined, paging
 * through a scan, the "N new" count and open emergencies following status edits, and leads
 * stored before the sets existed entering them once.
 */
import { describe, expect, it } from "vitest";
import { keyspace } from "../../../netlify/lib/store/keys.ts";
import type { Store } from "../../../netlify/lib/store/index.ts";
import { LEAD_STATUSES, type Lead, type LeadType } from "../../../src/lib/schemas/lead.ts";
import type { UrgencyLevel } from "../../../src/lib/lead-urgency.ts";
import type { StoreHarness } from "./contract.types.ts";

const pause = () => new Promise((r) => setTimeout(r, 2));

async function make(store: Store, type: LeadType, name: string, urgency?: UrgencyLevel): Promise<string> {
  const { lead } = await store.leads.create(
    type,
    { name, email: `${name.toLowerCase()}@example.com` },
    {
      sourcePage: "/",
      ...(urgency ? { urgency } : {}),
    },
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

/** A lead as stored before references, urgencies and the status sets: the document and its old indexes only. */
async function writeOldLead(store: Store, id: string, type: LeadType, status: Lead["status"], name: string) {
  const keys = keyspace(store.prefix);
  const lead: Lead = { id, type, createdAt: new Date().toISOString(), sourcePage: "/", status, data: { name } };
  await store.redis.set(keys.lead(id), JSON.stringify(lead));
  await store.redis.zadd(keys.leadsByType(type), { score: 0, member: id });
  await store.redis.zadd(keys.leadsAll, { score: 0, member: id });
  await store.redis.hset(keys.leadText, { [id]: name.toLowerCase() });
}

export function leadFacetsContract(h: StoreHarness) {
  describe("operator: lead filters, new count and open emergencies", () => {
    it("filters by status, urgency and type alone and together, newest first", async () => {
      const store = await h.fresh("lead-facets");
      const a = await make(store, "quote", "Alma", "emergency");
      const b = await make(store, "booking", "Boris", "emergency");
      const c = await make(store, "quote", "Cleo", "urgent");
      const d = await make(store, "find-pros", "Dara");
      const e = await make(store, "audit", "Emil", "routine");
      await store.leads.update(b, { status: "contacted" });
      await store.leads.update(e, { status: "won" });

      expect(ids(await store.leads.find({ status: "new" }))).toEqual([d, c, a]);
      expect(ids(await store.leads.find({ status: "contacted" }))).toEqual([b]);
      expect(ids(await store.leads.find({ urgency: "emergency" }))).toEqual([b, a]);
      expect(ids(await store.leads.find({ urgency: "urgent" }))).toEqual([c]);
      // Routine: every lead in neither urgency set, including one created without an urgency.
      expect(ids(await store.leads.find({ urgency: "routine" }))).toEqual([e, d]);
      expect(ids(await store.leads.find({ type: "quote", urgency: "emergency" }))).toEqual([a]);
      expect(ids(await store.leads.find({ type: "quote", status: "new", urgency: "urgent" }))).toEqual([c]);
      expect(ids(await store.leads.find({ status: "new", urgency: "routine" }))).toEqual([d]);
      expect(ids(await store.leads.find({ status: "lost" }))).toEqual([]);
      expect(ids(await store.leads.find({ status: "new", q: "cleo" }))).toEqual([c]);
      expect(ids(await store.leads.find({ status: "contacted", q: "cleo" }))).toEqual([]);
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

    it("counts new leads and pins open emergencies; both follow status edits", async () => {
      const store = await h.fresh("lead-overview");
      const a = await make(store, "quote", "Ada", "emergency");
      const b = await make(store, "find-pros", "Ben", "emergency");
      await make(store, "audit", "Cy");
      expect(await store.leads.overview()).toMatchObject({ newCount: 3 });
      expect((await store.leads.overview()).emergencies.map((l) => l.id)).toEqual([b, a]);

      await store.leads.update(a, { status: "contacted", note: "On it" });
      let overview = await store.leads.overview();
      expect(overview.newCount).toBe(2);
      expect(overview.emergencies.map((l) => l.id)).toEqual([b]);
      expect(await statusSetsOf(store, a)).toEqual(["contacted"]);

      // A note alone changes no set; back to new pins it again.
      await store.leads.update(b, { note: "Calling" });
      await store.leads.update(a, { status: "new" });
      overview = await store.leads.overview(1);
      expect(overview.newCount).toBe(3);
      expect(overview.emergencies.map((l) => l.id)).toEqual([b]);

      // Concurrent edits: each lead ends in exactly one status set, the one it has.
      await Promise.all(
        (["won", "lost", "contacted", "won"] as const).map((status) => store.leads.update(a, { status })),
      );
      const final = (await store.leads.get(a))!.status;
      expect(await statusSetsOf(store, a)).toEqual([final]);
      expect((await store.leads.overview()).emergencies.map((l) => l.id)).toEqual([b]);
    });

    it("puts leads stored before the sets into them once; they count as routine", async () => {
      const store = await h.fresh("lead-backfill");
      const keys = keyspace(store.prefix);
      const oldNew = "ld_0000000000000000001";
      const oldWon = "ld_0000000000000000002";
      await writeOldLead(store, oldNew, "quote", "new", "Olga");
      await writeOldLead(store, oldWon, "booking", "won", "Otto");
      const fresh = await make(store, "quote", "Nina", "emergency");

      expect(await store.leads.overview()).toMatchObject({ newCount: 2 });
      expect(ids(await store.leads.find({ status: "won" }))).toEqual([oldWon]);
      expect(ids(await store.leads.find({ urgency: "routine" }))).toEqual([oldWon, oldNew]);
      expect(ids(await store.leads.find({ type: "quote", status: "new" }))).toEqual([fresh, oldNew]);
      expect(await store.redis.hget(keys.meta, "leadFacets")).toBe("done");
      // An edit of an old lead moves it like any other.
      await store.leads.update(oldNew, { status: "lost" });
      expect(await statusSetsOf(store, oldNew)).toEqual(["lost"]);
      expect((await store.leads.overview()).newCount).toBe(1);
    });
  });
}
