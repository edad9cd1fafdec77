/**
 * Leads: every form submission, stored with its indexes (type, status, urgency), its search
 * text and its notification outbox item in one MULTI/EXEC before the API answers 2xx, so a
 * stored lead is always announced eventually and an announced lead always exists. The
 * admin's filters and counts: lead-facets.ts; the repository's shapes: leads.types.ts.
 */
import { createHash } from "node:crypto";
import type { Redis } from "@upstash/redis";
import { leadSearchText } from "../search-text.ts";
import type { OutboxItem } from "../../../../src/lib/schemas/outbox.ts";
import { Lead as LeadSchema, LeadType, type Lead, type LeadChange } from "../../../../src/lib/schemas/lead.ts";
import { asNumber, asString } from "../decode.ts";
import { timeId, isTimeId } from "../ids.ts";
import type { Keys } from "../keys.ts";
import { IdempotencyConflictError } from "../errors.ts";
import { leadCounter } from "./lead-counts.ts";
import { MUTATE_LEAD, SET_LEAD_FACETS } from "../lua.ts";
import { newReference } from "../reference.ts";
import { coveredByNextWrite } from "../transports/sync-scope.ts";
import { routedStatus, statusOf } from "../../../../src/lib/lead-status.ts";
import {
  facetArgs,
  facetFacts,
  facetKeys,
  facetSetKeys,
  leadFacets,
  queueNewLeadFacets,
  readLead,
} from "./lead-facets.ts";
import type { CreateLeadOptions, CreateLeadResult, LeadsRepository } from "./leads.types.ts";

/** Same idempotency key within this window returns the first lead. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

/** The earliest deadline of a waiting delivery (ms), or null when nothing waits. */
export function nextDeadline(lead: Pick<Lead, "routing">): number | null {
  const waiting = (lead.routing?.deliveries ?? []).filter((d) => d.state === "waiting");
  return waiting.length === 0 ? null : Math.min(...waiting.map((d) => Date.parse(d.deadlineAt)));
}

/** The outbox item a new lead starts with: due at once, nothing tried yet. */
export function newOutboxItem(lead: Pick<Lead, "id" | "type" | "createdAt">): OutboxItem {
  return {
    leadId: lead.id,
    type: lead.type,
    createdAt: lead.createdAt,
    attempts: 0,
    nextAttemptAt: lead.createdAt,
    delivered: [],
  };
}

/** JSON with object keys sorted at every level: equal values, equal text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** A short hash of what a request asked for, independent of key order. */
export function requestFingerprint(value: unknown): string {
  return createHash("sha256").update(canonicalJson(value)).digest("hex").slice(0, 32);
}

/** The idempotency claim's value: the lead id and the fingerprint of the request that made it. */
const claimValue = (id: string, fingerprint: string) => `${id} ${fingerprint}`;

