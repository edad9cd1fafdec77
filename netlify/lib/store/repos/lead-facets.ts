/**
 * The admin's lead filters (type, status, urgency, search text), its "N need you" count and
 * open emergencies: small sets kept with each lead (create's MULTI, the routing change's and
 * the operator's edit scripts), read newest first like the id indexes. One filter reads its
 * set directly; more than one walks the smallest set and checks the others with ZMSCORE, a
 * bounded scan like the search (README "Lead filters").
 */
import type { Redis } from "@upstash/redis";
import type { UrgencyLevel } from "../../../../src/lib/lead-urgency.ts";
import {
  NEEDS_OPERATOR,
  isOpenEmergency,
  readStatus,
  statusOf,
  withCurrentStatuses,
} from "../../../../src/lib/lead-status.ts";
import { LEAD_STATUSES, LEGACY_LEAD_STATUSES, type Lead, type LeadStatus } from "../../../../src/lib/schemas/lead.ts";
import { asJson, asNumber, asString } from "../decode.ts";
import { isTimeId } from "../ids.ts";
import type { Keys } from "../keys.ts";
import { matchesSearch } from "../search-text.ts";
import { SET_LEAD_FACETS } from "../lua.ts";
import type { LeadFilter, LeadOverview, LeadPage } from "./leads.types.ts";

/**
 * A scan reads this many index entries (and their checks) per request at most, in two round
 * trips; a page not filled by then comes back short with a cursor to scan on.
 */
export const SEARCH_SCAN_LIMIT = 5_000;
export const MAX_PAGE = 100;
/** Leads indexed per pipeline when leads stored before the sets are added to them. */
const BACKFILL_CHUNK = 100;
/** Ids per ZMSCORE / HMGET in a scan. */
const CHECK_CHUNK = 500;
/** The meta field that says every lead is in the status sets of today's statuses. */
export const INDEXED_FLAG = "leadStatuses";

/** The urgency a lead counts as: one stored before urgencies existed is routine. */
export const urgencyOfLead = (lead: Pick<Lead, "urgency">): UrgencyLevel => lead.urgency ?? "routine";

/** The sets MOVE_FACETS (lua.ts) moves a lead between, in its order. */
export const facetSetKeys = (keys: Keys): string[] => [
  ...LEAD_STATUSES.map((s) => keys.leadsByStatus(s)),
  keys.leadsByUrgency("emergency"),
  keys.leadsByUrgency("urgent"),
  keys.leadsEmergencies,
];

/** MOVE_FACETS's facts about a lead: its status position, its urgency, whether it is an open emergency. */
export const facetFacts = (lead: Pick<Lead, "status" | "urgency">): string[] => [
  String(LEAD_STATUSES.indexOf(lead.status) + 1),
  urgencyOfLead(lead),
  isOpenEmergency(lead) ? "1" : "0",
];

/** SET_LEAD_FACETS's keys, in its order. */
export const facetKeys = (keys: Keys, id: string): string[] => [keys.lead(id), ...facetSetKeys(keys)];

/** SET_LEAD_FACETS's arguments: `next` "" checks `expected` and indexes the lead as it is. */
export const facetArgs = (lead: Lead, expected: string, next: string): string[] => [
  expected,
  next,
  lead.id,
  ...facetFacts(lead),
];

/** A new lead's set entries, queued on create's MULTI. */
export function queueNewLeadFacets(tx: Pick<ReturnType<Redis["multi"]>, "zadd">, keys: Keys, lead: Lead): void {
  const urgency = urgencyOfLead(lead);
  tx.zadd(keys.leadsByStatus(lead.status), { score: 0, member: lead.id });
  if (urgency !== "routine") tx.zadd(keys.leadsByUrgency(urgency), { score: 0, member: lead.id });
  if (isOpenEmergency(lead)) tx.zadd(keys.leadsEmergencies, { score: 0, member: lead.id });
}

/** A stored lead as it reads now (earlier versions' statuses mapped), or null. */
export function readLead(doc: unknown): Lead | null {
  const lead = asJson<Lead>(doc);
  return lead ? withCurrentStatuses(lead) : null;
}