export function leadsRepository(redis: Redis, keys: Keys): LeadsRepository {
  const facetScript = redis.createScript<unknown>(SET_LEAD_FACETS);
  const mutateScript = redis.createScript<unknown>(MUTATE_LEAD);
  const facets = leadFacets(redis, keys);

  async function get(id: string): Promise<Lead | null> {
    if (!isTimeId("ld", id)) return null;
    return readLead(await redis.get(keys.lead(id)));
  }

  /**
   * The lead a repeated idempotency key points to (waits briefly if the first write is in
   * flight); a conflict when the key was claimed for a different request.
   */
  async function firstFor(idemKey: string, fingerprint: string): Promise<{ id: string; lead: Lead | null }> {
    const claim = asString(await redis.get(idemKey));
    if (!claim) throw new Error("idempotency claim vanished");
    // Claims written before fingerprints existed hold the bare id; they match any request.
    const [id = "", claimed] = claim.split(" ", 2);
    if (claimed !== undefined && claimed !== fingerprint) throw new IdempotencyConflictError();
    for (let attempt = 0; attempt < 5; attempt++) {
      const lead = await get(id);
      if (lead) return { id, lead };
      await new Promise((r) => setTimeout(r, 20 * (attempt + 1)));
    }
    return { id, lead: null };
  }

  return {
    async create<T>(type: LeadType, data: T, options: CreateLeadOptions): Promise<CreateLeadResult<T>> {
      LeadType.parse(type);
      if (data === undefined) throw new TypeError("lead data is required");
      let id = timeId("ld");
      if (options.idempotencyKey) {
        const hash = createHash("sha256").update(options.idempotencyKey).digest("hex").slice(0, 32);
        const idemKey = keys.leadIdempotency(type, hash);
        const fingerprint = options.fingerprint ?? requestFingerprint(data);
        // Both claims are made durable by the lead's own write below (transports/sync-scope.ts).
        const claimed = await coveredByNextWrite(() =>
          redis.set(idemKey, claimValue(id, fingerprint), { nx: true, ex: IDEMPOTENCY_TTL_SECONDS }),
        );
        if (claimed === null) {
          const first = await firstFor(idemKey, fingerprint);
          if (first.lead) return { lead: first.lead as Lead<T>, duplicate: true };
          // The first request claimed the key but never wrote (crashed): finish its write.
          id = first.id;
        }
      }
      // A reference is claimed before the write; a collision (1 in a billion per lead) draws again.
      let reference = newReference();
      for (let attempt = 0; ; attempt++) {
        const ok = await coveredByNextWrite(() => redis.set(keys.reference(reference), id, { nx: true }));
        if (ok !== null) break;
        if (asString(await redis.get(keys.reference(reference))) === id) break;
        if (attempt === 5) throw new Error("could not draw a free reference");
        reference = newReference();
      }
      const lead: Lead<T> = {
        id,
        type,
        createdAt: new Date().toISOString(),
        sourcePage: options.sourcePage,
        reference,
        ...(options.urgency ? { urgency: options.urgency } : {}),
        ...(options.timeZone ? { timeZone: options.timeZone } : {}),
        ...(options.place ? { place: options.place } : {}),
        ...(options.storm ? { storm: options.storm } : {}),
        ...(options.routing ? { routing: options.routing } : {}),
        status: "new",
        data,
      };
      // Its offers decide where it starts: offered, or escalated when nobody matched.
      lead.status = statusOf(lead);
      LeadSchema.parse(lead);
      const deadline = nextDeadline(lead);
      const tx = redis.multi();
      if (deadline !== null) tx.zadd(keys.clock, { score: deadline, member: id });
      tx.set(keys.lead(id), JSON.stringify(lead));
      tx.zadd(keys.leadsByType(type), { score: 0, member: id });
      tx.zadd(keys.leadsAll, { score: 0, member: id });
      queueNewLeadFacets(tx, keys, lead);
      tx.hset(keys.leadText, { [id]: leadSearchText(lead) });
      tx.set(keys.outboxItem(id), JSON.stringify(newOutboxItem(lead)));
      tx.zadd(keys.outbox, { score: Date.parse(lead.createdAt), member: id });
      if (lead.storm)
        tx.zadd(keys.stormLeads(lead.storm), { nx: true }, { score: Date.parse(lead.createdAt), member: id });
      for (const d of lead.routing?.deliveries ?? [])
        tx.zadd(keys.businessLeads(d.businessId), { nx: true }, { score: Date.parse(d.offeredAt), member: id });
      await tx.exec();
      return { lead, duplicate: false };
    },

    get,

    async mutate(id, change, now = Date.now()) {
      if (!isTimeId("ld", id)) return null;
      for (let attempt = 0; attempt < 8; attempt++) {
        const stored = asString(await redis.get(keys.lead(id)));
        if (!stored) return null;
        const lead = readLead(stored)!;
        const changed = change(lead);
        if (changed === null) {
          // Nothing to do now: the clock entry follows the lead as it is (it may be stale).
          const deadline = nextDeadline(lead);
          if (deadline === null) await redis.zrem(keys.clock, id);
          else await redis.zadd(keys.clock, { score: deadline, member: id });
          return { lead, changed: false };
        }
        // The status follows the offers in the same step (the operator's "closed" stays).
        const next: Lead = { ...changed, status: statusOf(changed) };
        LeadSchema.parse(next);
        const deadline = nextDeadline(next);
        const item = newOutboxItem({ ...next, createdAt: new Date(now).toISOString() });
        // Every delivery's business lists the lead (NX in the script: re-adding is a no-op).
        const offered = next.routing?.deliveries ?? [];
        const reply = asString(
          await mutateScript.exec(
            [
              keys.lead(id),
              keys.clock,
              keys.outboxItem(id),
              keys.outbox,
              ...facetSetKeys(keys),
              ...offered.map((d) => keys.businessLeads(d.businessId)),
            ],
            [
              stored,
              JSON.stringify(next),
              id,
              deadline === null ? "" : String(deadline),
              JSON.stringify(item),
              String(now),
              ...facetFacts(next),
              ...offered.map((d) => String(Date.parse(d.offeredAt))),
            ],
          ),
        );
        if (reply === "ok") return { lead: next, changed: true };
        if (reply === "missing") return null;
      }
      throw new Error(`lead ${id}: too many concurrent updates`);
    },

    async clockDue(now, limit) {
      const ids = await redis.zrange<unknown[]>(keys.clock, "-inf", now, { byScore: true, offset: 0, count: limit });
      return ids.map((v) => asString(v) ?? "").filter(Boolean);
    },

    clockDueCount: async (now) => asNumber(await redis.zcount(keys.clock, "-inf", now)),

    async byReference(reference) {
      const id = asString(await redis.get(keys.reference(reference)));
      return id ? get(id) : null;
    },

    search: (query, type, options) => facets.find({ q: query, type: type && LeadType.parse(type) }, options),

    find: (filter, options) => facets.find(filter, options),

    overview: (limit) => facets.overview(limit),

    counts: leadCounter(redis, keys),

    async update(id, change, now = new Date()) {
      if (!isTimeId("ld", id)) return null;
      for (let attempt = 0; attempt < 8; attempt++) {
        const stored = asString(await redis.get(keys.lead(id)));
        if (!stored) return null;
        const lead = readLead(stored)!;
        const at = now.toISOString();
        // Closing is the operator's; reopening hands the status back to the offers.
        const current = statusOf(lead);
        const to =
          change.closed === true
            ? "closed"
            : change.closed === false && current === "closed"
              ? routedStatus(lead.routing)
              : current;
        const noteChanged = change.note !== undefined && change.note !== (lead.note ?? "");
        if (to === current && !noteChanged) return lead;
        const entry: LeadChange = { at, from: current, to, ...(noteChanged ? { note: change.note } : {}) };
        const { note: _old, ...rest } = lead;
        const note = change.note !== undefined ? change.note : lead.note;
        const next: Lead = {
          ...rest,
          status: to,
          ...(note ? { note } : {}),
          updatedAt: at,
          history: [...(lead.history ?? []), entry],
        };
        LeadSchema.parse(next);
        // The status sets follow in the same step (lead-facets.ts).
        const reply = asString(
          await facetScript.exec(facetKeys(keys, id), facetArgs(next, stored, JSON.stringify(next))),
        );
        if (reply === "ok") return next;
        if (reply === "missing") return null;
      }
      throw new Error(`lead ${id}: too many concurrent updates`);
    },

    list: (type, options) => facets.find({ type: type && LeadType.parse(type) }, options),
  };
}