/**
 * The status a lead stored by an earlier version takes when it is indexed again: one still
 * "new" gets what its offers say (that version never moved it), the operator's contacted,
 * won and lost read as escalated and closed; a lead written since keeps its own.
 */
export const reindexedStatus = (lead: Lead): LeadStatus =>
  lead.status === "new" ? statusOf(lead) : readStatus(lead.status);

const idsOf = (raw: unknown[] | null) => (raw ?? []).map((v) => asString(v) ?? "").filter(Boolean);

/** Newest-first ids of a lex-ordered id set, below `cursor`. */
function readIds(redis: Redis, index: string, cursor: string | null, count: number) {
  return redis
    .exec<unknown[]>(["ZREVRANGEBYLEX", index, cursor ? `(${cursor}` : "+", "-", "LIMIT", "0", String(count)])
    .then(idsOf);
}

async function loadLeads(redis: Redis, keys: Keys, ids: string[]): Promise<Lead[]> {
  if (ids.length === 0) return [];
  const docs = await redis.mget<unknown[]>(...ids.map((id) => keys.lead(id)));
  return docs.map(readLead).filter((l): l is Lead => l !== null);
}

export function leadFacets(redis: Redis, keys: Keys) {
  let indexed: Promise<void> | null = null;

  /**
   * Every lead stored before statuses followed offers is indexed again once, oldest first,
   * resumable (meta `leadStatuses`: the last id done, then "done"): it takes its status as
   * it reads now (reindexedStatus), enters that set and the urgency sets, and the sets of the
   * statuses no longer used are deleted at the end. Each goes through the edit script's
   * compare-and-set, so an edit or a routing change racing this never leaves a lead in a
   * stale set. (An older flag, `leadFacets`, marked the first indexing; it is not read.)
   */
  function ensureIndexed(): Promise<void> {
    indexed ??= (async () => {
      let from = asString(await redis.hget(keys.meta, INDEXED_FLAG));
      if (from === "done") return;
      for (;;) {
        const raw = await redis.exec<unknown[]>([
          "ZRANGEBYLEX",
          keys.leadsAll,
          from ? `(${from}` : "-",
          "+",
          "LIMIT",
          "0",
          String(BACKFILL_CHUNK),
        ]);
        const ids = idsOf(raw);
        if (ids.length > 0) {
          await indexAsTheyAre(ids);
          from = ids[ids.length - 1]!;
        }
        if (ids.length < BACKFILL_CHUNK) break;
        await redis.hset(keys.meta, { [INDEXED_FLAG]: from! });
      }
      // The keys.ts type names today's statuses; these sets hold earlier versions' ones.
      await redis.del(...Object.keys(LEGACY_LEAD_STATUSES).map((s) => keys.leadsByStatus(s as LeadStatus)));
      await redis.hset(keys.meta, { [INDEXED_FLAG]: "done" });
    })().catch((error: unknown) => {
      indexed = null;
      throw error;
    });
    return indexed;
  }

  async function indexAsTheyAre(ids: string[]): Promise<void> {
    let pending = ids;
    for (let attempt = 0; pending.length > 0 && attempt < 8; attempt++) {
      const docs = await redis.mget<unknown[]>(...pending.map((id) => keys.lead(id)));
      const p = redis.pipeline();
      const sent: string[] = [];
      docs.forEach((doc, i) => {
        const stored = asString(doc);
        const lead = asJson<Lead>(stored);
        if (!stored || !lead) return;
        const next = withCurrentStatuses({ ...lead, status: reindexedStatus(lead) });
        const json = JSON.stringify(next);
        p.eval(SET_LEAD_FACETS, facetKeys(keys, pending[i]!), facetArgs(next, stored, json === stored ? "" : json));
        sent.push(pending[i]!);
      });
      if (sent.length === 0) return;
      const replies = await p.exec<unknown[]>();
      // Changed between the read and the script (an edit, a routing answer): read it again.
      pending = sent.filter((_, i) => asString(replies[i]) === "stale");
    }
  }

  /** Filtered leads, newest first (see the module comment). */
  async function find(filter: LeadFilter, options: { cursor?: string | null; limit?: number } = {}): Promise<LeadPage> {
    const limit = Math.max(1, Math.min(MAX_PAGE, Math.floor(options.limit ?? 20)));
    const cursor = options.cursor ?? null;
    if (cursor !== null && !isTimeId("ld", cursor)) throw new RangeError("invalid cursor");
    if (filter.status || filter.urgency) await ensureIndexed();

    const required: string[] = [];
    if (filter.type) required.push(keys.leadsByType(filter.type));
    if (filter.status) required.push(keys.leadsByStatus(filter.status));
    if (filter.urgency === "emergency" || filter.urgency === "urgent")
      required.push(keys.leadsByUrgency(filter.urgency));
    const excluded =
      filter.urgency === "routine" ? [keys.leadsByUrgency("emergency"), keys.leadsByUrgency("urgent")] : [];

    // Walk the smallest required set; the rest are membership checks.
    let walk = required[0] ?? keys.leadsAll;
    if (required.length > 1) {
      const p = redis.pipeline();
      for (const key of required) p.zcard(key);
      const sizes = (await p.exec<unknown[]>()).map((n) => asNumber(n));
      walk = required[sizes.indexOf(Math.min(...sizes))]!;
    }
    const checks = required.filter((key) => key !== walk);

    if (checks.length === 0 && excluded.length === 0 && !filter.q) {
      const ids = await readIds(redis, walk, cursor, limit + 1);
      const page = ids.slice(0, limit);
      return {
        items: await loadLeads(redis, keys, page),
        nextCursor: ids.length > limit ? (page[page.length - 1] ?? null) : null,
      };
    }

    const ids = await readIds(redis, walk, cursor, SEARCH_SCAN_LIMIT);
    if (ids.length === 0) return { items: [], nextCursor: null, scanned: 0 };
    // One pipeline of checks in chunks: a request never waits on more than two round trips.
    const p = redis.pipeline();
    const chunks: string[][] = [];
    for (let i = 0; i < ids.length; i += CHECK_CHUNK) chunks.push(ids.slice(i, i + CHECK_CHUNK));
    for (const chunk of chunks) {
      for (const key of [...checks, ...excluded]) p.zmscore(key, chunk);
      if (filter.q) p.hmget(keys.leadText, ...chunk);
    }
    const replies = await p.exec<unknown[]>();
    const fails = new Set<string>();
    let r = 0;
    for (const chunk of chunks) {
      for (const list of [...checks.map(() => true), ...excluded.map(() => false)]) {
        const scores = (replies[r++] as unknown[] | null) ?? [];
        chunk.forEach((id, i) => {
          const member = scores[i] !== null && scores[i] !== undefined;
          if (member !== list) fails.add(id);
        });
      }
      if (filter.q) {
        const texts = (replies[r++] as Record<string, unknown> | null) ?? {};
        for (const id of chunk) if (!matchesSearch(asString(texts[id]) ?? "", filter.q)) fails.add(id);
      }
    }
    const hits: string[] = [];
    let scanned = 0;
    for (const id of ids) {
      scanned++;
      if (!fails.has(id)) hits.push(id);
      if (hits.length === limit) break;
    }
    const exhausted = scanned === ids.length && ids.length < SEARCH_SCAN_LIMIT;
    const nextCursor = exhausted ? null : (ids[scanned - 1] ?? null);
    return { items: await loadLeads(redis, keys, hits), nextCursor, scanned };
  }

  /** Leads per status, those that need the operator, and the newest open emergencies (up to `limit`). */
  async function overview(limit = 20): Promise<LeadOverview> {
    await ensureIndexed();
    const p = redis.pipeline();
    for (const status of LEAD_STATUSES) p.zcard(keys.leadsByStatus(status));
    const [sizes, ids] = await Promise.all([
      p.exec<unknown[]>(),
      readIds(redis, keys.leadsEmergencies, null, Math.max(1, Math.min(MAX_PAGE, limit))),
    ]);
    const statusCounts = Object.fromEntries(LEAD_STATUSES.map((s, i) => [s, asNumber(sizes[i])])) as Record<
      LeadStatus,
      number
    >;
    return {
      statusCounts,
      needsYou: NEEDS_OPERATOR.reduce((sum, s) => sum + statusCounts[s], 0),
      emergencies: await loadLeads(redis, keys, ids),
    };
  }

  return { ensureIndexed, find, overview };
}
